"""Who may load what: the only way a view loads a campaign or a character.

A non-member always gets a 404 (no existence leak: an unknown id and someone else's campaign answer
alike); a member without the right role gets a 403 with a sentence saying why. Every app's views
use these (docs/permissions.md has the table of who may do what). They take the request of a view
behind ``login_required``: ``AuthenticatedHttpRequest``, whose user is never the anonymous one.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import FilteredRelation, Q, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404

from sheets.models import Campaign, Character, Membership
from web.http import AuthenticatedHttpRequest


def campaign_for_member(request: AuthenticatedHttpRequest, pk: int) -> tuple[Campaign, Membership]:
    """The campaign and the user's membership; 404 for non-members and unknown campaigns alike."""
    membership = (
        Membership.objects.select_related("campaign")
        .filter(campaign_id=pk, user_id=request.user.pk)
        .first()
    )
    if membership is None:
        raise Http404("No such campaign.")
    return membership.campaign, membership


def campaign_for_gm(request: AuthenticatedHttpRequest, pk: int) -> tuple[Campaign, Membership]:
    campaign, membership = campaign_for_member(request, pk)
    if not membership.is_gm:
        raise PermissionDenied("Only the GM can do that.")
    return campaign, membership


def campaign_for_creator(request: AuthenticatedHttpRequest, pk: int) -> tuple[Campaign, Membership]:
    """GM or player: observers only read."""
    campaign, membership = campaign_for_member(request, pk)
    if not membership.can_create_characters():
        raise PermissionDenied("Observers cannot create characters.")
    return campaign, membership


def with_viewer(queryset: QuerySet[Any], path: str, user_id: int) -> QuerySet[Any]:
    """``queryset`` with the user's membership of the campaign at ``path`` joined in as
    ``viewer`` (absent for a non-member): the permission check and the object in one query."""
    memberships = f"{path}__memberships"
    return queryset.annotate(
        viewer=FilteredRelation(memberships, condition=Q(**{f"{memberships}__user_id": user_id}))
    ).select_related("viewer")


def check_reader(character: Character, loaded: Any) -> Membership:
    """The membership :func:`with_viewer` joined into ``loaded`` (the character, or a row of its
    sheet), if it may read the character; hidden NPCs are a 404 for all but the GM."""
    membership: Membership | None = getattr(loaded, "viewer", None)
    # can_read(None) is False too; the check says so to the type checker.
    if membership is None or not character.can_read(membership):
        raise Http404("No such character.")
    membership.campaign = character.campaign  # the same row: no second read
    return membership


def character_for_reader(
    request: AuthenticatedHttpRequest, pk: int
) -> tuple[Character, Membership]:
    """The character if the user may read it; hidden NPCs are a 404 for everyone but the GM."""
    characters = with_viewer(
        Character.objects.select_related("campaign", "owner"), "campaign", request.user.pk
    )
    character = get_object_or_404(characters, pk=pk)
    return character, check_reader(character, character)


def character_for_editor(
    request: AuthenticatedHttpRequest, pk: int
) -> tuple[Character, Membership]:
    character, membership = character_for_reader(request, pk)
    if not character.can_edit(membership):
        raise PermissionDenied("You can read this character but not edit it.")
    return character, membership


def character_for_roller(
    request: AuthenticatedHttpRequest, pk: int
) -> tuple[Character, Membership]:
    """The character's player or the GM: the people who may roll for it."""
    character, membership = character_for_reader(request, pk)
    check_roller(character, membership)
    return character, membership


def check_roller(character: Character, membership: Membership) -> None:
    if not character.can_roll(membership):
        raise PermissionDenied("Only the character's player or the GM can roll for it.")


def character_for_gm(request: AuthenticatedHttpRequest, pk: int) -> tuple[Character, Membership]:
    """Any character of the GM's campaign (hidden NPCs too); 404 for non-members, 403 otherwise."""
    character = get_object_or_404(Character.objects.select_related("campaign"), pk=pk)
    _, membership = campaign_for_gm(request, character.campaign_id)
    return character, membership
