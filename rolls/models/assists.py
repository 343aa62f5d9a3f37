"""Cogent assists: a roll linked to the roll it helps, and a standing request for one."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from log.models.entry import RollEntry
from rules import cogent
from sheets.models import Campaign, Character

# ---------------------------------------------------------------------------------------------
# The GM table: calls for a roll and contests (docs/gm-table.md)
# ---------------------------------------------------------------------------------------------


class AssistQuerySet(models.QuerySet["Assist"]):
    def waiting(self) -> AssistQuerySet:
        return self.filter(used_by__isnull=True, dropped_at__isnull=True)

    def waiting_for(self, character: Character) -> AssistQuerySet:
        """The assist the character's next action takes (cogent.ASSISTS_PER_ROLL: one at most)."""
        return self.waiting().filter(assisted=character).select_related("entry")


class Assist(models.Model):
    """A rolled Cogent assist waiting for the assisted character's next action.

    The assist itself is a log entry (kind "assist", append-only); this row only says whom it is
    for and whether it was used or dropped — state that changes, so it lives outside the chain.
    The main roll names the assist it took in its own ``options`` (by entry token and hash)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="assists")
    entry = models.OneToOneField(RollEntry, on_delete=models.PROTECT, related_name="assist_for")
    assisted = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="assists")
    wins = models.SmallIntegerField(help_text="Signed: added to the main roll's wins.")
    further_helpers = models.PositiveSmallIntegerField(
        default=0,
        help_text="A group assist's helpers beyond the one who rolled: +1 die each to the assist "
        "roll (also in the assist entry's options, so the chain holds it).",
    )
    used_by = models.OneToOneField(
        RollEntry,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="assist_used",
    )
    dropped_at = models.DateTimeField(null=True, blank=True)

    objects = AssistQuerySet.as_manager()

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(further_helpers__lte=cogent.GROUP_HELPERS_MAX),
                name="assist_further_helpers_at_most_max",
            )
        ]

    def __str__(self) -> str:
        return f"{self.entry.character_name}'s assist for {self.assisted}"

    @property
    def by_name(self) -> str:
        return self.entry.character_name

    @property
    def wins_text(self) -> str:
        return f"{self.wins:+d} win{'' if abs(self.wins) == 1 else 's'}"

    @property
    def effect_text(self) -> str:
        """What the assist does to the roll that takes it: "+1 win" (a group assist's helpers
        rolled with the assist, so they bring no dice of their own: RULES.md §8)."""
        if not self.further_helpers:
            return self.wins_text
        return f"{self.wins_text}, from a group assist of {self.further_helpers + 1}"


def group_dice_text(further_helpers: int) -> str:
    """A group assist's dice in words: "+1 die from 1 more helper", "+2 dice from 2 more helpers"."""
    n = further_helpers
    return f"+{n} {'die' if n == 1 else 'dice'} from {n} more helper{'' if n == 1 else 's'}"


class AssistRequestQuerySet(models.QuerySet["AssistRequest"]):
    def open(self) -> AssistRequestQuerySet:
        return self.filter(closed_at__isnull=True)

    def prompts_for(self, character: Character) -> AssistRequestQuerySet:
        """Open requests another character of the campaign may answer with an assist."""
        return (
            self.open()
            .filter(campaign_id=character.campaign_id)
            .exclude(character=character)
            .select_related("character")
        )

    def close_for(self, character: Character) -> int:
        return self.open().filter(character=character).update(closed_at=timezone.now())


class AssistRequest(models.Model):
    """ "Ask for an assist": a character's player asks the table to assist its next action. Shown
    as a prompt on the other characters' sheets; closed by an assist rolled for it, the asking
    character's next roll, or its player (or the GM) withdrawing it."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="assist_requests")
    character = models.ForeignKey(
        Character, on_delete=models.CASCADE, related_name="assist_requests"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    closed_at = models.DateTimeField(null=True, blank=True)

    objects = AssistRequestQuerySet.as_manager()

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.character} asks for an assist"
