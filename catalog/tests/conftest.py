"""Fixtures for the link checks: a local web server the checker may reach, a guard against any
connection at all, and a real Celery worker on the test Redis."""

import socket
import time

import pytest
from pytest_httpserver import HTTPServer


@pytest.fixture(scope="session")
def link_server_session():
    # Threaded, so a deliberately slow endpoint does not hold up the requests after it.
    server = HTTPServer(host="127.0.0.1", port=0, threaded=True)
    server.start()
    yield server
    server.clear()
    server.stop()


@pytest.fixture
def link_server(link_server_session, settings):
    """The local server, reachable for the checker through URL_VALIDATION_ALLOWED_HOSTS (host:port)."""
    link_server_session.clear()
    settings.URL_VALIDATION_ALLOWED_HOSTS = [f"127.0.0.1:{link_server_session.port}"]
    settings.URL_VALIDATION_TIMEOUT_S = 0.5
    yield link_server_session
    link_server_session.clear()


@pytest.fixture
def no_connections(monkeypatch):
    """Fails the test on any attempt to open a TCP connection."""

    def refuse(*args, **kwargs):
        raise AssertionError(f"a connection was attempted: {args}")

    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)


def wait_until(condition, *, timeout: float = 15.0, interval: float = 0.05):
    """Poll until condition() is truthy; returns its value or fails the test at the deadline."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    pytest.fail(f"condition not met within {timeout} s")


@pytest.fixture(scope="module")
def celery_worker(django_db_setup):
    """A real worker thread (solo pool) consuming from the test Redis, emptied first."""
    import redis
    from celery.contrib.testing.worker import start_worker
    from celery.signals import task_postrun
    from django.conf import settings
    from django.db import connections

    from evi_site.celery import app

    redis.Redis.from_url(settings.REDIS_URL).flushdb()

    def close_worker_connections(task=None, **kwargs):
        # The worker thread's connection would outlive the test database otherwise.
        if not task.request.is_eager:
            connections.close_all()

    task_postrun.connect(close_worker_connections, weak=False)
    try:
        with start_worker(app, perform_ping_check=False, pool="solo", shutdown_timeout=30) as worker:
            yield worker
    finally:
        task_postrun.disconnect(close_worker_connections)


@pytest.fixture
def admin_change_data():
    """The product's admin change form as the browser would post it unchanged; callers edit fields."""
    from django import forms

    def build(client, product) -> dict:
        form = client.get(f"/admin/catalog/product/{product.pk}/change/").context["adminform"].form
        data = {"_save": "Opslaan"}
        for name, field in form.fields.items():
            value = form[name].value()
            if isinstance(field, forms.BooleanField):
                if value:
                    data[name] = "on"
            else:
                data[name] = "" if value is None else value
        return data

    return build
