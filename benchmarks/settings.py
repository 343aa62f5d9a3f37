"""Benchmark-only settings: the production settings plus the bare baseline view and its table.

Used by the benchmark scripts and the servers they start (DJANGO_SETTINGS_MODULE). Everything
else — middleware, django-axes, CSP, the live NOTIFY — is exactly what production runs."""

from config.settings import *  # noqa: F403
from config.settings import INSTALLED_APPS, STORAGES

INSTALLED_APPS = [*INSTALLED_APPS, "benchmarks"]
ROOT_URLCONF = "benchmarks.urls"
# Pages reference static files; the manifest storage would need `collectstatic` first.
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# WhiteNoise warns about a missing STATIC_ROOT on a fresh clone; the sources stand in for it…
STATIC_ROOT = BASE_DIR / "static"  # noqa: F405
STATICFILES_DIRS: list = []  # …so it is not also a source directory
# The apps' own static files (django-htmx's script), which a page in Chromium loads: found where
# they are, as `collectstatic` would have gathered them.
WHITENOISE_USE_FINDERS = True
