"""The API's resources of the sheets app: the token's user, campaigns and characters (docs/api.md).

Each loads through ``sheets.access`` exactly as the pages do: a campaign the user isn't in and a
hidden NPC a player can't see are a 404, like an id that doesn't exist.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from django.http import HttpRequest
from ninja import Path, Router, Schema

from api.base import ERRORS
from sheets.access import campaign_for_member, character_for_reader
from sheets.character_json import export_character
from sheets.models import Campaign, Character, Membership

router = Router(tags=["Campaigns and characters"])

# Ids as the pages' <id:…> converter takes them (sheets/converters.py): beyond 64 bits no row is.
MAX_ID = 10**18 - 1
Id = Annotated[int, Path(ge=1, le=MAX_ID)]


class TokenOut(Schema):
    name: str
    scope: str
    expires_at: datetime | None


class MeOut(Schema):
    username: str
    token: TokenOut


class CharacterOut(Schema):
    id: int
    name: str
    player: str
    npc: bool
    # Only the GM reads hidden NPCs, so only the GM's answer can say true.
    hidden_from_players: bool
    can_roll: bool
    can_edit: bool
    url: str


class CampaignOut(Schema):
    id: int
    name: str
    system: str
    system_name: str
    role: str
    force_public_rolls: bool
    url: str


class CampaignDetailOut(CampaignOut):
    description: str
    characters: list[CharacterOut]


def absolute(request: HttpRequest, path: str) -> str:
    return request.build_absolute_uri(path)


def campaign_out(request: HttpRequest, campaign: Campaign, role: str) -> dict[str, object]:
    return {
        "id": campaign.pk,
        "name": campaign.name,
        "system": campaign.system,
        "system_name": campaign.get_system_display(),
        "role": role,
        "force_public_rolls": campaign.force_public_rolls,
        "url": absolute(request, campaign.get_absolute_url()),
    }


def character_out(
    request: HttpRequest, character: Character, membership: Membership
) -> dict[str, object]:
    return {
        "id": character.pk,
        "name": character.name,
        "player": character.owner.get_username(),
        "npc": character.is_npc,
        "hidden_from_players": character.hidden_from_players,
        "can_roll": character.can_roll(membership),
        "can_edit": character.can_edit(membership),
        "url": absolute(request, character.get_absolute_url()),
    }


@router.get("/me", response={200: MeOut, **ERRORS}, summary="The token's user")
def me(request: HttpRequest) -> dict[str, object]:
    """Who the token acts for, and what it may do: a quick check that a token works."""
    token = request.auth  # type: ignore[attr-defined]
    return {
        "username": request.user.get_username(),
        "token": {"name": token.name, "scope": token.scope, "expires_at": token.expires_at},
    }


@router.get("/campaigns", response={200: list[CampaignOut], **ERRORS}, summary="Your campaigns")
def campaigns(request: HttpRequest) -> list[dict[str, object]]:
    """Every campaign you belong to, with your role (gm, player or observer), by name."""
    return [
        campaign_out(request, campaign, campaign.my_role)
        for campaign in Campaign.objects.for_home(request.user)  # type: ignore[arg-type]
    ]


@router.get("/campaigns/{pk}", response={200: CampaignDetailOut, **ERRORS}, summary="A campaign")
def campaign(request: HttpRequest, pk: Id) -> dict[str, object]:
    """The campaign and the characters you may read (players never see hidden NPCs)."""
    found, membership = campaign_for_member(request, pk)  # type: ignore[arg-type]
    characters = Character.objects.visible_to(membership).select_related("owner", "campaign")
    return campaign_out(request, found, membership.role) | {
        "description": found.description,
        "characters": [character_out(request, c, membership) for c in characters],
    }


@router.get(
    "/characters/{pk}",
    response={200: dict[str, object], **ERRORS},
    summary="A character's sheet (the export format)",
)
def character(request: HttpRequest, pk: Id) -> dict[str, object]:
    """The character as the sheet's “Export JSON” gives it (docs/character-json.md), with the
    campaign and your permissions beside it."""
    found, membership = character_for_reader(request, pk)  # type: ignore[arg-type]
    return export_character(found) | {
        "id": found.pk,
        "campaign": found.campaign_id,
        "can_roll": found.can_roll(membership),
        "can_edit": found.can_edit(membership),
        "url": absolute(request, found.get_absolute_url()),
    }
