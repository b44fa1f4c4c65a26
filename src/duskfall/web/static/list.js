// The game list (filters, sorting, rows updated in place) and the new-game form.
"use strict";

const REFRESH_MS = 3000;
let variants = [];
let games = [];
const sorting = { key: null, descending: false }; // null: the server's order (live games first)
const rows = new Map(); // game id -> {row, signature}

function seatSummary(agents) {
  const counts = new Map();
  for (const agent of agents) counts.set(agent, (counts.get(agent) || 0) + 1);
  return [...counts].map(([agent, n]) => (n > 1 ? `${n}× ${agent}` : agent)).join(", ");
}

function gameCells(game) {
  const when = game.started_at ? new Date(game.started_at).toLocaleString() : "";
  const what = [game.variant, game.preset, game.seed === null ? null : `seed ${game.seed}`].filter(Boolean).join(" · ");
  const name = game.has_log
    ? el("a", { href: `/games/${encodeURIComponent(game.game_id)}`, text: game.game_id })
    : el("span", { title: "simulated: results only, no log to replay", text: game.game_id });
  return [
    el("td", {}, name, el("div", { class: "muted", text: what })),
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

function matches(game) {
  const variant = document.getElementById("filter-variant").value;
  const status = document.getElementById("filter-status").value;
  const text = document.getElementById("filter-text").value.trim().toLowerCase();
  if (variant && game.variant !== variant) return false;
  if (status && game.status !== status) return false;
  if (text) {
    const hay = [game.game_id, game.winner, game.preset, ...game.agents].join(" ").toLowerCase();
    if (!hay.includes(text)) return false;
  }
  return true;
}

function compare(a, b) {
  if (sorting.key === null) return 0;
  const x = a[sorting.key] ?? "";
  const y = b[sorting.key] ?? "";
  const order = typeof x === "number" && typeof y === "number" ? x - y : String(x).localeCompare(String(y));
  return sorting.descending ? -order : order;
}

function fillFilter(id, values) {
  const select = document.getElementById(id);
  const have = new Set([...select.options].map((o) => o.value));
  for (const value of values) if (!have.has(value)) select.append(el("option", { value, text: value }));
}

function renderGames() {
  const shown = games.filter(matches).sort(compare);
  const body = document.querySelector("#games tbody");
  const wanted = shown.map(rowFor);
  // move rows only where the order changed: an unchanged row keeps its DOM node and focus
  wanted.forEach((row, i) => {
    if (body.children[i] !== row) body.insertBefore(row, body.children[i] || null);
  });
  while (body.children.length > wanted.length) body.lastElementChild.remove();
  document.getElementById("games-empty").classList.toggle("hidden", games.length > 0);
  document.getElementById("games").classList.toggle("hidden", games.length === 0);
  document.body.dataset.refreshes = String(Number(document.body.dataset.refreshes || 0) + 1);
}

async function refreshGames() {
  try {
    games = await api("GET", "/api/games");
    fillFilter("filter-variant", [...new Set(games.map((g) => g.variant))].sort());
    fillFilter("filter-status", [...new Set(games.map((g) => g.status))].sort());
    renderGames();
  } catch (err) {
    console.warn("game list:", err);
  }
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
  document.getElementById("agents-help").textContent =
    `${seats} seats (0-${seats - 1}); agents: ${chosen.agent_choices.join(", ")}${perTeam}`;
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
  sorting.descending = sorting.key === key ? !sorting.descending : key === "started_at" || key === "days";
  sorting.key = key;
  for (const th of document.querySelectorAll("#games th")) {
    const button = th.querySelector("button.sort");
    th.setAttribute("aria-sort", button && button.dataset.key === key ? (sorting.descending ? "descending" : "ascending") : "none");
  }
  renderGames();
}

document.getElementById("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  localStorage.setItem(ADMIN_KEY, document.getElementById("admin-token").value.trim());
  setUpForm().catch((err) => console.warn(err));
});
document.getElementById("start-form").addEventListener("submit", startGame);
for (const id of ["filter-variant", "filter-status", "filter-text"]) {
  document.getElementById(id).addEventListener("input", renderGames);
}
for (const button of document.querySelectorAll("button.sort")) {
  button.addEventListener("click", () => sortBy(button.dataset.key));
}

takeFragmentToken(null);
setUpForm().catch((err) => console.warn(err));
refreshGames();
setInterval(refreshGames, REFRESH_MS);
