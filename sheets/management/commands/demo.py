"""Load the demo campaigns and logins. Idempotent: running it again changes nothing that exists.

Never run from a migration: demo users must not appear in a production database.
"""

import os
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from sheets.models import Campaign, Character, Membership, Role, System

PASSWORD = "poolside"  # noqa: S105 — the demo's logins, printed for the developer
USERS = ("gm", "alice", "bob")


def _cogent_rob(character: Character) -> None:
    # The rulebook example: Strength 1, Athletics 2 → a 6-dice Athletics pool.
    sheet = character.cogent
    sheet.strength, sheet.reflex, sheet.intelligence = 1, 0, 1
    sheet.save()
    _ratings(sheet.skills, {"Athletics": 2, "Endurance": 1, "Perception": 1, "Survival": 2})
    vocation = sheet.vocations.create(name="Ship's Surgeon", attribute="intelligence", rating=2)
    vocation.subskills.create(
        slot=1, kind="vocational", name="Surgery", attribute="reflex", rating=2
    )
    vocation.subskills.create(slot=2, kind="combat", name="Small", rating=1, weapon="Small")
    sheet.skills.filter(name="Ride/Pilot").update(craft="Shuttle")


def _cogent_bob(character: Character) -> None:
    sheet = character.cogent
    sheet.strength, sheet.reflex, sheet.intelligence = 0, 2, 0
    sheet.save()
    _ratings(sheet.skills, {"Stealth": 3, "Acrobatics": 2, "Sleight of Hand": 2, "Swim": -1})
    vocation = sheet.vocations.create(name="Cat Burglar", attribute="reflex", rating=3)
    vocation.subskills.create(
        slot=1, kind="vocational", name="Lockpicking", attribute="reflex", rating=3
    )
    vocation.subskills.create(slot=2, kind="combat", name="Reach", rating=1, weapon="Reach")
    # An injury and a disabling characteristic, so the demo shows what they do to the pools.
    sheet.injuries.create(level=1, description="bruised ribs")
    sheet.disabilities.create(name="Kleptomaniac")


def _dad6(
    character: Character,
    class_name: str,
    level: int,
    skills: dict[str, str],
    *,
    banes: tuple[str, ...] = (),
    forward_boons: int = 0,
) -> None:
    sheet = character.dad6
    sheet.class_name, sheet.level, sheet.forward_boons = class_name, level, forward_boons
    sheet.save()
    for description in banes:
        sheet.banes.create(description=description)
    for name, competence in skills.items():
        if competence == "class":
            sheet.skills.create(name=name, is_class_skill=True)
        else:
            sheet.skills.create(name=name, competence=competence)


def _cold_stars(character: Character, abilities: dict[str, int], skills: dict) -> None:
    sheet = character.cold_stars
    for ability, value in abilities.items():
        setattr(sheet, ability, value)
    sheet.momentum_max, sheet.momentum = 5, 2
    sheet.willpower_max, sheet.willpower = 3, 3
    sheet.save()
    for name, (rating, domains) in skills.items():
        skill = sheet.skills.get(name=name)
        for domain in domains:
            skill.domains.create(name=domain)
        skill.trained, skill.rating = True, rating
        skill.save()


def _ratings(skills: Any, ratings: dict[str, int]) -> None:
    for name, rating in ratings.items():
        skills.filter(name=name).update(rating=rating)


DEMO = {
    "Cogent demo": (
        System.COGENT,
        "A salvage crew chasing a derelict across the outer belt. Rob is the rulebook's example.",
        {"alice": ("Rob", _cogent_rob), "bob": ("Nimble Jack", _cogent_bob)},
    ),
    "DAD6 demo": (
        System.DAD6,
        "A caravan through the Ashen Wastes, one bad decision at a time.",
        {
            "alice": (
                "Mira the Ranger",
                lambda c: _dad6(
                    c,
                    "Ranger",
                    4,
                    {"Tracking": "class", "Archery": "class", "Cooking": "familiar"},
                    forward_boons=1,
                ),
            ),
            "bob": (
                "Brother Tobin",
                lambda c: _dad6(
                    c,
                    "Cleric",
                    2,
                    {"Healing": "class", "Lore": "class", "Swimming": "unfamiliar"},
                    banes=("Owes the ferryman a favour",),
                ),
            ),
        },
    ),
    "Cold Stars demo": (
        System.COLD_STARS,
        "Freight, debts and a ship that should have been scrapped years ago.",
        {
            "alice": (
                "Captain Vey",
                lambda c: _cold_stars(
                    c,
                    {"agility": 3, "presence": 3, "perception": 2, "will": 2, "intellect": 2},
                    {
                        "Piloting": (3, ["Small Craft", "Racing Skiffs"]),
                        "Persuasion": (2, []),
                        "Awareness": (1, []),
                    },
                ),
            ),
            "bob": (
                "Okonkwo",
                lambda c: _cold_stars(
                    c,
                    {"strength": 3, "intellect": 4, "will": 2},
                    {"Engineering": (4, ["Reactors"]), "Repair": (3, []), "Athletics": (0, [])},
                ),
            ),
        },
    ),
}

# The GM's NPCs (name, hidden from the players, sheet): the GM table rolls them from their cards.
NPCS = {
    "Cogent demo": [
        (
            "Dock Boss Harrow",
            False,
            lambda c: _cogent_npc(c, {"Athletics": 3, "Endurance": 2, "Perception": 1}),
        ),
    ],
    "DAD6 demo": [
        (
            "Ashen Raider",
            False,
            lambda c: _dad6(c, "Warrior", 3, {"Melee": "class", "Intimidate": "class"}),
        ),
    ],
    "Cold Stars demo": [
        (
            "Harbour Master Iyo",
            False,
            lambda c: _cold_stars(
                c,
                {"presence": 3, "perception": 3, "intellect": 2},
                {"Awareness": (2, []), "Persuasion": (1, []), "Piloting": (3, ["Tugs"])},
            ),
        ),
        (
            "The Broker",
            True,
            lambda c: _cold_stars(
                c, {"presence": 4, "will": 3}, {"Persuasion": (2, []), "Awareness": (2, [])}
            ),
        ),
    ],
}


def _cogent_npc(character: Character, ratings: dict[str, int]) -> None:
    sheet = character.cogent
    sheet.strength, sheet.reflex, sheet.intelligence = 2, 1, 0
    sheet.save()
    _ratings(sheet.skills, ratings)


class Command(BaseCommand):
    help = "Create the demo users (password 'poolside') and one demo campaign per system."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        users = {}
        for username in USERS:
            user, created = User.objects.get_or_create(
                username=username, defaults={"email": f"{username}@example.com"}
            )
            if created:
                user.set_password(PASSWORD)
                if username == "gm":
                    # The demo GM can look at the admin too.
                    user.is_staff = user.is_superuser = True
                user.save()
            users[username] = user

        for name, (system, description, characters) in DEMO.items():
            campaign = Campaign.objects.filter(name=name).first()
            if campaign is None:
                campaign = Campaign(name=name, description=description, system=system)
                campaign.start(gm=users["gm"])
            for username in ("alice", "bob"):
                Membership.objects.get_or_create(
                    campaign=campaign, user=users[username], defaults={"role": Role.PLAYER}
                )
            for username, (char_name, fill) in characters.items():
                owner = users[username]
                if not campaign.characters.filter(owner=owner, name=char_name).exists():
                    fill(campaign.new_character(owner=owner, name=char_name))
            for npc_name, hidden, fill in NPCS[name]:
                if not campaign.characters.filter(is_npc=True, name=npc_name).exists():
                    npc = campaign.new_character(
                        owner=users["gm"], name=npc_name, is_npc=True, hidden_from_players=hidden
                    )
                    fill(npc)

        # `make run PORT=…` passes the port through, so the printed address is the served one.
        port = os.environ.get("PORT") or "8000"
        self.stdout.write(f"Demo data ready. Log in at http://127.0.0.1:{port}/accounts/login/ as:")
        for username in USERS:
            role = "GM of every demo campaign" if username == "gm" else "player"
            self.stdout.write(f"  {username:6} / {PASSWORD}   ({role})")
