import os
import secrets
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
        ({"DEBUG": "true", "RATE_LIMIT_SEARCHES": "veel"}, "must look like 30/m"),
        ({"DEBUG": "true", "HNSW_EF_SEARCH": "40"}, "HNSW_EF_SEARCH (40) must be at least SEARCH_CANDIDATES"),
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


def _deploy_warnings(**env) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        # DJANGO_ALLOW_ASYNC_UNSAFE: set by the browser tests in this process, never in deployment.
        env={**{k: v for k, v in os.environ.items() if k not in ("DEBUG", "DJANGO_ALLOW_ASYNC_UNSAFE")}, "DATABASE_URL": "postgresql://u@127.0.0.1:1/x",
             "SECRET_KEY": secrets.token_urlsafe(50), "DEBUG": "false", "ALLOWED_HOSTS": "evi.example.nl", **env},
        capture_output=True, text=True, timeout=60,
    )
    return result.stdout + result.stderr


def test_it_switches_every_https_setting_on_with_one_variable():
    plain = _deploy_warnings()
    assert all(code in plain for code in ("security.W004", "security.W008", "security.W012", "security.W016"))
    for env in ({"HTTPS_ONLY": "true"}, {"HTTPS": "true"}):
        https = _deploy_warnings(**env)
        assert "System check identified no issues" in https, https


def test_it_trusts_the_configured_proxy_header_with_https_only():
    code = "from django.conf import settings; print(settings.SECURE_PROXY_SSL_HEADER)"
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, "DEBUG": "true", "DATABASE_URL": "postgresql://u@127.0.0.1:1/x", "HTTPS_ONLY": "true", "SECURE_PROXY_SSL_HEADER": "X-Scheme"},
    )
    assert "('HTTP_X_SCHEME', 'https')" in result.stdout, result.stderr


@pytest.mark.parametrize("value, threshold", [("", "0"), ("false", "None")])
def test_it_prepares_search_statements_unless_a_pooler_forbids_it(value, threshold):
    code = "from django.conf import settings; print(settings.DATABASES['default']['OPTIONS']['prepare_threshold'])"
    result = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60,
        env={**os.environ, "DEBUG": "true", "DATABASE_URL": "postgresql://u@127.0.0.1:1/x", "DATABASE_PREPARED_STATEMENTS": value},
    )
    assert result.stdout.strip().splitlines()[-1:] == [threshold], result.stderr


@pytest.mark.django_db
def test_it_sends_a_content_security_policy_that_allows_only_own_scripts(client):
    policy = client.get("/inloggen/").headers["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy and "unsafe-inline" not in policy


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/", "/richtlijnen/", "/admin/", "/admin/catalog/product/"])
def test_it_renders_no_inline_style_or_script_that_the_policy_would_block(client, staff, path):
    import re

    client.force_login(staff)
    html = client.get(path).content.decode()
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert 'style="' not in html and "<style" not in html


def test_it_documents_every_environment_variable_in_the_example():
    import re

    with open(os.path.join(ROOT, "evi_site", "settings.py"), encoding="utf-8") as settings_file:
        read = set(re.findall(r'env_(?:str|int|float|bool|choice|list)\("([A-Z0-9_]+)"', settings_file.read()))
    with open(os.path.join(ROOT, ".env.example"), encoding="utf-8") as example:
        documented = set(re.findall(r"^([A-Z0-9_]+)=", example.read(), re.MULTILINE))
    assert read and read <= documented, sorted(read - documented)
