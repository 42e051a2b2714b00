"""Shared fixtures: the demo data, the fixed cast of users, and access to ../shared."""

import os
import socketserver
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent
SHARED = ROOT.parent / "shared"


@pytest.fixture(autouse=True)
def fresh_corpus_statistics():
    """Each test sees BM25 statistics of its own data: rows a test writes directly (not through the
    indexing services, which clear the cache) would otherwise be counted from an earlier test."""
    from lexical.stats import corpus_stats_clear
    from lexical.vocabulary import vocabulary_clear, vocabulary_generation

    corpus_stats_clear()
    generation = vocabulary_generation()
    yield
    if vocabulary_generation() != generation:
        # The test re-indexed something, so the vocabulary was rebuilt from data its transaction then
        # rolled back; the next test must not split compounds by words that are no longer there.
        vocabulary_clear()


def shared_path(*parts: str) -> Path:
    """A path in ../shared; skips the test when it is absent, except in CI where its absence is a failure."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        if os.environ.get("CI") == "true":
            pytest.fail(f"{path} is missing: CI must run with ../shared beside the clone")
        pytest.skip(f"{path} is absent (../shared ships only with the team's workspace, not with a user's clone)")
    return path


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Load the demo catalog, corpus and wijzer once, indexed with the configured model as in production
    (load_demo starts with the fast bootstrap model); each test then runs in a rolled-back transaction.

    pytest-django runs transactional tests last; those that reload the demo (demo_data) search the
    bootstrap model's vectors, which is what they need: pages, workers and concurrency, not relevance.
    """
    from django.core.management import call_command

    from embeddings.encoder import configured_model
    from indexing.reindex import reindex_run

    with django_db_blocker.unblock():
        call_command("load_demo", verbosity=0)
        reindex_run(model=configured_model())


@pytest.fixture
def demo_data(transactional_db):
    """For transactional tests: the demo data, reloaded when an earlier transactional test flushed it."""
    from django.core.management import call_command

    from catalog.models import Product

    if not Product.objects.exists():
        call_command("load_demo", verbosity=0)


@pytest.fixture
def fresh_precedent_index():
    """Judged situations a test writes in its own (rolled-back) transaction do not advance the cache
    generation, so the process's precedent index is rebuilt before and after the test."""
    from search.pipeline import precedents

    precedents._cached.clear()
    yield
    precedents._cached.clear()


@pytest.fixture
def no_reference_situations(db, fresh_precedent_index):
    """No judged situations vote: for tests of what stage 1 and the rules do on their own."""
    from search.models import ReferenceSituation

    ReferenceSituation.objects.all().delete()


@pytest.fixture
def owner(db, django_user_model):
    return django_user_model.objects.create_user(username="alice", password="password-alice")


@pytest.fixture
def colleague(db, django_user_model):
    return django_user_model.objects.create_user(username="bob", password="password-bob")


@pytest.fixture
def owner_client(client, owner):
    client.force_login(owner)
    return client


@pytest.fixture
def staff(db, django_user_model):
    return django_user_model.objects.create_user(username="carol", password="password-carol", is_staff=True, is_superuser=True)


@pytest.fixture
def browser():
    """Debian's Chromium through Playwright, for the tests marked `browser` (evi_site.tests.browser)."""
    from django.db import connections
    from playwright.sync_api import sync_playwright

    from evi_site.tests.browser import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()
        # Inside Playwright's event loop Django hands this thread a separate connection; close it here,
        # or it outlives the test and blocks dropping the test database.
        connections.close_all()


@dataclass
class DripServer:
    """A local HTTP server that sends its answer one byte per `interval` seconds."""

    port: int
    cut_off: threading.Event = field(default_factory=threading.Event)  # set when the client hung up early


@pytest.fixture
def drip_server():
    """Start drip servers for one test: drip_server(head, body, interval) → DripServer."""
    servers = []

    def start(head: bytes, body: bytes, interval: float) -> DripServer:
        dripped = DripServer(port=0)

        class Drip(socketserver.BaseRequestHandler):
            def handle(self):
                self.request.recv(65536)
                try:
                    self.request.sendall(head)
                    for byte in body:
                        self.request.sendall(bytes([byte]))
                        time.sleep(interval)
                except OSError:
                    dripped.cut_off.set()

        server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Drip)
        server.daemon_threads = True
        threading.Thread(target=server.serve_forever, daemon=True).start()
        servers.append(server)
        dripped.port = server.server_address[1]
        return dripped

    yield start
    for server in servers:
        server.shutdown()
        server.server_close()
