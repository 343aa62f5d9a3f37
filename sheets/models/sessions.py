"""The database session, with the logged-in user's id in a column of its own.

Django's documented way of extending its database session (``AbstractBaseSession``): the row
also says whose session it is, so the one read of a session (sheets/sessions.py) brings its user
along — one query fewer on every page a logged-in member opens. What the session holds, how it
is signed and when it expires are Django's.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from django.conf import settings
from django.contrib.sessions.base_session import AbstractBaseSession
from django.db import models


class Session(AbstractBaseSession):
    # Written from the session's data whenever the session is saved (logging in saves it);
    # deleting the user ends their sessions.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
    )

    class Meta(AbstractBaseSession.Meta):
        db_table = "sheets_session"

    @classmethod
    def get_session_store_class(cls) -> Any:
        # The store of the configured engine (sheets/sessions.py), found the way Django finds it
        # (django.contrib.sessions.middleware): the model imports no store back.
        return import_module(settings.SESSION_ENGINE).SessionStore
