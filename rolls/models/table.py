"""The GM table's requests: calls for a roll and contests between two sides."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from sheets.models import Campaign, Character
from sheets.registry import contest_kind_choices


class RollCallQuerySet(models.QuerySet["RollCall"]):
    def open(self) -> RollCallQuerySet:
        return self.filter(closed_at__isnull=True)

    def prompts_for(self, character: Character) -> RollCallQuerySet:
        """Open calls that target ``character`` and that it has not rolled for yet."""
        return (
            self.open()
            .filter(targets__character=character)
            .exclude(entries__character=character)
            .order_by("pk")
        )


class RollCall(models.Model):
    """The GM asks some characters for a roll: a skill and a difficulty, per the campaign's system."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="roll_calls")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    skill = models.CharField(max_length=200, help_text="The skill's name on the sheets.")
    difficulty = models.PositiveSmallIntegerField(
        help_text="Cogent Challenge Level, DAD6 difficulty in boons or Cold Stars Risk."
    )
    ability = models.CharField(
        max_length=16, blank=True, help_text="Cold Stars: the Ability the GM asks for."
    )
    note = models.CharField(max_length=200, blank=True)
    # DAD6 (Book, dad6_skill.md): the GM lets the characters called take a puncher's chance.
    punchers_chance = models.BooleanField(
        "puncher's chance allowed",
        default=False,
        help_text="DAD6: each character called may take a puncher's chance instead.",
    )
    closed_at = models.DateTimeField(null=True, blank=True)

    objects = RollCallQuerySet.as_manager()

    class Meta:
        ordering = ["-pk"]

    def __str__(self) -> str:
        # The difficulty as stored: its words are the rule system's (rolls.table.calls).
        return f"Call for {self.skill} (difficulty {self.difficulty})"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None

    def targets_character(self, character: Character) -> bool:
        return self.targets.filter(character=character).exists()

    def close(self) -> None:
        if self.closed_at is None:
            self.closed_at = timezone.now()
            self.save(update_fields=["closed_at"])


class RollCallTarget(models.Model):
    call = models.ForeignKey(RollCall, on_delete=models.CASCADE, related_name="targets")
    character = models.ForeignKey(
        Character, on_delete=models.CASCADE, related_name="roll_call_targets"
    )

    class Meta:
        ordering = ["call", "character__name", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["call", "character"], name="roll_call_target_unique")
        ]

    def __str__(self) -> str:
        return f"{self.character} in {self.call}"


class ContestKind(models.TextChoices):
    """The three systems' contest kinds by name (a contest stores any registered style's kind:
    ``contest_kind_choices``; the labels are the styles' own)."""

    COGENT_CONFLICT = "cogent_conflict", "Conflict: both roll, more wins wins"
    COLD_STARS_ACTIVE = "cold_stars_active", "Active vs active: both roll at Risk 0"
    COLD_STARS_PASSIVE = "cold_stars_passive", "Active vs passive: the passive side sets the Risk"
    DAD6_OPPOSED = "dad6_opposed", "Opposed: opposition adds difficulty"


# Contests where both sides roll; in the others only side A (the acting side) rolls.


class ContestState(models.TextChoices):
    OPEN = "open", "Waiting for rolls"
    CHOOSING = "choosing", "Even: the initiator chooses"
    DECIDED = "decided", "Decided"
    CANCELLED = "cancelled", "Called off"


class ContestQuerySet(models.QuerySet["Contest"]):
    def active(self) -> ContestQuerySet:
        return self.filter(state__in=[ContestState.OPEN, ContestState.CHOOSING])

    def prompts_for(self, character: Character) -> ContestQuerySet:
        return (
            self.active()
            .filter(Q(character_a=character) | Q(character_b=character))
            .select_related("campaign", "character_a", "character_b")
            .order_by("pk")
        )


class Contest(models.Model):
    """Two characters of a campaign opposed on one roll each (or one roll against the other's
    rating). Side A is the initiator (the acting side when only one side rolls). The rolls are
    entries linked by ``RollEntry.contest``; the verdict is one more entry of kind ``contest``."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="contests")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    kind = models.CharField(max_length=32, choices=contest_kind_choices)
    # The links are nulled when a character is deleted; the names stay.
    character_a = models.ForeignKey(
        Character, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    character_b = models.ForeignKey(
        Character, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    name_a = models.CharField(max_length=200)
    name_b = models.CharField(max_length=200)
    skill_a = models.CharField(max_length=200)
    skill_b = models.CharField(max_length=200, blank=True)
    ability_a = models.CharField(max_length=16, blank=True)
    ability_b = models.CharField(max_length=16, blank=True)
    difficulty = models.PositiveSmallIntegerField(
        default=1, help_text="DAD6: the difficulty before opposition."
    )
    opposition = models.PositiveSmallIntegerField(
        default=0, help_text="DAD6: opposing factors, +1 boon each."
    )
    # Cold Stars: the GM's word that a side acts outside every declared domain of its skill (a
    # domain skill at rank 3+ then counts as at most 2: cold_stars.counted_skill).
    outside_domain_a = models.BooleanField(
        default=False, help_text="Cold Stars: side A acts outside every domain of its skill."
    )
    outside_domain_b = models.BooleanField(
        default=False, help_text="Cold Stars: side B acts outside every domain of its skill."
    )
    round = models.PositiveSmallIntegerField(default=1)
    settled_a = models.BooleanField(default=False, help_text="Side A is done with its roll.")
    settled_b = models.BooleanField(default=False, help_text="Side B is done with its roll.")
    state = models.CharField(max_length=16, choices=ContestState.choices, default=ContestState.OPEN)
    winner = models.CharField(max_length=1, blank=True, help_text="a, b, or empty.")
    verdict = models.CharField(max_length=300, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    objects = ContestQuerySet.as_manager()

    class Meta:
        ordering = ["-pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=ContestState.values), name="contest_state_valid"
            ),
            models.CheckConstraint(condition=Q(winner__in=["", "a", "b"]), name="contest_winner"),
        ]

    def __str__(self) -> str:
        return f"{self.name_a} vs {self.name_b}"

    @property
    def is_active(self) -> bool:
        return self.state in (ContestState.OPEN, ContestState.CHOOSING)

    def character(self, side: str) -> Character | None:
        return self.character_a if side == "a" else self.character_b

    def skill(self, side: str) -> str:
        return self.skill_a if side == "a" else self.skill_b

    def ability(self, side: str) -> str:
        return self.ability_a if side == "a" else self.ability_b

    def outside_domain(self, side: str) -> bool:
        return self.outside_domain_a if side == "a" else self.outside_domain_b

    def side_of(self, character: Character) -> str | None:
        if self.character_a_id == character.pk:
            return "a"
        if self.character_b_id == character.pk:
            return "b"
        return None
