"""Django's database session store, its rows ``sheets.models.Session``: the row also says whose
session it is.

Django's documented way of extending its database sessions (``AbstractBaseSession``, a store
whose ``get_model_class`` names the model and whose ``create_model_instance`` fills the extra
column). What the session holds, how it is signed, read and expired is Django's; the user id
column lets a user's sessions be found (and go with the user: ``on_delete=CASCADE``) and lets the
live stream re-check, in one query, that its session still logs its user in
(rolls/live/stream.py).
"""

from __future__ import annotations

from typing import Any, cast

from django.contrib.auth import SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore as DjangoSessionStore

from sheets.models.sessions import Session


class SessionStore(DjangoSessionStore):
    @classmethod
    def get_model_class(cls) -> type[Session]:
        return Session

    def create_model_instance(self, data: dict[str, Any]) -> Session:
        session = cast(Session, super().create_model_instance(data))
        try:
            session.user_id = int(data[SESSION_KEY])
        except (KeyError, TypeError, ValueError):  # nobody logged in
            session.user_id = None
        return session
