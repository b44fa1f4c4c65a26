#!/usr/bin/env bash
# Set up everything the test suite needs (virtualenv, every extra including the local model,
# Chromium), then run ruff, mypy and the FULL test tier (`pytest --full`: a missing optional
# part fails there instead of skipping). Extra arguments go to pytest.
# Each step prints its name when it starts and its time when it ends.
set -euo pipefail
cd "$(dirname "$0")/.."

TOTAL_START=$SECONDS
STEP_START=$SECONDS
step() {
    STEP_START=$SECONDS
    printf '\n== %s  [%s]\n' "$*" "$(date +%H:%M:%S)"
}
step_done() {
    printf -- '-- done in %ss\n' "$((SECONDS - STEP_START))"
}

VENV=${DUSKFALL_VENV:-.venv}
step "virtualenv $VENV"
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
else
    echo "exists"
fi
# shellcheck disable=SC1091
. "$VENV/bin/activate"
step_done

step "pip: upgrade pip"
python -m pip install --upgrade --progress-bar on pip
step_done

# [dev] = every optional part (local model via llama-cpp-python, openai, anthropic, web) + test
# tools. The first time, llama-cpp-python builds from source: about 5 minutes on 2 cores.
step "pip: install -e .[dev] (a first llama-cpp-python build takes about 5 minutes)"
python -m pip install --progress-bar on -e ".[dev]"
step_done

# llama.cpp built for every feature of a processor with AMX traps when llama_cpp.server serves
# it (invalid opcode in libggml-cpu; the in-process model is unaffected): build it without AMX.
if grep -q amx_tile /proc/cpuinfo 2>/dev/null \
    && python -c 'import llama_cpp, sys; sys.exit("AMX_INT8 = 1" not in llama_cpp.llama_print_system_info().decode())' 2>/dev/null; then
    step "llama-cpp-python again, without AMX (this processor has it; about 5 minutes)"
    version=$(python -c 'import llama_cpp; print(llama_cpp.__version__)')
    CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF" \
        python -m pip install --no-cache-dir --force-reinstall --no-deps "llama-cpp-python==$version"
    step_done
fi

# Browser tests drive Debian's Chromium; install it when we can (root + apt).
step "chromium"
if [ -x /usr/bin/chromium ]; then
    echo "found /usr/bin/chromium"
elif command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y chromium
else
    echo "not installed and cannot install it (needs root and apt): the browser tests will fail"
fi
step_done

# The example clients outside Python (examples/) run in the full tier: Node.js 20+ and Perl.
step "node and perl (examples/)"
missing=()
command -v node >/dev/null 2>&1 || missing+=(nodejs)
command -v perl >/dev/null 2>&1 || missing+=(perl)
if [ ${#missing[@]} -eq 0 ]; then
    echo "found node $(node --version) and perl"
elif command -v apt-get >/dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y "${missing[@]}"
else
    echo "missing ${missing[*]} and cannot install (needs root and apt): the example tests will fail"
fi
step_done

step "ruff"
ruff check .
ruff format --check .
step_done

step "mypy"
mypy
step_done

step "pytest --full $*"
echo "the full tier takes about 40 minutes on 2 cores (more under load); a test running"
echo "over 30 s prints what it is doing every 30 s, with an estimate of what is left"
python -m pytest --full "$@"
step_done

printf '\nall checks passed in %ss\n' "$((SECONDS - TOTAL_START))"
