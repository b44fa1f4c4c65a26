// Replay aids: the transcript grouped by speaker, each move's reasoning beside it (god view),
// and the replay speed. Every function reads the events the view received (the server
// filtered them), up to the timeline position.
"use strict";

const SPEECH_KINDS = new Set(["speech", "chat", "DECLARATION"]);
const SPEEDS = [0.5, 1, 2, 4, 8];

/** The seat whose name is `name` in `seats` (GM games name their speakers), or null. */
function seatNamed(seats, name) {
  const found = seats.find((s) => s.name === name);
  return found ? found.seat : null;
}

/** Who said `event` ({key, seat, label}), or null if it is no speech (a system notice). */
function speakerOf(event, seats) {
  if (!SPEECH_KINDS.has(event.kind)) return null;
  const p = event.payload || {};
  let seat = Number.isInteger(p.seat) ? p.seat : Number.isInteger(p.player_id) ? p.player_id : null;
  if (seat === null && typeof p.speaker === "string" && p.speaker) {
    seat = seatNamed(seats, p.speaker);
    if (seat === null) return { key: `name:${p.speaker}`, seat: null, label: p.speaker };
  }
  if (seat !== null) return { key: `seat:${seat}`, seat, label: playerName(seats, seat) };
  if (p.role === "gm") return { key: "gm", seat: -1, label: "Game master" };
  return null;
}

/** What a speech says, without the line's "seat 2 (Cleo):" prefix. */
function saidText(event) {
  const p = event.payload || {};
  for (const key of ["says", "text"]) if (typeof p[key] === "string") return p[key] || "(says nothing)";
  return event.text;
}

/** The transcript up to `upTo`, one section per speaker (in seat order, the game master
 * first), each line with its day and a button to jump to it. */
function transcriptPanel(events, upTo, seats, onJump) {
  const bySpeaker = new Map();
  for (let i = 0; i <= upTo && i < events.length; i++) {
    const who = speakerOf(events[i], seats);
    if (!who) continue;
    if (!bySpeaker.has(who.key)) bySpeaker.set(who.key, { who, lines: [] });
    bySpeaker.get(who.key).lines.push(i);
  }
  if (bySpeaker.size === 0) return [el("p", { class: "muted", text: "Nobody has spoken yet." })];
  const order = [...bySpeaker.values()].sort((a, b) => (a.who.seat ?? 1e9) - (b.who.seat ?? 1e9));
  return order.map(({ who, lines }) => el("section", { class: "speaker", "data-speaker": who.key },
    el("h3", {}, who.label, el("span", { class: "muted", text: ` · ${lines.length} ${lines.length === 1 ? "line" : "lines"}` })),
    el("ol", {}, ...lines.map((i) => {
      const e = events[i];
      const tag = e.scope === "public" ? null : el("span", { class: "tag", title: "who heard this", text: e.visibility });
      return el("li", {},
        el("button", { type: "button", class: "when", title: "go to this moment", onclick: () => onJump(i),
          text: `${isNight(e.phase) ? "Night" : "Day"} ${e.day}` }),
        el("span", { class: "said" }, tag, saidText(e)));
    }))));
}

/** For each move (an `action` event, by index): the reasoning its seat gave for it: the
 * thoughts it recorded since its previous move, else the action's own `reasoning`. Also the
 * indexes of the thoughts so placed (the list shows them beside their move, not twice). */
function reasoningOfMoves(events) {
  const moves = new Map();
  const placed = new Set();
  const thinking = new Map(); // seat -> thought indexes since its last move
  events.forEach((e, i) => {
    const seat = e.payload && e.payload.seat;
    if (e.kind === "thought" && Number.isInteger(seat)) {
      if (!thinking.has(seat)) thinking.set(seat, []);
      thinking.get(seat).push(i);
    } else if (e.kind === "action" && Number.isInteger(seat)) {
      const thoughts = thinking.get(seat) || [];
      const own = e.payload.action && typeof e.payload.action.reasoning === "string" ? e.payload.action.reasoning : "";
      const text = thoughts.map((t) => String(events[t].payload.text)).join("\n") || own;
      if (text) moves.set(i, text);
      for (const t of thoughts) placed.add(t);
      thinking.delete(seat);
    }
  });
  return { moves, placed };
}

/** The reasoning shown beside a move's line. */
function reasoningNode(text) {
  return el("div", { class: "reasoning" }, el("span", { class: "label", text: "reasoning" }), el("span", { text }));
}

/** The replay speed's select: `onChange(speed)` when it changes. */
function speedSelect(onChange) {
  const select = el("select", { id: "speed", "aria-label": "replay speed", title: "replay speed" },
    ...SPEEDS.map((s) => el("option", { value: String(s), text: `${s}×` })));
  select.value = "1";
  select.addEventListener("change", () => onChange(Number(select.value)));
  return select;
}
