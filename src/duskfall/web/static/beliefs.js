// Suspicion over the days, for the seats that state beliefs: a sports-mafia declaration reads
// every player from -3 (black) to +3 (red), in public; a cognitive agent's suspicion model
// (god view) gives each player a number. One chart per believer: a line per player, one
// point per day (the last statement of that day), drawn in the page (SVG), with a table of
// the same numbers for screen readers.
"use strict";

const BELIEF_SCALES = {
  declaration: { min: -3, max: 3, low: "−3 black (mafia)", high: "+3 red (town)", title: "read of each player" },
};

/** Per believer seat: {scale, name, days: Map(day -> {target: value})} up to `upTo`. */
function beliefSeries(events, upTo) {
  const believers = new Map();
  const note = (seat, scale, day, row) => {
    if (!believers.has(seat)) believers.set(seat, { scale, days: new Map() });
    const entry = believers.get(seat);
    if (entry.scale.title !== scale.title) return; // one kind of statement per believer
    entry.days.set(day, row);
  };
  for (let i = 0; i <= upTo && i < events.length; i++) {
    const e = events[i];
    const p = e.payload || {};
    if (e.kind === "DECLARATION" && Number.isInteger(p.player_id) && Array.isArray(p.declaration)) {
      note(p.player_id, BELIEF_SCALES.declaration, e.day, Object.fromEntries(p.declaration.map((v, t) => [t, v])));
    } else if (e.kind === "suspicion" && Number.isInteger(p.seat)) {
      const series = suspicionSeries(p);
      if (!series.length) continue;
      const [name, row] = series[0];
      const values = Object.values(row);
      const scale = { min: Math.min(0, ...values), max: Math.max(1, ...values), low: "0", high: "1", title: `${name} (suspicion model)` };
      note(p.seat, scale, e.day, row);
    }
  }
  return believers;
}

function hue(i, n) {
  return `hsl(${Math.round((360 * i) / Math.max(n, 1))}, 70%, 65%)`;
}

function svgEl(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const child of children) node.append(child);
  return node;
}

/** The chart of one believer's statements over the days. */
function beliefChart(seats, entry) {
  const days = [...entry.days.keys()].sort((a, b) => a - b);
  const targets = [...new Set(days.flatMap((d) => Object.keys(entry.days.get(d))))].map(Number).sort((a, b) => a - b);
  const W = 320;
  const H = 150;
  const pad = { l: 28, r: 8, t: 8, b: 20 };
  const { min, max } = entry.scale;
  const x = (day) => pad.l + (days.length < 2 ? (W - pad.l - pad.r) / 2 : ((W - pad.l - pad.r) * days.indexOf(day)) / (days.length - 1));
  const y = (v) => pad.t + ((H - pad.t - pad.b) * (max - v)) / (max - min || 1);
  const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "belief-chart", role: "img",
    "aria-label": `${entry.scale.title} over days ${days.join(", ")}` });
  svg.append(svgEl("line", { x1: pad.l, x2: W - pad.r, y1: y((min + max) / 2), y2: y((min + max) / 2), class: "belief-mid" }));
  svg.append(svgEl("text", { x: 2, y: y(max) + 4, class: "belief-axis" }, document.createTextNode(String(max))));
  svg.append(svgEl("text", { x: 2, y: y(min), class: "belief-axis" }, document.createTextNode(String(min))));
  for (const day of days) {
    svg.append(svgEl("text", { x: x(day) - 8, y: H - 4, class: "belief-axis" }, document.createTextNode(`d${day}`)));
  }
  targets.forEach((target, i) => {
    const colour = hue(i, targets.length);
    const points = days.filter((d) => target in entry.days.get(d)).map((d) => [x(d), y(entry.days.get(d)[target]), d]);
    if (points.length > 1) {
      svg.append(svgEl("polyline", { points: points.map(([px, py]) => `${px},${py}`).join(" "), class: "belief-line",
        stroke: colour, "data-target": target }));
    }
    for (const [px, py, d] of points) {
      svg.append(svgEl("circle", { cx: px, cy: py, r: 3, fill: colour, class: "belief-point", "data-target": target },
        svgEl("title", {}, document.createTextNode(`${playerName(seats, target)}, day ${d}: ${entry.days.get(d)[target]}`))));
    }
  });
  const legend = el("ul", { class: "belief-legend" }, ...targets.map((target, i) => el("li", {},
    el("span", { class: "swatch", style: `background:${hue(i, targets.length)}` }), playerName(seats, target))));
  const table = el("details", { class: "belief-table" }, el("summary", { text: "as a table" }),
    el("table", {}, el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "player" }),
      ...days.map((d) => el("th", { scope: "col", text: `day ${d}` })))),
    el("tbody", {}, ...targets.map((target) => el("tr", { "data-target": target },
      el("th", { scope: "row", text: playerName(seats, target) }),
      ...days.map((d) => el("td", { text: target in entry.days.get(d) ? String(entry.days.get(d)[target]) : "" })))))));
  return [el("p", { class: "muted", text: `${entry.scale.title}: ${entry.scale.low} … ${entry.scale.high}` }), svg, legend, table];
}

/** The section: a select of the believers and the chosen one's chart (kept across renders). */
function renderBeliefs(box, events, upTo, seats, state) {
  const believers = beliefSeries(events, upTo);
  box.classList.toggle("hidden", believers.size === 0);
  if (believers.size === 0) {
    box.replaceChildren();
    return;
  }
  const seatsWith = [...believers.keys()].sort((a, b) => a - b);
  if (!believers.has(state.believer)) state.believer = seatsWith[0];
  const select = el("select", { id: "believer", "aria-label": "whose beliefs" },
    ...seatsWith.map((s) => el("option", { value: String(s), text: playerName(seats, s) })));
  select.value = String(state.believer);
  select.addEventListener("change", () => {
    state.believer = Number(select.value);
    renderBeliefs(box, events, upTo, seats, state);
  });
  box.replaceChildren(el("h3", { id: "beliefs-title", text: "Suspicion over the days" }),
    el("label", { class: "muted" }, "stated by ", select),
    ...beliefChart(seats, believers.get(state.believer)));
}
