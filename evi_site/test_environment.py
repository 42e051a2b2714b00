"""Pytest plugin (loaded with -p before pytest-django sets Django up): the test-wide environment.

A separate embedded database home and Redis database, so tests never touch development data.
"""

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

os.environ.setdefault("SECRET_KEY", "test-only-secret-key")
os.environ.setdefault("EVI_DATA_DIR", str(ROOT / ".data" / "test"))
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
# Tests see every search run; the cache's own tests switch it on (search/tests/test_cache.py).
os.environ.setdefault("SEARCH_CACHE_SECONDS", "0")

# Whitenoise scans STATIC_ROOT when the app starts; tests serve static files through the finders instead.
(Path(os.environ["EVI_DATA_DIR"]) / "static").mkdir(parents=True, exist_ok=True)
