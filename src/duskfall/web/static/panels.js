// God-view panels: agents' thoughts, cognitive agents' suspicion models, the prompt inspector.
// Each takes the events up to the timeline position and returns a node.
"use strict";

function seatName(seat) {
  return seat === null || seat === undefined ? "game" : `seat ${seat}`;
}

function thoughtsPanel(events) {
  const thoughts = events.filter((e) => e.kind === "thought").reverse();
  if (thoughts.length === 0) return el("p", { class: "muted", text: "No thoughts recorded yet." });
  return el("ul", { class: "thoughts" }, ...thoughts.map((e) =>
    el("li", {}, el("strong", { text: `${seatName(e.payload.seat)} · day ${e.day} ${phaseLabel(e.phase)}` }),
      el("div", { text: String(e.payload.text) }))));
}

function isNumberMap(value) {
  return value && typeof value === "object" && !Array.isArray(value) &&
    Object.keys(value).length > 0 && Object.values(value).every((v) => typeof v === "number");
}

/** Numeric series in a suspicion payload: [name, {player: number}] pairs. */
function suspicionSeries(payload) {
  const series = [];
  for (const [key, value] of Object.entries(payload)) {
    if (key === "seat") continue;
    if (isNumberMap(value)) {
      series.push([key, value]);
    } else if (value && typeof value === "object" && !Array.isArray(value)) {
      const inner = Object.values(value);
      if (inner.length && inner.every(isNumberMap)) {
        const names = new Set(inner.flatMap((v) => Object.keys(v)));
        for (const name of names) {
          const row = {};
          for (const [player, numbers] of Object.entries(value)) if (name in numbers) row[player] = numbers[name];
          series.push([`${key}.${name}`, row]);
        }
      }
    } else if (Array.isArray(value) && value.length && value.every((v) => typeof v === "number")) {
      series.push([key, Object.fromEntries(value.map((v, i) => [i, v]))]);
    }
  }
  return series;
}

function heatCell(value, lo, hi) {
  const t = hi > lo ? (value - lo) / (hi - lo) : 0;
  const cell = el("td", { text: Math.abs(value) < 10 ? value.toFixed(2) : String(Math.round(value)) });
  cell.style.background = `rgba(255, 107, 107, ${0.08 + 0.6 * t})`;
  return cell;
}

function suspicionTable(event) {
  const series = suspicionSeries(event.payload);
  if (series.length === 0) return el("pre", { text: JSON.stringify(event.payload, null, 1) });
  const players = [...new Set(series.flatMap(([, row]) => Object.keys(row)))];
  players.sort((a, b) => Number(a) - Number(b));
  const all = series.flatMap(([, row]) => Object.values(row));
  const lo = Math.min(0, ...all);
  const hi = Math.max(1, ...all);
  return el("table", { class: "heat" },
    el("tr", {}, el("th", {}), ...players.map((p) => el("th", { text: p }))),
    ...series.map(([name, row]) => el("tr", {}, el("th", { text: name }),
      ...players.map((p) => (p in row ? heatCell(row[p], lo, hi) : el("td", {}))))));
}

function suspicionPanel(events) {
  const latest = new Map();
  for (const e of events) if (e.kind === "suspicion") latest.set(e.payload.seat ?? null, e);
  if (latest.size === 0) return el("p", { class: "muted", text: "No suspicion models (they come from cognitive agents)." });
  const seats = [...latest.keys()].sort((a, b) => (a ?? -1) - (b ?? -1));
  return el("div", {}, ...seats.map((seat) => {
    const e = latest.get(seat);
    return el("div", { class: "field" },
      el("strong", { text: `${seatName(seat)} (day ${e.day} ${phaseLabel(e.phase)})` }), suspicionTable(e));
  }));
}

function messageBlock(role, content, extraClass) {
  return el("div", { class: `msg ${extraClass || ""}` }, el("div", { class: "role", text: role }),
    el("pre", { text: typeof content === "string" ? content : JSON.stringify(content, null, 1) }));
}

// " (N cached)": prompt tokens the provider read from its cache; nothing when none were
function cachedNote(cached) {
  return cached ? ` (${cached} cached)` : "";
}

/** The action each model call led to: the seat's next action after the call. */
function actionsOfCalls(events) {
  const waiting = new Map(); // seat -> calls not yet followed by an action
  const led = new Map(); // call seq -> [action event, its index]
  events.forEach((e, index) => {
    const seat = e.payload && e.payload.seat;
    if (e.kind === "llm_call") {
      if (!waiting.has(seat)) waiting.set(seat, []);
      waiting.get(seat).push(e.seq);
    } else if (e.kind === "action" && waiting.has(seat)) {
      for (const seq of waiting.get(seat)) led.set(seq, [e, index]);
      waiting.delete(seat);
    }
  });
  return led;
}

/** Model calls, newest first, filtered by seat and decision kind; `openCalls` holds the seqs
 * of the calls the reader expanded (they stay open while live events arrive); `onJump` moves
 * the timeline to the action a call led to. */
function promptsPanel(events, seatFilter, kindFilter, openCalls, onJump) {
  const led = actionsOfCalls(events);
  const calls = events.filter((e) => e.kind === "llm_call" && (seatFilter === null || e.payload.seat === seatFilter) &&
    (!kindFilter || e.payload.decision === kindFilter));
  let prompt = 0;
  let cached = 0;
  let completion = 0;
  let cost = 0;
  for (const e of calls) {
    prompt += e.payload.prompt_tokens || 0;
    cached += e.payload.cached_tokens || 0;
    completion += e.payload.completion_tokens || 0;
    cost += e.payload.cost_usd || 0;
  }
  const totals = el("div", { class: "totals",
    text: `${calls.length} calls · ${prompt} prompt${cachedNote(cached)} + ${completion} completion tokens · $${cost.toFixed(4)}` });
  if (calls.length === 0) return el("div", {}, totals, el("p", { class: "muted", text: "No model calls yet." }));
  const items = calls.slice().reverse().map((e) => {
    const p = e.payload;
    const head = `#${e.seq} ${seatName(p.seat)} · ${p.model || "?"} · ${p.prompt_tokens || 0}${cachedNote(p.cached_tokens)}+${p.completion_tokens || 0} tok · ` +
      `$${(p.cost_usd || 0).toFixed(4)} · ${(p.latency_s ?? p.latency ?? 0).toFixed ? (p.latency_s ?? p.latency ?? 0).toFixed(2) : p.latency_s}s` +
      (p.retries ? ` · ${p.retries} retries` : "") + (p.error ? " · error" : "");
    const body = el("div", {},
      ...(p.messages || []).map((m) => messageBlock(m.role, m.content)),
      messageBlock("reply", p.reply ?? "(no reply)", "reply"),
      p.error ? el("div", { class: "notice error", text: p.error }) : null);
    const open = openCalls && openCalls.has(e.seq);
    const action = led.get(e.seq);
    const link = action && onJump ? el("button", { type: "button", class: "to-action", "data-action": action[0].seq,
      onclick: () => onJump(action[1]), text: `→ ${action[0].text}` }) : null;
    return el("li", {}, el("details", { "data-seq": e.seq, open }, el("summary", { text: head }), body), link);
  });
  return el("div", {}, totals, el("ul", { class: "calls" }, ...items));
}
