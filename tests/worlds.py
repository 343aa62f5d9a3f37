"""The people at a campaign's table, built the same way for every test (the fixtures ``party``,
``parties`` and ``system`` in tests/conftest.py).

One cast, whatever the system: the GM ("gm"); ana plays Ada and ben plays Bo; an observer; the GM's
NPCs, Warden (players see him) and Spy (hidden from players); and a user of the site who is no
member ("stranger"). Sheets are blank: a test sets the ratings it reads. ``furnish`` adds one of
every object a URL can name, for the URL walker (tests/test_url_permissions.py) and the bad-input
fuzzing (tests/test_bad_input*.py)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from log.models import RollEntry
from rolls.models import AssistRequest, Contest, RollCall, Webhook
from rolls.sessions.actions import start_session
from rules import cold_stars
from sheets import portraits
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
    WebhookFactory,
)
from tests.portrait_files import picture, upload_file
from tests.rolls.helpers import SEED, seed_where

# Who may be asked to act in a permission test, as the Party attribute that holds them.
ACTORS = ("anonymous", "nonmember", "observer", "player", "other_player", "gm")


@dataclass
class Party:
    """One campaign and everyone at its table."""

    campaign: Campaign
    gm: User
    player: User  # ana, plays pc
    other_player: User  # ben, plays other_pc
    observer: User
    nonmember: User  # a user of the site, not a member of this campaign
    pc: Character  # Ada
    other_pc: Character  # Bo
    npc: Character  # Warden, the GM's NPC the players see
    hidden_npc: Character  # Spy, the GM's NPC hidden from players
    # Only after furnish(): a log entry of the pc's, an open call, an open contest, an invite, a
    # webhook (never contacted: no worker runs in those tests), and
    # the rows a URL can name (skill, vocation, domain, …, "kind"/"target" of a roll panel).
    entry: RollEntry | None = None
    call: RollCall | None = None
    contest: Contest | None = None
    invite: Invite | None = None
    webhook: Webhook | None = None
    rows: dict[str, Any] = field(default_factory=dict)

    def user(self, actor: str) -> User | None:
        """The user behind an actor of ACTORS (None for "anonymous")."""
        return None if actor == "anonymous" else getattr(self, actor)

    @property
    def player_membership(self) -> Membership:
        return self.campaign.memberships.get(user=self.player)


def build_party(
    system: str = System.COGENT,
    *,
    gm: User | None = None,
    player: User | None = None,
    other_player: User | None = None,
    observer: User | None = None,
    nonmember: User | None = None,
) -> Party:
    """A campaign of ``system`` with the cast above (pass users to seat other people)."""
    gm = gm or UserFactory(username="gm")
    player = player or UserFactory(username="ana")
    other_player = other_player or UserFactory(username="ben")
    observer = observer or UserFactory(username="observer")
    nonmember = nonmember or UserFactory(username="stranger")
    campaign = CampaignFactory(system=system, gm=gm)
    MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
    MembershipFactory(campaign=campaign, user=other_player, role=Role.PLAYER)
    MembershipFactory(campaign=campaign, user=observer, role=Role.OBSERVER)
    return Party(
        campaign=campaign,
        gm=gm,
        player=player,
        other_player=other_player,
        observer=observer,
        nonmember=nonmember,
        pc=CharacterFactory(campaign=campaign, owner=player, name="Ada"),
        other_pc=CharacterFactory(campaign=campaign, owner=other_player, name="Bo"),
        npc=CharacterFactory(campaign=campaign, owner=gm, name="Warden", is_npc=True),
        hidden_npc=CharacterFactory(
            campaign=campaign, owner=gm, name="Spy", is_npc=True, hidden_from_players=True
        ),
    )


def build_parties(*, furnished: bool = False) -> dict[str, Party]:
    """A party per system, the same people at each."""
    gm, player = UserFactory(username="gm"), UserFactory(username="ana")
    other_player, observer = UserFactory(username="ben"), UserFactory(username="observer")
    nonmember = UserFactory(username="stranger")
    parties = {
        system: build_party(
            system,
            gm=gm,
            player=player,
            other_player=other_player,
            observer=observer,
            nonmember=nonmember,
        )
        for system in System.values
    }
    if furnished:
        for party in parties.values():
            furnish(party)
    return parties


def furnish(party: Party) -> Party:
    """Give the party one of every object a URL can name (rows of every kind on the pc's sheet,
    a game session with a log entry in it, an open call, an open contest against Warden, an
    invite, a webhook, the pc's portrait)."""
    campaign, pc, npc, gm = party.campaign, party.pc, party.npc, party.gm
    system = campaign.system
    rows = party.rows
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
    start_session(gm, campaign, "The first night")  # a session's recap is a URL too
    party.entry = RollEntryFactory(character=pc, label=target.name)
    party.call = RollCallFactory(campaign=campaign, skill=target.name, targets=[pc])
    party.contest = contest
    party.invite = InviteFactory(campaign=campaign)
    party.webhook = WebhookFactory(campaign=campaign)
    portraits.store(pc, portraits.process(upload_file("ada.png", picture())))
    return party


@dataclass
class World:
    """For the bad-input fuzzing: a furnished party per system, and another campaign none of
    their people belongs to (its ids are forgeries)."""

    parties: dict[str, Party]
    other: Party

    @property
    def forged(self) -> list[str]:
        o = self.other
        ids = [o.campaign.pk, o.pc.pk, o.npc.pk, o.entry.pk, o.call.pk, o.contest.pk, o.invite.pk]
        ids.append(o.webhook.pk)
        ids += [row.pk for row in o.rows.values() if hasattr(row, "pk")]
        return [str(pk) for pk in ids]


def build_world() -> World:
    parties = build_parties(furnished=True)
    # The other campaign's people are strangers to ours (and ours to it).
    other = build_party(
        System.COGENT,
        gm=UserFactory(username="other_gm"),
        player=UserFactory(username="p2"),
        other_player=UserFactory(username="b2"),
        observer=UserFactory(username="o2"),
        nonmember=parties[System.COGENT].gm,
    )
    return World(parties, furnish(other))


COGENT, DAD6, STARS = System.COGENT, System.DAD6, System.COLD_STARS

# Valid bodies of the GM table's forms, per system: what the fuzzers mutate.
RESOURCES = {
    COGENT: lambda pk: {f"res-{pk}-destiny_points": "2"},
    STARS: lambda pk: {f"res-{pk}-momentum": "1", f"res-{pk}-willpower": "2"},
}

CALL_VALID: dict[str, Callable[[Any], dict[str, Any]]] = {
    COGENT: lambda t: {"call-skill": "Athletics", "call-difficulty": "2"},
    DAD6: lambda t: {"call-skill": "Tracking", "call-difficulty": "3"},
    STARS: lambda t: {"call-skill": "Piloting", "call-difficulty": "1", "call-ability": "will"},
}

CONTEST_VALID: dict[str, Callable[[Any], dict[str, Any]]] = {
    COGENT: lambda t: {"contest-kind": "cogent_conflict", "contest-skill_b": "Athletics"},
    DAD6: lambda t: {
        "contest-kind": "dad6_opposed",
        "contest-difficulty": "1",
        "contest-opposition": "2",
    },
    STARS: lambda t: {
        "contest-kind": "cold_stars_passive",
        "contest-ability_a": "agility",
        "contest-skill_b": "Piloting",
        "contest-ability_b": "",
    },
}


# What each system's first roll in with_rolls asks for.
FIRST_ROLL = {
    COGENT: {"challenge_level": "2", "extra_penalty": "0"},
    DAD6: {"difficulty": "2", "task": "mundane", "traded_boons": "0"}
    | dict.fromkeys(("tools", "helpers", "advantages", "time"), "0"),
    STARS: {"ability": "agility", "risk": "1", "modification": "none"},
}


def with_rolls(world: World, settings: Any) -> World:
    """The world with a real roll per system to follow up (the roll-fuzzing modules' ``world``):
    each PC's first roll and a GM-only one, an all-blank Cold Stars roll (the player's choice) and one side's roll
    of the Cogent conflict."""
    settings.ROLLS_RNG_SEED = SEED  # repeatable dice
    parties = world.parties
    # A real roll per system, so follow-ups have options, resources and offers to work on.
    roller = Client()
    roller.force_login(parties[COGENT].player)
    for system, party in parties.items():
        url = reverse(
            "roll_create", args=[party.pc.pk, party.rows["kind"], party.rows["target"].pk]
        )
        response = roller.post(url, FIRST_ROLL[system])
        assert response.status_code == 302, response.content.decode()[:2000]
        party.rows["rolled"] = RollEntry.objects.filter(character=party.pc).latest("pk")
        # And a GM-only one: the campaign may switch every roll public after it (the fuzz does).
        response = roller.post(url, FIRST_ROLL[system] | {"visibility": "gm_only"})
        assert response.status_code == 302, response.content.decode()[:2000]
        party.rows["hidden"] = RollEntry.objects.filter(character=party.pc).latest("pk")
    # The entries whose follow-ups take a value or read options: an all-blank Cold Stars roll (the
    # player's choice) and one side's roll of a Cogent conflict (no Challenge Level).
    stars = parties[STARS]
    piloting = stars.rows["target"]
    piloting.trained, piloting.rating = True, 1  # no untrained Risk die: all blank is possible
    piloting.save()
    url = reverse("roll_create", args=[stars.pc.pk, stars.rows["kind"], stars.rows["target"].pk])
    roller.post(url, FIRST_ROLL[STARS] | {"risk": "0"})
    pool = RollEntry.objects.filter(character=stars.pc).latest("pk").pool
    settings.ROLLS_RNG_SEED = seed_where(
        lambda faces: cold_stars.resolve(faces) == "choice",
        lambda rng: cold_stars.roll(
            cold_stars.Pool(pool["ability"], pool["skill"], pool["risk"]), rng
        ),
    )
    roller.post(url, FIRST_ROLL[STARS] | {"risk": "0"})
    stars.rows["choice"] = RollEntry.objects.filter(character=stars.pc).latest("pk")
    assert stars.rows["choice"].outcome == "choice"
    settings.ROLLS_RNG_SEED = SEED
    cogent = parties[COGENT]
    roller.post(reverse("contest_side", args=[cogent.contest.pk, "a", "roll"]))
    cogent.rows["side"] = RollEntry.objects.get(contest=cogent.contest)
    return world


# Valid bodies of the roll panel per system, the target kinds, the log's query string: what the
# bad-input tests mutate (tests/test_bad_input_rolls.py, test_bad_input_api.py).
ROLL_VALID = {
    System.COGENT: {
        "challenge_level": "2",
        "extra_penalty": "0",
        "weapon": "Small",
        "weapon_bonus": "1",
        "destiny_before": "on",
        "duress": "",
        "contested": "on",
        "reflexive": "",
        "visibility": "public",
        "action": "roll",
    },
    System.DAD6: {
        "difficulty": "2",
        "task": "mundane",
        "tools": "1",
        "helpers": "0",
        "advantages": "2",
        "time": "1",
        "traded_boons": "0",
        "visibility": "gm",
        "action": "roll",
    },
    System.COLD_STARS: {
        "ability": "agility",
        "risk": "1",
        "domain": "Small Craft",
        "modification": "press",
        "visibility": "blind",
        "action": "roll",
    },
}
# (system, target kind, row): every kind load_target knows.
TARGETS = [
    (System.COGENT, "cogent-skill", "skill"),
    (System.COGENT, "cogent-vocation", "vocation"),
    (System.COGENT, "cogent-subskill", "subskill"),
    (System.DAD6, "dad6-skill", "skill"),
    (System.COLD_STARS, "cold-stars-skill", "skill"),
]

LOG_VALID = {
    "q": "Athletics success",
    "character": "",
    "player": "",
    "skill": "Athletics",
    "outcome": "any_success",
    "date_from": "2020-01-01",
    "date_to": "2100-12-31",
    "before": "99",
}
