// Shared helpers of the duskfall pages: tokens, API calls, small DOM builders.
"use strict";

const ADMIN_KEY = "duskfall.admin";

/** Take `#admin=TOKEN` (printed by `duskfall web`) or `#token=TOKEN` out of the URL. */
function takeFragmentToken(storeSeatToken) {
  const hash = new URLSearchParams(location.hash.slice(1));
  let changed = false;
  if (hash.has("admin")) {
    localStorage.setItem(ADMIN_KEY, hash.get("admin"));
    hash.delete("admin");
    changed = true;
  }
  if (hash.has("token") && storeSeatToken) {
    storeSeatToken(hash.get("token"));
    hash.delete("token");
    changed = true;
  }
  if (changed) {
    const rest = hash.toString();
    history.replaceState(null, "", location.pathname + location.search + (rest ? "#" + rest : ""));
  }
}

function adminToken() {
  return localStorage.getItem(ADMIN_KEY);
}

function seatTokenKey(gameId, seat) {
  return `duskfall.seat.${gameId}.${seat}`;
}

async function api(method, path, body, token, signal) {
  const headers = { Accept: "application/json" };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
    signal,
  });
  let data = null;
  try {
    data = await response.json();
  } catch (_) {
    data = null;
  }
  if (!response.ok) {
    const detail = data && data.detail;
    const message = typeof detail === "string" ? detail : JSON.stringify(detail || response.statusText);
    throw new Error(message);
  }
  return data;
}

/** Create an element: el("li", {class: "x", text: "hi"}, child, ...). */
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "text") node.textContent = value;
    else if (key === "class") node.className = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "style") node.style.cssText = value; // CSSOM: allowed by the page's CSP
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function phaseLabel(phase) {
  if (!phase) return "";
  return phase
    .toLowerCase()
    .split("_")
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(" ");
}

function isNight(phase) {
  return /night|夜/i.test(phase || ""); // a GM card names its phases in its language
}

function statusBadge(status) {
  return el("span", { class: `badge status-${status}`, text: status });
}
