"""Who makes the choices on a roll (RULES.md §8, Seed 002: "the rolling player may apply", "the
player chooses"): on a player character's roll only its player makes the step-4 and step-6
choices, the all-blank Costly-or-Fail choice, the skip, and spends its resources after the roll
(destiny after, Correct, bought and extra boons); the GM makes them for NPCs. A GM who must change
a player character's resources edits its sheet instead.

Two Decisions keep a roll from waiting for someone who can never answer: a player character whose
player has left the campaign (or is no longer a player in it), and a roll its player cannot read
(a blind roll, the GM's secret roll), are chosen for by the GM.

The roll service, the follow-ups and the contests ask :func:`check` before they write; the pages,
the API and Discord ask :func:`waiting` to show a control disabled with the reason.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied

from sheets.models import Character, Membership

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from log.models import RollEntry


def player_chooses(character: Character, *entries: RollEntry) -> bool:
    """Does the character's player (rather than the GM) make the choices on its roll — the one
    ``entries`` decide (a roll, or a contest's rolls), or its next roll without any?"""
    if character.is_npc:
        return False
    player = Membership.objects.filter(
        campaign_id=character.campaign_id, user_id=character.owner_id
    ).first()
    if player is None or not (player.is_player or player.is_gm):
        return False  # Decision: the player has left; the GM chooses
    return all(entry.is_readable_by(player) for entry in entries)


def waiting_words(character: Character) -> str:
    return f"Waiting for {character.name}'s player: only they make this choice."


def waiting(character: Character, membership: Membership, *entries: RollEntry) -> str:
    """ "" when ``membership`` makes the choices on ``character``'s roll (decided by ``entries``,
    or its next roll), else the sentence a disabled control shows."""
    if not character.is_npc and character.owner_id == membership.user_id:
        return ""
    if player_chooses(character, *entries):
        return waiting_words(character)
    if membership.is_gm:
        return ""
    return f"Only the GM makes the choices on {character.name}'s rolls."


def check(user: User, character: Character, *entries: RollEntry) -> None:
    """Refuse (403, nothing written) a choice made by someone other than the one who makes it."""
    membership = Membership.objects.filter(
        campaign_id=character.campaign_id, user_id=user.pk
    ).first()
    reason = (
        waiting(character, membership, *entries)
        if membership is not None
        else "Only a member of the campaign makes choices on its rolls."
    )
    if reason:
        raise PermissionDenied(reason)
