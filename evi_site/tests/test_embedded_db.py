import os
import subprocess
import sys

import psutil

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _manage(data_dir, *args) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update({"EVI_DATA_DIR": str(data_dir), "DEBUG": "true"})
    return subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)


def _servers_for(data_dir) -> list[psutil.Process]:
    return [
        p for p in psutil.process_iter(["name", "cmdline"])
        if p.info["name"] == "postgres" and any(str(data_dir) in part for part in p.info["cmdline"] or [])
    ]


def test_it_gives_a_fresh_data_dir_a_fresh_database_that_survives_a_restart(tmp_path):
    data_dir = tmp_path / "evi"
    migrate = _manage(data_dir, "migrate", "--noinput", "-v", "0")
    assert migrate.returncode == 0, migrate.stderr
    assert (data_dir / "pg" / "PG_VERSION").exists()
    create = _manage(data_dir, "shell", "-c", "from django.contrib.auth.models import User; User.objects.create(username='blijft'); print(User.objects.count())")
    assert create.stdout.strip().splitlines()[-1] == "1", create.stderr
    assert _servers_for(data_dir) == [], "the last process to exit stops the embedded server"
    again = _manage(data_dir, "shell", "-c", "from django.contrib.auth.models import User; print(list(User.objects.values_list('username', flat=True)))")
    assert again.stdout.strip().splitlines()[-1] == "['blijft']", again.stderr


def test_it_shares_one_server_between_concurrent_processes(tmp_path):
    data_dir = tmp_path / "evi"
    assert _manage(data_dir, "migrate", "--noinput", "-v", "0").returncode == 0
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    env.update({"EVI_DATA_DIR": str(data_dir), "DEBUG": "true"})
    code = "import time; from django.db import connection; connection.ensure_connection(); time.sleep(2); print(connection.settings_dict['HOST'])"
    processes = [
        subprocess.Popen([sys.executable, "manage.py", "shell", "-c", code], cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(3)
    ]
    outputs = [p.communicate(timeout=120) for p in processes]
    assert all(p.returncode == 0 for p in processes), [err for _, err in outputs]
    assert len({out.strip().splitlines()[-1] for out, _ in outputs}) == 1
    assert _servers_for(data_dir) == []
