"""The Witch (a god of seed 004): each night, after the wolves, she is told whom they attacked
(``witch_told``) and may use one potion: the antidote saves the attacked player (not herself),
the poison kills any other living player; each works once per game. She is asked only while
she has a potion left.

Everything about her is here: her potions and what she was told (her notes), her rules text,
power and coaching hint, her night turn (what she is told, her legal choice: parse, sample,
schema, wire form, the prompt's question and fields, the browser's plain words and the
terminal's line; how it applies, what it does to the wolves' kill at dawn, how a bot picks), the
typed models, lines and marks of ``witch_told`` and ``witch_action``,
what her seat knows in a prompt's situation, and what the no-leak check randomises of what only
she knows.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from duskfall.core.choices import read_seat
from duskfall.core.errors import IllegalAction
from duskfall.core.events import Event, seats_visibility
from duskfall.core.legal import LegalChoice
from duskfall.core.prompting import DecisionPrompt
from duskfall.core.spectator import mark, night_of, seat_label
from duskfall.core.terminal_form import TerminalForm, one_line
from duskfall.variants.werewolf import phases as P
from duskfall.variants.werewolf.events import Cause, WerewolfEvent
from duskfall.variants.werewolf.legal import _label, _payload
from duskfall.variants.werewolf.prompt_decisions import SEAT_OR_NULL, _type_field
from duskfall.variants.werewolf.prompt_labels import labelled, labelled_list
from duskfall.variants.werewolf.role_unit import (
    Mind,
    Namer,
    Night,
    NightTurn,
    Obs,
    RoleUnit,
    said,
)

WITCH = "Witch"
KIND = "WITCH"
ANTIDOTE, POISON, PASS = "ANTIDOTE", "POISON", "PASS"
POTION = "<potion>"
ATTACKED = ("attacked tonight",)
_POTIONS, _TOLD = "Witch potions", "Witch told"  # her notes: (antidote, poison), (night, seat)


class WitchActionType(StrEnum):
    ANTIDOTE = ANTIDOTE
    POISON = POISON
    PASS = PASS


class WitchTold(WerewolfEvent):
    kind: ClassVar[str] = "witch_told"
    sub_phase: str | None = KIND
    seat: int
    target: int | None


class WitchAction(WerewolfEvent):
    kind: ClassVar[str] = "witch_action"
    sub_phase: str | None = KIND
    seat: int
    action: WitchActionType
    target: int | None = None


@dataclass(frozen=True, slots=True)
class Potion:
    """Her night: ANTIDOTE (on the wolves' target), POISON a seat, or PASS."""

    potion: str
    target: int | None = None
    kind: str = KIND

    def to_dict(self) -> dict[str, Any]:
        return {"type": KIND, "potion": self.potion, "target": self.target}


# -- her notes --------------------------------------------------------------------------------


def potions(state: Any) -> tuple[bool, bool]:
    """Whether her antidote and her poison are left (both, until she uses one)."""
    left: tuple[bool, bool] = state.notes.get(_POTIONS, (True, True))
    return left


def _told(state: Any) -> int | None:
    """Whom she was told the wolves attacked tonight (None before she is told)."""
    night, seat = state.notes.get(_TOLD, (0, None))
    return seat if night == state.day else None


def _view(state: Any, seat: int) -> dict[str, Any]:
    antidote, poison = potions(state)
    return {
        "antidote": antidote,
        "poison": poison,
        "attacked_tonight": _told(state) if state.phase == P.NIGHT else None,
    }


# -- her legal choice -------------------------------------------------------------------------

_POTION_WORDS = {"SAVE": ANTIDOTE, "HEAL": ANTIDOTE, "SKIP": PASS, "NONE": PASS, "NOTHING": PASS}


def _potion_word(word: str) -> str:
    upper = word.strip().strip(".!").upper()
    return _POTION_WORDS.get(upper, upper)


@dataclass(frozen=True, slots=True)
class WitchChoice(LegalChoice):
    """Save the wolves' target (``save_target``), poison one of ``poison_targets``, or pass."""

    attacked: int | None
    can_save: bool
    poison_targets: tuple[int, ...]
    names: tuple[str, ...]
    kind: str = KIND

    def parse(self, data: Any) -> Potion:
        if isinstance(data, Potion):
            potion, target = data.potion, data.target
        elif isinstance(data, dict):
            raw = _payload(data, self.kind, ("potion", "action", "use"))
            if not isinstance(raw, str):
                raise IllegalAction("potion must be ANTIDOTE, POISON or PASS", "bad_format")
            potion, target = _potion_word(raw), read_seat(data.get("target"), self.names)
        elif isinstance(data, str):
            word, _, rest = data.strip().partition(" ")
            potion = _potion_word(word)
            target = read_seat(rest, self.names) if rest.strip() else None
        else:
            raise IllegalAction(self.describe(), "bad_format")
        if potion == PASS:
            return Potion(PASS)
        if potion == ANTIDOTE:
            if not self.can_save:
                raise IllegalAction(self._why_no_save(), "invalid_action")
            if target is not None and target != self.attacked:
                raise IllegalAction(
                    f"the antidote only saves the wolves' target, seat {self.attacked}",
                    "invalid_target",
                )
            return Potion(ANTIDOTE, self.attacked)
        if potion == POISON:
            if not self.poison_targets:
                raise IllegalAction("you have no poison left", "invalid_action")
            if target not in self.poison_targets:
                raise IllegalAction(
                    "poison whom? choose "
                    + ", ".join(_label(t, self.names) for t in self.poison_targets),
                    "invalid_target",
                )
            return Potion(POISON, target)
        raise IllegalAction(f"unknown potion {potion!r}; {self.describe()}", "invalid_action")

    def _why_no_save(self) -> str:
        if self.attacked is None:
            return "nobody was attacked tonight, there is no one to save"
        return "you cannot use the antidote tonight (used up, or you cannot save yourself)"

    def options(self) -> list[Potion]:
        out = [Potion(PASS)]
        if self.can_save:
            out.append(Potion(ANTIDOTE, self.attacked))
        out.extend(Potion(POISON, t) for t in self.poison_targets)
        return out

    def default(self, rng: random.Random) -> Potion:
        return Potion(PASS)

    def sample(self, rng: random.Random) -> Potion:
        return rng.choice(self.options())

    def schema(self) -> dict[str, Any]:
        """One branch per potion, so a poison without a target never validates."""
        branches: list[dict[str, Any]] = [self._branch(PASS, None)]
        if self.can_save:
            branches.append(self._branch(ANTIDOTE, [self.attacked]))
        if self.poison_targets:
            branches.append(self._branch(POISON, list(self.poison_targets)))
        return branches[0] if len(branches) == 1 else {"anyOf": branches}

    def _branch(self, potion: str, targets: list[int | None] | None) -> dict[str, Any]:
        properties: dict[str, Any] = {"type": {"const": self.kind}, "potion": {"const": potion}}
        required = ["type", "potion"]
        if targets is None:
            properties["target"] = {"type": "null"}
        else:
            properties["target"] = {"enum": targets}
            required.append("target")
        return {
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": False,
        }

    def potions(self) -> list[str]:
        return [PASS] + [ANTIDOTE] * self.can_save + [POISON] * bool(self.poison_targets)

    def to_wire(self) -> dict[str, Any]:
        """``target`` lists the action's targets per potion (``save_target`` and
        ``poison_target`` are kept for older clients)."""
        targets: dict[str, list[int | None]] = {PASS: [None]}
        if self.can_save:
            targets[ANTIDOTE] = [self.attacked]
        if self.poison_targets:
            targets[POISON] = list(self.poison_targets)
        return {
            "type": self.kind,
            "potion": self.potions(),
            "target": targets,
            "save_target": self.attacked if self.can_save else None,
            "poison_target": list(self.poison_targets),
        }

    def describe(self) -> str:
        choices = []
        if self.can_save and self.attacked is not None:
            choices.append(f"'save' to use the antidote on {_label(self.attacked, self.names)}")
        if self.poison_targets:
            choices.append(
                "'poison N' to poison one of "
                + ", ".join(_label(t, self.names) for t in self.poison_targets)
            )
        choices.append("'pass' to do nothing")
        return "One potion at most tonight: " + "; ".join(choices) + "."

    # -- how it is put to a seat ------------------------------------------------------------

    def words(self) -> str:
        """The decision in plain words (the browser's buttons carry the choices)."""
        parts = []
        if self.attacked is not None:
            attacked = seat_label(self.attacked, dict(enumerate(self.names)))
            parts.append(f"The wolves attacked {attacked} tonight.")
        else:
            parts.append("The wolves attacked nobody tonight.")
        options = []
        if self.can_save and self.attacked is not None:
            options.append("save that player with your antidote")
        if self.poison_targets:
            options.append("poison a player")
        options.append("do nothing")
        choice = ", ".join(options[:-1]) + f" or {options[-1]}" if len(options) > 1 else options[0]
        return " ".join(parts) + f" You may {choice}: one potion at most tonight."

    def form(self) -> TerminalForm:
        """The terminal's one line (``legal.parse`` reads ``save``, ``poison N``, ``pass``)."""
        return one_line("save, poison <seat> or pass", "pass", intro=self.describe())

    def prompt(self, obs: Obs) -> DecisionPrompt:
        """The question, the fields of each potion, what is not available, a blank example."""
        attacked = (
            f"The werewolves attacked {labelled(self.attacked, obs, ATTACKED)} tonight."
            if self.attacked is not None
            else "Nobody was attacked tonight."
        )
        options = [f'- "potion": "{PASS}", "target": null: use no potion tonight.']
        if self.can_save and self.attacked is not None:
            options.append(
                f'- "potion": "{ANTIDOTE}", "target": the attacked seat\'s number: save '
                f"{labelled(self.attacked, obs)}."
            )
        if self.poison_targets:
            options.append(
                f'- "potion": "{POISON}", "target": the number of the seat you poison, one of: '
                f"{labelled_list(self.poison_targets, obs)}."
            )
        fields = [f'Fields: {_type_field(KIND)}; "potion" and "target" together are one of:']
        fields += options
        missing = self._unavailable(obs)
        if missing:
            fields.append(f"Not available tonight: {'; '.join(missing)}.")
        choices = self.potions()
        example = {
            "type": KIND,
            "potion": POTION if len(choices) > 1 else PASS,
            "target": SEAT_OR_NULL if len(choices) > 1 else None,
        }
        question = f"{attacked} Do you use a potion? At most one potion a night."
        return DecisionPrompt(question, example, "\n".join(fields))

    def _unavailable(self, obs: Obs) -> list[str]:
        """Why a potion cannot be used tonight."""
        missing = []
        if not self.can_save:
            if not obs.get("antidote", True):
                missing.append("the antidote (used up)")
            elif self.attacked is None:
                missing.append("the antidote (nobody was attacked)")
            else:
                missing.append("the antidote (you cannot save yourself)")
        if not self.poison_targets:
            missing.append("the poison (used up)")
        return missing


# -- her night --------------------------------------------------------------------------------


def _tell(night: Night, seat: int) -> bool:
    """Told the wolves' target (asked only while she has a potion left)."""
    if not any(potions(night)):
        return False
    night.notes[_TOLD] = (night.day, night.attacked)
    night.emit(WitchTold.kind, seats_visibility([seat]), KIND, seat=seat, target=night.attacked)
    return True


def _legal(night: Night, seat: int) -> WitchChoice:
    antidote, poison = potions(night)
    attacked = _told(night)
    return WitchChoice(
        attacked,
        antidote and attacked is not None and attacked != seat,
        night.living(exclude=seat) if poison else (),
        night.names,
    )


def _resolve(night: Night, seat: int, action: Any) -> None:
    assert isinstance(action, Potion)
    antidote, poison = potions(night)
    if action.potion == ANTIDOTE:
        night.notes[_POTIONS], night.saved = (False, poison), True
    elif action.potion == POISON:
        night.notes[_POTIONS], night.poisoned = (antidote, False), action.target
    night.emit(
        WitchAction.kind,
        seats_visibility([seat]),
        KIND,
        seat=seat,
        action=action.potion,
        target=action.target,
    )


def _settle(night: Night, deaths: dict[int, str]) -> None:
    """The antidote saves the wolves' target (a target also protected lives or dies as the
    table's ``guarded_and_saved`` says); the poison kills, whatever protects its victim."""
    attacked = night.attacked
    if night.saved and attacked is not None:
        if attacked not in night.shielded:
            deaths.pop(attacked, None)
        elif night.public_rules["guarded_and_saved"] == "dies":
            deaths[attacked] = Cause.WOLVES.value
    if night.poisoned is not None:
        deaths[night.poisoned] = Cause.POISON.value


def _bot(obs: Obs, legal: WitchChoice, mind: Mind) -> Potion:
    """Save the trusted checker or the sheriff (anyone, the first night); poison a wolf the
    trusted checker named, or a counter-claimant; else pass."""
    attacked = obs.get("attacked_tonight")
    seer = mind.trusted_checker(obs)
    if legal.can_save and (obs["day"] == 1 or attacked in (seer, obs["sheriff"])):
        return Potion(ANTIDOTE, attacked)
    sure = [s for s in mind.sure_wolves(obs) if s in legal.poison_targets]
    if sure:
        return Potion(POISON, sure[0])
    return Potion(PASS)


def _scramble(state: Any, rng: random.Random) -> None:
    living = state.living() or (0,)
    state.notes[_POTIONS] = (rng.random() < 0.5, rng.random() < 0.5)
    state.notes[_TOLD], state.saved = (state.day, rng.choice(living)), rng.random() < 0.5
    state.poisoned = rng.choice(living)


# -- what she knows, and what the table reads of her ------------------------------------------


def _knowledge(obs: Obs) -> list[str]:
    lines = [
        f"Your antidote: {'available' if obs['antidote'] else 'used'}; "
        f"your poison: {'available' if obs['poison'] else 'used'}."
    ]
    if obs["phase"] == P.NIGHT:
        attacked = obs.get("attacked_tonight")
        if attacked is not None:
            lines.append(f"Tonight the werewolves attacked {labelled(attacked, obs, ATTACKED)}.")
        elif obs.get("decision") == KIND:
            lines.append("Tonight the werewolves attacked nobody.")
    return lines


def _line(p: Mapping[str, Any], name: Namer) -> str:
    action = p["action"]
    if action == ANTIDOTE:
        return f"[witch] {name(p['seat'])} uses the antidote on {name(p['target'])}"
    if action == POISON:
        return f"[witch] {name(p['seat'])} poisons {name(p['target'])}"
    return f"[witch] {name(p['seat'])} uses no potion"


def _mark(event: Event) -> list[dict[str, Any]]:
    action = event.payload.get("action")
    if action == ANTIDOTE:
        return mark(event.payload.get("target"), "saved", f"saved (antidote), {night_of(event)}")
    if action == POISON:
        return mark(event.payload.get("target"), "poisoned", f"poisoned, {night_of(event)}")
    return []


def _rules(obs: Obs) -> list[str]:
    return [
        "- The Witch is then told whom the werewolves attacked, if anyone. She has one "
        "antidote, which saves the attacked player (not herself), and one poison, which "
        "kills any other living player; each works once per game, and she uses at most one "
        "potion a night. She is asked only while she has a potion left."
    ]


WITCH_UNIT = RoleUnit(
    WITCH,
    god=True,
    night=20,
    power=said(
        "Each night you are told whom the werewolves attacked. You have one antidote (it "
        "saves the attacked player, but not yourself) and one poison (it kills any other "
        "living player), each once per game, at most one potion a night."
    ),
    strategy="Saving the first night's victim is usually right; keep the poison for a player "
    "you are confident is a werewolf, such as one a credible {checker} named.",
    night_rules=_rules,
    view=_view,
    knowledge=_knowledge,
    lines={
        WitchTold.kind: lambda p, n: (
            f"[witch] the werewolves attacked {n(p['target'])} tonight"
            if p["target"] is not None
            else "[witch] nobody was attacked tonight"
        ),
        WitchAction.kind: _line,
    },
    marks={WitchAction.kind: _mark},
    bot_words="I am a good player.",
    events=(WitchTold, WitchAction),
    saves=True,
    turn=NightTurn(
        KIND,
        WitchChoice,
        "witch",
        tell=_tell,
        legal=_legal,
        resolve=_resolve,
        settle=_settle,
        bot=_bot,
        told=WitchTold.kind,
        mode="potion",
    ),
    scramble=_scramble,
)
