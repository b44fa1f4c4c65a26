// The lab on the game page: the game's family (the game it was forked from, its forks) and,
// in the god view, its win-probability line under the timeline (an estimate by rollouts of a
// bot policy, as its caption says).
"use strict";

const lab = { family: null, line: null, busy: false };
const LINE_W = 1000;
const LINE_H = 120;
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

function percent(x) {
  return `${Math.round(100 * x)}%`;
}

function moment(m) {
  return `${isNight(m.phase) ? "night" : "day"} ${m.day} (${phaseLabel(m.phase)})`;
}

async function loadFamily() {
  const query = page.view === null ? "" : `?seat=${page.view}`;
  try {
    lab.family = await api("GET", `/api/games/${encodeURIComponent(gameId)}/family${query}`, undefined, tokenFor(page.view));
  } catch (_) {
    lab.family = null;
  }
  renderFamily();
}

function renderFamily() {
  const box = $("family");
  const family = lab.family;
  const rows = [];
  const view = page.view === null ? "" : `?seat=${page.view === PUBLIC ? "public" : page.view}`;
  if (family && family.parent) {
    const p = family.parent;
    const anchor = p.there === null ? "" : `#e${p.there}`;
    rows.push(
      el(
        "p",
        {},
        "Forked from ",
        el("a", { href: `/games/${encodeURIComponent(p.game_id)}${view}${anchor}`, text: p.game_id }),
        ` at ${moment(p)}${p.replaced ? ", one decision replaced" : ""}; `,
        el("a", { href: `#e${p.here}`, text: "its own play starts here" }),
        "."
      )
    );
  }
  if (family && family.forks.length) {
    rows.push(
      el("p", { text: `Forks of this game (${family.forks.length}):` }),
      el(
        "ul",
        {},
        ...family.forks.map((f) =>
          el(
            "li",
            {},
            el("a", { href: `/games/${encodeURIComponent(f.game_id)}${view}`, text: f.game_id }),
            ` from ${moment(f)} (`,
            el("a", { href: `#e${f.here}`, text: "that moment here" }),
            `) · ${f.status}${f.winner ? ` · ${f.winner} won` : ""}`
          )
        )
      )
    );
  }
  box.replaceChildren(...rows);
  box.classList.toggle("hidden", rows.length === 0);
}

async function loadLine() {
  if (lab.busy) return;
  lab.busy = true;
  const button = $("winline-load");
  button.disabled = true;
  $("winline-note").textContent = "estimating: 100 rollouts from each phase boundary (a few seconds)…";
  try {
    lab.line = await api("GET", `/api/games/${encodeURIComponent(gameId)}/winline?rollouts=100`, undefined, tokenFor(null));
    renderLine();
  } catch (error) {
    $("winline-note").textContent = `no line: ${error.message}`;
  } finally {
    lab.busy = false;
    button.disabled = false;
  }
}

function lineX(seq, last) {
  return (LINE_W * seq) / Math.max(1, last);
}

function lineY(chance) {
  return LINE_H - 10 - chance * (LINE_H - 20);
}

function renderLine() {
  const box = $("winline");
  box.classList.toggle("hidden", page.view !== null);
  const line = lab.line;
  const chart = $("winline-chart");
  if (!line || page.view !== null) {
    chart.replaceChildren();
    return;
  }
  const points = line.points;
  const last = Math.max(points[points.length - 1].event, page.events.length);
  const band = [
    ...points.map((p) => `${lineX(p.event, last)},${lineY(p.high)}`),
    ...[...points].reverse().map((p) => `${lineX(p.event, last)},${lineY(p.low)}`),
  ].join(" ");
  const path = points.map((p) => `${lineX(p.event, last)},${lineY(p.chance)}`).join(" ");
  const dots = points.map((p) => {
    const label = `${p.label}: ${line.side} ${percent(p.chance)} [${percent(p.low)}-${percent(p.high)}]`;
    const dot = svg("circle", { cx: lineX(p.event, last), cy: lineY(p.chance), r: 6, class: "winline-point", tabindex: 0 }, svg("title", {}, label));
    const go = () => {
      const index = page.events.findIndex((e) => e.seq >= p.event);
      moveTo(index >= 0 ? index : page.events.length - 1);
    };
    dot.addEventListener("click", go);
    dot.addEventListener("keydown", (event) => {
      if (event.key === "Enter" || event.key === " ") go();
    });
    return dot;
  });
  const half = svg("line", { x1: 0, x2: LINE_W, y1: lineY(0.5), y2: lineY(0.5), class: "winline-half" });
  const marker = svg("line", { id: "winline-marker", x1: 0, x2: 0, y1: 0, y2: LINE_H, class: "winline-marker" });
  const summary = points.map((p) => `${p.label} ${percent(p.chance)}`).join(", ");
  chart.replaceChildren(
    svg(
      "svg",
      { viewBox: `0 0 ${LINE_W} ${LINE_H}`, preserveAspectRatio: "none", role: "img", "aria-label": `${line.side}'s chance of winning: ${summary}` },
      half,
      svg("polygon", { points: band, class: "winline-band" }),
      svg("polyline", { points: path, class: "winline-path" }),
      marker,
      ...dots
    )
  );
  $("winline-note").textContent = `${line.side}'s chance of winning, ${line.note}.`;
  $("winline-swings").replaceChildren(...line.swings.map((s) => el("li", { text: s.text })));
  renderLabPosition();
}

/** Keep the line's marker at the timeline's position (called whenever the position moves). */
function renderLabPosition() {
  const marker = document.getElementById("winline-marker");
  if (!marker || !lab.line) return;
  const event = current();
  const points = lab.line.points;
  const last = Math.max(points[points.length - 1].event, page.events.length);
  const x = lineX(event ? event.seq : 0, last);
  marker.setAttribute("x1", String(x));
  marker.setAttribute("x2", String(x));
}

function wireLab() {
  $("winline-load").addEventListener("click", loadLine);
}
