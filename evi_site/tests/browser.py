"""What every browser test shares: Debian's Chromium (never a downloaded browser), the login, screenshots.

Screenshots land under test-output/screenshots/; copy one of each to docs/screenshots/ by hand when the
UI changes (a test run never modifies tracked files).
"""

import os
from pathlib import Path

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs an event loop in this thread

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "test-output" / "screenshots"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
BROWSER_TEST = [
    pytest.mark.browser,
    pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Debian's chromium is not installed (.ci/run installs it)"),
]


def log_in(page, url: str, *, username: str, password: str) -> None:
    """Log in through the login form and wait for the search page."""
    from playwright.sync_api import expect

    page.goto(url)
    expect(page.get_by_role("heading", name="Inloggen")).to_be_visible()
    page.get_by_label("Gebruikersnaam").fill(username)
    page.get_by_label("Wachtwoord").fill(password)
    page.get_by_role("button", name="Inloggen").click()
    expect(page.get_by_role("heading", name="Nieuwe zoekvraag")).to_be_visible()


def screenshot(page, name: str, *, full_page: bool = True) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / name), full_page=full_page)
