"""ASGI entry point: `uvicorn config.asgi:application` (what `make run` serves)."""

import os

from django.core.asgi import get_asgi_application

from web.memory import tune_garbage_collector
from web.streams import stream_threads

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

# Django's application; an event stream's request thread goes once it streams (web/streams.py).
application = stream_threads(get_asgi_application())
# Fewer garbage collections while thousands of streams are open (web/memory.py).
tune_garbage_collector()
