"""Errors speak Dutch to people, and a bad Host header is a warning line, not an error with a traceback."""

import logging

import pytest
from django.test import RequestFactory
from django.views.defaults import server_error

pytestmark = pytest.mark.django_db


def test_it_answers_an_unknown_page_in_dutch(client):
    response = client.get("/bestaat-niet/")
    assert response.status_code == 404
    assert "Pagina niet gevonden" in response.content.decode()


def test_it_answers_a_server_error_in_dutch():
    response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert "Er ging iets mis" in response.content.decode()


def test_it_logs_a_bad_host_header_as_one_warning_line(client, caplog):
    with caplog.at_level(logging.WARNING, logger="django.security.DisallowedHost"):
        response = client.get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert "Ongeldig verzoek" in response.content.decode()
    [record] = [r for r in caplog.records if r.name == "django.security.DisallowedHost"]
    assert record.levelno == logging.WARNING and record.exc_info is None
