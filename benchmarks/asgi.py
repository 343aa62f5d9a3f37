"""config.asgi with the benchmark settings: what the HTTP and SSE benchmarks serve with uvicorn.

The same application, handler and garbage-collector settings as production; only the settings
module differs (config.asgi leaves one that is already set alone)."""

import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchmarks.settings")

from config.asgi import application

__all__ = ["application"]
