"""Campaigns, membership, invites and the character sheets of the three systems.

Every range on a sheet is a real column with a validator (forms show the message beside the field)
and a database check constraint (nothing else, admin or shell or import, can store it either).
Pool figures are never computed here by hand: `pool_*` methods call the rules engine.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models, transaction
from django.db.models import Count, F, OuterRef, Q, Subquery
from django.urls import reverse
from django.utils import timezone
from django.utils.functional import cached_property

from rolls.rules import cogent, cold_stars, dad6
from sheets import ranges
from sheets.catalog import cold_stars_catalog, cold_stars_catalog_by_key

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

    from sheets.systems import RuleSystem


def _range(low: int, high: int) -> list:
    return [MinValueValidator(low), MaxValueValidator(high)]


def _between(field: str, low: int, high: int, name: str) -> models.CheckConstraint:
    return models.CheckConstraint(
        condition=Q(**{f"{field}__gte": low, f"{field}__lte": high}), name=name
    )


def _in(field: str, values: Iterable[str], name: str) -> models.CheckConstraint:
    return models.CheckConstraint(condition=Q(**{f"{field}__in": list(values)}), name=name)


class System(models.TextChoices):
    COGENT = "cogent", "Cogent Roleplay"
    DAD6 = "dad6", "DAD6 Skills"
    COLD_STARS = "cold_stars", "Cold Stars"


class Role(models.TextChoices):
    GM = "gm", "GM"
    PLAYER = "player", "Player"
    OBSERVER = "observer", "Observer"


# ---------------------------------------------------------------------------------------------
# Campaigns and membership
# ---------------------------------------------------------------------------------------------


class CampaignQuerySet(models.QuerySet):
    def for_user(self, user: AbstractBaseUser | AnonymousUser) -> CampaignQuerySet:
        """Campaigns the user belongs to, in any role."""
        if not user.is_authenticated:
            return self.none()
        return self.filter(memberships__user=user)

    def for_home(self, user: AbstractBaseUser | AnonymousUser) -> CampaignQuerySet:
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


class Campaign(models.Model):
    name = models.CharField(max_length=ranges.NAME_MAX_LENGTH)
    description = models.TextField(blank=True)
    system = models.CharField(max_length=16, choices=System.choices)
    force_public_rolls = models.BooleanField(
        "all rolls public",
        default=False,
        help_text="Every new roll is public: nobody can roll GM-only, blind or secret.",
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    objects = CampaignQuerySet.as_manager()

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            _in("system", System.values, "campaign_system_valid"),
            models.CheckConstraint(condition=~Q(name=""), name="campaign_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name

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

    @property
    def rule_system(self) -> RuleSystem:
        """Everything that differs per system, in one object (sheets/systems/)."""
        from sheets.systems import rule_system

        return rule_system(self.system)

    def membership_for(self, user: AbstractBaseUser | AnonymousUser) -> Membership | None:
        if not user.is_authenticated:
            return None
        return self.memberships.filter(user=user).first()

    @transaction.atomic
    def start(self, gm: AbstractBaseUser) -> None:
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
        owner: AbstractBaseUser,
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


class MembershipQuerySet(models.QuerySet):
    def gm(self) -> MembershipQuerySet:
        return self.filter(role=Role.GM)


class Membership(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=16, choices=Role.choices)
    joined_at = models.DateTimeField(default=timezone.now, editable=False)

    objects = MembershipQuerySet.as_manager()

    class Meta:
        ordering = ["campaign", "role", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="membership_unique_user"),
            models.UniqueConstraint(
                fields=["campaign"], condition=Q(role="gm"), name="membership_one_gm"
            ),
            _in("role", Role.values, "membership_role_valid"),
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


def new_invite_token() -> str:
    # 256 bits from the OS CSPRNG: unguessable, URL-safe.
    return secrets.token_urlsafe(32)


class InviteError(Exception):
    """Why an invite link cannot be used; the message is shown to the visitor."""


class Invite(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True, default=new_invite_token, editable=False)
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
            _in("role", [Role.PLAYER, Role.OBSERVER], "invite_role_player_or_observer"),
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
    def is_usable(self) -> bool:
        return self.problem() is None

    @property
    def uses_left(self) -> int | None:
        return None if self.max_uses is None else max(0, self.max_uses - self.use_count)

    def redeem(self, user: AbstractBaseUser) -> Membership:
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
    def system(self) -> str:
        return self.campaign.system

    def create_sheet(self) -> None:
        self.campaign.rule_system.create_sheet(self)

    @property
    def sheet(self) -> Sheet:
        """The character's one sheet, whichever system the campaign plays."""
        return self.campaign.rule_system.sheet_of(self)


# ---------------------------------------------------------------------------------------------
# Cogent Roleplay
# ---------------------------------------------------------------------------------------------


class CogentAttribute(models.TextChoices):
    STRENGTH = "strength", "Strength"
    REFLEX = "reflex", "Reflex"
    INTELLIGENCE = "intelligence", "Intelligence"


# The 15 core skills with their governing attribute, and the fixed combat skills: from the engine.
COGENT_CORE_SKILLS: tuple[tuple[str, str], ...] = tuple(
    (name, attribute.lower()) for name, attribute in cogent.CORE_SKILLS.items()
)
COGENT_COMBAT_SKILLS: tuple[str, ...] = tuple(cogent.COMBAT_SKILLS)
COGENT_CRAFT_SKILL = "Ride/Pilot"  # the core skill that names its animal or craft


class CogentSheet(models.Model):
    character = models.OneToOneField(
        Character, on_delete=models.CASCADE, related_name="cogent", primary_key=True
    )
    strength = models.SmallIntegerField(
        default=0, validators=_range(ranges.COGENT_ATTRIBUTE_MIN, ranges.COGENT_ATTRIBUTE_MAX)
    )
    reflex = models.SmallIntegerField(
        default=0, validators=_range(ranges.COGENT_ATTRIBUTE_MIN, ranges.COGENT_ATTRIBUTE_MAX)
    )
    intelligence = models.SmallIntegerField(
        default=0, validators=_range(ranges.COGENT_ATTRIBUTE_MIN, ranges.COGENT_ATTRIBUTE_MAX)
    )
    destiny_points = models.SmallIntegerField(
        default=ranges.COGENT_DESTINY_START,
        validators=_range(ranges.COGENT_DESTINY_MIN, ranges.COGENT_DESTINY_MAX),
    )
    penalty_dice = models.SmallIntegerField(
        "situational penalty dice",
        default=0,
        validators=_range(0, ranges.COGENT_PENALTY_MAX),
        help_text="Dice removed from every pool by the current situation.",
    )

    class Meta:
        constraints = [
            _between(
                attr,
                ranges.COGENT_ATTRIBUTE_MIN,
                ranges.COGENT_ATTRIBUTE_MAX,
                f"cogent_{attr}_range",
            )
            for attr in ("strength", "reflex", "intelligence")
        ] + [
            _between(
                "destiny_points",
                ranges.COGENT_DESTINY_MIN,
                ranges.COGENT_DESTINY_MAX,
                "cogent_destiny_range",
            ),
            _between("penalty_dice", 0, ranges.COGENT_PENALTY_MAX, "cogent_penalty_range"),
        ]

    def __str__(self) -> str:
        return f"Cogent sheet of {self.character}"

    @classmethod
    def create_for(cls, character: Character) -> CogentSheet:
        sheet = cls.objects.create(character=character)
        CogentSkill.objects.bulk_create(
            CogentSkill(sheet=sheet, name=name, attribute=attribute, position=i)
            for i, (name, attribute) in enumerate(COGENT_CORE_SKILLS)
        )
        return sheet

    def attribute_value(self, attribute: str) -> int:
        return getattr(self, CogentAttribute(attribute).value)

    @cached_property
    def injury_list(self) -> list[CogentInjury]:
        # Read once per loaded sheet (every row's pool needs it); uses a prefetch when there is one.
        return list(self.injuries.all())

    @cached_property
    def disability_list(self) -> list[CogentDisability]:
        return list(self.disabilities.all())

    @property
    def injury_dice(self) -> int:
        """Dice the injuries take off a physical check (they stack, Book)."""
        return self.injury_dice_on(None)

    def injury_dice_on(self, attribute: str | None) -> int:
        """Rules at the table: injury dice come off physical checks only (``None``: combat)."""
        return cogent.injury_dice([i.level for i in self.injury_list], attribute=attribute)

    def disability_dice_on(self, attribute: str | None) -> int:
        """Dice the disabling characteristics take off checks governed by ``attribute``."""
        if attribute is None:
            return 0
        return sum(d.dice for d in self.disability_list if d.attribute == attribute)

    def penalties(self, attribute: str | None) -> list[tuple[int, str]]:
        """Seed step 4, the negative modifiers of a check governed by ``attribute`` (``None``:
        a combat pool), as (dice, what) pairs for a breakdown."""
        return [
            (self.injury_dice_on(attribute), "injury"),
            (self.disability_dice_on(attribute), "disabling characteristic"),
            (self.penalty_dice, "situational"),
        ]

    def modifier_on(self, attribute: str | None) -> int:
        return -sum(dice for dice, _ in self.penalties(attribute))

    def pool_for_skill(
        self, *, rating: int, attribute: str, extra: int = 0, bonus_dice: int = 0
    ) -> int:
        return cogent.pool_size(
            skill=rating,
            attribute=self.attribute_value(attribute),
            modifier=self.modifier_on(attribute) - extra,
            bonus_dice=bonus_dice,
        )

    def combat_pool(
        self, *, rating: int, weapon_bonus: int = 0, extra: int = 0, bonus_dice: int = 0
    ) -> int:
        return cogent.combat_pool_size(
            combat_skill=rating,
            attributes=[self.strength, self.reflex, self.intelligence],
            weapon_bonus=weapon_bonus,
            modifier=self.modifier_on(None) - extra,
            bonus_dice=bonus_dice,
        )

    def creation_warnings(
        self, skills: list[CogentSkill], vocations: list[CogentVocation]
    ) -> list[str]:
        """The Book's creation rules as soft checks, shown to the owner and the GM (the caller
        passes the rows it has loaded anyway)."""
        return cogent.creation_warnings(
            core_skill_ratings=[skill.rating for skill in skills], vocations=len(vocations)
        )


class CogentInjury(models.Model):
    """One injury: its level removes that many dice from physical checks (Book)."""

    sheet = models.ForeignKey(CogentSheet, on_delete=models.CASCADE, related_name="injuries")
    level = models.SmallIntegerField(
        choices=[(level, f"{level} — {name}") for level, name in cogent.INJURY_LEVELS.items()],
        validators=_range(min(cogent.INJURY_LEVELS), max(cogent.INJURY_LEVELS)),
    )
    description = models.CharField(max_length=ranges.NAME_MAX_LENGTH, blank=True)

    class Meta:
        ordering = ["-level", "pk"]
        constraints = [
            _between(
                "level",
                min(cogent.INJURY_LEVELS),
                max(cogent.INJURY_LEVELS),
                "cogent_injury_level_range",
            )
        ]

    def __str__(self) -> str:
        name = f"{cogent.INJURY_LEVELS[self.level]} injury"
        return f"{name}: {self.description}" if self.description else name


class CogentDisability(models.Model):
    """A disabling characteristic (Book): a name, and the dice it removes from checks governed by
    one attribute when it has a mechanical effect (e.g. Feeble: −1 on Strength checks)."""

    sheet = models.ForeignKey(CogentSheet, on_delete=models.CASCADE, related_name="disabilities")
    name = models.CharField(max_length=ranges.NAME_MAX_LENGTH)
    attribute = models.CharField(
        "affects checks of",
        max_length=16,
        choices=CogentAttribute.choices,
        blank=True,
        help_text="Leave empty when it has no dice effect (a phobia, a compulsion…).",
    )
    dice = models.SmallIntegerField(
        "dice removed",
        default=0,
        validators=_range(0, ranges.COGENT_PENALTY_MAX),
    )

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.CheckConstraint(condition=~Q(name=""), name="cogent_disability_name_not_empty"),
            _between("dice", 0, ranges.COGENT_PENALTY_MAX, "cogent_disability_dice_range"),
            models.CheckConstraint(
                condition=Q(attribute="", dice=0)
                | Q(attribute__in=CogentAttribute.values, dice__gt=0),
                name="cogent_disability_shape",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class RollableRow:
    """What the roll panel asks of a sheet row it rolls (mixed into each rollable row model)."""

    is_combat = False  # a Cogent combat skill says True: it rolls with a weapon

    @property
    def owning_sheet(self) -> Sheet:
        sheet: Sheet = self.sheet  # type: ignore[attr-defined]  # every row but a sub-skill has it
        return sheet

    @property
    def roll_label(self) -> str:
        """The row's name in a roll's label and the panel's heading."""
        name: str = self.name  # type: ignore[attr-defined]
        return name


class CogentSkill(RollableRow, models.Model):
    sheet = models.ForeignKey(CogentSheet, on_delete=models.CASCADE, related_name="skills")
    name = models.CharField(max_length=ranges.NAME_MAX_LENGTH)
    attribute = models.CharField(max_length=16, choices=CogentAttribute.choices)
    rating = models.SmallIntegerField(
        default=0, validators=_range(ranges.COGENT_SKILL_MIN, ranges.COGENT_SKILL_MAX)
    )
    position = models.PositiveSmallIntegerField(default=0)
    # Book (core_skills.tex): "When the ride skill is chosen the player must choose what type of
    # animal or craft it applies to." Only Ride/Pilot uses it.
    craft = models.CharField(max_length=ranges.NAME_MAX_LENGTH, blank=True)

    class Meta:
        ordering = ["position", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "name"], name="cogent_skill_unique_name"),
            _between(
                "rating", ranges.COGENT_SKILL_MIN, ranges.COGENT_SKILL_MAX, "cogent_skill_range"
            ),
            _in("attribute", CogentAttribute.values, "cogent_skill_attribute_valid"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def pool(self) -> int:
        return self.sheet.pool_for_skill(rating=self.rating, attribute=self.attribute)

    @property
    def has_craft(self) -> bool:
        return self.name == COGENT_CRAFT_SKILL


class CogentVocation(RollableRow, models.Model):
    sheet = models.ForeignKey(CogentSheet, on_delete=models.CASCADE, related_name="vocations")
    name = models.CharField(max_length=ranges.NAME_MAX_LENGTH)
    attribute = models.CharField(
        "governing attribute", max_length=16, choices=CogentAttribute.choices
    )
    rating = models.SmallIntegerField(
        default=0, validators=_range(ranges.COGENT_VOCATION_MIN, ranges.COGENT_VOCATION_MAX)
    )

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "name"], name="cogent_vocation_unique_name"),
            models.CheckConstraint(condition=~Q(name=""), name="cogent_vocation_name_not_empty"),
            _between(
                "rating",
                ranges.COGENT_VOCATION_MIN,
                ranges.COGENT_VOCATION_MAX,
                "cogent_vocation_range",
            ),
            _in("attribute", CogentAttribute.values, "cogent_vocation_attribute_valid"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def roll_label(self) -> str:
        return f"{self.name} (vocation)"

    @property
    def pool(self) -> int:
        return self.sheet.pool_for_skill(rating=self.rating, attribute=self.attribute)

    def free_slot(self) -> int | None:
        used = {sub.slot for sub in self.subskills.all()}
        for slot in range(1, ranges.COGENT_SUBSKILLS_PER_VOCATION + 1):
            if slot not in used:
                return slot
        return None


CUSTOM_WEAPON = "custom"  # a weapon outside the Book's melee table: its bonus is typed in


class SubSkillKind(models.TextChoices):
    VOCATIONAL = "vocational", "Vocational skill"
    COMBAT = "combat", "Combat skill"


class CogentSubSkill(RollableRow, models.Model):
    vocation = models.ForeignKey(CogentVocation, on_delete=models.CASCADE, related_name="subskills")
    # Slots 1..4, unique per vocation: the database itself caps a vocation at four sub-skills.
    slot = models.PositiveSmallIntegerField(
        validators=_range(1, ranges.COGENT_SUBSKILLS_PER_VOCATION)
    )
    kind = models.CharField(max_length=16, choices=SubSkillKind.choices)
    name = models.CharField(max_length=ranges.NAME_MAX_LENGTH)
    attribute = models.CharField(
        "governing attribute",
        max_length=16,
        choices=CogentAttribute.choices,
        blank=True,
        help_text="Vocational skills only; combat skills use every attribute.",
    )
    rating = models.SmallIntegerField(
        default=0, validators=_range(ranges.COGENT_SUBSKILL_MIN, ranges.COGENT_SUBSKILL_MAX)
    )
    # Rules at the table: a combat skill names its usual weapon, so the sheet's pool and the roll
    # panel's default pool are the same number. A named weapon's bonus is the Book's; "other"
    # (``CUSTOM_WEAPON``) keeps the bonus typed in (ranged weapons and the like).
    weapon = models.CharField(
        max_length=32,
        blank=True,
        choices=[(name, f"{name} ({bonus:+d})") for name, bonus in cogent.WEAPON_BONUSES.items()]
        + [(CUSTOM_WEAPON, "Other (enter the bonus)")],
    )
    weapon_bonus = models.SmallIntegerField(
        default=0, validators=_range(ranges.COGENT_WEAPON_BONUS_MIN, ranges.COGENT_WEAPON_BONUS_MAX)
    )

    class Meta:
        ordering = ["slot"]
        constraints = [
            models.UniqueConstraint(
                fields=["vocation", "slot"], name="cogent_subskill_unique_slot"
            ),
            models.UniqueConstraint(
                fields=["vocation", "name"], name="cogent_subskill_unique_name"
            ),
            _between("slot", 1, ranges.COGENT_SUBSKILLS_PER_VOCATION, "cogent_subskill_slot_range"),
            _between(
                "rating",
                ranges.COGENT_SUBSKILL_MIN,
                ranges.COGENT_SUBSKILL_MAX,
                "cogent_subskill_range",
            ),
            models.CheckConstraint(
                condition=(
                    Q(kind=SubSkillKind.VOCATIONAL, attribute__in=CogentAttribute.values)
                    & ~Q(name="")
                )
                | (Q(kind=SubSkillKind.COMBAT, attribute="") & ~Q(name="")),
                name="cogent_subskill_kind_shape",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def owning_sheet(self) -> CogentSheet:
        return self.vocation.sheet

    @property
    def roll_label(self) -> str:
        return f"{self.name} (combat)" if self.is_combat else self.name

    @property
    def is_combat(self) -> bool:
        return self.kind == SubSkillKind.COMBAT

    @property
    def weapon_label(self) -> str:
        """How a breakdown names the stored weapon."""
        return self.weapon if self.weapon in cogent.WEAPON_BONUSES else "weapon"

    @property
    def weapon_bonus_now(self) -> int:
        """The stored weapon's bonus dice: the Book's for a named weapon, the typed one for other."""
        if self.weapon in cogent.WEAPON_BONUSES:
            return cogent.WEAPON_BONUSES[self.weapon]
        return self.weapon_bonus if self.weapon == CUSTOM_WEAPON else 0

    @property
    def pool(self) -> int:
        sheet = self.vocation.sheet
        if self.is_combat:
            return sheet.combat_pool(rating=self.rating, weapon_bonus=self.weapon_bonus_now)
        return sheet.pool_for_skill(rating=self.rating, attribute=self.attribute)


# ---------------------------------------------------------------------------------------------
# DAD6
# ---------------------------------------------------------------------------------------------

DAD6_COMPETENCE_CHOICES = [(c, c.capitalize()) for c in dad6.COMPETENCES]


class Dad6Sheet(models.Model):
    character = models.OneToOneField(
        Character, on_delete=models.CASCADE, related_name="dad6", primary_key=True
    )
    class_name = models.CharField("class", max_length=ranges.NAME_MAX_LENGTH, blank=True)
    level = models.SmallIntegerField(
        "class level",
        default=ranges.DAD6_LEVEL_MIN,
        validators=_range(ranges.DAD6_LEVEL_MIN, ranges.DAD6_LEVEL_MAX),
    )
    # Extra boons rolled forward: each is one automatic boon of the character's next roll (engine
    # resolve/odds bonus_boons), spent by that roll on the locked sheet.
    forward_boons = models.SmallIntegerField(
        "rolled-forward boons",
        default=0,
        validators=_range(0, ranges.DAD6_FORWARD_BOONS_MAX),
    )

    class Meta:
        constraints = [
            _between("level", ranges.DAD6_LEVEL_MIN, ranges.DAD6_LEVEL_MAX, "dad6_level_range"),
            _between("forward_boons", 0, ranges.DAD6_FORWARD_BOONS_MAX, "dad6_forward_boons_range"),
        ]

    def __str__(self) -> str:
        return f"DAD6 sheet of {self.character}"

    @property
    def class_skill_competence(self) -> str:
        return dad6.class_skill_competence(self.level)

    @classmethod
    def create_for(cls, character: Character) -> Dad6Sheet:
        return cls.objects.create(character=character)


class Dad6Skill(RollableRow, models.Model):
    sheet = models.ForeignKey(Dad6Sheet, on_delete=models.CASCADE, related_name="skills")
    name = models.CharField(max_length=ranges.NAME_MAX_LENGTH)
    is_class_skill = models.BooleanField("class skill", default=False)
    # Class skills derive their competence from the level, so they store none.
    competence = models.CharField(
        max_length=16, choices=DAD6_COMPETENCE_CHOICES, blank=True, default=""
    )

    class Meta:
        ordering = ["-is_class_skill", "name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "name"], name="dad6_skill_unique_name"),
            models.CheckConstraint(condition=~Q(name=""), name="dad6_skill_name_not_empty"),
            models.CheckConstraint(
                condition=Q(is_class_skill=True, competence="")
                | Q(is_class_skill=False, competence__in=list(dad6.COMPETENCES)),
                name="dad6_skill_competence_shape",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def effective_competence(self) -> str:
        if self.is_class_skill:
            return self.sheet.class_skill_competence
        return self.competence

    @property
    def pool(self) -> int:
        return dad6.pool_size(level=self.sheet.level, competence=self.effective_competence)

    @property
    def die_bonus(self) -> int:
        """What a mundane task adds to each die at this competence (engine)."""
        return dad6.die_modifier(competence=self.effective_competence)


# A bane bought with a boon whose player gave no wording (the roll's follow-up form asks for one).
DAD6_DEFAULT_BANE = "A bane accepted to buy a boon"


class Dad6Bane(models.Model):
    """A bane in play (Book: a failed Character buys a boon by accepting a bane): added by a bought
    boon, removed by the owner or GM on the sheet. It names no roll, so a hidden roll's bane says
    nothing about that roll beyond the sheet's figures (docs/roll-log.md, traces)."""

    sheet = models.ForeignKey(Dad6Sheet, on_delete=models.CASCADE, related_name="banes")
    description = models.CharField(max_length=ranges.NAME_MAX_LENGTH, default=DAD6_DEFAULT_BANE)

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(
                condition=~Q(description=""), name="dad6_bane_description_not_empty"
            ),
        ]

    def __str__(self) -> str:
        return self.description


# ---------------------------------------------------------------------------------------------
# Cold Stars
# ---------------------------------------------------------------------------------------------


class ColdStarsAbility(models.TextChoices):
    STRENGTH = "strength", "Strength"
    AGILITY = "agility", "Agility"
    INTELLECT = "intellect", "Intellect"
    PRESENCE = "presence", "Presence"
    PERCEPTION = "perception", "Perception"
    WILL = "will", "Will"


def _ability_field() -> models.SmallIntegerField:
    return models.SmallIntegerField(
        default=ranges.COLD_STARS_ABILITY_MIN,
        validators=_range(ranges.COLD_STARS_ABILITY_MIN, ranges.COLD_STARS_ABILITY_MAX),
    )


def _resource_field(verbose_name: str) -> models.SmallIntegerField:
    return models.SmallIntegerField(
        verbose_name, default=0, validators=_range(0, ranges.COLD_STARS_RESOURCE_MAX)
    )


class ColdStarsSheet(models.Model):
    character = models.OneToOneField(
        Character, on_delete=models.CASCADE, related_name="cold_stars", primary_key=True
    )
    strength = _ability_field()
    agility = _ability_field()
    intellect = _ability_field()
    presence = _ability_field()
    perception = _ability_field()
    will = _ability_field()
    momentum = _resource_field("Momentum")
    momentum_max = _resource_field("Momentum maximum")
    willpower = _resource_field("Willpower")
    willpower_max = _resource_field("Willpower maximum")

    class Meta:
        constraints = (
            [
                _between(
                    ability,
                    ranges.COLD_STARS_ABILITY_MIN,
                    ranges.COLD_STARS_ABILITY_MAX,
                    f"cold_stars_{ability}_range",
                )
                for ability in ColdStarsAbility.values
            ]
            + [
                _between(field, 0, ranges.COLD_STARS_RESOURCE_MAX, f"cold_stars_{field}_range")
                for field in ("momentum", "momentum_max", "willpower", "willpower_max")
            ]
            + [
                models.CheckConstraint(
                    condition=Q(momentum__lte=F("momentum_max")), name="cold_stars_momentum_lte_max"
                ),
                models.CheckConstraint(
                    condition=Q(willpower__lte=F("willpower_max")),
                    name="cold_stars_willpower_lte_max",
                ),
            ]
        )

    def __str__(self) -> str:
        return f"Cold Stars sheet of {self.character}"

    def clean(self) -> None:
        errors = {}
        for field, label in (("momentum", "Momentum"), ("willpower", "Willpower")):
            current, maximum = getattr(self, field), getattr(self, f"{field}_max")
            if current is not None and maximum is not None and current > maximum:
                errors[field] = f"{label} cannot exceed its maximum ({maximum})."
        if errors:
            raise ValidationError(errors)

    @classmethod
    def create_for(cls, character: Character) -> ColdStarsSheet:
        sheet = cls.objects.create(character=character)
        sheet.ensure_skills()
        return sheet

    def ensure_skills(self) -> None:
        """Give the sheet a row for every catalog and campaign skill it does not have yet."""
        have = set(self.skills.values_list("name", flat=True))
        rows = [
            ColdStarsSkill(
                sheet=self,
                catalog_key=skill.key,
                name=skill.name,
                group=skill.group,
                ability=skill.ability,
                is_domain=skill.domain,
                position=i,
            )
            for i, skill in enumerate(cold_stars_catalog())
            if skill.name not in have
        ]
        campaign_skills = CampaignSkill.objects.filter(campaign_id=self.character.campaign_id)
        rows += [
            ColdStarsSkill(
                sheet=self,
                campaign_skill=skill,
                name=skill.name,
                group=skill.group,
                ability=skill.ability,
                is_domain=skill.is_domain,
                position=1000 + skill.pk,
            )
            for skill in campaign_skills
            if skill.name not in have
        ]
        ColdStarsSkill.objects.bulk_create(rows)

    def ability_value(self, ability: str) -> int:
        return getattr(self, ColdStarsAbility(ability).value)


class CogentCombatSkill(models.Model):
    """A combat skill the narrator defines for a Cogent campaign (magic, powers, Book
    custom_rules_and_magic.tex), offered beside the fixed list wherever a combat skill is chosen."""

    campaign = models.ForeignKey(
        Campaign, on_delete=models.CASCADE, related_name="cogent_combat_skills"
    )
    name = models.CharField(max_length=ranges.NAME_MAX_LENGTH)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "name"], name="cogent_combat_skill_unique_name"
            ),
            models.CheckConstraint(
                condition=~Q(name=""), name="cogent_combat_skill_name_not_empty"
            ),
        ]

    def __str__(self) -> str:
        return self.name


def cogent_combat_skills(campaign: Campaign) -> list[str]:
    """The combat skills a sub-skill of this campaign may be: the Book's list, then the GM's.
    Read once per loaded campaign: a sheet offers the list in every vocation's add form."""
    cached = getattr(campaign, "_cogent_combat_skills", None)
    if cached is None:
        names = campaign.cogent_combat_skills.values_list("name", flat=True)
        cached = campaign._cogent_combat_skills = [*COGENT_COMBAT_SKILLS, *names]
    return cached


class CampaignSkill(models.Model):
    """A skill the GM adds to a Cold Stars campaign beside the default catalog."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="custom_skills")
    name = models.CharField(max_length=ranges.NAME_MAX_LENGTH)
    group = models.CharField(max_length=ranges.NAME_MAX_LENGTH, default="Campaign")
    ability = models.CharField("suggested Ability", max_length=16, choices=ColdStarsAbility.choices)
    is_domain = models.BooleanField("domain skill", default=False)
    example_domains = models.CharField(
        max_length=300, blank=True, help_text="Comma-separated examples shown to players."
    )

    class Meta:
        ordering = ["group", "name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="campaign_skill_unique_name"),
            models.CheckConstraint(condition=~Q(name=""), name="campaign_skill_name_not_empty"),
            _in("ability", ColdStarsAbility.values, "campaign_skill_ability_valid"),
        ]

    def __str__(self) -> str:
        return self.name

    def add_to_sheets(self) -> None:
        for sheet in ColdStarsSheet.objects.filter(character__campaign_id=self.campaign_id):
            sheet.ensure_skills()


class ColdStarsSkill(RollableRow, models.Model):
    sheet = models.ForeignKey(ColdStarsSheet, on_delete=models.CASCADE, related_name="skills")
    # Exactly one source: a catalog key, or a campaign's custom skill.
    catalog_key = models.CharField(max_length=64, blank=True)
    campaign_skill = models.ForeignKey(
        CampaignSkill, on_delete=models.CASCADE, null=True, blank=True, related_name="sheet_skills"
    )
    name = models.CharField(max_length=ranges.NAME_MAX_LENGTH)
    group = models.CharField(max_length=ranges.NAME_MAX_LENGTH)
    ability = models.CharField("suggested Ability", max_length=16, choices=ColdStarsAbility.choices)
    is_domain = models.BooleanField("domain skill", default=False)
    trained = models.BooleanField(default=False)
    rating = models.SmallIntegerField(
        default=0, validators=_range(ranges.COLD_STARS_SKILL_MIN, ranges.COLD_STARS_SKILL_MAX)
    )
    position = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["position", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "name"], name="cold_stars_skill_unique_name"),
            _between(
                "rating",
                ranges.COLD_STARS_SKILL_MIN,
                ranges.COLD_STARS_SKILL_MAX,
                "cold_stars_skill_range",
            ),
            # Untrained skills carry no rating (RULES.md §3: untrained, or trained 0-5).
            models.CheckConstraint(
                condition=Q(trained=True) | Q(rating=0), name="cold_stars_untrained_rating_0"
            ),
            models.CheckConstraint(
                condition=(Q(catalog_key__gt="") & Q(campaign_skill__isnull=True))
                | (Q(catalog_key="") & Q(campaign_skill__isnull=False)),
                name="cold_stars_skill_one_source",
            ),
            _in("ability", ColdStarsAbility.values, "cold_stars_skill_ability_valid"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def needs_domain(self) -> bool:
        return (
            self.is_domain
            and self.trained
            and self.rating >= ranges.COLD_STARS_DOMAIN_REQUIRED_FROM
        )

    @property
    def pool(self) -> cold_stars.Pool:
        # The suggested Ability is the roll's default (the GM may pick another when rolling).
        return cold_stars.build_pool(
            ability=self.sheet.ability_value(self.ability),
            skill=self.rating,
            risk=0,
            trained=self.trained,
            domain_skill=self.is_domain,
            in_domain=True,
        )

    @property
    def example_domains(self) -> tuple[str, ...]:
        if self.campaign_skill_id:
            raw = self.campaign_skill.example_domains
            return tuple(part.strip() for part in raw.split(",") if part.strip())
        entry = cold_stars_catalog_by_key().get(self.catalog_key)
        return entry.example_domains if entry else ()


class ColdStarsDomain(models.Model):
    skill = models.ForeignKey(ColdStarsSkill, on_delete=models.CASCADE, related_name="domains")
    name = models.CharField(max_length=ranges.NAME_MAX_LENGTH)

    class Meta:
        ordering = ["name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["skill", "name"], name="cold_stars_domain_unique"),
            models.CheckConstraint(condition=~Q(name=""), name="cold_stars_domain_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name

    def deletion_problem(self) -> str:
        """Why this domain can't go now ("" when it can): a domain skill rated 3 or more keeps at
        least one domain (docs/rules.md, Cold Stars)."""
        skill = self.skill
        if skill.needs_domain and skill.domains.count() == 1:
            return (
                f"{skill.name} is rated {skill.rating}, so it needs at least one domain: "
                "add another domain or lower the rating first."
            )
        return ""


# Any system's sheet: what a view holds when the system does not matter to it.
Sheet = CogentSheet | Dad6Sheet | ColdStarsSheet
