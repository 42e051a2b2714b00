"""The pages gunicorn answers itself (before Django) come in Dutch from our worker class."""

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from evi_site.gunicorn_worker import dutch_error_page

ROOT = Path(__file__).resolve().parents[2]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _raw(port: int, request: bytes) -> str:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(request)
        chunks = []
        while chunk := connection.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks).decode("utf-8")


@pytest.fixture(params=[["DutchThreadWorker", "--threads", "2"], ["DutchSyncWorker"]], ids=["threaded", "sync"])
def gunicorn_port(request):
    port = _free_port()
    worker, *options = request.param
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "--worker-class", f"evi_site.gunicorn_worker.{worker}", *options, "--no-control-socket",
         "--bind", f"127.0.0.1:{port}", "evi_site.tests.tiny_wsgi:app"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                if _raw(port, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").endswith("ok"):
                    break
            except OSError:
                time.sleep(0.1)
        else:
            pytest.fail("gunicorn did not start")
        yield port
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_it_answers_a_too_long_address_with_a_dutch_page(gunicorn_port):
    response = _raw(gunicorn_port, b"GET /?q=" + b"x" * 10000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
    head, _, body = response.partition("\r\n\r\n")
    assert head.startswith("HTTP/1.1 414 ")
    assert "charset=utf-8" in head
    assert "Adres te lang" in body and "in het formulier" in body and "URI Too Long" not in body


def test_it_answers_a_malformed_request_with_a_dutch_page(gunicorn_port):
    response = _raw(gunicorn_port, b"GARBAGE\r\n\r\n")
    assert response.startswith("HTTP/1.1 400 ")
    assert "Ongeldig verzoek" in response and "Invalid" not in response.partition("\r\n\r\n")[2]


def test_it_still_serves_the_application(gunicorn_port):
    assert _raw(gunicorn_port, b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").endswith("ok")


def test_it_escapes_and_labels_every_status_it_may_get():
    for status in (400, 403, 414, 417, 431, 500, 501, 999):
        page = dutch_error_page(status)
        assert page.startswith("<!doctype html>") and 'lang="nl"' in page and "<h1>" in page


def _gunicorn_settings(monkeypatch, **environment) -> tuple[int, int, str]:
    for name in ("LLM_API_KEY", "WEB_WORKERS", "WEB_THREADS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setattr("os.cpu_count", lambda: 2)
    sys.modules.pop("evi_site.gunicorn_conf", None)
    import evi_site.gunicorn_conf as conf

    return conf.workers, conf.threads, conf.worker_class.rpartition(".")[2]


def test_it_serves_with_one_sync_worker_more_than_cores_without_an_llm_and_threads_with_one(monkeypatch):
    assert _gunicorn_settings(monkeypatch) == (3, 1, "DutchSyncWorker")
    assert _gunicorn_settings(monkeypatch, LLM_API_KEY="sk-test") == (2, 4, "DutchThreadWorker")
    assert _gunicorn_settings(monkeypatch, WEB_WORKERS="5", WEB_THREADS="2") == (5, 2, "DutchThreadWorker")
    assert _gunicorn_settings(monkeypatch, LLM_API_KEY="sk-test", WEB_THREADS="1") == (2, 1, "DutchSyncWorker")
