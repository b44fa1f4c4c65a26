// The game at a glance: player cards, the vote tally, the day's vote picture, the strip of
// days and nights, and what a seat knows. Every function reads the events the view received
// (the server filtered them), up to the timeline position.
"use strict";

/** "Cleo · 2", or "seat 2" when the variant gives no names. */
function playerName(seats, seat) {
  if (seat === null || seat === undefined || seat < 0) return "nobody";
  const entry = seats[seat];
  return entry && entry.name ? `${entry.name} · ${seat}` : `seat ${seat}`;
}

/** Per seat: its latest marks of each kind up to `upTo` ({dead, exiled, badge, checked...}). */
function marksBySeat(events, upTo) {
  const bySeat = new Map();
  for (let i = 0; i <= upTo && i < events.length; i++) {
    for (const mark of events[i].marks || []) {
      if (!bySeat.has(mark.seat)) bySeat.set(mark.seat, {});
      const seatMarks = bySeat.get(mark.seat);
      if (mark.mark === "dead" && seatMarks.dead) continue; // the first says the cause (god view)
      if (mark.mark === "badge") for (const other of bySeat.values()) delete other.badge;
      if (mark.mark === "channel") { // a seat may share several private channels
        const channels = new Set([...(seatMarks.channels || []), mark.text]);
        seatMarks.channels = [...channels];
        seatMarks.channel = `${channels.size > 1 ? "channels" : "channel"}: ${[...channels].join(", ")}`;
        continue;
      }
      seatMarks[mark.mark] = mark.text;
    }
  }
  return bySeat;
}

const KNOWLEDGE_MARKS = ["channel", "checked", "saved", "poisoned", "guarded", "protected"];

function isVoteStop(event) {
  return !event.votes && event.payload && event.payload.tally !== undefined;
}

/** The ballot shown at `upTo`: the latest vote there, and every cast of the same ballot
 * (the day, phase and ballot agree; the latest cast of each voter; a result closes it). */
function tally(events, upTo) {
  let last = -1;
  for (let i = upTo; i >= 0; i--) {
    if (events[i].votes) {
      last = i;
      break;
    }
  }
  if (last < 0) return null;
  const anchor = events[last];
  const casts = new Map();
  const take = (e) => {
    for (const [voter, target, weight] of e.votes) if (!casts.has(voter)) casts.set(voter, [target, weight ?? 1]);
  };
  if (anchor.votes.length > 1) {
    take(anchor);
  } else {
    for (let i = last; i >= 0; i--) {
      const e = events[i];
      if (e.day !== anchor.day || e.phase !== anchor.phase) break;
      if (i < last && isVoteStop(e)) break;
      if (!e.votes) continue;
      if (e.ballot !== anchor.ballot || e.votes.length !== 1) break;
      take(e);
    }
  }
  return { event: anchor, casts };
}

function totals(casts) {
  const byTarget = new Map();
  for (const [voter, [target, weight]] of casts) {
    if (!byTarget.has(target)) byTarget.set(target, { total: 0, voters: [] });
    const entry = byTarget.get(target);
    entry.total += weight;
    entry.voters.push([voter, weight]);
  }
  return [...byTarget].sort((a, b) => b[1].total - a[1].total);
}

function weightText(weight) {
  return weight === 1 ? "" : ` ×${weight}`;
}

/** "night 2" or "day 2": a ballot is named by its phase. */
function whenText(event) {
  return `${isNight(event.phase) ? "night" : "day"} ${event.day}`;
}

function renderTallyBox(box, seats, votes) {
  if (!votes) {
    box.replaceChildren();
    return totals(new Map());
  }
  const rows = totals(votes.casts);
  const e = votes.event;
  box.replaceChildren(
    el("h3", { text: `${e.ballot || "votes"} · ${whenText(e)}` }),
    ...rows.map(([target, { total, voters }]) => el("div", {
      class: "tally-row", "data-target": target === null ? "none" : target, "data-total": total,
    },
    el("span", { class: "who", text: target === null ? "abstain" : playerName(seats, target) }),
    el("span", { class: "bar", style: `width:${Math.round(total * 14)}px` }),
    el("span", { class: "total", text: `${total}` }),
    el("span", { class: "muted voters",
      text: ` (${voters.sort((a, b) => a[0] - b[0]).map(([v, w]) => `${playerName(seats, v)}${weightText(w)}`).join(", ")})` }))));
  return rows;
}

/** The day's votes as a matrix: one row per voter, one column per ballot, cells the target. */
function votePicture(events, upTo, seats) {
  const here = events[upTo];
  if (!here) return null;
  const ballots = [];
  const cells = new Map(); // voter -> ballot -> [target, weight]
  for (let i = upTo; i >= 0; i--) {
    const e = events[i];
    if (e.day !== here.day) break;
    if (!e.votes) continue;
    const ballot = e.ballot || e.kind;
    if (!ballots.includes(ballot)) ballots.unshift(ballot);
    for (const [voter, target, weight] of e.votes) {
      if (!cells.has(voter)) cells.set(voter, new Map());
      if (!cells.get(voter).has(ballot)) cells.get(voter).set(ballot, [target, weight ?? 1]);
    }
  }
  if (!ballots.length) return null;
  const voters = [...cells.keys()].sort((a, b) => a - b);
  return el("table", { class: "vote-matrix" },
    el("caption", { text: `Who voted for whom, day ${here.day}` }),
    el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "voter" }), ...ballots.map((b) => el("th", { scope: "col", text: b })))),
    el("tbody", {}, ...voters.map((voter) => el("tr", {},
      el("th", { scope: "row", text: playerName(seats, voter) }),
      ...ballots.map((b) => {
        const cast = cells.get(voter).get(b);
        if (!cast) return el("td", {});
        const [target, weight] = cast;
        return el("td", { text: `→ ${target === null ? "abstain" : playerName(seats, target)}${weightText(weight)}` });
      })))));
}

function phaseKey(event) {
  return `${event.day}:${isNight(event.phase) ? "n" : "d"}`;
}

/** Buttons for each night and day (with its marks), each jumping to its last shown event. */
function stripButtons(events, shown, onJump) {
  const segments = [];
  for (const index of shown) {
    const e = events[index];
    const key = phaseKey(e);
    let seg = segments[segments.length - 1];
    if (!seg || seg.key !== key) {
      seg = { key, event: e, first: index, last: index, marks: [] };
      segments.push(seg);
    }
    seg.last = index;
    for (const mark of e.marks || []) if (mark.mark !== "channel") seg.marks.push([mark, index]);
  }
  return segments.map((seg) => {
    const night = isNight(seg.event.phase);
    const label = `${night ? "Night" : "Day"} ${seg.event.day}`;
    const marks = seg.marks.map(([mark, index]) => el("button", {
      type: "button", class: `mark mark-${mark.mark}`, title: mark.text,
      "aria-label": `${label}: seat ${mark.seat} ${mark.text}`, onclick: () => onJump(index),
      "data-mark": mark.mark,
    }, markIcon(mark.mark)));
    return el("span", { class: `segment ${night ? "night" : "day"}`, "data-first": seg.first, "data-last": seg.last },
      el("button", { type: "button", class: "seg-label", onclick: () => onJump(seg.last), text: label }), ...marks);
  });
}

/** "What you know": the seat's card from its last decision and the events it saw. */
function knowledgeCard(seats, view, roles, marks, knows) {
  const lines = [];
  const headline = knows ? knows.headline
    : `You are ${playerName(seats, view)}${roles[String(view)] ? `, ${roles[String(view)]}` : ""}`;
  if (knows) lines.push(...knows.lines);
  for (const [seat, role] of Object.entries(roles)) {
    if (Number(seat) !== view) lines.push(`${playerName(seats, Number(seat))}: ${role}`);
  }
  for (const [seat, seatMarks] of marks) {
    for (const kind of KNOWLEDGE_MARKS) if (seatMarks[kind]) lines.push(`${playerName(seats, seat)}: ${seatMarks[kind]}`);
  }
  return [el("h2", { text: "What you know" }), el("p", { class: "headline", text: headline }),
    el("ul", {}, ...[...new Set(lines)].map((line) => el("li", { text: line })))];
}
