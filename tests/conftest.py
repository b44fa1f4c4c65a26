"""Shared pytest configuration.

* ``tests/`` is importable, so variant tests can ``from kit import VariantKit``;
* games played by tests are indexed in a throwaway SQLite file, never in the working
  directory's ``duskfall.db`` (tests that test the index choose their own path).
"""

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

os.environ["DUSKFALL_DB"] = str(Path(tempfile.mkdtemp(prefix="duskfall-tests-")) / "duskfall.db")
