"""Campaigns, membership, invites and characters."""

from __future__ import annotations

import secrets
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING, Any

from django.apps import apps
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models, transaction
from django.db.models import Count, F, OuterRef, Prefetch, Q, Subquery
from django.urls import reverse
from django.utils import timezone

from sheets import ranges
from sheets.models.base import Role, in_constraint, system_choices
from sheets.registry import names_of

if TYPE_CHECKING:
    from sheets.models.base import Sheet


if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


# ---------------------------------------------------------------------------------------------
# Campaigns and membership
# ---------------------------------------------------------------------------------------------


class CampaignQuerySet(models.QuerySet):
    def for_user(self, user: User | AnonymousUser) -> CampaignQuerySet:
        """Campaigns the user belongs to, in any role."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(memberships__user=user)

    def for_home(self, user: User) -> CampaignQuerySet:
        """The home page list: the user's role, the GM's name and the head counts, in one query."""
        memberships = Membership.objects.filter(campaign=OuterRef("pk"))
        return (
            self.for_user(user)
            .annotate(
                my_role=Subquery(memberships.filter(user=user).values("role")[:1]),
                gm_name=Subquery(memberships.filter(role=Role.GM).values("user__username")[:1]),
                member_count=Subquery(
                    memberships.order_by().values("campaign").annotate(n=Count("pk")).values("n")
                ),
                character_count=Count("characters", distinct=True),
            )
            .order_by("name", "pk")
        )

    def with_my_characters(self, user: User) -> CampaignQuerySet:
        """The user's own characters as ``my_characters``, so a home card links straight to
        them (one query for every card)."""
        mine = Character.objects.filter(owner=user, is_npc=False).order_by("name")
        return self.prefetch_related(Prefetch("characters", queryset=mine, to_attr="my_characters"))


class Campaign(models.Model):
    name = models.CharField(max_length=ranges.NAME_MAX_LENGTH)
    description = models.TextField(blank=True)
    system = models.CharField(max_length=16, choices=system_choices)
    force_public_rolls = models.BooleanField(
        "all rolls public",
        default=False,
        help_text="Every new roll is public: nobody can roll GM-only, blind or secret.",
    )
    # Cold Stars: the Momentum and Willpower maxima a character imported without them gets
    # (docs/character-json.md); the GM edits them in the campaign's settings.
    momentum_max_default = models.SmallIntegerField(
        "default Momentum maximum",
        default=ranges.COLD_STARS_MOMENTUM_MAX_DEFAULT,
        validators=[MinValueValidator(0), MaxValueValidator(ranges.COLD_STARS_RESOURCE_MAX)],
        help_text="Cold Stars: given to a character imported without a Momentum maximum.",
    )
    willpower_max_default = models.SmallIntegerField(
        "default Willpower maximum",
        default=ranges.COLD_STARS_WILLPOWER_MAX_DEFAULT,
        validators=[MinValueValidator(0), MaxValueValidator(ranges.COLD_STARS_RESOURCE_MAX)],
        help_text="Cold Stars: given to a character imported without a Willpower maximum.",
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    # True exactly when the campaign has an active outgoing webhook (kept by rolls.models.webhooks
    # whenever one is added, paused, resumed or deleted): a roll reads it with the campaign it
    # loads anyway, so only campaigns with webhooks pay for them.
    has_webhooks = models.BooleanField(default=False, editable=False)

    objects = CampaignQuerySet.as_manager()

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="campaign_name_not_empty"),
            *(
                models.CheckConstraint(
                    condition=Q(
                        **{f"{field}__gte": 0, f"{field}__lte": ranges.COLD_STARS_RESOURCE_MAX}
                    ),
                    name=f"campaign_{field}_range",
                )
                for field in ("momentum_max_default", "willpower_max_default")
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: object, **kwargs: Any) -> None:
        # has_webhooks is kept by its own UPDATE (rolls.models.sync_has_webhooks) whenever a
        # webhook is added, paused, resumed or deleted; a full save of a row read before that
        # (the campaign form's, say) must not write the old value back.
        if not self._state.adding and kwargs.get("update_fields") is None:
            kwargs["update_fields"] = [
                field.name
                for field in self._meta.concrete_fields
                if not field.primary_key and field.name != "has_webhooks"
            ]
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("campaign_detail", args=[self.pk])

    def clean(self) -> None:
        # The system decides the shape of every sheet: switching it under existing characters
        # would orphan their data, so it is frozen from the first character on.
        if self.pk and self.system_locked():
            stored = Campaign.objects.filter(pk=self.pk).values_list("system", flat=True).first()
            if stored is not None and stored != self.system:
                raise ValidationError(
                    {"system": "The system cannot change once the campaign has characters."}
                )

    def system_locked(self) -> bool:
        return self.pk is not None and self.characters.exists()

    def membership_for(self, user: User | AnonymousUser) -> Membership | None:
        if not user.is_authenticated:
            return None
        return self.memberships.filter(user=user).first()

    @transaction.atomic
    def start(self, gm: User) -> None:
        """Save a new campaign with its creator as GM."""
        self.save()
        Membership.objects.create(campaign=self, user=gm, role=Role.GM)

    @transaction.atomic
    def hand_gm_to(self, new_gm: Membership) -> None:
        """Make another member the GM; the old GM stays as a player and NPCs follow the GM role."""
        if new_gm.campaign_id != self.pk:
            raise ValueError("That member belongs to another campaign.")
        old = self.memberships.select_for_update().get(role=Role.GM)
        if old.pk == new_gm.pk:
            return
        # Demote first: the one-GM-per-campaign constraint must hold after every statement.
        Membership.objects.filter(pk=old.pk).update(role=Role.PLAYER)
        Membership.objects.filter(pk=new_gm.pk).update(role=Role.GM)
        self.characters.filter(is_npc=True).update(owner=new_gm.user_id)

    @transaction.atomic
    def new_character(
        self,
        *,
        owner: User,
        name: str,
        is_npc: bool = False,
        hidden_from_players: bool = False,
        notes: str = "",
    ) -> Character:
        """Create a character with the blank sheet of this campaign's system."""
        character = Character.objects.create(
            campaign=self,
            owner=owner,
            name=name,
            is_npc=is_npc,
            hidden_from_players=hidden_from_players,
            notes=notes,
        )
        character.create_sheet()
        return character


class Membership(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=16, choices=Role.choices)
    joined_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["campaign", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="membership_unique_user"),
            models.UniqueConstraint(
                fields=["campaign"], condition=Q(role="gm"), name="membership_one_gm"
            ),
            in_constraint("role", Role.values, "membership_role_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) in {self.campaign}"

    @property
    def is_gm(self) -> bool:
        return self.role == Role.GM

    @property
    def is_player(self) -> bool:
        return self.role == Role.PLAYER

    def can_create_characters(self) -> bool:
        return self.role in (Role.GM, Role.PLAYER)


class InviteError(Exception):
    """Why an invite link cannot be used; the message is shown to the visitor."""


class Invite(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invites")
    # 256 bits from the OS CSPRNG: unguessable, URL-safe. A partial of the standard library's, so
    # the migrations that name this default import nothing of ours.
    token = models.CharField(
        max_length=64, unique=True, default=partial(secrets.token_urlsafe, 32), editable=False
    )
    role = models.CharField(
        max_length=16,
        choices=[(Role.PLAYER, "Player"), (Role.OBSERVER, "Observer")],
        default=Role.PLAYER,
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    expires_at = models.DateTimeField(null=True, blank=True)
    max_uses = models.PositiveIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1), MaxValueValidator(10_000)]
    )
    use_count = models.PositiveIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        constraints = [
            in_constraint("role", [Role.PLAYER, Role.OBSERVER], "invite_role_player_or_observer"),
            models.CheckConstraint(
                condition=Q(max_uses__isnull=True) | Q(max_uses__gte=1, max_uses__lte=10_000),
                name="invite_max_uses_range",
            ),
            models.CheckConstraint(condition=Q(use_count__gte=0), name="invite_use_count_gte_0"),
            models.CheckConstraint(
                condition=Q(max_uses__isnull=True) | Q(use_count__lte=F("max_uses")),
                name="invite_use_count_lte_max_uses",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_role_display()} invite to {self.campaign}"

    def get_absolute_url(self) -> str:
        return reverse("invite_accept", args=[self.token])

    def problem(self, now: datetime | None = None) -> str | None:
        """Why the link cannot be used right now, or None when it can."""
        now = now or timezone.now()
        if self.revoked_at is not None:
            return "This invite link was revoked by the GM."
        if self.expires_at is not None and self.expires_at <= now:
            return "This invite link has expired."
        if self.max_uses is not None and self.use_count >= self.max_uses:
            return "This invite link has been used up."
        return None

    @property
    def uses_left(self) -> int | None:
        return None if self.max_uses is None else max(0, self.max_uses - self.use_count)

    def redeem(self, user: User) -> Membership:
        """Join the campaign through this link; raises InviteError when it cannot be used.

        The row is locked and re-read, so two people racing for the last use cannot both get in.
        """
        with transaction.atomic():
            invite = Invite.objects.select_for_update().get(pk=self.pk)
            if invite.campaign.memberships.filter(user=user).exists():
                raise InviteError("You are already a member of this campaign.")
            problem = invite.problem()
            if problem:
                raise InviteError(problem)
            membership = Membership.objects.create(
                campaign=invite.campaign, user=user, role=invite.role
            )
            Invite.objects.filter(pk=invite.pk).update(use_count=F("use_count") + 1)
        self.refresh_from_db()
        return membership

    def revoke(self) -> None:
        if self.revoked_at is None:
            self.revoked_at = timezone.now()
            self.save(update_fields=["revoked_at"])


# ---------------------------------------------------------------------------------------------
# Characters
# ---------------------------------------------------------------------------------------------


def initials(name: str) -> str:
    """Up to two letters of a name for the avatar drawn where there is no portrait."""
    words = [word for word in name.split() if word[:1].isalnum()]
    return "".join(word[0] for word in words[:2]).upper() or name[:1].upper()


class CharacterQuerySet(models.QuerySet):
    def visible_to(self, membership: Membership) -> CharacterQuerySet:
        """Characters a member may read: the GM sees all, others never see hidden NPCs."""
        qs = self.filter(campaign_id=membership.campaign_id)
        if membership.is_gm:
            return qs
        return qs.filter(hidden_from_players=False)


class Character(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="characters")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="characters"
    )
    name = models.CharField(max_length=ranges.NAME_MAX_LENGTH)
    is_npc = models.BooleanField("NPC", default=False)
    hidden_from_players = models.BooleanField(
        default=False, help_text="Only the GM sees a hidden NPC."
    )
    notes = models.TextField(blank=True)
    # The stored portrait's random key ("" for none; sheets/portraits.py): its files are named
    # after it, and its URLs carry it, so a new portrait is a new address no cache has seen.
    # On the row itself, so every list of characters has its portraits without another query.
    portrait = models.CharField(max_length=32, blank=True, default="", editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    updated_at = models.DateTimeField(auto_now=True)

    objects = CharacterQuerySet.as_manager()

    class Meta:
        ordering = ["is_npc", "name", "pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="character_name_not_empty"),
            models.CheckConstraint(
                condition=Q(hidden_from_players=False) | Q(is_npc=True),
                name="character_only_npcs_hidden",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("character_detail", args=[self.pk])

    def can_edit(self, membership: Membership | None) -> bool:
        """GM edits everything; a player edits only their own (non-NPC) characters."""
        if membership is None or membership.campaign_id != self.campaign_id:
            return False
        if membership.is_gm:
            return True
        return membership.is_player and self.owner_id == membership.user_id and not self.is_npc

    def can_roll(self, membership: Membership | None) -> bool:
        """The GM rolls for everyone; a player rolls only the characters they own; observers never."""
        if membership is None or membership.campaign_id != self.campaign_id:
            return False
        if membership.is_gm:
            return True
        return membership.is_player and self.owner_id == membership.user_id

    def can_read(self, membership: Membership | None) -> bool:
        if membership is None or membership.campaign_id != self.campaign_id:
            return False
        return membership.is_gm or not self.hidden_from_players

    @property
    def initials(self) -> str:
        return initials(self.name)

    @property
    def portrait_url(self) -> str:
        """The square portrait's address ("" without one); it changes with the portrait."""
        return self._portrait_at("full")

    @property
    def thumbnail_url(self) -> str:
        return self._portrait_at("thumb")

    def _portrait_at(self, size: str) -> str:
        if not self.portrait:
            return ""
        return reverse("character_portrait_file", args=[self.pk, self.portrait, size])

    @property
    def system(self) -> str:
        return self.campaign.system

    def create_sheet(self) -> None:
        # The sheet model by name (sheets.registry), not through the system: models call no
        # seam object (docs/architecture.md, "Layers").
        sheet_model: type[Sheet] = apps.get_model(names_of(self.system).sheet_model)
        sheet_model.create_for(self)

    @property
    def sheet(self) -> Sheet:
        """The character's one sheet, whichever system the campaign plays."""
        sheet: Sheet = getattr(self, names_of(self.system).related_name)
        return sheet
