// The game page: live updates over a WebSocket, a timeline to scrub (keys, strip, links to a
// moment), god, seat and public views, the admin's controls, and the decision form of a seat
// played in the browser.
"use strict";

const gameId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
// Shown in the feed only on request (thoughts, suspicions and calls have their own panels).
const RUNTIME_KINDS = new Set(["action", "llm_call", "suspicion", "thought", "invalid_action", "fallback"]);
const PLAY_MS = 350; // a step of the replay at 1×
const PUBLIC = -1; // the public view: public events only, open to everyone

const page = {
  view: null, // null: god view; PUBLIC; a number: that seat's view
  game: null,
  events: [],
  status: "",
  outcome: null,
  roles: {},
  request: null,
  knows: null,
  humanSeats: [],
  position: -1,
  following: true,
  socket: null,
  retryMs: 500,
  closedOnPurpose: false,
  admin: false,
  tab: "thoughts",
  notice: null, // why the page shows another view than the one asked for
  player: null,
  speed: 1,
  mode: "events", // the list shows the events, or the transcript by speaker
  beliefs: { believer: null },
  reasoning: { moves: new Map(), placed: new Set() },
  openCalls: new Set(),
  clock: null,
  baseTitle: "duskfall",
};

const $ = (id) => document.getElementById(id);

function initialView() {
  const seat = new URLSearchParams(location.search).get("seat");
  if (seat === null || seat === "") return null;
  return seat === "public" ? PUBLIC : Number(seat);
}

function tokenFor(view) {
  if (view === null || view === PUBLIC) return adminToken();
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
    if (["finished", "aborted", "stopped"].includes(page.status)) return;
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
    if (page.notice) showError(page.notice);
    page.notice = null;
    page.game = message.game;
    page.events = message.events;
    page.status = message.status;
    page.outcome = message.outcome;
    page.roles = message.roles || {};
    page.request = message.request;
    page.humanSeats = message.human_seats || [];
    const moment = momentFromHash();
    if (moment !== null) {
      page.following = false;
      page.position = moment;
    } else if (page.following || page.position >= page.events.length) {
      page.position = page.events.length - 1;
    }
    renderAll();
    loadFamily();
    showKeyMoments();
  } else if (message.type === "event") {
    const event = message.event;
    page.events.push(event);
    for (const [seat, name] of Object.entries(event.names || {})) if (page.game.seats[seat]) page.game.seats[seat].name = name;
    appendEvent(page.events.length - 1);
    if (page.following) page.position = page.events.length - 1;
    renderPosition(true);
  } else if (message.type === "status") {
    page.status = message.status;
    page.outcome = message.outcome;
    if (message.roles) page.roles = message.roles;
    renderHeader();
    renderPosition(true);
    renderDecision();
    showKeyMoments();
  } else if (message.type === "decision") {
    page.request = message.request;
    renderDecision();
  } else if (message.type === "error") {
    page.closedOnPurpose = true;
    // a game with people: a spectator without the view's token follows its public events
    const tokenless = page.view === null ? !adminToken() : page.view !== PUBLIC && !tokenFor(page.view);
    if (tokenless && /token/i.test(message.message)) {
      if (page.view !== null) page.notice = `${message.message}: here is the public view`;
      switchView(PUBLIC);
      return;
    }
    showError(message.message);
  }
}

function showError(text) {
  $("error").textContent = text;
  $("error").classList.remove("hidden");
  $("token-form").classList.toggle("hidden", !/token/i.test(text));
}

// -- which events the filters show -------------------------------------------------------

/** Runtime records and a variant's bookkeeping (a GM game's steps and turns) are listed on request. */
function isDetail(event) {
  return event.detail || RUNTIME_KINDS.has(event.kind);
}

function shownByFilters(event) {
  return $("show-runtime").checked || !isDetail(event);
}

function shownIndexes() {
  const out = [];
  for (let i = 0; i < page.events.length; i++) if (shownByFilters(page.events[i])) out.push(i);
  return out;
}

// -- rendering -------------------------------------------------------------------------

function current() {
  return page.position >= 0 ? page.events[page.position] : null;
}

function renderAll() {
  renderHeader();
  renderViewSelect();
  page.reasoning = page.view === null ? reasoningOfMoves(page.events) : { moves: new Map(), placed: new Set() };
  $("runtime-label").textContent = page.view === null ? "moves with their reasoning, model calls" : "actions";
  $("events").replaceChildren(...page.events.map(eventItem));
  $("layout").classList.toggle("god", page.view === null);
  $("god-panels").classList.toggle("hidden", page.view !== null);
  renderPromptFilters();
  renderDecision();
  renderPosition(false);
}

function renderHeader() {
  const game = page.game;
  if (!game) return;
  page.baseTitle = `duskfall · ${game.variant_name}`;
  updateTitle();
  // the seed is served only once the game has ended (it would give away the deal)
  $("title").textContent = game.seed === null ? game.variant_name : `${game.variant_name} · seed ${game.seed}`;
  $("title").title = game.game_id;
  $("status").replaceChildren(statusBadge(page.status));
  const controllable = game.live && page.admin && (page.status === "running" || page.status === "paused");
  $("pause").classList.toggle("hidden", !(controllable && page.status === "running"));
  $("resume").classList.toggle("hidden", !(controllable && page.status === "paused"));
  $("abort").classList.toggle("hidden", !controllable);
  $("show-links").classList.toggle("hidden", !(controllable && page.humanSeats.length));
}

function updateTitle() {
  const mine = page.request && page.view === page.request.seat;
  document.title = mine ? `● Your move · ${page.baseTitle}` : page.baseTitle;
}

function renderViewSelect() {
  const select = $("view");
  const options = [
    el("option", { value: "god", text: "God view (everything)" }),
    el("option", { value: "public", text: "Public view (what everyone saw)" }),
  ];
  for (const { seat, agent } of page.game.seats) {
    const human = page.humanSeats.includes(seat) ? " (person)" : "";
    options.push(el("option", { value: String(seat), text: `${playerName(page.game.seats, seat)}: ${agent}${human}` }));
  }
  select.replaceChildren(...options);
  select.value = page.view === null ? "god" : page.view === PUBLIC ? "public" : String(page.view);
  $("view-note").textContent = page.view === null ? "hidden roles, private chats, thoughts and prompts"
    : page.view === PUBLIC ? "public events only; the roles once the game has ended"
      : `exactly what ${playerName(page.game.seats, page.view)} saw`;
}

function eventItem(event, index) {
  const when = `${isNight(event.phase) ? "Night" : "Day"} ${event.day}`;
  const tag = event.scope === "public" ? null
    : el("span", { class: "tag", title: "who sees this", text: event.scope === "admin" ? "god" : event.visibility });
  const item = el("li", {
    class: `scope-${event.scope} kind-${event.kind.replace(/[^\w-]/g, "_")}${isDetail(event) ? " runtime" : ""}`,
    "data-index": index,
    "data-kind": event.kind,
    "data-day": event.day,
    tabindex: "0",
    onclick: () => moveTo(index),
  }, el("span", { class: "when", text: when }), el("span", { class: "text" }, swingBadge(index), tag, event.text,
    page.view === null && page.reasoning.moves.has(index) ? reasoningNode(page.reasoning.moves.get(index)) : null));
  if (page.view === null && page.reasoning.placed.has(index)) item.classList.add("attached");
  item.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      moveTo(index);
    }
  });
  return item;
}

/** Add the list item of a new event; a move takes its seat's reasoning beside it (god view). */
function appendEvent(index) {
  const event = page.events[index];
  if (page.view === null && event.kind === "action") {
    const { moves, placed } = reasoningOfMoves(page.events);
    page.reasoning = { moves, placed };
    for (const t of placed) $("events").children[t]?.classList.add("attached");
  }
  $("events").append(eventItem(event, index));
}

function knownRoles(upTo) {
  if (page.view === null) return page.roles;
  const known = {};
  for (let i = 0; i <= upTo; i++) Object.assign(known, page.events[i].reveals);
  if (page.position === page.events.length - 1) Object.assign(known, page.roles);
  return known;
}

function renderPlayers() {
  const event = current();
  const seats = page.game.seats;
  const alive = new Set(event ? event.alive : seats.map((s) => s.seat));
  const roles = knownRoles(page.position);
  const marks = marksBySeat(page.events, page.position);
  const votes = tally(page.events, page.position);
  const received = new Map(renderTallyBox($("tally"), seats, votes).map(([t, { total }]) => [t, total]));
  const cards = seats.map(({ seat, agent }) => {
    const role = roles[String(seat)];
    const isAlive = alive.has(seat);
    const seatMarks = marks.get(seat) || {};
    const fate = seatMarks.exiled || seatMarks.dead || "out";
    const known = KNOWLEDGE_MARKS.filter((k) => seatMarks[k]).map((k) => seatMarks[k]);
    return el("div", {
      class: `player${isAlive ? "" : " dead"}${page.view === seat ? " me" : ""}${event && event.actor === seat ? " acting" : ""}`,
      "data-seat": seat,
    },
    el("div", { class: "name-line" }, el("span", { class: "seat-no", text: playerName(seats, seat) }),
      page.view === seat ? el("span", { class: "you", text: " (you)" }) : null,
      seatMarks.badge ? el("span", { class: "badge-mark", title: seatMarks.badge, text: "★ sheriff" }) : null,
      received.get(seat) ? el("span", { class: "votes", title: "votes received", text: received.get(seat) }) : null),
    el("div", { class: "life", text: isAlive ? "alive" : fate }),
    el("div", { class: `role${/mafia|don|wolf|black/i.test(role || "") ? " team-bad" : ""}`, text: role || "" }),
    ...known.map((text) => el("div", { class: "known", text })),
    el("div", { class: "agent", text: agent }));
  });
  $("players").replaceChildren(...cards);
  const picture = votePicture(page.events, page.position, seats);
  $("vote-picture").replaceChildren(...(picture ? [picture] : []));
  renderBeliefs($("beliefs"), page.events, page.position, seats, page.beliefs);
  renderKnows(roles, marks);
}

function renderKnows(roles, marks) {
  const box = $("knows");
  const seatView = page.view !== null && page.view !== PUBLIC && page.game;
  box.classList.toggle("hidden", !seatView);
  if (!seatView) return;
  if (page.request && page.request.knows) page.knows = page.request.knows;
  box.replaceChildren(...knowledgeCard(page.game.seats, page.view, roles, marks, page.knows));
}

function renderPosition(live) {
  if (!page.game) return;
  const shown = shownIndexes();
  const at = shown.filter((i) => i <= page.position).length - 1;
  const scrub = $("scrub");
  scrub.max = String(Math.max(0, shown.length - 1));
  scrub.value = String(Math.max(0, at));
  $("pos").textContent = shown.length ? `${at + 1} / ${shown.length}` : "no events yet";
  const event = current();
  const phase = $("phase");
  phase.textContent = event ? `${isNight(event.phase) ? "☾ Night" : "☀ Day"} ${event.day} · ${phaseLabel(event.phase)}` : "";
  phase.className = `phase ${event && isNight(event.phase) ? "night" : "day"}`;
  const items = $("events").children;
  for (let i = 0; i < items.length; i++) {
    items[i].classList.toggle("future", i > page.position);
    items[i].classList.toggle("current", i === page.position);
    if (i === page.position) items[i].setAttribute("aria-current", "step");
    else items[i].removeAttribute("aria-current");
  }
  if (page.following) {
    const list = $("events");
    list.scrollTop = list.scrollHeight;
  } else if (items[page.position] && !live) {
    items[page.position].scrollIntoView({ block: "nearest" });
  }
  $("strip").replaceChildren(...stripButtons(page.events, shown, moveTo));
  if (page.mode === "transcript") $("transcript").replaceChildren(...transcriptPanel(page.events, page.position, page.game.seats, moveTo));
  $("moment-link").href = event ? `#e${event.seq}` : "#";
  renderPlayers();
  renderOutcome();
  renderPanel();
  renderLabPosition();
  renderExplore();
}

function renderOutcome() {
  const box = $("outcome");
  const ended = page.outcome && page.position === page.events.length - 1;
  box.classList.toggle("hidden", !ended);
  if (!ended) return;
  const o = page.outcome;
  box.textContent = o.winner ? `${o.winner} wins: ${o.reason}` : `Game over (${o.termination}): ${o.reason}`;
}

function renderPromptFilters() {
  const seats = el("option", { value: "", text: "every seat" });
  $("prompt-seat").replaceChildren(seats, ...(page.game ? page.game.seats : []).map(({ seat }) =>
    el("option", { value: String(seat), text: playerName(page.game.seats, seat) })));
  const kinds = [...new Set(page.events.filter((e) => e.kind === "llm_call").map((e) => e.payload.decision).filter(Boolean))];
  $("prompt-kind").replaceChildren(el("option", { value: "", text: "every decision" }),
    ...kinds.sort().map((k) => el("option", { value: k, text: phaseLabel(k) })));
}

function renderPanel() {
  $("prompt-filters").classList.toggle("hidden", page.tab !== "prompts");
  if (page.view !== null) {
    $("tab-body").replaceChildren();
    return;
  }
  const body = $("tab-body");
  const scroll = body.firstElementChild ? body.querySelector(".thoughts, .calls")?.scrollTop : 0;
  const events = page.events.slice(0, page.position + 1);
  let node;
  if (page.tab === "thoughts") node = thoughtsPanel(events);
  else if (page.tab === "suspicion") node = suspicionPanel(events);
  else {
    const seat = $("prompt-seat").value;
    node = promptsPanel(events, seat === "" ? null : Number(seat), $("prompt-kind").value || null, page.openCalls,
      (index) => {
        $("show-runtime").checked = true; // actions are runtime events: show them
        $("events").classList.remove("compact");
        moveTo(index);
      });
  }
  body.replaceChildren(node);
  const list = body.querySelector(".thoughts, .calls");
  if (list && scroll) list.scrollTop = scroll;
}

// -- decisions of a seat played here ----------------------------------------------------

function renderDecision() {
  const box = $("decision");
  const request = page.request;
  clearInterval(page.clock);
  updateTitle();
  const waiting = !request || page.view !== request.seat ? waitingText() : "";
  $("waiting").textContent = waiting;
  $("waiting").classList.toggle("hidden", !waiting);
  if (!request || page.view !== request.seat) {
    box.classList.add("hidden");
    box.replaceChildren();
    delete box.dataset.requestId;
    return;
  }
  if (box.dataset.requestId === String(request.request_id) && !box.classList.contains("hidden")) return;
  const form = buildForm(request.form);
  const error = el("span", { class: "hint", id: "decision-error", role: "alert" });
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
  const clock = el("span", { class: "deadline", id: "decision-deadline" });
  const tick = () => {
    clock.textContent = `answer within ${timeLeft(request.deadline)}`;
  };
  const kind = phaseLabel(request.kind);
  const parts = [
    el("h2", { id: "decision-title", text: `Your move: ${kind}` }),
    todaysSpeeches(),
    request.knows ? el("p", { class: "headline", text: request.knows.headline }) : null,
    el("p", { class: "describe", text: request.form.question || request.describe }),
    request.hint ? el("p", { class: "hint", text: `Refused: ${request.hint}` }) : null,
    form.node,
    el("div", { class: "actions" }, submit, clock, error),
  ];
  box.replaceChildren(...parts.filter(Boolean));
  if (page.game) renderPlayers(); // the seat's card learns from the decision's view
  box.dataset.requestId = String(request.request_id);
  box.classList.remove("hidden");
  if (request.deadline) {
    tick();
    page.clock = setInterval(tick, 1000);
  }
  $("announce").textContent = `Your move: ${kind}`;
  const first = form.node.querySelector("button, textarea, select, input") || submit;
  first.focus(); // a keyboard player starts on the new decision
}

/** "Waiting for the other players (day 2)" on a seat played here while others decide: it
 * names no one, since who decides at night tells who holds a night role. */
function waitingText() {
  const seat = page.view;
  if (seat === null || seat === PUBLIC || page.status !== "running") return "";
  if (!page.humanSeats.includes(seat) || !tokenFor(seat)) return "";
  const last = page.events[page.events.length - 1];
  const when = last && last.day != null ? ` (day ${last.day})` : "";
  return `Waiting for the other players${when}: your next decision will appear here.`;
}

/** Today's speeches beside the form (on a phone they would be a screen away). */
function todaysSpeeches() {
  const last = page.events[page.events.length - 1];
  if (!last) return null;
  const said = page.events.filter((e) => e.day === last.day && SPEECH_KINDS.has(e.kind));
  if (!said.length) return null;
  return el("details", { class: "today", open: true },
    el("summary", { text: `Said today (${said.length})` }),
    el("ul", {}, ...said.map((e) => el("li", { text: e.text }))));
}

// -- timeline controls ------------------------------------------------------------------

function moveTo(index) {
  const last = page.events.length - 1;
  page.position = Math.max(-1, Math.min(last, index));
  page.following = page.position === last;
  const event = current();
  if (event && !page.following) history.replaceState(null, "", `${location.pathname}${location.search}#e${event.seq}`);
  else history.replaceState(null, "", location.pathname + location.search);
  renderPosition(false);
}

/** Step to the next (+1) or previous (-1) event the filters show. */
function step(direction) {
  const shown = shownIndexes();
  const next = direction > 0 ? shown.find((i) => i > page.position) : [...shown].reverse().find((i) => i < page.position);
  if (next !== undefined) moveTo(next);
}

function momentFromHash() {
  const match = /^#e(\d+)$/.exec(location.hash);
  if (!match) return null;
  const index = page.events.findIndex((e) => e.seq === Number(match[1]));
  return index >= 0 ? index : null;
}

function stopPlaying() {
  if (page.player) clearInterval(page.player);
  page.player = null;
  $("play").textContent = "play";
  $("play").setAttribute("aria-pressed", "false");
}

function togglePlay() {
  if (page.player) {
    stopPlaying();
    return;
  }
  if (page.position >= page.events.length - 1) moveTo(0);
  $("play").textContent = "stop";
  $("play").setAttribute("aria-pressed", "true");
  page.player = setInterval(() => {
    const shown = shownIndexes();
    if (page.position >= shown[shown.length - 1]) stopPlaying();
    else step(1);
  }, PLAY_MS / page.speed);
}

function setSpeed(speed) {
  page.speed = speed;
  if (page.player) { // playing: go on at the new speed
    clearInterval(page.player);
    page.player = null;
    togglePlay();
  }
}

function setMode(mode) {
  page.mode = mode;
  $("mode-events").setAttribute("aria-pressed", String(mode === "events"));
  $("mode-transcript").setAttribute("aria-pressed", String(mode === "transcript"));
  $("events").classList.toggle("hidden", mode !== "events");
  $("transcript").classList.toggle("hidden", mode !== "transcript");
  $("runtime-filter").classList.toggle("hidden", mode !== "events");
  renderPosition(false);
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

async function showSeatLinks() {
  const box = $("seat-links");
  const open = box.classList.contains("hidden");
  $("show-links").setAttribute("aria-expanded", String(open));
  if (!open) {
    box.classList.add("hidden");
    return;
  }
  try {
    const links = await api("GET", `/api/games/${encodeURIComponent(gameId)}/seats`, undefined, adminToken());
    box.replaceChildren(el("h2", { text: "Seat links" }), el("ul", { class: "seat-links" },
      ...Object.entries(links).map(([seat, info]) => el("li", {}, `${playerName(page.game.seats, Number(seat))}: `,
        el("a", { href: info.url, text: location.origin + info.url })))));
    box.classList.remove("hidden");
  } catch (err) {
    showError(err.message);
  }
}

function switchView(view) {
  page.view = view;
  const query = view === null ? "" : `?seat=${view === PUBLIC ? "public" : view}`;
  history.replaceState(null, "", location.pathname + query);
  page.following = true;
  Object.assign(page, { events: [], roles: {}, request: null, knows: null, position: -1 });
  if (page.game) renderAll(); // nothing of the previous view stays on the page
  reconnect();
}

function typing(target) {
  return target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
}

function wire() {
  wireMoments();
  wireExplore();
  $("scrub").addEventListener("input", (e) => moveTo(shownIndexes()[Number(e.target.value)] ?? -1));
  $("first").addEventListener("click", () => moveTo(shownIndexes()[0] ?? -1));
  $("prev").addEventListener("click", () => step(-1));
  $("next").addEventListener("click", () => step(1));
  $("live").addEventListener("click", () => moveTo(page.events.length - 1));
  $("play").addEventListener("click", togglePlay);
  $("speed-box").replaceChildren(speedSelect(setSpeed));
  $("mode-events").addEventListener("click", () => setMode("events"));
  $("mode-transcript").addEventListener("click", () => setMode("transcript"));
  $("pause").addEventListener("click", () => control("pause"));
  $("resume").addEventListener("click", () => control("resume"));
  $("abort").addEventListener("click", () => {
    if (confirm("Stop this game now? It ends as aborted.")) control("abort");
  });
  $("show-links").addEventListener("click", showSeatLinks);
  $("show-runtime").addEventListener("change", (e) => {
    $("events").classList.toggle("compact", !e.target.checked);
    renderPosition(false);
  });
  $("view").addEventListener("change", (e) => {
    const value = e.target.value;
    switchView(value === "god" ? null : value === "public" ? PUBLIC : Number(value));
  });
  $("tabs").addEventListener("click", (e) => {
    const tab = e.target.dataset && e.target.dataset.tab;
    if (!tab) return;
    page.tab = tab;
    for (const b of $("tabs").children) {
      b.classList.toggle("active", b.dataset.tab === tab);
      b.setAttribute("aria-selected", String(b.dataset.tab === tab));
      b.tabIndex = b.dataset.tab === tab ? 0 : -1;
    }
    $("tab-body").setAttribute("aria-labelledby", `tab-${tab}`);
    if (tab === "prompts") renderPromptFilters();
    renderPanel();
  });
  $("tab-body").addEventListener("toggle", (e) => {
    const seq = e.target.dataset && e.target.dataset.seq;
    if (seq === undefined) return;
    if (e.target.open) page.openCalls.add(Number(seq));
    else page.openCalls.delete(Number(seq));
  }, true);
  $("prompt-seat").addEventListener("change", renderPanel);
  $("prompt-kind").addEventListener("change", renderPanel);
  $("tabs").addEventListener("keydown", (e) => {
    const tabs = [...$("tabs").children];
    const at = tabs.indexOf(document.activeElement);
    const to = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (at < 0 || to === undefined) return;
    e.preventDefault();
    e.stopPropagation();
    const tab = tabs[(to + tabs.length) % tabs.length];
    tab.focus();
    tab.click();
  });
  document.addEventListener("keydown", (e) => {
    if (typing(e.target) || e.altKey || e.ctrlKey || e.metaKey || e.target.getAttribute("role") === "tab") return;
    const keys = { ArrowLeft: () => step(-1), ArrowRight: () => step(1),
      Home: () => moveTo(shownIndexes()[0] ?? -1), End: () => moveTo(page.events.length - 1) };
    if (keys[e.key] && page.game) {
      e.preventDefault();
      keys[e.key]();
    }
  });
  window.addEventListener("hashchange", () => {
    const moment = momentFromHash();
    if (moment !== null && moment !== page.position) moveTo(moment);
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
  renderExplore();
}

page.view = initialView();
takeFragmentToken((token) => {
  if (page.view !== null) localStorage.setItem(seatTokenKey(gameId, page.view), token);
});
wire();
checkAdmin().then(connect);
