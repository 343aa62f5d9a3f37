"""ASGI entry point: `uvicorn config.asgi:application` (what `make run` serves)."""

import os

import django

from config.memory import tune_garbage_collector

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# What django.core.asgi.get_asgi_application() does, with the handler of config/handlers.py.
django.setup(set_prefix=False)

from config.handlers import SyncStackASGIHandler  # noqa: E402  (needs the apps loaded)

application = SyncStackASGIHandler()
# Fewer garbage collections while thousands of streams are open (config/memory.py).
tune_garbage_collector()
