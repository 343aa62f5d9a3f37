"""config.asgi with the benchmark settings: what the HTTP and SSE benchmarks serve with uvicorn."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "benchmarks.settings")

application = get_asgi_application()
