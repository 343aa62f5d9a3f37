"""Poolside settings: one file, every deployment knob read from the environment.

Every variable is documented in README.md ("Configuration"). Defaults suit a developer's laptop:
SQLite, DEBUG off, a secret key generated once into the untracked file `.secret_key`.
"""

import os
import secrets
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent


def env_str(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    if value.strip().lower() in {"1", "true", "yes", "on"}:
        return True
    if value.strip().lower() in {"0", "false", "no", "off"}:
        return False
    # A typo in a boolean must not silently turn DEBUG on (or off) in production.
    raise ValueError(f"{name}={value!r} is not a boolean (use 1/0, true/false, yes/no, on/off)")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"{name}={value!r} is not a whole number") from None


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return [item.strip() for item in value.split(",") if item.strip()]


def _development_secret_key(path: Path) -> str:
    # Generated once and kept out of git (.gitignore), so sessions survive restarts of `make run`
    # without a secret ever landing in the repository.
    if path.exists():
        key = path.read_text().strip()
        if key:
            return key
    key = secrets.token_urlsafe(50)
    path.write_text(key + "\n")
    path.chmod(0o600)
    return key


SECRET_KEY = env_str("SECRET_KEY") or _development_secret_key(BASE_DIR / ".secret_key")


def _development_signing_key(path: Path) -> Path:
    # The log's signing key (docs/verifiable-dice.md): 32 random bytes as hex, never in the
    # database. Made once for a development checkout, like .secret_key; a deployment names its
    # own file (SIGNING_KEY_FILE) and backs it up.
    if not path.exists():
        path.write_text(secrets.token_hex(32) + "\n")
        path.chmod(0o600)
    return path


SIGNING_KEY_FILE: Path = (
    Path(env_str("SIGNING_KEY_FILE"))
    if env_str("SIGNING_KEY_FILE")
    else _development_signing_key(BASE_DIR / ".signing_key")
)
DEBUG = env_bool("DEBUG", default=False)
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    # The API's browsable docs use django-ninja's own copy of Swagger UI (static files), not a CDN.
    "ninja",
    # The database backend of Django's Tasks framework (django.tasks): webhook deliveries wait in
    # a table and `manage.py db_worker` runs them (docs/webhooks.md).
    "django_tasks_db",
    # Shared web helpers: request types, error pages, security middleware, rate limits, the
    # deployment checks and the database connection hook (web/apps.py).
    "web",
    "sheets",
    # The log: entries, the chain, who may read what (docs/roll-log.md); its tables kept the
    # rolls app's names when it became an app of its own.
    "log",
    "rolls",
    # Discord's slash commands, buttons and autocomplete over its HTTP interactions endpoint
    # (docs/discord.md): an app of its own, label "discord", with its own migrations.
    "discord",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # After WhiteNoise (static files keep their caching), before the rest, so it also marks the
    # answers other middleware give (django-axes' 429, CSRF failures).
    "web.security.private_no_store",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    # User text without the bidi controls that reorder the text around them (web/text.py).
    "web.text.StripBidiControls",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # Inside sessions and auth, so its page's header knows who is logged in.
    "web.errors.method_not_allowed_page",
    # A statement cancelled at DATABASE_STATEMENT_TIMEOUT_MS: a readable 503, not a 500.
    "web.errors.StatementTimeoutPage",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last of those that do something, as django-axes asks: it turns a locked-out login into its
    # 429 response.
    "axes.middleware.AxesMiddleware",
    # Sync-only and last: under ASGI the stack above runs in the request's thread, entered once,
    # instead of hopping there and back for each middleware's step (web/stack.py).
    "web.stack.sync_stack",
]

# django-axes first, so a locked-out username/address pair is refused before any password check.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Django's database sessions, their rows saying whose they are (sheets/sessions.py)
SESSION_ENGINE = "sheets.sessions"

# The rule systems a campaign may play, each a sheets.systems.RuleSystem subclass by dotted path,
# registered at start-up in sheets.systems (docs/architecture.md, "Adding a rule system"). The
# tests' settings add a fourth that lives only in tests/ (tests/settings.py).
RULE_SYSTEMS = [
    "sheets.systems.cogent.CogentSystem",
    "sheets.systems.dad6.Dad6System",
    "sheets.systems.cold_stars.ColdStarsSystem",
]

# Kinds of log entry beyond the app's own (log/models/kinds.py), each a ``KindInfo`` by dotted
# path; ``RollsConfig.ready`` registers them, and migration 0030 makes the database accept them
# (docs/roll-log.md, "Adding a kind of log entry"). The tests add one of their own.
LOG_KINDS: list[str] = []

ROOT_URLCONF = "config.urls"

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
                "django.template.context_processors.csp",
            ],
        },
    },
]

ASGI_APPLICATION = "config.asgi.application"
WSGI_APPLICATION = "config.wsgi.application"

# No persistent connections: under ASGI (what we serve with) every request's sync code runs on a
# thread of its own, so a connection kept "for 60 s" stays open after its thread is gone — 20
# concurrent clients exhausted PostgreSQL's 100 connections (make bench-http: HTTP 500s). On
# PostgreSQL each process keeps a psycopg pool instead, as Django's docs advise for ASGI.
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=0,
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Every transaction takes SQLite's write lock when it begins, so concurrent writers queue
    # (up to the busy timeout) instead of failing when a read turns into a write, and appends
    # to a roll log take turns as PostgreSQL's row lock makes them (log/models/chain.py).
    DATABASES["default"].setdefault("OPTIONS", {})["transaction_mode"] = "IMMEDIATE"
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": 2,
        "max_size": env_int("DATABASE_POOL_SIZE", 10),
        "timeout": 10,  # seconds a request waits for a free connection before failing
    }
    # Server-side prepared statements: PostgreSQL plans a statement the pool's connection has
    # run five times once, not on every run. Planning was most of the database's work on the
    # roll path (the row query: 0.6 ms planning, 0.1 ms running; docs/performance.md). It needs
    # server-side parameters, which psycopg only prepares with; off for a pooler that can't
    # keep prepared statements (PgBouncer in transaction mode before 1.21).
    if env_bool("DATABASE_PREPARED_STATEMENTS", True):
        DATABASES["default"]["OPTIONS"] |= {"server_side_binding": True, "prepare_threshold": 5}
    # No statement holds a server worker hostage: PostgreSQL cancels one that runs longer than
    # this (milliseconds; 0 turns it off), and the request answers a readable 503
    # (web/errors.py). Sent once per connection in libpq's startup options, not per request.
    # manage.py sets it to 0, so migrations, the task worker and data loading run unbounded.
    STATEMENT_TIMEOUT_MS = env_int("DATABASE_STATEMENT_TIMEOUT_MS", 5000)
    if STATEMENT_TIMEOUT_MS > 0:
        DATABASES["default"]["OPTIONS"]["options"] = f"-c statement_timeout={STATEMENT_TIMEOUT_MS}"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Live events (rolls/live, docs/live.md): how a committed change reaches every open stream.
# "postgres": NOTIFY in the writing transaction, LISTEN per process (needs PostgreSQL);
# "redis": PUBLISH to Redis after commit, SUBSCRIBE per process (REDIS_URL);
# "memory": an in-process hub, for one process (SQLite, `make run`).
# Empty chooses by the database: "postgres" on PostgreSQL, "memory" otherwise.
LIVE_BACKEND = env_str("LIVE_BACKEND").strip().lower()
REDIS_URL = env_str("REDIS_URL", "redis://127.0.0.1:6379/0")
# The live channels' prefix (rolls/live): empty makes one from the database's identity, so
# deployments sharing a Redis or a PostgreSQL server never hear each other's events.
LIVE_CHANNEL_PREFIX = env_str("LIVE_CHANNEL_PREFIX").strip()

# "default" stays per process (nothing shared relies on it). "ratelimit" holds the signup and
# password-reset counts (web/ratelimit.py) in the database, so every server process sees the
# same counts; `manage.py createcachetable` creates its table (`make run` does, tests do by
# themselves). MAX_ENTRIES is high because culling deletes live counts once the table is full.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "ratelimit": {
        "BACKEND": "django.core.cache.backends.db.DatabaseCache",
        "LOCATION": "poolside_cache",
        "OPTIONS": {"MAX_ENTRIES": 100_000},
    },
}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Request bodies: 1 MiB at most. Form fields are capped by Django (DATA_UPLOAD_MAX_MEMORY_SIZE,
# down from 2.5 MiB), uploaded files by web.security.RequestSizeLimit, both answered by a
# readable 413 (web.errors). The largest legitimate body is a 256 KiB character export, pasted
# (form-encoded it can triple) or uploaded. The body is read before Django sees it: a proxy in
# front should cap it too (README "Production").
MAX_REQUEST_BYTES = 1024 * 1024
# Character import (docs/character-json.md, "Limits"): the most UTF-8 bytes a pasted or uploaded
# export may have (sheets.ranges.IMPORT_MAX_BYTES; the 413 page names it too).
IMPORT_MAX_BYTES = 256 * 1024
# Portraits (docs/portraits.md): the most bytes an uploaded picture may have, checked beside the
# field before Pillow reads it. Their upload view alone takes a larger body, so that a file a
# little or a few times too large gets that message rather than the 413 page; past
# PORTRAIT_REQUEST_BYTES it is the 413 page like any other body.
PORTRAIT_MAX_BYTES = 2 * 1024 * 1024
PORTRAIT_REQUEST_BYTES = 8 * 1024 * 1024
# Decoding a picture is the costly step (about 400 MB for the largest WebP we take), so a process
# decodes at most this many at a time; an upload waits at most PORTRAIT_DECODE_WAIT seconds for a
# turn, then gets a readable 503. PORTRAIT_RATE: a user's uploads, as "count/seconds" (0 = off).
PORTRAIT_DECODES = env_int("PORTRAIT_DECODES", 1)
PORTRAIT_DECODE_WAIT = env_int("PORTRAIT_DECODE_WAIT", 5)
PORTRAIT_RATE = env_str("PORTRAIT_RATE", "10/300")
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_REQUEST_BYTES
FILE_UPLOAD_HANDLERS = [
    "web.security.RequestSizeLimit",
    "django.core.files.uploadhandler.MemoryFileUploadHandler",
    "django.core.files.uploadhandler.TemporaryFileUploadHandler",
]

# Background tasks (django.tasks): the webhooks' deliveries (rolls/webhooks, docs/webhooks.md).
# The database backend needs no other service; `manage.py db_worker` runs them (`make run` starts
# one beside the server; README "Production" says how to run them in a deployment).
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}

# Where the site is reached from outside, for absolute links sent away from a request (the
# webhooks' permalinks): scheme and host, no trailing slash.
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000").rstrip("/")

# Outgoing webhooks refuse receivers on loopback, private, link-local and other reserved addresses
# (a GM must not make the server call into its own network); tests, and only a deployment that
# means to post to its own network, turn this on. WEBHOOK_TIMEOUT: seconds to connect, and again to
# read the answer, before a delivery counts as failed.
WEBHOOKS_ALLOW_PRIVATE = env_bool("WEBHOOKS_ALLOW_PRIVATE", default=False)
WEBHOOK_TIMEOUT = env_int("WEBHOOK_TIMEOUT", 5)

# Discord's HTTP interactions endpoint (discord, docs/discord.md): the application's id and
# public key (from Discord's developer portal) verify what Discord posts; the bot token lets the
# task worker register the commands and edit deferred replies through Discord's REST API. Unset,
# /discord/interactions/ answers 503 and `manage.py check` says what is missing.
DISCORD_APPLICATION_ID = env_str("DISCORD_APPLICATION_ID").strip()
DISCORD_PUBLIC_KEY = env_str("DISCORD_PUBLIC_KEY").strip()
DISCORD_BOT_TOKEN = env_str("DISCORD_BOT_TOKEN").strip()
DISCORD_API_URL = env_str("DISCORD_API_URL", "https://discord.com/api/v10").rstrip("/")

# Rolls use the OS CSPRNG (rules.system_rng). Tests, and only tests, set a seed here to get
# repeatable dice; it is deliberately not read from the environment.
ROLLS_RNG_SEED: int | None = None

# One-click demo logins on the landing page ("Try it as the GM / alice / bob", sheets.views.accounts
# demo_login). Off unless set: `make run` turns it on. Only the demo users (manage.py demo) that
# still have the published demo password can be logged into this way, so on a real deployment it
# opens nothing that the login form with that published password wouldn't.
DEMO_LOGINS = env_bool("DEMO_LOGINS", default=False)

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# Password-reset mails go to the console unless SMTP is configured (Django 6.1 MAILERS).
if env_str("EMAIL_HOST"):
    MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {
                "host": env_str("EMAIL_HOST"),
                "port": env_int("EMAIL_PORT", 587),
                "username": env_str("EMAIL_HOST_USER"),
                "password": env_str("EMAIL_HOST_PASSWORD"),
                "use_tls": env_bool("EMAIL_USE_TLS", default=True),
            },
        }
    }
else:
    MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Poolside <poolside@localhost>")

LANGUAGE_CODE = "en-us"
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
# Where collectstatic gathers the files WhiteNoise serves (make screenshots points it elsewhere).
STATIC_ROOT = Path(env_str("STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
# Uploaded files: only portraits (docs/portraits.md). They are never served as public media:
# sheets.views.portraits streams them to those who may read the character, so MEDIA_URL stays
# unset and the directory must not be exposed by a web server either.
MEDIA_ROOT = Path(env_str("MEDIA_ROOT") or BASE_DIR / "media")
STORAGES: dict[str, dict[str, object]] = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    "portraits": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": MEDIA_ROOT / "portraits", "base_url": None},
    },
}
if env_str("PORTRAITS_S3_BUCKET"):
    # An S3-compatible store through django-storages (the optional extra `s3`). Credentials come
    # from boto3's own environment variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY), never
    # from this file. Objects stay private: the app reads them and serves them itself.
    STORAGES["portraits"] = {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": env_str("PORTRAITS_S3_BUCKET"),
            "endpoint_url": env_str("PORTRAITS_S3_ENDPOINT_URL") or None,
            "region_name": env_str("PORTRAITS_S3_REGION") or None,
            "location": env_str("PORTRAITS_S3_PREFIX", "portraits"),
            "default_acl": "private",
            "file_overwrite": False,
        },
    }
# Files served at the site's root: /favicon.ico, which browsers and feed readers ask for whatever
# the pages link (it holds static/img/favicon.svg drawn at 16, 32 and 48 px). Never put anything
# private here: WhiteNoise serves every file in it to anyone.
WHITENOISE_ROOT = BASE_DIR / "static" / "root"

# HTTPS hardening: all off by default (development is plain HTTP); README "Production" lists the
# values under which `manage.py check --deploy --fail-level WARNING` is clean (a test holds it so).
SESSION_COOKIE_SECURE = env_bool("SECURE_COOKIES", default=False)
CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=False)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=False)
if env_bool("BEHIND_HTTPS_PROXY", default=False):
    # Only behind a proxy that sets X-Forwarded-Proto itself and strips any a client sent.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_CONTENT_TYPE_NOSNIFF = True
# Content Security Policy (Django's own, with per-request nonces): every script and stylesheet is a
# static file of ours, so no 'unsafe-inline' and no 'unsafe-eval' anywhere. htmx is told not to
# inject its indicator <style> nor to eval (the htmx-config meta tag in base.html).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}
SECURE_REFERRER_POLICY = "same-origin"
CSRF_FAILURE_VIEW = "web.errors.csrf_failure"
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"

# Login throttling (django-axes): after LOGIN_FAILURE_LIMIT wrong passwords for one username from one
# address, that pair is locked out for LOGIN_COOLOFF_MINUTES; a success resets the count. Locking the
# pair rather than the username stops guessing without letting a stranger lock a player out.
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_CLIENT_IP_CALLABLE = "web.security.client_ip"
# No "AXES: BEGIN version …" banner from every manage.py command and server start (`make run` printed
# it five times): it tells a newcomer nothing they can act on. Off, axes also logs a login by the
# lockout's own parameters (username and address) instead of every attribute it has.
AXES_VERBOSE = False
# How many reverse proxies in front of the app append to X-Forwarded-For (0: use REMOTE_ADDR).
PROXY_COUNT = env_int("PROXY_COUNT", 0)

# Signup and password-reset POSTs (web/ratelimit.py): (attempts, seconds) per client address
# and per target, the username or email posted. Generous for a person who mistypes, far too few
# to enumerate usernames or to flood someone's inbox. docs/permissions.md explains them.
RATE_LIMITS = {
    "signup": {"address": (20, 3600), "target": (10, 3600)},
    "password_reset": {"address": (10, 3600), "target": (5, 3600)},
}

# The API (api/base.py, docs/api.md): requests per user, all their tokens together, as
# "count/seconds". Every request counts against API_RATE; rolls and follow-ups also against
# API_ROLL_RATE. 0 turns a limit off. The cap on active tokens is MAX_ACTIVE_TOKENS
# (sheets/models/tokens.py).
API_RATE = env_str("API_RATE", "300/60")
API_ROLL_RATE = env_str("API_ROLL_RATE", "60/60")

# Heavy reads (sheets/usage.py heavy_limited): statistics pages, log exports and log
# searches, per logged-in user and per kind, pages and API alike, as "count/seconds" (0 turns one
# off). Far more than a person reading them (a search counts each page of results as the log
# scrolls, and each pause while typing); a script looping on them gets a readable 429.
HEAVY_RATES = {
    "statistics": env_str("HEAVY_RATE_STATISTICS", "30/60"),
    "export": env_str("HEAVY_RATE_EXPORT", "10/60"),
    "search": env_str("HEAVY_RATE_SEARCH", "120/60"),
}

# Messages and corrections per user, pages and API together, as "count/seconds"
# (rolls/messages/actions.py, docs/messages.md): a lively table, never a flood. 0 turns it off.
MESSAGE_RATE = env_str("MESSAGE_RATE", "12/60")


LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
}
