"""The dataset card: README.md with the Hugging Face header, the schema, how the data was
made, and the terms of the models that played."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import duskfall
from duskfall.export.columns import TABLES, Table

# Terms that come with a model's outputs, by the provider part of its spec.
MODEL_TERMS: Mapping[str, str] = {
    "local": "Gemma 3 270M (the bundled model): the Gemma Terms of Use, "
    "https://ai.google.dev/gemma/terms, and its Prohibited Use Policy",
    "openai": "the terms of the OpenAI-compatible service or of the model's own license "
    "(OpenAI's models: https://openai.com/policies/terms-of-use)",
    "anthropic": "Anthropic's terms: https://www.anthropic.com/legal/commercial-terms",
    "inspect": "the terms of the model evaluated through inspect_ai (its provider's)",
}
NO_TERMS = ("scripted",)


@dataclass
class Provenance:
    """What the card says about how the dataset was made."""

    command: str
    created_at: str
    fmt: str
    games: int
    variants: Counter[str] = field(default_factory=Counter)
    models: Counter[str] = field(default_factory=Counter)
    skipped: dict[str, int] = field(default_factory=dict)
    rows: dict[str, int] = field(default_factory=dict)


def _header(fmt: str) -> list[str]:
    lines = ["---", "license: other", "pretty_name: duskfall games", "tags:"]
    lines += ["- social-deduction", "- werewolf", "- mafia", "- llm-evaluation", "configs:"]
    for table in TABLES:
        for hidden in (False, True):
            name = table.file(hidden, fmt).rsplit(".", 1)[0]
            lines += [f"- config_name: {name}", f"  data_files: {table.file(hidden, fmt)}"]
    return [*lines, "---", ""]


def _schema(table: Table, fmt: str) -> list[str]:
    lines = [
        f"### `{table.name}`: {table.about}",
        "",
        f"Public file `{table.file(False, fmt)}`, hidden file `{table.file(True, fmt)}`; key "
        + ", ".join(f"`{k}`" for k in table.key)
        + ".",
        "",
    ]
    if table.split_rows:
        lines += [
            "The public file holds the public events (what every spectator saw); the hidden "
            "file holds the rest (private channels, admin records such as model calls).",
            "",
        ]
    lines += ["| column | type | part | meaning |", "| --- | --- | --- | --- |"]
    for column in table.columns:
        part = "key" if column.name in table.key else ("hidden" if column.hidden else "public")
        if table.split_rows:
            part = "both"
        lines.append(f"| `{column.name}` | {column.kind} | {part} | {column.about} |")
    return [*lines, ""]


def _terms(models: Iterable[str]) -> list[str]:
    lines = []
    for model in sorted(set(models)):
        provider = model.split(":", 1)[0]
        if provider in NO_TERMS:
            continue
        terms = MODEL_TERMS.get(provider, "the terms of the model's provider")
        lines.append(f"- `{model}`: {terms}")
    if not lines:
        return ["No model played in these games (programs only): no model terms apply.", ""]
    return [
        "Model outputs (replies, reasoning, speeches) come under the terms of the models that",
        "wrote them. Check them before you publish or train on this data:",
        "",
        *lines,
        "",
    ]


def dataset_card(provenance: Provenance) -> str:
    """The README.md of an export."""
    p = provenance
    variants = ", ".join(f"{v} ({n})" for v, n in sorted(p.variants.items())) or "none"
    skipped = ", ".join(f"{n} {why}" for why, n in sorted(p.skipped.items())) or "none"
    rows = ", ".join(f"`{name}` {n:,}" for name, n in p.rows.items())
    lines: list[str] = _header(p.fmt)
    lines += [
        "# duskfall games",
        "",
        f"{p.games} game{'s' if p.games != 1 else ''} of social deduction (Werewolf, Mafia "
        "and variants) played on",
        "[duskfall](https://pypi.org/project/duskfall/) by language models, programs and people,",
        "with every decision each seat made.",
        "",
        f"- variants: {variants}",
        f"- rows: {rows}",
        "",
        "```python",
        "from datasets import load_dataset",
        f'games = load_dataset("{p.fmt if p.fmt == "parquet" else "json"}", '
        f'data_files="games.{p.fmt}")["train"]',
        f'decisions = load_dataset("{p.fmt if p.fmt == "parquet" else "json"}", '
        f'data_files="decisions.{p.fmt}")["train"]',
        "```",
        "",
        "## Public and hidden parts",
        "",
        "Each table comes in two files. The public file holds what a spectator of the ended game",
        "could see: the public record, every role (revealed at the end), timings and token",
        "counts. The `_hidden` file holds what only a seat or the game's administrator saw: each",
        "seat's observation, the prompt sent to its model, its actions (night actions are",
        "private), its reasoning, refused replies, private events and the seed. Publish the",
        "public files alone, or join both on the key for the whole record. API keys, tokens",
        "and credentials are masked everywhere (`***`).",
        "",
        "## Schema",
        "",
    ]
    for table in TABLES:
        lines += _schema(table, p.fmt)
    lines += [
        "JSON columns hold JSON text (`json.loads` them). Seats are numbered from 0.",
        "",
        "## How it was made",
        "",
        f"- exported {p.created_at} by duskfall {duskfall.__version__}: `{p.command}`",
        "- every game was read from its hash-chained JSONL log and its rules replayed from the",
        "  recorded actions (the observation and legal actions of each decision are rebuilt by",
        "  that replay, as the seat was asked);",
        f"- games left out: {skipped} (still running, or without a readable log);",
        "- a decision's model columns count the calls made for it; the beliefs question (agent",
        "  option `beliefs=daily`) is counted apart and its answer is in `beliefs`.",
        "",
        "## Models and their terms",
        "",
        *_terms(p.models),
        "## License",
        "",
        "The game records are yours to license; the model outputs in them carry the terms",
        "above. duskfall itself is Apache-2.0.",
        "",
    ]
    return "\n".join(lines)
