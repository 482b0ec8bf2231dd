"""tests/analysis/ has no ``__init__.py``: as a package it would be named ``analysis`` and hide the project's
own ``analysis``. Its test packages import the shared helpers of tests/ (``analysis_fixtures``)."""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = str(Path(__file__).resolve().parents[1])
if TESTS not in sys.path:
    sys.path.insert(0, TESTS)
