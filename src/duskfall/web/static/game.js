// The game page: live updates over a WebSocket, a timeline to scrub, god and seat views,
// pause/resume, and the decision form of a seat played in the browser.
"use strict";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
// Shown in the feed only on request (thoughts, suspicions and calls have their own panels).
const RUNTIME_KINDS = new Set(["action", "llm_call", "suspicion", "thought", "invalid_action", "fallback"]);
const PLAY_MS = 350;

const page = {
  view: null, // null: god view; a number: that seat's view
  game: null,
  events: [],
  status: "",
  outcome: null,
  roles: {},
  request: null,
  humanSeats: [],
  position: -1,
  following: true,
  socket: null,
  retryMs: 500,
  closedOnPurpose: false,
  admin: false,
  tab: "thoughts",
  player: null,
};

const $ = (id) => document.getElementById(id);

function initialView() {
  const seat = new URLSearchParams(location.search).get("seat");
  return seat === null || seat === "" ? null : Number(seat);
}

function tokenFor(view) {
  if (view === null) return adminToken();
  return localStorage.getItem(seatTokenKey(gameId, view)) || adminToken();
}

// -- connection ------------------------------------------------------------------------

function connect() {
  page.closedOnPurpose = false;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/games/${encodeURIComponent(gameId)}/ws`);
  page.socket = socket;
  socket.onopen = () => socket.send(JSON.stringify({ type: "hello", seat: page.view, token: tokenFor(page.view) }));
  socket.onmessage = (message) => {
    if (page.socket === socket) receive(JSON.parse(message.data));
  };
  socket.onclose = () => {
    if (page.socket !== socket || page.closedOnPurpose) return;
    if (page.status === "finished" || page.status === "stopped") return;
    setTimeout(connect, page.retryMs);
    page.retryMs = Math.min(page.retryMs * 2, 10000);
  };
}

function reconnect() {
  page.closedOnPurpose = true;
  if (page.socket) page.socket.close();
  connect();
}

function receive(message) {
  if (message.type === "snapshot") {
    page.retryMs = 500;
    $("error").classList.add("hidden");
    $("token-form").classList.add("hidden");
    page.game = message.game;
    page.events = message.events;
    page.status = message.status;
    page.outcome = message.outcome;
    page.roles = message.roles || {};
    page.request = message.request;
    page.humanSeats = message.human_seats || [];
    if (page.following || page.position >= page.events.length) page.position = page.events.length - 1;
    renderAll();
  } else if (message.type === "event") {
    page.events.push(message.event);
    $("events").append(eventItem(message.event, page.events.length - 1));
    if (page.following) page.position = page.events.length - 1;
    renderPosition();
  } else if (message.type === "status") {
    page.status = message.status;
    page.outcome = message.outcome;
    if (message.roles) page.roles = message.roles;
    renderHeader();
    renderPosition();
  } else if (message.type === "decision") {
    page.request = message.request;
    renderDecision();
  } else if (message.type === "error") {
    page.closedOnPurpose = true;
    showError(message.message);
  }
}

function showError(text) {
  $("error").textContent = text;
  $("error").classList.remove("hidden");
  $("token-form").classList.toggle("hidden", !/token/i.test(text));
}

// -- rendering -------------------------------------------------------------------------

function current() {
  return page.position >= 0 ? page.events[page.position] : null;
}

function renderAll() {
  renderHeader();
  renderViewSelect();
  $("events").replaceChildren(...page.events.map(eventItem));
  $("layout").classList.toggle("god", page.view === null);
  $("god-panels").classList.toggle("hidden", page.view !== null);
  renderDecision();
  renderPosition();
}

function renderHeader() {
  const game = page.game;
  if (!game) return;
  document.title = `duskfall · ${game.game_id}`;
  // the seed is served only once the game has ended (it would give away the deal)
  $("title").textContent = game.seed === null ? game.variant_name : `${game.variant_name} · seed ${game.seed}`;
  $("title").title = game.game_id;
  $("status").replaceChildren(statusBadge(page.status));
  const controllable = game.live && page.admin && (page.status === "running" || page.status === "paused");
  $("pause").classList.toggle("hidden", !(controllable && page.status === "running"));
  $("resume").classList.toggle("hidden", !(controllable && page.status === "paused"));
}

function renderViewSelect() {
  const select = $("view");
  const options = [el("option", { value: "god", text: "God view (everything)" })];
  for (const { seat, agent } of page.game.seats) {
    const human = page.humanSeats.includes(seat) ? " (human)" : "";
    options.push(el("option", { value: String(seat), text: `Seat ${seat}: ${agent}${human}` }));
  }
  select.replaceChildren(...options);
  select.value = page.view === null ? "god" : String(page.view);
  $("view-note").textContent = page.view === null
    ? "hidden roles, private chats, thoughts and prompts"
    : `exactly what seat ${page.view} saw`;
}

function eventItem(event, index) {
  const when = `D${event.day} · ${phaseLabel(event.phase)}`;
  const tag = event.scope === "public" ? null
    : el("span", { class: "tag", title: "who sees this", text: event.scope === "admin" ? "god" : event.visibility });
  return el("li", {
    class: `scope-${event.scope} kind-${event.kind.replace(/[^\w-]/g, "_")}${RUNTIME_KINDS.has(event.kind) ? " runtime" : ""}`,
    "data-index": index,
    "data-kind": event.kind,
    onclick: () => moveTo(index),
  }, el("span", { class: "when", text: when }), el("span", { class: "text" }, tag, event.text));
}

function knownRoles(upTo) {
  if (page.view === null) return page.roles;
  const known = {};
  for (let i = 0; i <= upTo; i++) Object.assign(known, page.events[i].reveals);
  return known;
}

/** The votes to show: the latest vote record, or the latest run of single casts. */
function tally(upTo) {
  let last = -1;
  for (let i = upTo; i >= 0; i--) {
    if (page.events[i].votes) {
      last = i;
      break;
    }
  }
  if (last < 0) return null;
  const anchor = page.events[last];
  const casts = new Map();
  if (anchor.votes.length > 1) {
    for (const [voter, target] of anchor.votes) casts.set(voter, target);
  } else {
    for (let i = last; i >= 0; i--) {
      const e = page.events[i];
      if (!e.votes) continue;
      if (e.kind !== anchor.kind || e.day !== anchor.day || e.phase !== anchor.phase || e.votes.length !== 1) break;
      const [voter, target] = e.votes[0];
      if (!casts.has(voter)) casts.set(voter, target);
    }
  }
  return { event: anchor, casts };
}

function renderPlayers() {
  const event = current();
  const alive = new Set(event ? event.alive : page.game.seats.map((s) => s.seat));
  const roles = knownRoles(page.position);
  const votes = tally(page.position);
  const received = new Map();
  if (votes) for (const target of votes.casts.values()) received.set(target, (received.get(target) || 0) + 1);
  const cards = page.game.seats.map(({ seat, agent }) => {
    const role = roles[String(seat)];
    const isAlive = alive.has(seat);
    return el("div", {
      class: `player${isAlive ? "" : " dead"}${page.view === seat ? " me" : ""}${event && event.actor === seat ? " acting" : ""}`,
      "data-seat": seat,
    },
    el("div", {}, el("span", { class: "seat-no", text: `${seat}${page.view === seat ? " (you)" : ""}` }),
      received.get(seat) ? el("span", { class: "votes", title: "votes received", text: received.get(seat) }) : null),
    el("span", { class: "life", text: isAlive ? "alive" : "out" }),
    el("div", { class: `role${/mafia|don|wolf|black/i.test(role || "") ? " team-bad" : ""}`, text: role || "" }),
    el("div", { class: "agent", text: agent }));
  });
  $("players").replaceChildren(...cards);
  renderTally(votes);
}

function renderTally(votes) {
  const box = $("tally");
  if (!votes) {
    box.replaceChildren();
    return;
  }
  const byTarget = new Map();
  for (const [voter, target] of votes.casts) {
    if (!byTarget.has(target)) byTarget.set(target, []);
    byTarget.get(target).push(voter);
  }
  const rows = [...byTarget].sort((a, b) => b[1].length - a[1].length).map(([target, voters]) =>
    el("div", { class: "tally-row" },
      el("span", { class: "who", text: target === null ? "abstain" : `seat ${target}` }),
      el("span", { class: "bar", style: `width:${voters.length * 14}px` }),
      el("span", { text: `${voters.length}` }),
      el("span", { class: "muted", text: `  (${voters.sort((a, b) => a - b).join(", ")})` })));
  const e = votes.event;
  box.replaceChildren(el("strong", { text: `Votes · day ${e.day} ${phaseLabel(e.phase)}` }), ...rows);
}

function renderPosition() {
  if (!page.game) return;
  const count = page.events.length;
  const scrub = $("scrub");
  scrub.max = String(Math.max(0, count - 1));
  scrub.value = String(Math.max(0, page.position));
  $("pos").textContent = count ? `${page.position + 1} / ${count}` : "no events yet";
  const event = current();
  const phase = $("phase");
  phase.textContent = event ? `${isNight(event.phase) ? "☾" : "☀"} Day ${event.day} · ${phaseLabel(event.phase)}` : "";
  phase.className = `phase ${event && isNight(event.phase) ? "night" : "day"}`;
  const items = $("events").children;
  for (let i = 0; i < items.length; i++) {
    items[i].classList.toggle("future", i > page.position);
    items[i].classList.toggle("current", i === page.position);
  }
  if (page.following) {
    const list = $("events");
    list.scrollTop = list.scrollHeight;
  } else if (items[page.position]) {
    items[page.position].scrollIntoView({ block: "nearest" });
  }
  renderPlayers();
  renderOutcome();
  renderPanel();
}

function renderOutcome() {
  const box = $("outcome");
  const ended = page.outcome && page.position === page.events.length - 1;
  box.classList.toggle("hidden", !ended);
  if (!ended) return;
  const o = page.outcome;
  box.textContent = o.winner ? `${o.winner} wins: ${o.reason}` : `Game over (${o.termination}): ${o.reason}`;
}

function renderPanel() {
  if (page.view !== null) {
    $("tab-body").replaceChildren();
    return;
  }
  const events = page.events.slice(0, page.position + 1);
  const body = page.tab === "thoughts" ? thoughtsPanel(events)
    : page.tab === "suspicion" ? suspicionPanel(events)
      : promptsPanel(events, null);
  $("tab-body").replaceChildren(body);
}

// -- decisions of a seat played here ----------------------------------------------------

function renderDecision() {
  const box = $("decision");
  const request = page.request;
  if (!request || page.view !== request.seat) {
    box.classList.add("hidden");
    box.replaceChildren();
    return;
  }
  const form = buildField("action", request.schema);
  const json = el("textarea", { rows: 4, id: "decision-json" });
  const error = el("span", { class: "hint", id: "decision-error" });
  const send = async (action) => {
    error.textContent = "";
    try {
      await api("POST", `/api/games/${encodeURIComponent(gameId)}/seats/${request.seat}/action`,
        { request_id: request.request_id, action }, tokenFor(request.seat));
      if (page.request && page.request.request_id === request.request_id) {
        page.request = null; // answered; the next decision arrives over the socket
        renderDecision();
      }
    } catch (err) {
      error.textContent = err.message;
    }
  };
  const submit = el("button", { class: "primary", id: "decision-send", type: "button", text: "Send" });
  submit.addEventListener("click", () => {
    try {
      send(form.read());
    } catch (err) {
      error.textContent = err.message;
    }
  });
  const sendJson = el("button", { type: "button", text: "Send JSON" });
  sendJson.addEventListener("click", () => {
    try {
      send(JSON.parse(json.value));
    } catch (err) {
      error.textContent = `not valid JSON: ${err.message}`;
    }
  });
  const role = request.observation && request.observation.role;
  const parts = [
    el("h2", { text: `Your move: ${phaseLabel(request.kind)}` }),
    role ? el("div", {}, "You are ", el("strong", { text: role })) : null,
    el("p", { class: "describe", text: request.describe }),
    request.hint ? el("p", { class: "hint", text: `Refused: ${request.hint}` }) : null,
    form.node,
    el("div", { class: "actions" }, submit, error),
    el("details", {}, el("summary", { text: "Answer as JSON" }), json, sendJson),
    el("details", { class: "knows" }, el("summary", { text: "What you know (your observation)" }),
      el("pre", { text: JSON.stringify(request.observation, null, 1) })),
  ];
  box.replaceChildren(...parts.filter(Boolean));
  box.dataset.requestId = String(request.request_id);
  box.classList.remove("hidden");
}

// -- timeline controls ------------------------------------------------------------------

function moveTo(index) {
  const last = page.events.length - 1;
  page.position = Math.max(-1, Math.min(last, index));
  page.following = page.position === last;
  renderPosition();
}

function stopPlaying() {
  if (page.player) clearInterval(page.player);
  page.player = null;
  $("play").textContent = "play";
}

function togglePlay() {
  if (page.player) {
    stopPlaying();
    return;
  }
  if (page.position >= page.events.length - 1) moveTo(0);
  $("play").textContent = "stop";
  page.player = setInterval(() => {
    if (page.position >= page.events.length - 1) stopPlaying();
    else moveTo(page.position + 1);
  }, PLAY_MS);
}

async function control(action) {
  try {
    const result = await api("POST", `/api/games/${encodeURIComponent(gameId)}/${action}`, undefined, adminToken());
    page.status = result.status;
    renderHeader();
  } catch (err) {
    showError(err.message);
  }
}

function wire() {
  $("scrub").addEventListener("input", (e) => moveTo(Number(e.target.value)));
  $("first").addEventListener("click", () => moveTo(0));
  $("prev").addEventListener("click", () => moveTo(page.position - 1));
  $("next").addEventListener("click", () => moveTo(page.position + 1));
  $("live").addEventListener("click", () => moveTo(page.events.length - 1));
  $("play").addEventListener("click", togglePlay);
  $("pause").addEventListener("click", () => control("pause"));
  $("resume").addEventListener("click", () => control("resume"));
  $("show-runtime").addEventListener("change", (e) => $("events").classList.toggle("compact", !e.target.checked));
  $("view").addEventListener("change", (e) => {
    page.view = e.target.value === "god" ? null : Number(e.target.value);
    const url = page.view === null ? location.pathname : `${location.pathname}?seat=${page.view}`;
    history.replaceState(null, "", url);
    page.following = true;
    Object.assign(page, { events: [], roles: {}, request: null, position: -1 });
    renderAll(); // nothing of the previous view stays on the page
    reconnect();
  });
  $("tabs").addEventListener("click", (e) => {
    const tab = e.target.dataset && e.target.dataset.tab;
    if (!tab) return;
    page.tab = tab;
    for (const b of $("tabs").children) b.classList.toggle("active", b.dataset.tab === tab);
    renderPanel();
  });
  $("token-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const token = $("token-input").value.trim();
    if (page.view === null) localStorage.setItem(ADMIN_KEY, token);
    else localStorage.setItem(seatTokenKey(gameId, page.view), token);
    checkAdmin().then(reconnect);
  });
}

async function checkAdmin() {
  try {
    page.admin = (await api("GET", "/api/session", undefined, adminToken())).admin;
  } catch (_) {
    page.admin = false;
  }
  renderHeader();
}

page.view = initialView();
takeFragmentToken((token) => {
  if (page.view !== null) localStorage.setItem(seatTokenKey(gameId, page.view), token);
});
wire();
checkAdmin().then(connect);
