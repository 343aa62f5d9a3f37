"""Personal access tokens for the API (docs/api.md).

A token is shown once, when it is made; the database keeps only its SHA-256. A slow password hash
would buy nothing here: a token is 256 random bits, which no one guesses or brute-forces from its
digest, and one indexed lookup per request is what an API needs. The first characters after the
prefix are kept in clear (``hint``) so a list of tokens can tell them apart.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, models, transaction
from django.db.models import Q
from django.db.models.signals import post_save
from django.dispatch import receiver
from django.utils import timezone

from sheets.models.base import in_constraint

if TYPE_CHECKING:
    from django.contrib.auth.models import User

PREFIX = "pst_"  # "Poolside token": secret scanners and people can recognise one
HINT_LENGTH = 4  # characters of the secret shown in lists (24 bits: tells tokens apart)
# Active (neither revoked nor expired) tokens one user may hold at once: a bot, a script or two
# and a spare. Throttling counts per user (ApiUsage), so more tokens would buy no more requests;
# the cap keeps a leaked account from scattering secrets that all need revoking (docs/api.md).
MAX_ACTIVE_TOKENS = 10
TOO_MANY_TOKENS = (
    f"You already have {MAX_ACTIVE_TOKENS} active tokens, the most an account may hold; "
    "revoke one you no longer use to make another."
)


class TokenLimitReached(Exception):
    """The user already holds MAX_ACTIVE_TOKENS active tokens; ``str()`` says so to them."""

    def __init__(self) -> None:
        super().__init__(TOO_MANY_TOKENS)


class Scope(models.TextChoices):
    READ = "read", "Read"
    ROLL = "roll", "Read and roll"


def digest(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


class ApiTokenQuerySet(models.QuerySet["ApiToken"]):
    def find(self, raw: str) -> ApiToken | None:
        """The token ``raw`` is, with its user, in one query, whatever its status (the caller
        says why a revoked or expired one is refused); None for anything that isn't a token."""
        if not raw.startswith(PREFIX) or len(raw) > 100:
            return None
        return self.select_related("user").filter(key_digest=digest(raw)).first()

    def active(self, now: datetime | None = None) -> ApiTokenQuerySet:
        """Tokens that still work: not revoked, not expired."""
        now = now or timezone.now()
        return self.filter(revoked_at__isnull=True).filter(
            Q(expires_at__isnull=True) | Q(expires_at__gt=now)
        )

    def revoke_all(self, user: User) -> int:
        """Revoke every token of ``user`` that still works (a password change); how many."""
        return self.filter(user=user).active().update(revoked_at=timezone.now())


class ApiToken(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100, help_text="What uses it: “Discord bot”, “my script”.")
    scope = models.CharField(
        max_length=10,
        choices=Scope.choices,
        default=Scope.READ,
        help_text="Read: campaigns, characters, odds and the log. "
        "Read and roll: also rolls and follow-ups for the characters you may roll for.",
    )
    key_digest = models.CharField(max_length=64, unique=True, editable=False)
    hint = models.CharField(max_length=HINT_LENGTH, editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    expires_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True, editable=False)
    revoked_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [in_constraint("scope", Scope.values, "api_token_scope_valid")]

    def __str__(self) -> str:
        return f"{self.name} ({self.masked})"

    @classmethod
    def issue(
        cls, user: User, *, name: str, scope: str, expires_at: datetime | None = None
    ) -> tuple[ApiToken, str]:
        """A new token and its secret, which exists only in the return value from here on.
        Raises ``TokenLimitReached`` when the user already holds MAX_ACTIVE_TOKENS."""
        raw = PREFIX + secrets.token_urlsafe(32)
        with transaction.atomic():
            # The user's row, locked, orders concurrent requests of one user (PostgreSQL): the
            # 40 tokens once made in 2 seconds would otherwise all count 0 before any insert.
            list(get_user_model().objects.select_for_update().filter(pk=user.pk).values_list("pk"))
            if cls.objects.filter(user=user).active().count() >= MAX_ACTIVE_TOKENS:
                raise TokenLimitReached
            token = cls.objects.create(
                user=user,
                name=name,
                scope=scope,
                expires_at=expires_at,
                key_digest=digest(raw),
                hint=raw[len(PREFIX) : len(PREFIX) + HINT_LENGTH],
            )
        return token, raw

    @property
    def masked(self) -> str:
        return f"{PREFIX}{self.hint}…"

    @property
    def can_roll(self) -> bool:
        return self.scope == Scope.ROLL

    def status(self, now: datetime | None = None) -> str:
        now = now or timezone.now()
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at is not None and self.expires_at <= now:
            return "expired"
        return "active"

    def revoke(self) -> None:
        if self.revoked_at is None:
            self.revoked_at = timezone.now()
            self.save(update_fields=["revoked_at"])

    def touch(self, now: datetime | None = None) -> None:
        """Record use, at most once a minute: a busy bot shouldn't write a row per request."""
        now = now or timezone.now()
        if self.last_used_at is None or (now - self.last_used_at).total_seconds() >= 60:
            ApiToken.objects.filter(pk=self.pk).update(last_used_at=now)
            self.last_used_at = now


class ApiUsage(models.Model):
    """A user's API requests and heavy reads, counted for throttling (api/base.py,
    web/ratelimit.py): per user, not per token, so making more tokens buys no more
    requests. A fixed window per limit on the user's own row: every server process counts
    together at the cost of one UPDATE per request. Seconds since the epoch: the same
    arithmetic in SQLite and PostgreSQL."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_usage"
    )
    window_start = models.FloatField(default=0)
    window_count = models.PositiveIntegerField(default=0)
    roll_window_start = models.FloatField(default=0)
    roll_window_count = models.PositiveIntegerField(default=0)
    # Heavy reads, pages and API alike (sheets/usage.py heavy_wait, HEAVY_RATES).
    statistics_window_start = models.FloatField(default=0)
    statistics_window_count = models.PositiveIntegerField(default=0)
    export_window_start = models.FloatField(default=0)
    export_window_count = models.PositiveIntegerField(default=0)
    search_window_start = models.FloatField(default=0)
    search_window_count = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"API use of user {self.user_id}"

    @classmethod
    def count_request(cls, user_id: int, limit: str, seconds: int, now: float) -> tuple[int, float]:
        """Count one request of the user against ``limit`` ("window", "roll_window" or a heavy
        read's "<scope>_window") in one
        atomic UPDATE: the requests counted in the current window, this one included, and when
        it started. The user's first request makes the row (a race of two makes it once)."""
        found = cls._count(user_id, limit, seconds, now)
        if found is None:
            ApiUsage.objects.bulk_create([ApiUsage(user_id=user_id)], ignore_conflicts=True)
            found = cls._count(user_id, limit, seconds, now)
        return found or (0, now)

    @classmethod
    def _count(cls, user_id: int, limit: str, seconds: int, now: float) -> tuple[int, float] | None:
        table = connection.ops.quote_name(cls._meta.db_table)
        start = connection.ops.quote_name(f"{limit}_start")
        count = connection.ops.quote_name(f"{limit}_count")
        with connection.cursor() as cursor:
            # Every SET reads the row as it was: a window that ended starts again at 1.
            cursor.execute(
                f"UPDATE {table} SET {count} = CASE WHEN {start} <= %s THEN 1 ELSE {count} + 1 END,"
                f" {start} = CASE WHEN {start} <= %s THEN %s ELSE {start} END"
                f" WHERE user_id = %s RETURNING {count}, {start}",
                [now - seconds, now - seconds, now, user_id],
            )
            row = cursor.fetchone()
        return (int(row[0]), float(row[1])) if row else None


@receiver(post_save, sender=settings.AUTH_USER_MODEL)
def _count_from_the_start(sender: object, instance: Any, created: bool, **kwargs: object) -> None:
    """Every new user gets the row their requests are counted on, so counting one (a search, a
    statistics page, an API request) is always the one UPDATE. Users from before are given
    theirs by migration sheets.0010, and ``count_request`` still makes a missing one."""
    if created:
        ApiUsage.objects.bulk_create([ApiUsage(user_id=instance.pk)], ignore_conflicts=True)
