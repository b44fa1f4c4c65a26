"""The one redaction function: URL credentials, auth headers, bearer tokens, known secrets."""

from __future__ import annotations

import pytest

from duskfall.core.redaction import (
    MASK,
    forget_secret,
    redact,
    redact_value,
    refresh_secret_env,
    register_secret,
    register_secret_env,
)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("openai:m@http://user:hunter2x@127.0.0.1:9/v1", "openai:m@http://127.0.0.1:9/v1"),
        ("see https://me@host/x and ftp://a:b@c/", "see https://host/x and ftp://c/"),
        ("Authorization: Bearer sk-abc123def", f"Authorization: {MASK}"),
        ('{"x-api-key": "k-9876543"}', f'{{"x-api-key": "{MASK}"}}'),
        ("headers={'api-key': 'zz-1234'}", f"headers={{'api-key': '{MASK}'}}"),
        ("you sent Bearer sk-live-0001 again", f"you sent Bearer {MASK} again"),
        ("the bearer of bad news", "the bearer of bad news"),
        ("mail me at https://example.org/a@b", "mail me at https://example.org/a@b"),
        ("", ""),
    ],
)
def test_patterns(text: str, expected: str) -> None:
    assert redact(text) == expected


def test_registered_values_are_masked_anywhere() -> None:
    register_secret("tok-REGISTERED-4242")
    register_secret("ab")  # too short to mask safely: ignored
    assert redact("x tok-REGISTERED-4242y") == f"x {MASK}y"
    assert redact("ab cd") == "ab cd"


def test_a_forgotten_value_is_no_longer_masked() -> None:
    register_secret("tok-FORGOTTEN-4242")
    register_secret("tok-KEPT-4242")
    forget_secret("tok-FORGOTTEN-4242")
    forget_secret("never-registered")  # nothing to forget: no error
    assert redact("tok-FORGOTTEN-4242 tok-KEPT-4242") == f"tok-FORGOTTEN-4242 {MASK}"


def test_environment_keys_are_read_at_registration_and_refresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DUSKFALL_TEST_SECRET_ENV", "env-secret-777")
    register_secret_env("DUSKFALL_TEST_SECRET_ENV")
    assert redact("value env-secret-777.") == f"value {MASK}."
    monkeypatch.setenv("DUSKFALL_TEST_SECRET_ENV", "env-secret-888")
    assert redact("env-secret-888") == "env-secret-888"  # not read per call
    refresh_secret_env()
    assert redact("env-secret-888") == MASK
    register_secret_env("DUSKFALL_TEST_SECRET_ENV")  # registering again reads it too
    monkeypatch.delenv("DUSKFALL_TEST_SECRET_ENV")
    refresh_secret_env()
    assert redact("env-secret-888") == "env-secret-888"  # a variable unset: its old value goes


def test_url_with_a_registered_password_loses_the_whole_userinfo() -> None:
    register_secret("pw-REGISTERED-55")
    assert redact("http://user:pw-REGISTERED-55@host/v1") == "http://host/v1"


def test_redact_value_walks_json() -> None:
    register_secret("json-secret-31337")
    data = {"a": ["x json-secret-31337", 3, None], "json-secret-31337": {"b": "ok"}}
    assert redact_value(data) == {"a": [f"x {MASK}", 3, None], MASK: {"b": "ok"}}
