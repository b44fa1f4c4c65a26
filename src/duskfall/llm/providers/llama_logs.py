"""llama.cpp's own log lines: to stderr only when asked for, else to Python logging at DEBUG.

llama.cpp reports through one process-wide callback. llama-cpp-python's callback maps the
levels of an older ggml (its WARN became ERROR), so lines such as ``llama_kv_cache_iswa:
using full-size SWA cache`` reached stderr even with ``verbose=False``. :func:`route_llama_logs`
installs a callback that prints them only once a verbose model has been loaded.
"""

from __future__ import annotations

import ctypes
import logging
import sys

import llama_cpp

log = logging.getLogger("duskfall.llm.llama_cpp")

_verbose = False
_installed = False


@llama_cpp.llama_log_callback
def _route(level: int, text: bytes, user_data: ctypes.c_void_p) -> None:
    line = text.decode("utf-8", errors="replace")
    if _verbose:
        sys.stderr.write(line)
        sys.stderr.flush()
    elif line.strip():
        log.debug("%s", line.rstrip("\n"))


def route_llama_logs(*, verbose: bool) -> None:
    """Send llama.cpp's logs to stderr if ``verbose`` (for the rest of the process: one
    verbose model is enough), else to the ``duskfall.llm.llama_cpp`` logger at DEBUG."""
    global _verbose, _installed
    _verbose = _verbose or verbose
    if not _installed:  # _route is module-level, so llama.cpp never calls a freed callback
        llama_cpp.llama_log_set(_route, ctypes.c_void_p(0))
        _installed = True
