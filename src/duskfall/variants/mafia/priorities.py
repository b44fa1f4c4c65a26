"""Protection and investigation priorities, scored from public information only (seed 000).

The engine hands these to the doctors and sheriffs as shared, explained advice: every score
comes with the reasons that produced it. Inputs are the public record (speeches, votes,
revealed roles) plus what the whole team knows (its members, its own investigations).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

MAFIA = "MAFIA"


@dataclass(slots=True)
class PublicDigest:
    """Counts read off the public record, the raw material of every score."""

    accused: dict[int, int] = field(default_factory=dict)  # times named in day speeches
    accusations_made: dict[int, int] = field(default_factory=dict)
    accused_mafia: dict[int, int] = field(default_factory=dict)  # named a revealed mafioso
    votes_received: dict[int, int] = field(default_factory=dict)
    voted_mafia: dict[int, int] = field(default_factory=dict)  # votes for revealed mafia
    voted_town: dict[int, int] = field(default_factory=dict)  # votes that exiled town
    revealed: dict[int, tuple[str, ...]] = field(default_factory=dict)


def _bump(counts: dict[int, int], seat: int, by: int = 1) -> None:
    counts[seat] = counts.get(seat, 0) + by


def digest(public_log: Iterable[Mapping[str, Any]]) -> PublicDigest:
    """Summarise the public record (``speech``, ``vote_result`` and ``dawn`` entries)."""
    out = PublicDigest()
    named: list[tuple[int, int]] = []
    ballots: list[tuple[int, int]] = []
    for entry in public_log:
        kind = entry["kind"]
        if kind == "speech" and entry.get("target") is not None:
            if entry["target"] != entry["seat"]:
                _bump(out.accused, entry["target"])
                _bump(out.accusations_made, entry["seat"])
                named.append((entry["seat"], entry["target"]))
        elif kind == "vote_result":
            for voter, target in entry["votes"].items():
                if target is not None:
                    _bump(out.votes_received, target)
                    ballots.append((int(voter), target))
            if entry.get("eliminated") is not None:
                out.revealed[entry["eliminated"]] = tuple(entry["roles"])
        elif kind == "dawn":
            for death in entry["deaths"]:
                out.revealed[death["seat"]] = tuple(death["roles"])
    for speaker, target in named:
        if MAFIA in out.revealed.get(target, ()):
            _bump(out.accused_mafia, speaker)
    for voter, target in ballots:
        roles = out.revealed.get(target)
        if roles is not None:
            _bump(out.voted_mafia if MAFIA in roles else out.voted_town, voter)
    return out


@dataclass(frozen=True, slots=True)
class Priority:
    seat: int
    score: int
    reasons: tuple[str, ...]

    def to_dict(self, names: Sequence[str]) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "name": names[self.seat],
            "score": self.score,
            "reasons": list(self.reasons),
        }


def _ranked(items: list[Priority]) -> list[Priority]:
    return sorted(items, key=lambda p: (-p.score, p.seat))


def protection_priorities(
    info: PublicDigest, candidates: Iterable[int], team: Collection[int]
) -> list[Priority]:
    """Who the doctors should shield: players the mafia has most reason to kill."""
    out = []
    for seat in candidates:
        score, reasons = 10, []
        if info.accused_mafia.get(seat):
            score += 30
            reasons.append("named a player later revealed as mafia")
        if info.voted_mafia.get(seat):
            score += 10 * info.voted_mafia[seat]
            reasons.append(f"voted for revealed mafia {info.voted_mafia[seat]}x")
        made = info.accusations_made.get(seat, 0)
        if made:
            score += min(15, 5 * made)
            reasons.append("outspoken: accuses others")
        received = info.accused.get(seat, 0)
        if received:
            score -= min(30, 10 * received)
            reasons.append(f"under suspicion ({received} accusations)")
        if seat in team:
            score += 5
            reasons.append("fellow doctor")
        out.append(Priority(seat, score, tuple(reasons) or ("no public signal",)))
    return _ranked(out)


def investigation_priorities(
    info: PublicDigest, candidates: Iterable[int], team: Collection[int]
) -> list[Priority]:
    """Who the sheriffs should investigate: players the public record points at."""
    out = []
    for seat in candidates:
        score, reasons = 10, []
        received = info.accused.get(seat, 0)
        if received:
            score += 12 * received
            reasons.append(f"accused {received}x")
        votes = info.votes_received.get(seat, 0)
        if votes:
            score += 5 * votes
            reasons.append(f"received {votes} day votes")
        if info.voted_town.get(seat):
            score += 15 * info.voted_town[seat]
            reasons.append("voted out a town player")
        if info.accused_mafia.get(seat):
            score -= 20
            reasons.append("named a revealed mafioso")
        if info.voted_mafia.get(seat):
            score -= 10 * info.voted_mafia[seat]
            reasons.append("voted for revealed mafia")
        if seat in team:
            score -= 30
            reasons.append("fellow sheriff")
        out.append(Priority(seat, score, tuple(reasons) or ("no public signal",)))
    return _ranked(out)
