"""Sessions and the logged-in user, read with prepared queries (config/prepared.py).

Every page reads the session and then the user: two ORM queries whose building and compiling
cost more than the database's work (docs/performance.md). These are Django's database session
store and model backend with only those two reads replaced; what they read and how they decide
is Django's.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.contrib.sessions.backends.db import SessionStore as DjangoSessionStore
from django.contrib.sessions.models import Session
from django.utils import timezone

from config.prepared import Prepared

_SESSIONS = Prepared(lambda key: Session.objects.filter(session_key=key), key=str)
_USERS = Prepared(lambda pk: get_user_model()._default_manager.filter(pk=pk), pk=int)


class SessionStore(DjangoSessionStore):
    def _get_session_from_db(self) -> Session | None:
        key = self.session_key
        found = _SESSIONS.fetch(key=key) if key is not None else []
        # Django asks the database for an unexpired one; the same test, on the row read.
        if not found or found[0].expire_date <= timezone.now():
            self._session_key = None
            return None
        return found[0]


class ModelBackend(DjangoModelBackend):
    def get_user(self, user_id: Any) -> Any:
        found = _USERS.fetch(pk=int(user_id))
        if not found:
            return None
        return found[0] if self.user_can_authenticate(found[0]) else None
