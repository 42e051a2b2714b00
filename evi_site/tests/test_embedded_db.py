import os
import queue
import subprocess
import sys
import threading

import psutil
import pytest

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
    # Each process connects, says so, and holds its connection until the test lets it go: all three
    # are connected at once, whatever the timing of their start-up.
    code = (
        "import sys; from django.db import connection; connection.ensure_connection(); "
        "print('verbonden', connection.settings_dict['HOST'], flush=True); sys.stdin.readline()"
    )
    processes = [
        subprocess.Popen(
            [sys.executable, "manage.py", "shell", "-c", code],
            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )
        for _ in range(3)
    ]
    try:
        hosts = {_connected_host(process) for process in processes}
        assert len(hosts) == 1
        assert all(process.poll() is None for process in processes), "all three hold a connection at the same time"
        assert len(_postmasters(_servers_for(data_dir))) == 1
    finally:
        outputs = [process.communicate("\n", timeout=120) for process in processes]
    assert all(p.returncode == 0 for p in processes), [err for _, err in outputs]
    assert _servers_for(data_dir) == []


def _connected_host(process: subprocess.Popen, timeout: float = 120.0) -> str:
    """The host a child reports once connected; fails if it exits or stays silent."""
    reported: queue.Queue = queue.Queue()

    def read() -> None:
        for line in process.stdout:
            if line.startswith("verbonden "):
                reported.put(line.split(" ", 1)[1].strip())
                return
        reported.put(None)

    threading.Thread(target=read, daemon=True).start()
    try:
        host = reported.get(timeout=timeout)
    except queue.Empty:
        pytest.fail("process did not connect in time")
    if host is None:
        pytest.fail(f"process exited before connecting: {process.stderr.read()}")
    return host


def _postmasters(processes: list[psutil.Process]) -> list[psutil.Process]:
    """The server processes whose parent is not a server process themselves."""
    pids = {p.pid for p in processes}
    return [p for p in processes if p.ppid() not in pids]
