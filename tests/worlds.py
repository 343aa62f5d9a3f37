"""A campaign of each system with one of every object a URL can name, for the URL walker
(tests/test_url_permissions.py) and the bad-input fuzzing (tests/test_bad_input*.py)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rolls.models import AssistRequest
from sheets.models import Campaign, Character, Invite, Membership, Role, System
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ContestFactory,
    InviteFactory,
    MembershipFactory,
    RollCallFactory,
    RollEntryFactory,
    UserFactory,
)


@dataclass
class Table:
    """One campaign: its GM, a player and their PC, a visible NPC and every row kind, a log entry,
    an open call, an open contest and an invite."""

    campaign: Campaign
    gm: Any
    player: Any
    observer: Any
    pc: Character
    npc: Character
    entry: Any
    call: Any
    contest: Any
    invite: Invite
    player_membership: Membership
    rows: dict[str, Any] = field(default_factory=dict)


def build_table(system: str, gm: Any, player: Any, observer: Any) -> Table:
    campaign = CampaignFactory(system=system, gm=gm)
    membership = MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
    MembershipFactory(campaign=campaign, user=observer, role=Role.OBSERVER)
    pc = CharacterFactory(campaign=campaign, owner=player, name="PC")
    npc = campaign.new_character(owner=gm, name="Warden", is_npc=True)
    rows: dict[str, Any] = {}
    if system == System.COGENT:
        sheet = pc.cogent
        rows["skill"] = sheet.skills.get(name="Athletics")
        rows["vocation"] = sheet.vocations.create(
            name="Surgeon", attribute="intelligence", rating=2
        )
        rows["subskill"] = rows["vocation"].subskills.create(
            slot=1, kind="combat", name="Small", rating=1
        )
        rows["injury"] = sheet.injuries.create(level=2, description="burn")
        rows["disability"] = sheet.disabilities.create(name="Feeble", attribute="strength", dice=1)
        kind, target = "cogent-skill", rows["skill"]
        contest = ContestFactory(campaign=campaign, character_a=pc, character_b=npc)
        # The NPC asks the table for an assist: the PC's sheet offers to answer it.
        rows["assist_request"] = AssistRequest.objects.create(
            campaign=campaign, character=npc, created_by=gm
        )
    elif system == System.DAD6:
        rows["skill"] = pc.dad6.skills.create(name="Tracking", is_class_skill=True)
        rows["bane"] = pc.dad6.banes.create(description="Owes the ferryman")
        kind, target = "dad6-skill", rows["skill"]
        contest = ContestFactory(
            campaign=campaign,
            kind="dad6_opposed",
            character_a=pc,
            character_b=npc,
            skill_a="Tracking",
            skill_b="",
        )
        npc.dad6.skills.create(name="Tracking", is_class_skill=True)
    else:
        rows["skill"] = pc.cold_stars.skills.get(name="Piloting")
        rows["domain"] = rows["skill"].domains.create(name="Small Craft")
        kind, target = "cold-stars-skill", rows["skill"]
        contest = ContestFactory(
            campaign=campaign,
            kind="cold_stars_active",
            character_a=pc,
            character_b=npc,
            skill_a="Piloting",
            skill_b="Piloting",
        )
    rows["kind"], rows["target"] = kind, target
    entry = RollEntryFactory(character=pc, label=target.name)
    call = RollCallFactory(campaign=campaign, skill=target.name, targets=[pc])
    invite = InviteFactory(campaign=campaign)
    return Table(
        campaign=campaign,
        gm=gm,
        player=player,
        observer=observer,
        pc=pc,
        npc=npc,
        entry=entry,
        call=call,
        contest=contest,
        invite=invite,
        player_membership=membership,
        rows=rows,
    )


def build_tables() -> dict[str, Table]:
    """A table per system, sharing the same GM, player and observer."""
    gm = UserFactory(username="gm")
    player = UserFactory(username="player")
    observer = UserFactory(username="observer")
    return {system: build_table(system, gm, player, observer) for system in System.values}
