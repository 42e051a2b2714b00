"""Pytest plugin (loaded with -p before pytest-django sets Django up): the test-wide environment.

A separate embedded database home and Redis database, so tests never touch development data.
"""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

os.environ.setdefault("SECRET_KEY", "test-only-secret-key")
os.environ.setdefault("EVI_DATA_DIR", str(ROOT / ".data" / "test"))
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
