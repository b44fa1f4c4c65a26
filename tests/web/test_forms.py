"""Decision forms built from the legal view: every kind of every variant has distinct labels,
every listed choice is legal, and nothing is left to a free JSON box."""

from __future__ import annotations

import functools
from typing import Any

from duskfall.web.forms import decision_form

from .decision_forms import every_decision

KINDS = {
    "mafia": {"MAFIA_CHAT", "MAFIA_VOTE", "DOCTOR_ACTION", "SHERIFF_ACTION", "VIGILANTE_ACTION",
              "DAY_DISCUSSION", "DAY_VOTE"},
    "sports-mafia": {"DECLARATION", "VOTING", "NIGHT_KILL", "NIGHT_DON", "NIGHT_SHERIFF"},
    "werewolf": {"WOLF_CHAT", "WOLF_KILL", "WITCH", "SEER", "GUARD", "HUNTER_SHOT", "BADGE_RUN",
                 "BADGE_SPEECH", "BADGE_WITHDRAW", "BADGE_VOTE", "BADGE_PASS", "LAST_WORDS",
                 "SPEECH", "VOTE"},
}  # fmt: skip
FIELD_KINDS = {"text", "select", "vector", "number"}


@functools.cache
def _decisions() -> dict[tuple[Any, ...], dict[str, Any]]:
    return every_decision()


def test_every_decision_kind_is_met() -> None:
    met: dict[str, set[str]] = {}
    for variant, kind, _ in _decisions():
        met.setdefault(variant, set()).add(kind)
    assert met == KINDS


def test_choices_are_legal_distinct_and_labelled() -> None:
    for key, found in _decisions().items():
        form, legal = found["form"], found["legal"]
        labels = [c["label"] for c in form["choices"]]
        assert len(set(labels)) == len(labels), (key, labels)
        assert all(labels) or len(labels) == 1, (key, labels)
        assert all(f["kind"] in FIELD_KINDS and f["label"] for f in form["fields"]), key
        filler = {f["key"]: "..." for f in form["fields"] if f["kind"] == "text"}
        for choice in form["choices"]:
            legal.parse({**filler, **choice["value"]})  # raises if the listed action is illegal


def test_witch_choices_read_as_people_say_them() -> None:
    shapes = {k[2]: v["form"] for k, v in _decisions().items() if k[1] == "WITCH"}
    full = shapes[("PASS", "ANTIDOTE", "POISON")]
    labels = [c["label"] for c in full["choices"]]
    assert labels[0] == "Pass"
    assert any(label.startswith("Save ") for label in labels)
    assert any(label.startswith("Poison ") and "(seat " in label for label in labels)
    assert not full["fields"]  # pass needs no target box


def test_labels_use_names_and_the_decision_words() -> None:
    schema = {
        "type": "object",
        "properties": {"type": {"const": "VOTE"}, "target": {"enum": [0, 1, None]}},
        "required": ["type", "target"],
    }
    form = decision_form(schema, dict, {0: "Ada", 1: "Bram"}, "Whom? ... or 'abstain'.")
    assert [c["label"] for c in form["choices"]] == ["Ada (seat 0)", "Bram (seat 1)", "Abstain"]
