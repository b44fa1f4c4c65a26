// Key moments on the game page, as an analysis board shows them (god view): the win line with
// its axes (the game's events, day by day, across; the side's chance of winning up), the
// largest swings marked on the line and in the event list with what happened there, and a
// per-seat summary. The server computes them ahead (at a game's end, on a log's first view) and
// keeps them; while they are being computed the page says so and asks again.
"use strict";

const moments = { data: null, line: null, busy: false, timer: null, asked: false };
const SVG = "http://www.w3.org/2000/svg";
const PLOT = { left: 48, right: 14, top: 22, bottom: 34, height: 190 };
const POLL_MS = 1500;

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, String(value));
  node.append(...children);
  return node;
}

function percent(x) {
  return `${Math.round(100 * x)}%`;
}

function lineApi(path) {
  return api("GET", `/api/games/${encodeURIComponent(gameId)}/${path}`, undefined, tokenFor(null));
}

/** Show the key moments of an ended game in the god view (asked once per page). */
function showKeyMoments() {
  const ended = ["finished", "aborted"].includes(page.status);
  const ask = page.view === null && ended && !moments.asked;
  if (ask) moments.asked = true;
  renderLine();
  renderSummary();
  if (ask) loadMoments();
}

async function loadMoments() {
  if (moments.busy) return;
  moments.busy = true;
  clearTimeout(moments.timer);
  $("winline-load").disabled = true;
  try {
    const data = await lineApi("moments");
    if (data.status === "computing") {
      $("winline-note").textContent = `computing the win line: ${data.rollouts} rollouts from each phase boundary (kept once done)…`;
      moments.timer = setTimeout(loadMoments, POLL_MS);
      return;
    }
    moments.data = data;
    moments.line = data.line;
    if (!data.line) $("winline-note").textContent = data.problem;
    renderLine();
    renderSummary();
    markSwings();
  } catch (error) {
    $("winline-note").textContent = `no line: ${error.message}`;
  } finally {
    moments.busy = false;
    $("winline-load").disabled = false;
  }
}

function swingAt(index) {
  const swings = (moments.line && moments.line.swings) || [];
  const event = page.events[index];
  const found = event ? swings.findIndex((s) => s.at === event.seq) : -1;
  return found < 0 ? null : { number: found + 1, swing: swings[found] };
}

/** A swing's badge for the event list item at `index` (god view), or null. */
function swingBadge(index) {
  if (page.view !== null) return null;
  const found = swingAt(index);
  if (!found) return null;
  const s = found.swing;
  const side = moments.line.side;
  const arrow = s.change > 0 ? "▲" : "▼";
  return el("span", { class: `swing-badge ${s.change > 0 ? "up" : "down"}`, title: s.text, text: `${arrow} swing ${found.number}: ${side} ${signed(s.change)}` });
}

function signed(change) {
  const points = Math.round(100 * change);
  return `${points > 0 ? "+" : ""}${points} points`;
}

/** Put the swing badges into the event list (it may have been drawn before they came). */
function markSwings() {
  const items = $("events").children;
  for (let i = 0; i < items.length; i++) {
    const old = items[i].querySelector(".swing-badge");
    if (old) old.remove();
    items[i].classList.remove("swing");
    const badge = swingBadge(i);
    if (badge) {
      items[i].classList.add("swing");
      items[i].querySelector(".text").prepend(badge);
    }
  }
}

function goToEvent(seq) {
  const index = page.events.findIndex((e) => e.seq >= seq);
  moveTo(index >= 0 ? index : page.events.length - 1);
}

function chartWidth() {
  return Math.max(320, Math.round($("winline-chart").clientWidth || 640));
}

function renderLine() {
  const box = $("winline");
  box.classList.toggle("hidden", page.view !== null);
  const line = moments.line;
  const chart = $("winline-chart");
  const ended = ["finished", "aborted"].includes(page.status);
  $("winline-load").classList.toggle("hidden", page.view !== null || (ended && moments.asked));
  if (!line || page.view !== null) {
    chart.replaceChildren();
    $("winline-swings").replaceChildren();
    return;
  }
  const width = chartWidth();
  const { left, right, top, bottom, height } = PLOT;
  const points = line.points;
  const last = Math.max(points[points.length - 1].event, page.events.length, 1);
  const x = (seq) => left + ((width - left - right) * seq) / last;
  const y = (chance) => top + (1 - chance) * (height - top - bottom);
  const axes = [
    svg("line", { x1: left, x2: left, y1: top, y2: height - bottom, class: "winline-axis" }),
    svg("line", { x1: left, x2: width - right, y1: height - bottom, y2: height - bottom, class: "winline-axis" }),
  ];
  for (const tick of [0, 0.5, 1]) {
    axes.push(
      svg("line", { x1: left - 4, x2: width - right, y1: y(tick), y2: y(tick), class: tick === 0.5 ? "winline-half" : "winline-grid" }),
      svg("text", { x: left - 8, y: y(tick) + 4, "text-anchor": "end", class: "winline-label y-label" }, percent(tick))
    );
  }
  let lastLabel = -Infinity;
  for (const p of points) {
    const at = x(p.event);
    axes.push(svg("line", { x1: at, x2: at, y1: height - bottom, y2: height - bottom + 4, class: "winline-axis" }));
    if (at - lastLabel < 34) continue;
    lastLabel = at;
    const text = p.exact ? "end" : `${isNight(p.phase) ? "N" : "D"}${p.day}`;
    axes.push(svg("text", { x: at, y: height - bottom + 16, "text-anchor": "middle", class: "winline-label x-label" }, text));
  }
  axes.push(
    svg("text", { x: (left + width - right) / 2, y: height - 3, "text-anchor": "middle", class: "winline-label axis-title" }, "event of the game (D = day, N = night)"),
    svg("text", { x: left, y: 13, class: "winline-label axis-title" }, `P(${line.side} wins)`)
  );
  const band = [
    ...points.map((p) => `${x(p.event)},${y(p.high)}`),
    ...[...points].reverse().map((p) => `${x(p.event)},${y(p.low)}`),
  ].join(" ");
  const path = points.map((p) => `${x(p.event)},${y(p.chance)}`).join(" ");
  const dots = points.map((p) => {
    const label = `${p.label}: ${line.side} ${percent(p.chance)} [${percent(p.low)}-${percent(p.high)}]`;
    return clickable(svg("circle", { cx: x(p.event), cy: y(p.chance), r: 6, class: "winline-point", tabindex: 0 }, svg("title", {}, label)), () => goToEvent(p.event));
  });
  const swings = line.swings.map((s, i) => {
    const at = x(s.at);
    return clickable(
      svg("g", { class: `winline-swing ${s.change > 0 ? "up" : "down"}`, tabindex: 0, "data-event": s.at },
        svg("title", {}, `swing ${i + 1}: ${s.text}; ${s.what}`),
        svg("line", { x1: at, x2: at, y1: top, y2: height - bottom }),
        svg("circle", { cx: at, cy: top - 2, r: 9 }),
        svg("text", { x: at, y: top + 2, "text-anchor": "middle" }, String(i + 1))),
      () => goToEvent(s.at)
    );
  });
  const marker = svg("line", { id: "winline-marker", x1: left, x2: left, y1: top, y2: height - bottom, class: "winline-marker" });
  const summary = points.map((p) => `${p.label} ${percent(p.chance)}`).join(", ");
  chart.replaceChildren(
    svg(
      "svg",
      { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", "aria-label": `${line.side}'s chance of winning: ${summary}` },
      ...axes,
      svg("polygon", { points: band, class: "winline-band" }),
      svg("polyline", { points: path, class: "winline-path" }),
      marker,
      ...swings,
      ...dots
    )
  );
  const cached = moments.data && moments.data.cached ? " Computed ahead and kept." : "";
  $("winline-note").textContent = `The line predicts ${line.side}: its chance of winning at each phase boundary, ${line.note}.${cached}`;
  $("winline-swings").replaceChildren(
    ...line.swings.map((s, i) =>
      el("li", {}, el("button", { type: "button", class: "link", onclick: () => goToEvent(s.at), text: `swing ${i + 1}` }), ` ${s.text}`, el("span", { class: "muted", text: ` · at event ${s.at}: ${s.what}` }))
    )
  );
  renderLabPosition();
}

function clickable(node, go) {
  node.addEventListener("click", go);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      go();
    }
  });
  return node;
}

/** Keep the line's marker at the timeline's position (called whenever the position moves). */
function renderLabPosition() {
  const marker = document.getElementById("winline-marker");
  if (!marker || !moments.line) return;
  const event = current();
  const points = moments.line.points;
  const last = Math.max(points[points.length - 1].event, page.events.length, 1);
  const x = PLOT.left + ((chartWidth() - PLOT.left - PLOT.right) * (event ? event.seq : 0)) / last;
  marker.setAttribute("x1", String(x));
  marker.setAttribute("x2", String(x));
}

function renderSummary() {
  const box = $("seat-summary");
  const summary = moments.data && moments.data.summary;
  box.classList.toggle("hidden", !summary || page.view !== null);
  if (!summary || page.view !== null) return;
  const evil = phaseLabel(summary.evil_team);
  const head = ["Seat", "Role", "Votes", `on ${evil}`, "Claims ✓", "Claims ✗", "Alive", "Leaks"];
  const rows = summary.seats.map((s) => {
    const leaks = s.findings.map((f) => `${f.kind} at event ${f.event}: ${f.evidence}`).join("\n");
    return el(
      "tr",
      { "data-seat": s.seat, class: `side-${s.side}` },
      el("th", { scope: "row", text: playerName(page.game.seats, s.seat) }),
      el("td", { text: s.role }),
      el("td", { class: "num", text: s.votes }),
      el("td", { class: "num", text: s.votes_on_evil }),
      el("td", { class: "num", text: s.true_claims }),
      el("td", { class: "num", text: s.false_claims }),
      el("td", { text: s.survived ? "yes" : "no" }),
      el("td", { class: "num", title: leaks || undefined, text: s.leaks })
    );
  });
  box.replaceChildren(
    el("table", { class: "summary-table" },
      el("caption", { text: `Per seat: exile votes and those on the ${evil} side, role claims true (✓) and false (✗), alive at the end, speeches flagged as leaks` }),
      el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col", text: h })))),
      el("tbody", {}, ...rows))
  );
}

/** Download the log as this view may see it (the god view: the whole log file). */
async function downloadLog() {
  const view = page.view === null ? "" : `?seat=${page.view}`;
  const headers = {};
  const token = tokenFor(page.view);
  if (token) headers.Authorization = `Bearer ${token}`;
  try {
    const response = await fetch(`/api/games/${encodeURIComponent(gameId)}/log${view}`, { headers });
    if (!response.ok) throw new Error((await response.json()).detail || response.statusText);
    const disposition = response.headers.get("Content-Disposition") || "";
    const name = (disposition.match(/filename="([^"]+)"/) || [])[1] || "game.jsonl";
    const url = URL.createObjectURL(await response.blob());
    const link = el("a", { href: url, download: name });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  } catch (error) {
    showError(`download: ${error.message}`);
  }
}

function wireMoments() {
  $("winline-load").addEventListener("click", loadMoments);
  $("download").addEventListener("click", downloadLog);
  window.addEventListener("resize", () => {
    if (moments.line) renderLine();
  });
}
