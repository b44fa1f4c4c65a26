// Explore from here (the organiser, god view of an ended game): fork the game at the timeline's
// moment with other agents, or with the move at that moment replaced, and follow the fork live
// on its own page. The lab forks it (POST /api/games/{id}/fork); its family links both games.
"use strict";

/** The text an action carries (a speech, a chat line), if it has exactly one text field. */
function actionText(action) {
  if (!action || typeof action !== "object") return null;
  const texts = Object.entries(action).filter(([key, value]) => key !== "type" && typeof value === "string");
  return texts.length === 1 ? texts[0][1] : null;
}

function canExplore() {
  return page.view === null && page.admin && ["finished", "aborted"].includes(page.status) && page.events.length > 0;
}

function renderExplore() {
  $("explore-open").classList.toggle("hidden", !canExplore());
  if (!canExplore()) $("explore").classList.add("hidden");
  if (!$("explore").classList.contains("hidden")) fillExplore();
}

function fillExplore() {
  const event = current();
  if (!event) return;
  const move = event.kind === "action" && event.payload && event.payload.action;
  $("explore-moment").textContent = `event ${event.seq}, ${isNight(event.phase) ? "night" : "day"} ${event.day} (${phaseLabel(event.phase)}): ${event.text}`;
  $("explore-replace-box").classList.toggle("hidden", !move);
  if (!move) $("explore-replace").checked = false;
  if (move && $("explore-move").dataset.seq !== String(event.seq)) {
    const text = actionText(move);
    $("explore-move").value = text === null ? JSON.stringify(move) : text;
    $("explore-move").dataset.seq = String(event.seq);
  }
  if (!$("explore-agents").value) {
    const agents = page.game.seats.map((s) => s.agent);
    $("explore-agents").value = new Set(agents).size === 1 ? agents[0] : agents.join(",");
  }
}

function openExplore() {
  $("explore").classList.remove("hidden");
  $("explore-open").setAttribute("aria-expanded", "true");
  fillExplore();
  $("explore-agents").focus();
}

async function submitExplore(e) {
  e.preventDefault();
  const event = current();
  if (!event) return;
  const pace = Number($("explore-pace").value);
  const body = { agents: $("explore-agents").value.trim() || null, pace: Number.isFinite(pace) ? pace : 0 };
  if ($("explore-replace").checked) body.replace = `${event.seq}=${$("explore-move").value}`;
  else body.at = String(event.seq);
  const button = $("explore-go");
  button.disabled = true;
  $("explore-status").textContent = "forking: rebuilding the game up to this moment…";
  try {
    const made = await api("POST", `/api/games/${encodeURIComponent(gameId)}/fork`, body, adminToken());
    $("explore-status").textContent = `fork ${made.game_id} started; opening it…`;
    location.href = made.url;
  } catch (error) {
    $("explore-status").textContent = `error: ${error.message}`;
  } finally {
    button.disabled = false;
  }
}

function wireExplore() {
  $("explore-open").addEventListener("click", openExplore);
  $("explore-cancel").addEventListener("click", () => {
    $("explore").classList.add("hidden");
    $("explore-open").setAttribute("aria-expanded", "false");
  });
  $("explore").addEventListener("submit", submitExplore);
}
