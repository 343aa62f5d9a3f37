"""config.asgi with the benchmark settings: what the HTTP and SSE benchmarks serve with uvicorn."""

import os

import django

from config.memory import tune_garbage_collector

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchmarks.settings")

django.setup(set_prefix=False)

from config.handlers import SyncStackASGIHandler  # noqa: E402  (needs the apps loaded)

application = SyncStackASGIHandler()
# Fewer garbage collections while thousands of streams are open (config/memory.py).
tune_garbage_collector()
