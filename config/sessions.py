"""Sessions and the logged-in user, read together by one prepared query (config/prepared.py).

Every page reads the session and then the user: two ORM queries whose building and compiling
cost more than the database's work (docs/performance.md). These are Django's database session
store and model backend with only those reads replaced. The session's row says whose it is
(``sheets.models.Session``, Django's documented way of extending it), so its read brings the user
along and the backend takes the user from there: one query for both. What they read and how they
decide is Django's: ``django.contrib.auth.get_user`` still checks the session's user id, the
backend and the session hash, and the backend still refuses an inactive user.
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any, cast

from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.contrib.sessions.backends.db import SessionStore as DjangoSessionStore
from django.utils import timezone

from config.prepared import Prepared
from sheets.models import Session

_SESSIONS = Prepared(
    lambda key: Session.objects.select_related("user").filter(session_key=key), key=str
)
_USERS = Prepared(lambda pk: get_user_model()._default_manager.filter(pk=pk), pk=int)

# The user read with the session just now, for the backend's get_user that follows it: Django's
# get_user reads the session (loading it) and then asks the backend for the user whose id the
# session holds. Set by every session read, taken once: an id that doesn't match, or nothing
# set, and the backend reads the user itself.
_READ_WITH_SESSION: ContextVar[tuple[int, Any] | None] = ContextVar(
    "poolside_user_read_with_session", default=None
)


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

    def _get_session_from_db(self) -> Session | None:
        key = self.session_key
        found = _SESSIONS.fetch(key=key) if key is not None else []
        # Django asks the database for an unexpired one; the same test, on the row read.
        if not found or found[0].expire_date <= timezone.now():
            _READ_WITH_SESSION.set(None)
            self._session_key = None
            return None
        session = found[0]
        user_id = session.user_id
        _READ_WITH_SESSION.set(None if user_id is None else (user_id, session.user))
        return session


class ModelBackend(DjangoModelBackend):
    def get_user(self, user_id: Any) -> Any:
        pk = int(user_id)
        read = _READ_WITH_SESSION.get()
        if read is not None and read[0] == pk:
            _READ_WITH_SESSION.set(None)
            user = read[1]
        else:
            found = _USERS.fetch(pk=pk)
            user = found[0] if found else None
        if user is None:
            return None
        return user if self.user_can_authenticate(user) else None
