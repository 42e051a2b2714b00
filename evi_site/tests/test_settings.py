import os
import subprocess
import sys
from io import StringIO

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.core.management import call_command

from evi_site.env import env_bool, env_choice, env_float, env_int, env_list

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.parametrize(
    ("reader", "value"),
    [
        (lambda: env_bool("EVI_TEST_VALUE", False), "misschien"),
        (lambda: env_int("EVI_TEST_VALUE", 1), "drie"),
        (lambda: env_int("EVI_TEST_VALUE", 1, minimum=1), "0"),
        (lambda: env_float("EVI_TEST_VALUE", 1.0, maximum=2.0), "2.5"),
        (lambda: env_choice("EVI_TEST_VALUE", "local", ("local", "openai")), "cohere"),
    ],
)
def test_it_rejects_bad_environment_values_loudly(monkeypatch, reader, value):
    monkeypatch.setenv("EVI_TEST_VALUE", value)
    with pytest.raises(ImproperlyConfigured, match="EVI_TEST_VALUE"):
        reader()


def test_it_reads_good_environment_values(monkeypatch):
    monkeypatch.setenv("EVI_TEST_VALUE", " a, b ,,c ")
    assert env_list("EVI_TEST_VALUE") == ["a", "b", "c"]
    monkeypatch.setenv("EVI_TEST_VALUE", "Yes")
    assert env_bool("EVI_TEST_VALUE", False) is True
    monkeypatch.delenv("EVI_TEST_VALUE")
    assert env_int("EVI_TEST_VALUE", 7) == 7


def _load_settings(**env) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "SECRET_KEY", "DATABASE_URL", "EMBEDDING_BACKEND", "RANKER"}}
    # A DATABASE_URL keeps the embedded server out of the way: only settings parsing is under test.
    clean.update({"DATABASE_URL": "postgresql://u@127.0.0.1:1/x", "DJANGO_SETTINGS_MODULE": "evi_site.settings", **env})
    return subprocess.run(
        [sys.executable, "-c", "import django; django.setup()"], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    ("env", "message"),
    [
        ({"DEBUG": "false"}, "SECRET_KEY must be set"),
        ({"DEBUG": "true", "EMBEDDING_BACKEND": "bert"}, "EMBEDDING_BACKEND must be one of"),
        ({"DEBUG": "true", "RANKER": "llm"}, "RANKER=llm needs LLM_API_KEY"),
        ({"DEBUG": "true", "DATABASE_URL": "mysql://x"}, "DATABASE_URL must be a postgresql"),
        ({"DEBUG": "true", "LLM_TIMEOUT_S": "snel"}, "LLM_TIMEOUT_S must be a number"),
    ],
)
def test_it_refuses_to_start_with_bad_settings(env, message):
    result = _load_settings(**env)
    assert result.returncode != 0
    assert message in result.stderr


def test_it_starts_with_a_secret_key_and_debug_off():
    assert _load_settings(DEBUG="false", SECRET_KEY="x" * 50).returncode == 0


@pytest.mark.django_db
def test_it_has_no_pending_migrations():
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()
