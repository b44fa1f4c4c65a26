#!/usr/bin/env bash
# Set up everything the test suite needs (virtualenv, all extras, the local model, Chromium),
# then run lint, type checks and the whole test suite. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=${DUSKFALL_VENV:-.venv}
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
# shellcheck disable=SC1091
. "$VENV/bin/activate"
python -m pip install --quiet --upgrade pip
# [dev] = every optional part (local model via llama-cpp-python, openai, anthropic, web) + test tools.
python -m pip install --quiet -e ".[dev]"

# Browser tests drive Debian's Chromium; install it when we can (root + apt).
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi

echo "== ruff"
ruff check .
ruff format --check .
echo "== mypy"
mypy
echo "== pytest"
python -m pytest "$@"
