"""Gunicorn settings for `make run` and the deploy guide: `gunicorn -c python:evi_site.gunicorn_conf evi_site.wsgi`.

Which worker model serves best depends on whether an LLM is configured (docs/deploy.md, README "Doorvoer"):

- Without an LLM (the offline default) every request is short CPU work, a streamed answer included.
  Sync workers, one more than there are cores, then win: a process takes a connection only when it
  is free, so requests wait in one first-come queue in the kernel instead of behind whichever
  threaded process happened to accept their connection. Measured at 20 and 100 concurrent searches
  on two cores: 38–46/s with p95 0.58–0.65 s, and 42–48/s with p95 2.3–2.7 s, against 35–39/s and
  38/s with p95 4.0–4.4 s for 2 threaded workers × 4.
- With an LLM a search or a streamed answer may wait seconds on it; threads keep such a process
  serving pages meanwhile (ANSWER_STREAMS_PER_PROCESS), so then 2 workers × 4 threads.

WEB_WORKERS and WEB_THREADS override the choice (WEB_THREADS above 1 means threaded workers).
"""

import os

from evi_site.env import env_int, env_str

llm_configured = bool(env_str("LLM_API_KEY"))
cores = os.cpu_count() or 1
threads = env_int("WEB_THREADS", 4 if llm_configured else 1, minimum=1, maximum=64)
workers = env_int("WEB_WORKERS", 2 if llm_configured else cores + 1, minimum=1, maximum=64)
worker_class = "evi_site.gunicorn_worker." + ("DutchThreadWorker" if threads > 1 else "DutchSyncWorker")
