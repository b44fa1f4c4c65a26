// The game list and the new-game form.
"use strict";

const REFRESH_MS = 3000;
let variants = [];

function seatSummary(agents) {
  const counts = new Map();
  for (const agent of agents) counts.set(agent, (counts.get(agent) || 0) + 1);
  return [...counts].map(([agent, n]) => (n > 1 ? `${n}× ${agent}` : agent)).join(", ");
}

function gameRow(game) {
  const when = game.started_at ? new Date(game.started_at).toLocaleString() : "";
  return el(
    "tr",
    { "data-game": game.game_id },
    el("td", {}, el("a", { href: `/games/${encodeURIComponent(game.game_id)}`, text: game.game_id }),
      el("div", { class: "muted", text: game.seed === null ? game.variant : `${game.variant} · seed ${game.seed}` })),
    el("td", {}, statusBadge(game.status), game.live ? el("span", { class: "muted", text: " here" }) : null),
    el("td", { text: game.winner || "" }),
    el("td", { class: "agents" }, seatSummary(game.agents),
      game.protected ? el("span", { class: "badge", title: "people play here: hidden views need a token", text: "people" }) : null),
    el("td", { class: "muted", text: when }),
  );
}

async function refreshGames() {
  try {
    const games = await api("GET", "/api/games");
    const body = document.querySelector("#games tbody");
    body.replaceChildren(...games.map(gameRow));
    document.getElementById("games-empty").classList.toggle("hidden", games.length > 0);
    document.getElementById("games").classList.toggle("hidden", games.length === 0);
  } catch (err) {
    console.warn("game list:", err);
  }
}

function showVariantHelp() {
  const chosen = variants.find((v) => v.id === document.getElementById("variant").value);
  if (!chosen) return;
  document.getElementById("agents").placeholder = chosen.agents;
  document.getElementById("agents-help").textContent =
    `${chosen.seats} seats (0-${chosen.seats - 1}); bots: ${chosen.bots.join(", ")}; ` +
    "or llm:<model>, per team: town=heuristic,mafia=random";
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
  select.addEventListener("change", showVariantHelp);
  showVariantHelp();
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

async function startGame(event) {
  event.preventDefault();
  const out = document.getElementById("start-result");
  out.replaceChildren();
  try {
    const seedText = document.getElementById("seed").value.trim();
    const configText = document.getElementById("config").value.trim();
    const body = {
      variant: document.getElementById("variant").value,
      agents: document.getElementById("agents").value.trim() || null,
      seed: seedText === "" ? null : seedText, // as text: seeds have up to 128 bits
      human_seats: parseSeats(document.getElementById("human-seats").value),
      pace: Number(document.getElementById("pace").value || 0),
      config: configText ? JSON.parse(configText) : {},
    };
    const started = await api("POST", "/api/games", body, adminToken());
    const seats = Object.entries(started.seats);
    if (seats.length === 0) {
      location.href = started.url;
      return;
    }
    for (const [seat, info] of seats) localStorage.setItem(seatTokenKey(started.game_id, seat), info.token);
    const base = location.origin;
    out.append(
      el("div", { class: "notice" }, "Game ", el("a", { href: started.url, text: started.game_id }),
        " started. Give each player the link of their seat:"),
      el("ul", { class: "seat-links" }, ...seats.map(([seat, info]) =>
        el("li", {}, `seat ${seat}: `, el("a", { href: info.url, text: base + info.url })))),
    );
  } catch (err) {
    out.append(el("div", { class: "notice error", text: err.message }));
  }
}

document.getElementById("token-form").addEventListener("submit", (event) => {
  event.preventDefault();
  localStorage.setItem(ADMIN_KEY, document.getElementById("admin-token").value.trim());
  setUpForm().catch((err) => console.warn(err));
});
document.getElementById("start-form").addEventListener("submit", startGame);

takeFragmentToken(null);
setUpForm().catch((err) => console.warn(err));
refreshGames();
setInterval(refreshGames, REFRESH_MS);
