"""Finding games in the index (duskfall.store.search): every filter, sort and page agrees with
a plain reading of the rows, rows the index does not hold are paged with its own, and paging
reaches every game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from duskfall.store.index import GameIndex
from duskfall.store.rows import GameRow
from duskfall.store.search import SORTS, BadQuery, GameQuery
from duskfall.testing.index_rows import AGENTS, STATUSES, VARIANTS, make_rows


def _matches(row: GameRow, query: GameQuery) -> bool:
    if query.variant and row.variant != query.variant:
        return False
    if query.status and row.status != query.status:
        return False
    if query.agent and not any(
        query.agent in (s.agent, s.model) or s.agent.startswith(query.agent + ":")
        for s in row.seats
    ):
        return False
    if query.tournament and row.tournament != query.tournament:
        return False
    if query.source and (row.log_path is None) != (query.source == "simulated"):
        return False
    text = (query.text or "").strip().lower()
    if text:
        fields = [row.id, row.variant, row.winner, row.tournament, row.config.get("preset")]
        fields += [s.agent for s in row.seats]
        return any(text in str(f).lower() for f in fields if f is not None)
    return True


def _key(row: GameRow, sort: str) -> Any:
    value = {
        "started_at": row.started_at,
        "game_id": row.id,
        "variant": row.variant,
        "status": row.status,
        "winner": row.winner,
        "days": row.days,
        "events": row.events,
        "tokens": row.tokens,
        "cost_usd": row.cost_usd,
        "tournament": row.tournament,
    }[sort]
    return (value is not None, value if value is not None else 0)  # SQL: NULL sorts first


def expected(rows: list[GameRow], query: GameQuery) -> tuple[list[str], int]:
    found = [r for r in rows if _matches(r, query)]
    found.sort(key=lambda r: (_key(r, query.sort), r.id), reverse=query.descending)
    return [r.id for r in found[query.offset : query.offset + query.limit]], len(found)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Any:
    db = GameIndex(tmp_path_factory.mktemp("search") / "index.db")
    db.add_rows(ROWS)
    yield db
    db.close()


ROWS = make_rows(400)

queries = st.builds(
    GameQuery,
    variant=st.sampled_from([None, *VARIANTS]),
    status=st.sampled_from([None, *STATUSES]),
    agent=st.sampled_from([None, "llm", "heuristic", "openai:gpt-4o-mini", "local"]),
    tournament=st.sampled_from([None, "cup", "league"]),
    source=st.sampled_from([None, "simulated", "logged"]),
    text=st.sampled_from([None, "", "g001", "%", "_", "BIG_", "llm", "Village", "cup", "mafia"]),
    sort=st.sampled_from(list(SORTS)),
    descending=st.booleans(),
    limit=st.integers(1, 60),
    offset=st.integers(0, 420),
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(query=queries)
def test_every_filter_sort_and_page_agrees_with_the_rows(
    index: GameIndex, query: GameQuery
) -> None:
    page = index.search(query)
    ids, total = expected(ROWS, query)
    assert page.total == total
    assert [r.id for r in page.rows] == ids


def test_paging_reaches_every_game_once(index: GameIndex) -> None:
    seen: list[str] = []
    for offset in range(0, len(ROWS), 37):
        seen += [r.id for r in index.search(GameQuery(limit=37, offset=offset)).rows]
    assert sorted(seen) == sorted(r.id for r in ROWS)
    for row in ROWS[::17]:  # and each by its id
        assert row.id in [r.id for r in index.search(GameQuery(text=row.id)).rows]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(query=queries)
def test_rows_beside_the_index_are_paged_with_it(index: GameIndex, query: GameQuery) -> None:
    extra = make_rows(30, seed=9, prefix="log-")
    page = index.search(query, extra)
    ids, total = expected([*ROWS, *extra], query)
    assert (page.total, [r.id for r in page.rows]) == (total, ids)
    given_rows = {r.id: r for r in extra}
    for row in page.rows:  # the extra rows come back as given, seats and all
        assert row is given_rows.get(row.id, row)
    assert index.search(query).total == expected(ROWS, query)[1]  # nothing stays behind


def test_interrupted_is_a_running_game_whose_process_is_gone(tmp_path: Path) -> None:
    import socket

    here = socket.gethostname()
    gone = GameRow("gone", "mafia", {}, 1, (), "running", host=here, pid=2**22 + 12345)
    alive = GameRow(
        "alive", "mafia", {}, 2, (), "running", host=here, pid=__import__("os").getpid()
    )
    elsewhere = GameRow("elsewhere", "mafia", {}, 3, (), "running", host="another", pid=1)
    with GameIndex(tmp_path / "i.db") as index:
        index.add_rows([gone, alive, elsewhere])
        assert [r.id for r in index.search(GameQuery(status="interrupted")).rows] == ["gone"]
        running = index.search(GameQuery(status="running", sort="game_id", descending=False))
        assert [r.id for r in running.rows] == ["alive", "elsewhere"]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        (GameQuery(sort="seed"), "cannot sort by 'seed'"),
        (GameQuery(status="lost"), "unknown status 'lost'"),
        (GameQuery(source="dreamt"), "unknown source 'dreamt'"),  # type: ignore[arg-type]
        (GameQuery(limit=0), "a page holds 1 to 500 games"),
        (GameQuery(offset=-1), "the offset is 0 or more"),
    ],
)
def test_a_bad_query_says_what_is_wrong_in_one_line(
    index: GameIndex, query: GameQuery, message: str
) -> None:
    with pytest.raises(BadQuery, match=message) as caught:
        index.search(query)
    assert "\n" not in str(caught.value)


def test_facets_list_what_the_games_have(index: GameIndex) -> None:
    facets = index.facets(make_rows(3, seed=4, prefix="extra-"))
    assert facets.variants == sorted(VARIANTS)
    assert facets.tournaments == ["cup", "league"]
    assert set(facets.agents) == set(AGENTS)
