"""Decision forms built from the legal view: every kind of every variant has distinct labels,
every listed choice is legal, and nothing is left to a free JSON box."""

from __future__ import annotations

import functools
import re
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
FIELD_KINDS = {"text", "select", "vector", "number", "records"}
JSON_TERMS = re.compile(r"[\"{}\[\]_]|(?<!\w)'|\b[A-Z]{3,}\b")  # quotes, braces, KEY_WORDS


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


def test_mafia_and_sports_mafia_ask_in_plain_words() -> None:
    """Issue 30: their questions were the prompts' JSON terms (``SAY: your message in
    "says"``, ``'declaration' = 10 integers``)."""
    for key, found in _decisions().items():
        if key[0] in ("mafia", "sports-mafia"):
            question = found["form"]["question"]
            assert question and not JSON_TERMS.search(question), (key, question)


def test_every_target_marks_the_seat_itself_and_its_teammates() -> None:
    marked = set()
    for key, found in _decisions().items():
        seat, mates = found["seat"], set(found["card"].teammates)
        form = found["form"]
        labels = [c["label"] for c in form["choices"]]
        labels += [o["label"] for f in form["fields"] for o in f.get("options", [])]
        labels += [cell for f in form["fields"] for cell in f.get("cells", [])]
        for label in labels:
            about = re.search(r"\bseat (\d+)\)?", label)
            if about is None:
                continue
            target = int(about.group(1))
            want = "(you)" if target == seat else "(teammate)" if target in mates else None
            assert (want is None and not label.endswith(("(you)", "(teammate)"))) or (
                want is not None and label.endswith(want)
            ), (key, seat, mates, label)
            if want:
                marked.add((key[0], want))
    assert {("werewolf", "(teammate)"), ("sports-mafia", "(teammate)")} <= marked
    assert {("mafia", "(you)"), ("werewolf", "(you)")} <= marked


def test_no_dropdown_offers_both_none_and_nobody() -> None:
    for key, found in _decisions().items():
        for field in found["form"]["fields"]:
            labels = [o["label"] for o in field.get("options", [])]
            assert not {"(none)", "Nobody"} <= set(labels), (key, field["key"], labels)
            assert len(set(labels)) == len(labels), (key, labels)


def test_a_sheriff_announces_checks_from_the_declaration_form() -> None:
    """Sports mafia: the declaration's form has a list of announced checks (night, player,
    team); what the page assembles from it is the declaration the rules read."""
    found = next(v for k, v in _decisions().items() if k[:2] == ("sports-mafia", "DECLARATION"))
    fields = {f["key"]: f for f in found["form"]["fields"]}
    claims = fields["claims"]
    assert claims["kind"] == "records" and claims["label"].startswith("Sheriff checks")
    columns = {c["key"]: c["options"] for c in claims["columns"]}
    assert [o["label"] for o in columns["team"]] == ["Red", "Black"]
    pick = {key: options[i]["value"] for key, options, i in
            (("night", columns["night"], 0), ("player", columns["player"], 3),
             ("team", columns["team"], 1))}  # fmt: skip
    action = {"type": "DECLARATION", "declaration": [0] * 10, "nomination": -1, "claims": [pick]}
    declaration = found["legal"].parse(action)
    assert declaration.sheriff_claims[0][3] == -1  # night 1: player 3 is black
    assert sum(map(abs, declaration.sheriff_claims[0])) == 1
