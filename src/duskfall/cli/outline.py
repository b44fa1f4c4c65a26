"""Which module defines which command, read from the command modules' source (``ast``), so a
command line imports only the module of its command, and ``duskfall --help`` lists every
command from outlines without importing any (each module's imports cost a second of CPU)."""

from __future__ import annotations

import ast
import importlib.util
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Command:
    """A command as its module's source declares it."""

    name: str
    help: str
    module: str


@dataclass
class Group:
    """A group of commands (``tournament``) and the variable its module keeps it in."""

    name: str
    help: str
    module: str
    variable: str
    commands: list[Command] = field(default_factory=list)


@dataclass
class Outline:
    commands: list[Command] = field(default_factory=list)
    groups: list[Group] = field(default_factory=list)

    def module_of(self, word: str) -> str | None:
        """The module that defines the command or group ``word``, if one does."""
        for command in self.commands:
            if command.name == word:
                return command.module
        for group in self.groups:
            if group.name == word:
                return group.module
        return None


def outline(modules: list[str]) -> Outline:
    """The commands and groups the ``modules`` define (those whose source is found)."""
    found = Outline()
    for module in modules:
        spec = importlib.util.find_spec(module)
        if spec is None or spec.origin is None:
            continue
        tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
        _read(tree, module, found)
    return found


def _read(tree: ast.Module, module: str, found: Outline) -> None:
    groups: dict[str, Group] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and _is_call(node.value, "Typer"):
            assert isinstance(node.value, ast.Call)
            target = node.targets[0]
            if isinstance(target, ast.Name):
                text = _keyword(node.value, "help") or ""
                groups[target.id] = Group("", text, module, target.id)
        elif isinstance(node, ast.Expr) and _is_call(node.value, "add_typer"):
            assert isinstance(node.value, ast.Call)
            name = _keyword(node.value, "name")
            first = node.value.args[0] if node.value.args else None
            if name and isinstance(first, ast.Name) and first.id in groups:
                groups[first.id].name = name
                found.groups.append(groups[first.id])
        elif isinstance(node, ast.FunctionDef):
            for decorator in node.decorator_list:
                owner = _command_owner(decorator)
                if owner is None:
                    continue
                assert isinstance(decorator, ast.Call)
                given = decorator.args[0] if decorator.args else None
                name = (
                    given.value
                    if isinstance(given, ast.Constant) and isinstance(given.value, str)
                    else node.name.replace("_", "-")
                )
                command = Command(name, ast.get_docstring(node) or "", module)
                if owner == "app":
                    found.commands.append(command)
                elif owner in groups:
                    groups[owner].commands.append(command)


def _is_call(node: ast.expr, attribute: str) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == attribute
    )


def _command_owner(decorator: ast.expr) -> str | None:
    """``app`` for ``@app.command(...)``, ``tournament_app`` for ``@tournament_app.command()``."""
    if _is_call(decorator, "command"):
        assert isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute)
        owner = decorator.func.value
        return owner.id if isinstance(owner, ast.Name) else None
    return None


def _keyword(call: ast.Call, name: str) -> str | None:
    for keyword in call.keywords:
        if keyword.arg == name and isinstance(keyword.value, ast.Constant):
            value = keyword.value.value
            return value if isinstance(value, str) else None
    return None
