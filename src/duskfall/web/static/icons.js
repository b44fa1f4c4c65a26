// The marks of the strip of days and nights as small SVG drawings: a font may lack a symbol
// (the guard's shield has no glyph in common fonts and showed as an empty box), a drawing
// does not. Each is drawn in the text's colour (currentColor) and hidden from screen readers
// (the button around it says what it is).
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

// [path, filled]: filled shapes use the colour as fill, the others as a 1.6 px stroke
const MARK_ICONS = {
  dead: ["M7 1h2v4h4v2H9v8H7V7H3V5h4z", true], // a cross
  exiled: ["M8 2v11M4.5 14h7M2.5 4.5h11M4.5 4.5l-2.5 5h5zM11.5 4.5l-2.5 5h5z", false], // scales
  checked: ["M6.5 2.2a4.3 4.3 0 1 0 0 8.6a4.3 4.3 0 0 0 0-8.6zM9.7 9.7l4.3 4.3", false], // a lens
  saved: ["M6.6 2h2.8v4.6H14v2.8H9.4V14H6.6V9.4H2V6.6h4.6z", true], // a plus
  poisoned: ["M6 1.8h4M7 2v4.2L3.2 12.8a1 1 0 0 0 .9 1.5h7.8a1 1 0 0 0 .9-1.5L9 6.2V2M4.8 10h6.4", false], // a flask
  guarded: ["M8 1.3l5.7 2.1v4.3c0 3.5-2.4 6.1-5.7 7c-3.3-.9-5.7-3.5-5.7-7V3.4z", true], // a shield
  protected: ["M8 1.3l5.7 2.1v4.3c0 3.5-2.4 6.1-5.7 7c-3.3-.9-5.7-3.5-5.7-7V3.4z", true],
  badge: ["M8 1.2l2 4.4 4.8.5-3.6 3.2 1 4.7L8 11.6 3.8 14l1-4.7L1.2 6.1 6 5.6z", true], // a star
};

/** The drawing of a mark (`dead`, `exiled`, `checked`...); a dot for a mark it does not know. */
function markIcon(mark) {
  const [path, filled] = MARK_ICONS[mark] || ["M8 5.5a2.5 2.5 0 1 0 0 5a2.5 2.5 0 0 0 0-5z", true];
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", "0 0 16 16");
  svg.setAttribute("class", `icon icon-${mark}`);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const shape = document.createElementNS(SVG_NS, "path");
  shape.setAttribute("d", path);
  shape.setAttribute("fill", filled ? "currentColor" : "none");
  if (!filled) {
    shape.setAttribute("stroke", "currentColor");
    shape.setAttribute("stroke-width", "1.6");
    shape.setAttribute("stroke-linecap", "round");
    shape.setAttribute("stroke-linejoin", "round");
  }
  svg.append(shape);
  return svg;
}
