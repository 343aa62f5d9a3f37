"""Sessions and the logged-in user, read together by one prepared query (config/prepared.py).

Every page reads the session and then the user: two ORM queries whose building and compiling
cost more than the database's work (docs/performance.md). These are Django's database session
store and model backend with only those reads replaced. The session's row says whose it is
(``sheets.models.Session``, Django's documented way of extending it), so its read brings the user
along and the backend takes the user from there: one query for both. What they read and how they
decide is Django's: ``django.contrib.auth.get_user`` still checks the session's user id, the
backend and the session hash, and the backend still refuses an inactive user.

The roll's views go one further (``SessionStore.read_along``): the session's read also reads
their row, for the session's user, and the load that follows takes the session from there.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar
from functools import lru_cache
from typing import Any, cast

from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.contrib.auth.backends import ModelBackend as DjangoModelBackend
from django.contrib.sessions.backends.db import SessionStore as DjangoSessionStore
from django.core import signing
from django.db.models import Model
from django.utils import timezone

from config.prepared import Along, Prepared
from sheets.models import Session

_SESSIONS = Prepared(
    lambda key: Session.objects.select_related("user").filter(session_key=key), key=str
)


@lru_cache(maxsize=64)
def _along(then: Prepared[Any], link: str) -> Along[Session, Any]:
    return Along(_SESSIONS, then, (link, "user_id"))


_USERS = Prepared(lambda pk: get_user_model()._default_manager.filter(pk=pk), pk=int)

# The user read with the session just now, for the backend's get_user that follows it: Django's
# get_user reads the session (loading it) and then asks the backend for the user whose id the
# session holds. Set by every session read, taken once: an id that doesn't match, or nothing
# set, and the backend reads the user itself.
_READ_WITH_SESSION: ContextVar[tuple[int, Any] | None] = ContextVar(
    "poolside_user_read_with_session", default=None
)


class _Verbatim:
    """A serializer for ``signing.loads`` that hands back the verified payload as it is."""

    def dumps(self, obj: Any) -> bytes:  # only ever read with
        raise NotImplementedError

    def loads(self, data: bytes) -> Any:
        return data


@lru_cache(maxsize=4096)
def _verified(session_data: str, salt: str, keys: tuple[str, ...]) -> bytes:
    """The payload of a session's signed data once its signature checks out (raises
    ``BadSignature`` when it doesn't). Checking a signature is an HMAC whose first use in a
    request costs about 0.1 ms (cold caches), and a session's data is the same string from one
    request to the next until it is saved again: a string seen before with the same keys was
    checked already. What is cached is the verified text, which each request parses again, so no
    request can see another's changes to its session dict."""
    return cast(
        bytes,
        signing.loads(
            session_data, key=keys[0], fallback_keys=[*keys[1:]], salt=salt, serializer=_Verbatim
        ),
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

    def decode(self, session_data: bytes | str) -> dict[str, Any]:
        """Django's decode, with the signature check remembered per signed string and keys."""
        if not isinstance(session_data, str):  # the database's is text
            return super().decode(session_data)
        keys = (settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS)
        try:
            return cast(
                dict[str, Any],
                self.serializer().loads(_verified(session_data, self.key_salt, keys)),
            )
        except signing.BadSignature:
            logging.getLogger("django.security.SuspiciousSession").warning("Session data corrupted")
        except Exception:  # as Django's: undecodable data is an empty session
            pass
        return {}

    def read_along[M: Model](
        self, then: Prepared[M], link: str, **values: Any
    ) -> tuple[int | None, list[M]] | None:
        """Read this session's row (for its load that follows) and ``then``'s rows for its
        user — ``then``'s value ``link`` the session row's user id — in one statement
        (config/prepared.py ``Along``): the session's user id and ``then``'s rows. None when
        there is no session key or the session was loaded already. Whether the session is live
        and whose it is, Django still decides when it loads it: the caller takes the rows only
        for the user the request ends up with (None when the session is nobody's)."""
        key = self.session_key
        if key is None or hasattr(self, "_session_cache"):
            return None
        sessions, found = _along(then, link).fetch(key=key, **values)
        self._read_ahead = (key, sessions)
        return (sessions[0].user_id if sessions else None), found

    async def _aget_session(self, no_load: bool = False) -> dict[str, Any]:
        """Django's, with the load outside its ``except AttributeError`` block.

        Django loads an unloaded session inside that block, and ``aload`` is a
        ``sync_to_async`` call: asgiref re-raises the exception being handled on the thread that
        runs the load, so that ``sys.exc_info()`` is the same there. Its traceback then holds
        that thread's frames — under the ASGI handler (config/handlers.py), every middleware's
        and the request's — and the frame holding the exception is in the traceback: a cycle of
        a few hundred objects, left for the garbage collector by every request that read the
        session from async code (each live stream that opens). At 2,000 streams the collector
        spent 100–200 ms at a time freeing them, in the middle of a fan-out
        (docs/performance.md)."""
        self.accessed = True
        if not hasattr(self, "_session_cache"):
            if self.session_key is None or no_load:
                self._session_cache = {}
            else:
                self._session_cache = await self.aload()
        return self._session_cache

    def _get_session_from_db(self) -> Session | None:
        key = self.session_key
        ahead = self.__dict__.pop("_read_ahead", None)
        if ahead is not None and ahead[0] == key:
            found = ahead[1]
        else:
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
