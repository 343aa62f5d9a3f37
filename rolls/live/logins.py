"""What logs a live stream in, and the re-check that finds it no longer does
(docs/live.md#a-stream-ends-with-its-login): the session and session hash a stream opened with
(Login), and the campaign's roster the periodic re-check reads once for all its streams."""

from __future__ import annotations

from django.utils import timezone
from django.utils.crypto import constant_time_compare

from sheets.models import Membership, Session


class Login:
    """What logged the stream in: its session, and the session hash its user had then."""

    __slots__ = ("auth_hash", "session_key", "user_id")

    def __init__(self, session_key: str | None, user_id: int, auth_hash: str) -> None:
        self.session_key, self.user_id, self.auth_hash = session_key, user_id, auth_hash

    def expiry(self) -> float | None:
        """Seconds until the session expires (it may be extended: re-check then), or None when
        it no longer logs the user in — gone (logged out, deleted), expired, another user's,
        the user inactive or their password changed (the session hash no longer matches, the
        test Django's ``get_user`` makes)."""
        if not self.session_key:
            return None
        now = timezone.now()
        session = (
            Session.objects.select_related("user")
            .filter(session_key=self.session_key, expire_date__gt=now)
            .first()
        )
        if session is None or session.user_id != self.user_id or session.user is None:
            return None
        user = session.user
        if not user.is_active or not constant_time_compare(
            user.get_session_auth_hash(), self.auth_hash
        ):
            return None
        return (session.expire_date - now).total_seconds()


class Roster:
    """What a campaign's periodic re-check reads once for all its streams in the process: the
    memberships of its active users, with their session hashes, and their live sessions. A
    change no signal announced (``QuerySet.update``, raw SQL: an account deactivated, a
    session row deleted, a password replaced) ends a stream at the next re-check."""

    __slots__ = ("hashes", "members", "sessions")

    def __init__(self, campaign_id: int) -> None:
        memberships = Membership.objects.filter(
            campaign_id=campaign_id, user__is_active=True
        ).select_related("user")
        self.members = {m.user_id: m for m in memberships}
        self.hashes = {m.user_id: m.user.get_session_auth_hash() for m in memberships}
        self.sessions = dict(
            Session.objects.filter(
                user_id__in=list(self.members), expire_date__gt=timezone.now()
            ).values_list("session_key", "user_id")
        )

    def logs_in(self, login: Login) -> bool:
        """Whether ``login``'s session still logs its user in, as Login.expiry() asks."""
        key = login.session_key
        return (
            key is not None
            and self.sessions.get(key) == login.user_id
            and constant_time_compare(self.hashes.get(login.user_id, ""), login.auth_hash)
        )
