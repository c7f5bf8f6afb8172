"""Settings, from the environment only (README "Configuration").

DATABASE_URL   default: SQLite file var/db.sqlite3 (WAL, busy timeout, immediate transactions)
REDIS_URL      set: channels-redis layer, Celery broker, the computer turns' due set; unset: in-memory
               layer, background jobs in-process
JOBS           how background jobs run (games/background/jobs.py): celery (the default with Redis),
               inprocess (the default without), off
TURN_CHAINS, TURN_SLICE, TURN_BATCH, TURN_LEASE, TURN_TIME_LIMIT   the Celery chains that play the due
               computer turns (games/background/dueturns.py)
SPECTATOR_SOCKET  with Redis: spectators watch through the spectator edge at this path (infra/edge/)
DJANGO_SECRET_KEY, DJANGO_DEBUG, ALLOWED_HOSTS
ACTION_RATE_LIMIT, HINT_RATE_LIMIT, CHAT_RATE_LIMIT, API_TABLES_RATE_LIMIT, SOCKET_RATE, SOCKET_BURST, MAX_REQUEST_BODY   limits (docs/security.md)
DJANGO_HTTPS   1 behind nginx with TLS: secure cookies, HSTS, redirect to https (docs/deploying.md)
LOG_FORMAT     json: one JSON object per log line (production); default: plain text
TURN_WATCHDOG_INTERVAL, TURN_WATCHDOG_IDLE   the computer turns' watchdog (celery beat)
CHANNEL_LAYER_CONNECTIONS   Redis connections a process's channel layer may hold at once (1000)
FOLDS_KEPT     games whose last fold each process keeps (1024): at least the live tables a process serves
LOBBY_IDLE_MINUTES   minutes without a move before a table leaves the lobby's live list (10)
DEMO_PAUSE_MINUTES   the pause before the demo club's tournament starts again once it ends (15)
METRICS_TOKEN  lets /metrics be read from elsewhere than this machine (infra/metrics.py)
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import dj_database_url
import django.conf.locale
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)
(VAR_DIR / "static").mkdir(exist_ok=True)


def _flag(name: str, default: bool) -> bool:
    return os.environ.get(name, "1" if default else "0").strip().lower() in {"1", "true", "yes", "on"}


DEBUG = _flag("DJANGO_DEBUG", False)
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG and os.environ.get("DJANGO_REQUIRE_SECRET_KEY"):
        raise RuntimeError("DJANGO_SECRET_KEY must be set in production")
    # A per-checkout key, so the embedded mode runs with nothing to configure.
    key_file = VAR_DIR / "secret_key"
    if not key_file.exists():
        import secrets

        key_file.write_text(secrets.token_urlsafe(50))
    SECRET_KEY = key_file.read_text().strip()

ALLOWED_HOSTS = [
    h.strip() for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",") if h.strip()
]
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]

# --- Behind nginx with TLS (DJANGO_HTTPS=1); off by default so bin/run serves plain http on loopback.
HTTPS = _flag("DJANGO_HTTPS", False)
if HTTPS:
    # Only nginx reaches Daphne (bound to loopback or a private network), and nginx sets this header.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = _flag("DJANGO_SSL_REDIRECT", HTTPS)
# Load balancers and scrapers may ask over plain http inside the network.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^metrics$"]
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = _flag("DJANGO_SECURE_COOKIES", HTTPS)
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", str(365 * 24 * 3600) if HTTPS else "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = _flag("DJANGO_HSTS_INCLUDE_SUBDOMAINS", HTTPS)
SECURE_HSTS_PRELOAD = _flag("DJANGO_HSTS_PRELOAD", HTTPS)
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
LOG_FORMAT = os.environ.get("LOG_FORMAT", "plain").strip().lower()
if LOG_FORMAT not in {"plain", "json"}:
    raise RuntimeError(f"LOG_FORMAT must be plain or json, not {LOG_FORMAT!r}")

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "games",
    "tournaments",
    "replay",
    "seasons",
    "chat",
    "frontend",
    "infra.apps.InfraConfig",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # A NUL character in a path, query or form field is refused before anything stores it (400).
    "infra.limits.RefuseNulMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # After authentication: a signed-in player's saved language wins over the browser's.
    "frontend.languages.ProfileLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Innermost: the API's 404 and 405 in its own JSON shape, in the language the layers above chose.
    "frontend.api.refusals.json_refusals",
]

ROOT_URLCONF = "infra.urls"
ASGI_APPLICATION = "infra.asgi.application"
WSGI_APPLICATION = "infra.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------------------------------
_default_db = f"sqlite:///{VAR_DIR / 'db.sqlite3'}"
DATABASES = {"default": dj_database_url.parse(os.environ.get("DATABASE_URL") or _default_db, conn_max_age=60)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["OPTIONS"] = {
        # Concurrent writers queue on the write lock (IMMEDIATE + busy timeout) instead of failing.
        "transaction_mode": "IMMEDIATE",
        "timeout": 30,
        "init_command": "PRAGMA journal_mode=WAL;PRAGMA synchronous=NORMAL;PRAGMA busy_timeout=30000",
    }
    # A file (not memory) so test threads and subprocesses share it; one per test run, so runs in
    # parallel do not clobber each other.
    DATABASES["default"]["TEST"] = {"NAME": str(VAR_DIR / f"test-{os.getpid()}.sqlite3")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Redis: channel layer and Celery ------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "")
# Parallel test workers (pytest-xdist) each get their own Redis database, as pytest-django gives each
# its own test database: game ids repeat across workers, and so would their groups and task queues.
# The processes a test starts inherit it through the environment (the mapping gives the same database
# again there, and keeps the host and port a test names for them: a proxy, a Redis of its own).
_test_worker = os.environ.get("PYTEST_XDIST_WORKER", "")
if REDIS_URL and re.fullmatch(r"gw\d+", _test_worker):
    REDIS_URL = re.sub(r"(/\d*)?$", f"/{1 + int(_test_worker[2:]) % 15}", REDIS_URL.split("?")[0], count=1)
    os.environ["REDIS_URL"] = REDIS_URL
if REDIS_URL:
    # channels-redis waits for messages with a blocking pop of 5 s, and redis-py (8 and later) gives up
    # on a read after 5 s by default: an idle process would fail its receive (a TimeoutError every
    # 5 quiet seconds). Reads may take longer than the pop; a dead Redis still fails them.
    # redis-py (8 and later) allows an asyncio pool 100 connections and fails the 101st command running at
    # once (MaxConnectionsError): a web process where a few hundred sockets connect within a second (a
    # round's tables opening) runs more group joins than that at once (issue #36). An idle connection
    # costs Redis a few kilobytes; CHANNEL_LAYER_CONNECTIONS bounds them per process.
    _layer_connections = int(os.environ.get("CHANNEL_LAYER_CONNECTIONS", "1000"))
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": 30,
                        "socket_connect_timeout": 5,
                        "max_connections": _layer_connections,
                    }
                ],
                "capacity": 1000,
                "expiry": 30,
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

# The spectator edge (infra/edge/, docs/deploying.md): the path prefix under which nginx sends
# spectators' sockets to it, e.g. "/ws/watch/". Set, table pages open spectators' sockets there and
# every public update is also published to the edge; unset, or without Redis (embedded mode),
# spectators watch through Daphne as the players do.
SPECTATOR_SOCKET = os.environ.get("SPECTATOR_SOCKET", "") if REDIS_URL else ""
if SPECTATOR_SOCKET and not (SPECTATOR_SOCKET.startswith("/") and SPECTATOR_SOCKET.endswith("/")):
    raise RuntimeError(f"SPECTATOR_SOCKET must be a path such as /ws/watch/, not {SPECTATOR_SOCKET!r}")

# The cache holds the rate-limit counts (games/access/ratelimit.py): in Redis when there is one, so that
# every Daphne process counts the same actions; else this process's memory (the embedded mode).
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "tablehall",
        }
    }

# --- Rate limits (docs/security.md) -------------------------------------------------------------------
# Actions and table commands per seat, "COUNT/PERIOD" (django-ratelimit's syntax: 30/5s, 100/m); "" = off.
ACTION_RATE_LIMIT = os.environ.get("ACTION_RATE_LIMIT", "30/5s").strip()
# Hints per seat (each one is a search by the strong computer player), same syntax.
HINT_RATE_LIMIT = os.environ.get("HINT_RATE_LIMIT", "5/10s").strip()
# Chat messages per seat (chat/service.py), same syntax.
CHAT_RATE_LIMIT = os.environ.get("CHAT_RATE_LIMIT", "5/10s").strip()
# Tables made or joined through the public API, per personal token, same syntax.
API_TABLES_RATE_LIMIT = os.environ.get("API_TABLES_RATE_LIMIT", "20/m").strip()
for _name, _rate in (
    ("ACTION_RATE_LIMIT", ACTION_RATE_LIMIT),
    ("HINT_RATE_LIMIT", HINT_RATE_LIMIT),
    ("CHAT_RATE_LIMIT", CHAT_RATE_LIMIT),
    ("API_TABLES_RATE_LIMIT", API_TABLES_RATE_LIMIT),
):
    if _rate and not re.fullmatch(r"[1-9]\d*/([1-9]\d*)?[smhd]", _rate):
        raise RuntimeError(f"{_name} must look like 30/5s or 100/m, not {_rate!r}")
# Messages per socket connection: a token bucket of SOCKET_RATE a second, bursts of SOCKET_BURST; 0 = off.
SOCKET_RATE = float(os.environ.get("SOCKET_RATE", "20"))
SOCKET_BURST = float(os.environ.get("SOCKET_BURST", "100"))
# A cache that fails to count lets the action through rather than stopping every table.
RATELIMIT_FAIL_OPEN = True
# Request bodies larger than this (bytes) are refused before they are read (infra/limits.py); 0 = off.
MAX_REQUEST_BODY = int(os.environ.get("MAX_REQUEST_BODY", str(64 * 1024)))

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "tablehall")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Celery's Django fixup closes every database connection before and after every task unless told to
# reuse them: each computer turn would open a PostgreSQL connection of its own (a backend process
# forked, authentication), several times the cost of the move itself (issue #21). Connections are
# kept instead; each task drops a broken or aged one first (games.tasks, CONN_MAX_AGE), and the fixup
# still closes them every CELERY_DB_REUSE_MAX tasks.
CELERY_DB_REUSE_MAX = int(os.environ.get("CELERY_DB_REUSE_MAX", "1000"))
# Celery replaces the root logger's handlers with its own text format unless told not to.
CELERY_WORKER_HIJACK_ROOT_LOGGER = LOG_FORMAT != "json"
# The turn watchdog (docs/deploying.md): `celery beat` sends games.tasks.resume_idle_tables every
# TURN_WATCHDOG_INTERVAL seconds (0: never); it schedules again the computer turns of running games
# idle for TURN_WATCHDOG_IDLE seconds (a turn lost with Redis, or held by a worker killed outright).
# Each process keeps the last fold of this many recently played games (games/eventlog/tables.py): a turn at a
# table kept costs a fraction of a millisecond, at one not kept it folds the whole log again (some 11 ms
# CPU at 240 events; a kept fold of that size holds some 0.4 MB).
FOLDS_KEPT = int(os.environ.get("FOLDS_KEPT", "1024"))
TURN_WATCHDOG_INTERVAL = float(os.environ.get("TURN_WATCHDOG_INTERVAL", "10"))
TURN_WATCHDOG_IDLE = float(os.environ.get("TURN_WATCHDOG_IDLE", "30"))
# The lobby's "Live tables" are those someone moved at in the last LOBBY_IDLE_MINUTES; the others are
# listed under "Recent" (frontend/lobby.py).
LOBBY_IDLE_MINUTES = float(os.environ.get("LOBBY_IDLE_MINUTES", "10"))
# The demo club's tournament starts again this long after it ends (tournaments/commands/demo_series.py):
# at most 60 / pause + 1 of them an hour, not one every two minutes (#33).
DEMO_PAUSE_MINUTES = float(os.environ.get("DEMO_PAUSE_MINUTES", "15"))
CELERY_BEAT_SCHEDULE = (
    {
        "turn-watchdog": {
            "task": "games.tasks.resume_idle_tables",
            "schedule": TURN_WATCHDOG_INTERVAL,
            # A run that waited longer than the period is superseded by the next one.
            "options": {"queue": CELERY_TASK_DEFAULT_QUEUE, "expires": TURN_WATCHDOG_INTERVAL},
        }
    }
    if TURN_WATCHDOG_INTERVAL > 0
    else {}
)
# Beat keeps its schedule in memory: an interval task has nothing worth a file (and the units'
# file system is read-only).
CELERY_BEAT_SCHEDULER = "celery.beat:Scheduler"
# How background jobs run (games/background/jobs.py): "celery" (Celery workers, the default with Redis),
# "inprocess" (threads of this process, the embedded default), "off" (nothing runs: tests).
JOBS = os.environ.get("JOBS", "celery" if REDIS_URL else "inprocess")
if JOBS not in ("celery", "inprocess", "off"):
    raise RuntimeError(f"JOBS must be celery, inprocess or off, not {JOBS!r}")
# The computer turns with Celery (games/background/dueturns.py): TURN_CHAINS chained tasks, each holding a
# pool process for TURN_SLICE seconds at a time, claim up to TURN_BATCH due turns at once; a claimed turn
# whose pool process died is played again once its lease (TURN_LEASE seconds) runs out; a turn is
# stopped by Celery's soft time limit TURN_TIME_LIMIT seconds after the end of its slice. Workers need
# more pool processes in all than TURN_CHAINS (reviews, no-show checks and the watchdog use the rest).
TURN_CHAINS = int(os.environ.get("TURN_CHAINS", "4"))
TURN_SLICE = float(os.environ.get("TURN_SLICE", "2"))
TURN_BATCH = int(os.environ.get("TURN_BATCH", "8"))
TURN_LEASE = float(os.environ.get("TURN_LEASE", "30"))
TURN_TIME_LIMIT = float(os.environ.get("TURN_TIME_LIMIT", "20"))
# Seconds a computer seat waits before moving, so people can follow the table.
BOT_DELAY = float(os.environ.get("BOT_DELAY", "0.6"))

# Engines that exist only for tests: "name=module,name=module".
EXTRA_ENGINES = dict(
    item.split("=", 1) for item in os.environ.get("EXTRA_ENGINES", "").split(",") if "=" in item
)

# --- Auth, i18n, static -------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]

# Django ships neither Kreyòl ayisyen nor Tagalog: register them so the locale machinery accepts them.
django.conf.locale.LANG_INFO.update(
    {
        "ht": {"bidi": False, "code": "ht", "name": "Haitian Creole", "name_local": "Kreyòl ayisyen"},
        "tl": {"bidi": False, "code": "tl", "name": "Tagalog", "name_local": "Tagalog"},
    }
)
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ht", _("Haitian Creole")), ("tl", _("Tagalog"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# The language chosen with the switcher is kept for a year (Django's default is the browser session).
LANGUAGE_COOKIE_AGE = 365 * 24 * 3600
# Dates and numbers for ht and tl (Django has no format module for them): infra/formats/.
FORMAT_MODULE_PATH = ["infra.formats"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = "UTC"

LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = "/"

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# WhiteNoise serves the static files (the table client's JavaScript modules included) from the apps'
# static folders, debug mode or not: bin/run needs no collectstatic and no DEBUG. Files collected
# into STATIC_ROOT (the Dockerfile does) are served too; the apps' own copies win.
WHITENOISE_USE_FINDERS = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s %(process)d %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger", "process": "pid"},
        },
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {"daphne": {"level": "WARNING"}, "django.channels.server": {"level": "WARNING"}},
}
