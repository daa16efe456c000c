"""Hardpoint settings: everything that differs between machines comes from the environment."""
import hashlib
import os
import warnings
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF, UNSAFE_INLINE
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in ("1", "true", "yes", "on")


# Off unless asked for: `make run` asks for it, production never does.
DEBUG = env_flag("DEBUG", False)
SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set SECRET_KEY when DEBUG is off.")
    SECRET_KEY = "hardpoint-local-development-only"
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("ALLOWED_HOSTS", "127.0.0.1,localhost").split(",") if h.strip()]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}"), conn_max_age=60
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Writers take the lock when their transaction starts and wait up to 20 s for it, instead of failing
    # with "database is locked" halfway through. Several workers or machines: use PostgreSQL (docs/install.md).
    DATABASES["default"]["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
    # A file, not memory, for tests: the live server's threads then hold their own connections and locks
    # (in shared memory where the machine has it, for speed).
    TEST_DB_DIR = Path("/dev/shm") if Path("/dev/shm").is_dir() else BASE_DIR
    DATABASES["default"]["TEST"] = {"NAME": str(TEST_DB_DIR / f"hardpoint-test-{os.getpid()}.sqlite3")}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_htmx",
    "js_lib_htmx",
    "csp",
    "django_tasks",
    "django_tasks_db",
    "catalogue",
    "builder",
]

MIDDLEWARE = [
    "builder.middleware.RequestId",
    "django.middleware.security.SecurityMiddleware",
    "builder.ratelimit.RateLimit",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "csp.middleware.CSPMiddleware",
    "builder.middleware.RequestTransaction",
    "builder.middleware.PlainText",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "builder.errors.SavedBuildAnswers",
]

ROOT_URLCONF = "builder.urls"
WSGI_APPLICATION = "builder.wsgi.application"

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
                "builder.context.builders",
            ],
            "builtins": ["builder.templatetags.fragments"],
        },
    },
    {
        "NAME": "fragments",  # builder/fragments.py: only names ending .jinja are asked of it
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "builder.fragments.environment"},
    },
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = "en-gb"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
# WhiteNoise serves static files in every setting: compressed and under content-hashed names, cached for a year,
# after `collectstatic` (make serve), and straight from the app folders before it (tests, make run).
STORAGES = {"default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
            "staticfiles": {"BACKEND": "builder.storage.StaticFiles"}}
WHITENOISE_USE_FINDERS = True
# Before the first collectstatic there is no STATIC_ROOT yet, and the finders serve everything.
warnings.filterwarnings("ignore", message="No directory at")


def code_digest(root: Path) -> str:
    """What draws the pages and sheets (code, templates, static files, packs), as a digest: read at start-up in
    about 30 ms, so that no deploy needs to remember to set it."""
    digest = hashlib.sha256()
    for folder in ("builder", "catalogue", "templates", "static"):
        for path in sorted((root / folder).rglob("*")):
            if path.is_file() and path.suffix in (".py", ".html", ".jinja", ".css", ".js", ".yaml", ".json", ".csv"):
                digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:12]


# Every cached page and sheet is keyed by the release that drew it, so a deploy never serves pages drawn by the old
# templates, nor old sheets, from a cache the machines share. HARDPOINT_RELEASE names it (a commit id) if set.
RELEASE = os.environ.get("HARDPOINT_RELEASE") or code_digest(BASE_DIR)
# The cache for the rate limits (and anything else cached): Redis when REDIS_URL is set, shared by every web process.
# "sheets" holds rendered PDFs and the progress of PDF jobs, which the task worker writes and the web processes
# read, so it is never per-process: Redis, or else a table in the database (`manage.py createcachetable`).
# Without Redis (stopped, unreachable) the cache is a miss and rate limits count nothing (builder/cache.py): the site
# goes on, drawing afresh; half a second is the longest a request waits to find that out.
redis = {"BACKEND": "builder.cache.SharedCache", "LOCATION": os.environ.get("REDIS_URL"),
         "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}
CACHES = {"default": {**(redis if redis["LOCATION"] else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}),
                      "KEY_PREFIX": RELEASE},
          "sheets": {**redis, "KEY_PREFIX": f"sheets-{RELEASE}"} if redis["LOCATION"] else
          {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "hardpoint_sheets",
           "KEY_PREFIX": RELEASE, "OPTIONS": {"MAX_ENTRIES": 2000}},
          # The PDFs this process served last, in its memory: a PDF's key names its content, so a copy here is
          # never stale, and a repeat costs no round trip to the shared cache.
          "recent-pdfs": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "recent-pdfs",
                          "OPTIONS": {"MAX_ENTRIES": 16}}}
# Background jobs (big PDFs) queue in the database, so `make run` needs no other service; `manage.py db_worker`
# runs them, on this machine or any other sharing the database.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
# A pack loaded or deleted on one machine is seen by the others' in-memory catalogues within this many seconds.
HARDPOINT_PACK_RECHECK_SECONDS = float(os.environ.get("HARDPOINT_PACK_RECHECK_SECONDS", 60))
# Requests per client IP per minute (docs/install.md, Limits); RATE_LIMITS=0 turns them off (the test suite does).
HARDPOINT_RATE_LIMITS = {"write": (240, 60), "preview": (240, 60), "pdf": (20, 60)} if env_flag("RATE_LIMITS", True) else {}
# Behind a reverse proxy that sets X-Forwarded-For, the client is the last address it adds.
HARDPOINT_TRUST_FORWARDED_FOR = env_flag("TRUST_X_FORWARDED_FOR", False)

# A PDF prints a build and the builds it owns, at most this many (about 0.3 s a sheet); the rest are listed.
HARDPOINT_MAX_PRINTED_BUILDS = 32
# A PDF of at most this many builds renders in the request (an Anvil and its Pilot, or a small squad): a second or
# so, less than the round trip through the worker would take. Bigger ones render in the worker, with progress.
HARDPOINT_INLINE_PDF_BUILDS = 3
# A PDF job still running after this long lost its worker (32 builds take under a minute): it may be retried.
HARDPOINT_PDF_JOB_STALLED_SECONDS = 600
# A rendered PDF is kept by (build and linked versions, paper, site address) this long.
HARDPOINT_PDF_CACHE_SECONDS = 24 * 3600
# Share pages' build part, by the versions of the build and of the builds it names (builder/kinds/base.py).
HARDPOINT_SHARE_CACHE_SECONDS = 24 * 3600

# Build documents are a few kilobytes; anything near this is not a build.
HARDPOINT_MAX_BODY = 256 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = HARDPOINT_MAX_BODY
FILE_UPLOAD_MAX_MEMORY_SIZE = HARDPOINT_MAX_BODY
# Builds opened on this browser are kept in its session for a year.
SESSION_COOKIE_AGE = 365 * 24 * 3600
SESSION_COOKIE_HTTPONLY = True
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

# Served over HTTPS (HTTPS=1, usually behind a proxy that sets X-Forwarded-Proto): secure cookies, HSTS,
# and plain-HTTP requests redirected.
HTTPS = env_flag("HTTPS", False)
if HTTPS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 31_536_000))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_flag("SECURE_HSTS_PRELOAD", True)
CSRF_TRUSTED_ORIGINS = [o.strip() for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()]

# No inline script anywhere; inline style attributes remain (htmx's indicator style too).
CONTENT_SECURITY_POLICY = {"DIRECTIVES": {
    "default-src": [SELF], "script-src": [SELF], "style-src": [SELF, UNSAFE_INLINE], "img-src": [SELF, "data:"],
    "connect-src": [SELF], "form-action": [SELF], "frame-ancestors": [NONE], "base-uri": [SELF],
    "object-src": [NONE],
}}
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"

# Errors go to stderr with the request id that the error page shows.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "builder.middleware.RequestIdFilter"}},
    "formatters": {"plain": {"format": "%(asctime)s %(levelname)s [%(request_id)s] %(name)s: %(message)s"}},
    "handlers": {"stderr": {"class": "logging.StreamHandler", "filters": ["request_id"], "formatter": "plain"}},
    "root": {"handlers": ["stderr"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    # A squad's sheets repeat element ids from sheet to sheet; WeasyPrint's notes about that are noise.
    "loggers": {"weasyprint": {"level": "ERROR"}},
}
