"""A missing optional part skips a test in the quick tier and fails it in CI and the full tier."""

from __future__ import annotations

import pytest

from duskfall.testing.require import TIER_ENV, require, require_program, strict


@pytest.fixture
def quick(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv(TIER_ENV, raising=False)


def test_present_parts_are_returned(quick: None) -> None:
    assert require("json").dumps([]) == "[]"
    assert require_program("sh").endswith("sh")


def test_missing_parts_skip_in_the_quick_tier(quick: None) -> None:
    assert not strict()
    with pytest.raises(pytest.skip.Exception, match="no_such_module_here"):
        require("no_such_module_here")
    with pytest.raises(pytest.skip.Exception, match="no-such-program"):
        require_program("no-such-program")


@pytest.mark.parametrize(("name", "value"), [("CI", "true"), (TIER_ENV, "full")])
def test_missing_parts_fail_in_ci_and_the_full_tier(
    quick: None, monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    monkeypatch.setenv(name, value)
    assert strict()
    with pytest.raises(pytest.fail.Exception, match="CI and the full tier need it"):
        require("no_such_module_here", "pip install it")
    with pytest.raises(pytest.fail.Exception, match="no-such-program"):
        require_program("no-such-program")
