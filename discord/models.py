"""What Poolside remembers of Discord (docs/discord.md): which Discord user is which member, the
one-time codes that link them, which channel plays which campaign, and every interaction already
answered, so a retried one is never carried out twice."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.conf import settings
from django.db import models
from django.utils import timezone

from sheets.models import Campaign

# A Discord id (a "snowflake"): a 64-bit integer, sent as a string of digits.
SNOWFLAKE_MAX = 20
LINK_CODE_LIFETIME = timedelta(minutes=15)  # as long as the interaction's own token lives


class DiscordLink(models.Model):
    """A Poolside user's Discord user: one each way."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="discord_link"
    )
    discord_user = models.CharField(max_length=SNOWFLAKE_MAX, unique=True)
    discord_name = models.CharField(max_length=100, blank=True)
    linked_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.user} = Discord {self.discord_name or self.discord_user}"


class LinkCodeQuerySet(models.QuerySet["LinkCode"]):
    def usable(self) -> LinkCodeQuerySet:
        return self.filter(expires_at__gt=timezone.now())


class LinkCode(models.Model):
    """A one-time, expiring code that ``/poolside link`` hands a Discord user privately. Only
    its SHA-256 is stored: the database alone can't be used to link an account."""

    digest = models.CharField(max_length=64, unique=True)
    discord_user = models.CharField(max_length=SNOWFLAKE_MAX)
    discord_name = models.CharField(max_length=100, blank=True)
    expires_at = models.DateTimeField()

    objects = LinkCodeQuerySet.as_manager()

    def __str__(self) -> str:
        return f"link code for Discord {self.discord_user}"

    @staticmethod
    def digest_of(code: str) -> str:
        return hashlib.sha256(code.encode()).hexdigest()

    @classmethod
    def issue(cls, discord_user: str, discord_name: str) -> str:
        """A new code for this Discord user (their earlier ones stop working); the code itself
        is returned once and never stored."""
        # Theirs and everyone's expired: nothing unusable is kept.
        cls.objects.filter(
            models.Q(discord_user=discord_user) | models.Q(expires_at__lte=timezone.now())
        ).delete()
        code = secrets.token_urlsafe(32)
        cls.objects.create(
            digest=cls.digest_of(code),
            discord_user=discord_user,
            discord_name=discord_name[:100],
            expires_at=timezone.now() + LINK_CODE_LIFETIME,
        )
        return code


class ChannelBinding(models.Model):
    """A Discord channel that plays one campaign: its commands roll there."""

    channel = models.CharField(max_length=SNOWFLAKE_MAX, unique=True)
    guild = models.CharField(max_length=SNOWFLAKE_MAX, db_index=True)
    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="discord_channels"
    )
    bound_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"channel {self.channel} → {self.campaign}"


class Interaction(models.Model):
    """An interaction Discord sent, by its id, with the answer it got: Discord may send one
    again (a retry after a lost answer), and it is then answered the same, not carried out
    again."""

    interaction = models.CharField(max_length=SNOWFLAKE_MAX, primary_key=True)
    received_at = models.DateTimeField(default=timezone.now, db_index=True)
    answer = models.JSONField(null=True)  # null while it is being answered

    def __str__(self) -> str:
        return f"interaction {self.interaction}"
