"""Guessing passwords gains nothing: after a few wrong ones the account is locked for that address."""

import pytest
from django.core.management import call_command
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _log_in(client, username: str, password: str):
    return client.post(reverse("login"), {"username": username, "password": password})


def test_it_locks_an_account_after_repeated_wrong_passwords_even_for_the_right_one(client, owner, colleague, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _log_in(client, "alice", "fout").status_code == 200  # the form again, with its error
    locked = _log_in(client, "alice", "fout")
    assert locked.status_code == 429
    assert "te vaak een verkeerd wachtwoord" in locked.content.decode()

    refused = _log_in(client, "alice", "password-alice")
    assert refused.status_code == 429 and "_auth_user_id" not in client.session
    assert _log_in(client, "bob", "password-bob").status_code == 302  # other accounts are not affected

    call_command("axes_reset", verbosity=0)  # what an admin does (or the cool-off does by itself)
    assert _log_in(client.__class__(), "alice", "password-alice").status_code == 302
