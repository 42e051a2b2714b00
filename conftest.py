"""Test-wide environment: a separate embedded database home and Redis database, so tests never touch dev data."""

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
SHARED = ROOT.parent / "shared"

os.environ.setdefault("SECRET_KEY", "test-only-secret-key")
os.environ.setdefault("EVI_DATA_DIR", str(ROOT / ".data" / "test"))
os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")


def shared_path(*parts: str) -> Path:
    """A path in ../shared; skips the test when it is absent, except in CI where its absence is a failure."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{path} is missing: CI must run with ../shared beside the clone")
        pytest.skip(f"{path} is absent (../shared ships only with the team's workspace, not with a user's clone)")
    return path
