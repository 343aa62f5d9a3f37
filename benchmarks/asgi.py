"""config.asgi with the benchmark settings: what the HTTP and SSE benchmarks serve with uvicorn."""

import os

from django.core.asgi import get_asgi_application

from config.memory import tune_garbage_collector

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchmarks.settings")

application = get_asgi_application()
# Fewer garbage collections while thousands of streams are open (config/memory.py).
tune_garbage_collector()
