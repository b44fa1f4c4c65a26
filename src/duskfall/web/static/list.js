// The game list (filters, sorting, rows updated in place) and the new-game form.
"use strict";

const REFRESH_MS = 3000; // after an answer, the list is asked for again this much later
const REQUEST_TIMEOUT_MS = 30000; // an answer slower than this is given up (and asked again)
const RETRY_MAX_MS = 30000; // the longest wait between tries after errors
const PAGE_SIZES = [25, 50, 100, 200];
const FILTERS = ["variant", "status", "agent", "tournament", "source", "q"]; // the API's names
const SORT_FIRST_DESCENDING = new Set(["started_at", "days", "events", "tokens", "cost_usd"]);
let variants = [];
// what the list shows: filters, sort and page; kept in the address (a link gives the same list)
const list = { variant: "", status: "", agent: "", tournament: "", source: "", q: "",
  sort: "started_at", order: "desc", limit: 50, offset: 0 };
const rows = new Map(); // game id -> {row, signature}
// One request at a time: a refresh wanted while one is under way waits for its answer, so
// requests never pile up on a slow server, and every answer is shown (unless the list was
// changed meanwhile: then the new list is asked for at once).
let inFlight = null; // the query of the request under way
let again = false; // asked for while a request was under way
let shownQuery = null; // the query whose answer the rows show
let nextRefresh = null; // the timer of the next refresh
let failures = 0; // errors in a row (the wait before the next try doubles with each)
let total = 0;

function seatSummary(agents) {
  const counts = new Map();
  for (const agent of agents) counts.set(agent, (counts.get(agent) || 0) + 1);
  return [...counts].map(([agent, n]) => (n > 1 ? `${n}× ${agent}` : agent)).join(", ");
}

/** The line under a game's id: variant, preset, seed; its tournament as a link to its page. */
function gameDetails(game) {
  const what = [game.variant, game.preset, game.seed === null ? null : `seed ${game.seed}`]
    .filter(Boolean).join(" · ");
  const line = el("div", { class: "muted", text: what });
  if (game.tournament) {
    line.append(" · tournament ", el("a", { href: `/tournaments/${encodeURIComponent(game.tournament)}`,
      class: "tournament-link", text: game.tournament }));
  }
  return line;
}

function gameCells(game) {
  const when = game.started_at ? new Date(game.started_at).toLocaleString() : "";
  const name = game.has_log
    ? el("a", { href: `/games/${encodeURIComponent(game.game_id)}`, text: game.game_id })
    : el("span", { title: "simulated: results only, no log to replay", text: game.game_id });
  return [
    el("td", {}, name, gameDetails(game)),
    el("td", {}, statusBadge(game.status), game.live ? el("span", { class: "muted", text: " here" }) : null,
      game.has_log ? null : el("span", { class: "badge", text: "simulated" })),
    el("td", { text: game.winner || "" }),
    el("td", { text: game.days ?? "" }),
    el("td", { class: "agents" }, seatSummary(game.agents),
      game.protected ? el("span", { class: "badge", title: "people play here: hidden views need a token", text: "people" }) : null),
    el("td", { class: "muted", text: when }),
  ];
}

/** The row of a game, changed only where its data changed (focus and selection survive). */
function rowFor(game) {
  const signature = JSON.stringify(game);
  let entry = rows.get(game.game_id);
  if (!entry) {
    entry = { row: el("tr", { "data-game": game.game_id }), signature: "" };
    rows.set(game.game_id, entry);
  }
  if (entry.signature !== signature) {
    const cells = gameCells(game);
    const old = entry.row.children;
    if (old.length !== cells.length) entry.row.replaceChildren(...cells);
    else cells.forEach((cell, i) => {
      if (old[i].innerHTML !== cell.innerHTML) old[i].replaceWith(cell);
    });
    entry.signature = signature;
  }
  return entry.row;
}

/** Options of a filter's select: "all", then `values` (the chosen one kept even if gone). */
function fillFilter(id, values, label) {
  const select = document.getElementById(id);
  const chosen = list[select.dataset.param];
  const wanted = ["", ...values];
  if (chosen && !wanted.includes(chosen)) wanted.push(chosen);
  const have = [...select.options].map((o) => o.value);
  if (have.join("\n") !== wanted.join("\n")) {
    select.replaceChildren(...wanted.map((value) => el("option", { value, text: value ? (label ? label(value) : value) : "all" })));
  }
  select.value = chosen;
}

function renderGames(games) {
  const body = document.querySelector("#games tbody");
  const wanted = games.map(rowFor);
  // move rows only where the order changed: an unchanged row keeps its DOM node and focus
  wanted.forEach((row, i) => {
    if (body.children[i] !== row) body.insertBefore(row, body.children[i] || null);
  });
  while (body.children.length > wanted.length) body.lastElementChild.remove();
  const shownIds = new Set(games.map((g) => g.game_id));
  for (const id of [...rows.keys()]) if (!shownIds.has(id)) rows.delete(id);
  const filtered = FILTERS.some((key) => list[key]);
  const empty = document.getElementById("games-empty");
  empty.textContent = filtered ? "No game matches these filters." : empty.dataset.none;
  empty.classList.toggle("hidden", games.length > 0);
  document.getElementById("games").classList.toggle("hidden", games.length === 0);
  renderPager();
  document.body.dataset.refreshes = String(Number(document.body.dataset.refreshes || 0) + 1);
}

function renderPager() {
  const first = total === 0 ? 0 : list.offset + 1;
  const last = Math.min(total, list.offset + list.limit);
  document.getElementById("page-range").textContent =
    total === 0 ? "no games" : `${first.toLocaleString()}–${last.toLocaleString()} of ${total.toLocaleString()}`;
  document.getElementById("page-first").disabled = list.offset === 0;
  document.getElementById("page-prev").disabled = list.offset === 0;
  document.getElementById("page-next").disabled = list.offset + list.limit >= total;
  document.getElementById("page-last").disabled = list.offset + list.limit >= total;
  for (const th of document.querySelectorAll("#games th")) {
    const button = th.querySelector("button.sort");
    const sorted = button && button.dataset.key === list.sort;
    th.setAttribute("aria-sort", sorted ? (list.order === "desc" ? "descending" : "ascending") : "none");
  }
}

function queryString() {
  const params = new URLSearchParams();
  for (const key of FILTERS) if (list[key]) params.set(key, list[key]);
  if (list.sort !== "started_at" || list.order !== "desc") {
    params.set("sort", list.sort);
    params.set("order", list.order);
  }
  if (list.limit !== 50) params.set("limit", list.limit);
  if (list.offset) params.set("offset", list.offset);
  return params.toString();
}

function readAddress() {
  const params = new URLSearchParams(location.search);
  for (const key of FILTERS) list[key] = params.get(key) || "";
  list.sort = params.get("sort") || "started_at";
  list.order = params.get("order") === "asc" ? "asc" : "desc";
  const limit = Number(params.get("limit"));
  list.limit = PAGE_SIZES.includes(limit) ? limit : 50;
  list.offset = Math.max(0, Math.floor(Number(params.get("offset")) || 0));
  for (const input of document.querySelectorAll("[data-param]")) input.value = list[input.dataset.param];
  document.getElementById("page-size").value = String(list.limit);
}

/** The API query of the list as `list` says. */
function wantedQuery() {
  const params = new URLSearchParams(queryString());
  params.set("limit", list.limit);
  return params.toString();
}

/** "Loading" while the rows do not show the list asked for (first load, another filter). */
function showLoading() {
  const loading = shownQuery !== wantedQuery();
  const note = document.getElementById("games-loading");
  note.classList.toggle("hidden", !loading);
  document.getElementById("games").setAttribute("aria-busy", String(loading));
  document.body.dataset.listState = loading ? "loading" : "shown";
}

function showPage(page, query) {
  total = page.total;
  fillFilter("filter-variant", page.facets.variants);
  fillFilter("filter-status", page.facets.statuses);
  fillFilter("filter-tournament", page.facets.tournaments);
  document.getElementById("agent-list").replaceChildren(...page.facets.agents.map((a) => el("option", { value: a })));
  document.getElementById("list-error").classList.add("hidden");
  shownQuery = query;
  renderGames(page.games);
}

function showError(err, timedOut, wait) {
  const box = document.getElementById("list-error");
  const why = timedOut ? `no answer in ${REQUEST_TIMEOUT_MS / 1000} s` : err.message;
  box.textContent = `The game list could not be loaded: ${why}. Trying again in ${Math.round(wait / 1000)} s.`;
  box.classList.remove("hidden");
  document.getElementById("games-loading").classList.add("hidden");
  document.body.dataset.listState = "error";
}

/** Ask for the list (one request at a time; see `inFlight`), then again REFRESH_MS later. */
async function refreshGames() {
  clearTimeout(nextRefresh);
  if (inFlight !== null) {
    again = true;
    showLoading();
    return;
  }
  const query = wantedQuery();
  inFlight = query;
  showLoading();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), REQUEST_TIMEOUT_MS);
  let wait = REFRESH_MS;
  try {
    const page = await api("GET", `/api/games?${query}`, undefined, undefined, controller.signal);
    failures = 0;
    if (query === wantedQuery()) {
      if (page.total > 0 && list.offset >= page.total) { // the list shrank under this page
        list.offset = Math.max(0, Math.floor((page.total - 1) / list.limit) * list.limit);
        keepAddress();
        again = true;
      } else {
        showPage(page, query);
      }
    }
  } catch (err) {
    failures += 1;
    wait = Math.min(RETRY_MAX_MS, REFRESH_MS * 2 ** failures);
    if (query === wantedQuery()) showError(err, controller.signal.aborted, wait);
  } finally {
    clearTimeout(timer);
    inFlight = null;
  }
  if (again || query !== wantedQuery()) {
    again = false;
    refreshGames();
  } else {
    if (failures === 0) showLoading(); // an error stays said until an answer comes
    nextRefresh = setTimeout(refreshGames, wait);
  }
}

function keepAddress() {
  const query = queryString();
  history.replaceState(null, "", location.pathname + (query ? `?${query}` : "") + location.hash);
}

/** Show the list as `list` says, and keep it in the address. */
function showList() {
  keepAddress();
  return refreshGames();
}

function setFilter(key, value) {
  if (list[key] === value) return;
  list[key] = value;
  list.offset = 0;
  showList();
}

function turnPage(where) {
  const lastPage = Math.max(0, Math.floor((total - 1) / list.limit) * list.limit);
  const offsets = { first: 0, prev: Math.max(0, list.offset - list.limit),
    next: Math.min(lastPage, list.offset + list.limit), last: lastPage };
  list.offset = offsets[where];
  showList();
}

function chosenVariant() {
  return variants.find((v) => v.id === document.getElementById("variant").value);
}

function showPresets() {
  const chosen = chosenVariant();
  if (!chosen) return;
  const select = document.getElementById("preset");
  select.replaceChildren(...Object.entries(chosen.presets).map(([name, seats]) =>
    el("option", { value: name, text: `${name || "default"} (${seats} seats)` })));
  select.disabled = Object.keys(chosen.presets).length < 2;
  document.getElementById("agent-choices").replaceChildren(...chosen.agent_choices.map((a) => el("option", { value: a })));
  showVariantHelp();
}

function showVariantHelp() {
  const chosen = chosenVariant();
  if (!chosen) return;
  const seats = chosen.presets[document.getElementById("preset").value] ?? chosen.seats;
  const [first, second] = chosen.teams;
  const perTeam = first && second ? `, per team: ${first}=heuristic,${second}=random` : "";
  document.getElementById("agents").placeholder = chosen.agents;
  const options = chosen.options_help ? `; ${chosen.options_help}` : "";
  document.getElementById("agents-help").textContent =
    `${seats} seats (0-${seats - 1}); agents: ${chosen.agent_choices.join(", ")}${perTeam}${options}`;
}

async function setUpForm() {
  const session = await api("GET", "/api/session", undefined, adminToken());
  document.getElementById("who").textContent = session.admin ? "admin" : "spectator";
  document.getElementById("start-form").classList.toggle("hidden", !session.admin);
  document.getElementById("admin-needed").classList.toggle("hidden", session.admin);
  if (!session.admin) return;
  variants = await api("GET", "/api/variants");
  const select = document.getElementById("variant");
  select.replaceChildren(...variants.map((v) => el("option", { value: v.id, text: v.name })));
  select.addEventListener("change", showPresets);
  document.getElementById("preset").addEventListener("change", showVariantHelp);
  showPresets();
}

function parseSeats(text) {
  return text
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((s) => {
      const n = Number(s);
      if (!Number.isInteger(n)) throw new Error(`not a seat number: ${s}`);
      return n;
    });
}

function parseOptions(text) {
  if (!text) return {};
  try {
    return JSON.parse(text);
  } catch (_) {
    throw new Error('more options must be JSON, e.g. {"day_limit": 10}');
  }
}

async function startGame(event) {
  event.preventDefault();
  const out = document.getElementById("start-result");
  out.replaceChildren();
  try {
    const seedText = document.getElementById("seed").value.trim();
    const body = {
      variant: document.getElementById("variant").value,
      preset: document.getElementById("preset").value || null,
      agents: document.getElementById("agents").value.trim() || null,
      seed: seedText === "" ? null : seedText, // as text: seeds have up to 128 bits
      human_seats: parseSeats(document.getElementById("human-seats").value),
      human_timeout: Number(document.getElementById("human-timeout").value || 300),
      pace: Number(document.getElementById("pace").value || 0),
      config: parseOptions(document.getElementById("config").value.trim()),
    };
    const started = await api("POST", "/api/games", body, adminToken());
    const seats = Object.entries(started.seats);
    if (seats.length === 0) {
      location.href = started.url;
      return;
    }
    for (const [seat, info] of seats) localStorage.setItem(seatTokenKey(started.game_id, seat), info.token);
    out.append(
      el("div", { class: "notice" }, "Game ", el("a", { href: started.url, text: started.game_id }),
        " started. Give each player the link of their seat (the game page shows them again):"),
      el("ul", { class: "seat-links" }, ...seats.map(([seat, info]) =>
        el("li", {}, `seat ${seat}: `, el("a", { href: info.url, text: location.origin + info.url })))),
    );
  } catch (err) {
    out.append(el("div", { class: "notice error", role: "alert", text: err.message }));
  }
}

function sortBy(key) {
  list.order = list.sort === key ? (list.order === "desc" ? "asc" : "desc") : SORT_FIRST_DESCENDING.has(key) ? "desc" : "asc";
  list.sort = key;
  list.offset = 0;
  showList();
}

document.getElementById("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  localStorage.setItem(ADMIN_KEY, document.getElementById("admin-token").value.trim());
  setUpForm().catch((err) => console.warn(err));
});
document.getElementById("start-form").addEventListener("submit", startGame);
for (const input of document.querySelectorAll("[data-param]")) {
  const key = input.dataset.param;
  let typing = null;
  if (input.tagName === "SELECT") input.addEventListener("change", () => setFilter(key, input.value));
  else input.addEventListener("input", () => { // typing: ask once the typing pauses
    clearTimeout(typing);
    typing = setTimeout(() => setFilter(key, input.value.trim()), 250);
  });
}
for (const button of document.querySelectorAll("button.sort")) {
  button.addEventListener("click", () => sortBy(button.dataset.key));
}
for (const where of ["first", "prev", "next", "last"]) {
  document.getElementById(`page-${where}`).addEventListener("click", () => turnPage(where));
}
document.getElementById("page-size").addEventListener("change", (event) => {
  list.limit = Number(event.target.value);
  list.offset = 0;
  showList();
});

takeFragmentToken(null);
readAddress();
setUpForm().catch((err) => console.warn(err));
refreshGames();
document.getElementById("list-filters").addEventListener("submit", (event) => event.preventDefault());
