// The statistics page: win rates with Wilson 95% intervals by variant, preset and agents;
// game length; tokens (cached and uncached) and cost per game and per seat.
"use strict";

const GROUP_TITLES = {
  variant: "By variant", preset: "By role preset", agents: "By agents",
  role: "Seats by role", agent: "Seats by agent",
};

function percent(x) {
  return `${(100 * x).toFixed(1)}%`;
}

function rateCell(rate) {
  const bar = el("span", { class: "ci", "aria-hidden": "true" },
    el("span", { class: "ci-range", style: `left:${rate.low * 100}%;width:${(rate.high - rate.low) * 100}%` }),
    el("span", { class: "ci-point", style: `left:${rate.rate * 100}%` }));
  return el("td", { class: "rate", "data-result": rate.result, "data-text": rate.text },
    el("span", { text: rate.text }), bar);
}

function groupTable(by, groups) {
  const results = [...new Set(groups.flatMap((g) => g.rates.map((r) => r.result)))];
  return el("section", { class: "panel", "data-by": by },
    el("h2", { text: GROUP_TITLES[by] || by }),
    el("div", { class: "scroll-x" }, el("table", { class: "stats-table" },
      el("thead", {}, el("tr", {},
        el("th", { scope: "col", text: "games of" }), el("th", { scope: "col", text: "n" }),
        el("th", { scope: "col", text: "aborted, left out" }),
        ...results.map((r) => el("th", { scope: "col", text: r === "draw" ? "draws [95% interval]" : `${r} wins [95% interval]` })),
        el("th", { scope: "col", text: "days" }), el("th", { scope: "col", text: "tokens uncached / cached / completion" }),
        el("th", { scope: "col", text: "cost per game / seat" }))),
      el("tbody", {}, ...groups.map((g) => el("tr", { "data-variant": g.variant, "data-key": g.key },
        el("th", { scope: "row", text: by === "variant" ? g.variant : `${g.variant} · ${g.key}` }),
        el("td", { text: g.games }),
        el("td", { class: "aborted", text: g.aborted }),
        ...results.map((r) => {
          const rate = g.rates.find((x) => x.result === r);
          return rate ? rateCell(rate) : el("td", {});
        }),
        el("td", { text: g.mean_days.toFixed(2) }),
        el("td", { text: `${g.tokens.uncached} / ${g.tokens.cached} / ${g.tokens.completion} (${g.tokens.per_seat.toFixed(0)} per seat)` }),
        el("td", { text: `$${g.cost_per_game.toFixed(4)} / $${g.cost_per_seat.toFixed(4)}` })))))));
}

/** Seats' win rates (the share of seats of a role or agent whose team won). */
function seatTable(by, groups) {
  return el("section", { class: "panel", "data-by": by },
    el("h2", { text: GROUP_TITLES[by] }),
    el("div", { class: "scroll-x" }, el("table", { class: "stats-table" },
      el("thead", {}, el("tr", {},
        el("th", { scope: "col", text: by === "role" ? "role" : "agent" }), el("th", { scope: "col", text: "seats" }),
        el("th", { scope: "col", text: "its team won [95% interval]" }))),
      el("tbody", {}, ...groups.map((g) => el("tr", { "data-variant": g.variant, "data-key": g.key },
        el("th", { scope: "row", text: `${g.variant} · ${g.key}` }),
        el("td", { text: g.seats }),
        rateCell(g.rates[0])))))));
}

async function load() {
  const stats = await api("GET", "/api/stats");
  document.getElementById("stats-summary").textContent =
    `${stats.games} finished games in the index (${stats.simulated} simulated, without a log); ` +
    `${stats.aborted} aborted ${stats.aborted === 1 ? "game" : "games"} left out of every rate (they ended without a result). ` +
    "Intervals: Wilson 95%.";
  const sections = [];
  for (const by of ["variant", "preset", "agents"]) {
    const groups = stats.groups.filter((g) => g.by === by);
    if (groups.length) sections.push(groupTable(by, groups));
  }
  for (const by of ["role", "agent"]) {
    const groups = stats.seat_groups.filter((g) => g.by === by);
    if (groups.length) sections.push(seatTable(by, groups));
  }
  document.getElementById("stats").replaceChildren(...sections);
}

load().catch((err) => {
  document.getElementById("stats-summary").textContent = `could not load the statistics: ${err.message}`;
});
