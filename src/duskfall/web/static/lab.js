// The lab on the game page: the game's family (the game it was forked from, its forks). Its
// key moments (the win line, swings, per-seat summary) are in moments.js.
"use strict";

const lab = { family: null };

function moment(m) {
  return `${isNight(m.phase) ? "night" : "day"} ${m.day} (${phaseLabel(m.phase)})`;
}

async function loadFamily() {
  const query = page.view === null ? "" : `?seat=${page.view}`;
  try {
    lab.family = await api("GET", `/api/games/${encodeURIComponent(gameId)}/family${query}`, undefined, tokenFor(page.view));
  } catch (_) {
    lab.family = null;
  }
  renderFamily();
}

function renderFamily() {
  const box = $("family");
  const family = lab.family;
  const rows = [];
  const view = page.view === null ? "" : `?seat=${page.view === PUBLIC ? "public" : page.view}`;
  if (family && family.parent) {
    const p = family.parent;
    const anchor = p.there === null ? "" : `#e${p.there}`;
    rows.push(
      el(
        "p",
        {},
        "Forked from ",
        el("a", { href: `/games/${encodeURIComponent(p.game_id)}${view}${anchor}`, text: p.game_id }),
        ` at ${moment(p)}${p.replaced ? ", one decision replaced" : ""}` +
          (p.planted && p.planted.length
            ? `, a private result planted (event ${p.planted.join(", ")}: its seat was told otherwise)`
            : "") +
          "; ",
        el("a", { href: `#e${p.here}`, text: "its own play starts here" }),
        "."
      )
    );
  }
  if (family && family.forks.length) {
    rows.push(
      el("p", { text: `Forks of this game (${family.forks.length}):` }),
      el(
        "ul",
        {},
        ...family.forks.map((f) =>
          el(
            "li",
            {},
            el("a", { href: `/games/${encodeURIComponent(f.game_id)}${view}`, text: f.game_id }),
            ` from ${moment(f)} (`,
            el("a", { href: `#e${f.here}`, text: "that moment here" }),
            `) · ${f.status}${f.winner ? ` · ${f.winner} won` : ""}`
          )
        )
      )
    );
  }
  box.replaceChildren(...rows);
  box.classList.toggle("hidden", rows.length === 0);
}
