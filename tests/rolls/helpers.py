"""Shared helpers for the roll tests: URLs, seeded dice, and finding a seed for a wanted outcome."""

import random

from django.db import connection, transaction
from django.urls import reverse

from rolls.log.tokens import entry_token
from rolls.models import RollEntry

SEED = 20261129
SEED = 20261129


def panel_url(character, kind, obj):
    return reverse("roll_panel", args=[character.pk, kind, obj.pk])


def odds_url(character, kind, obj):
    return reverse("roll_odds", args=[character.pk, kind, obj.pk])


def roll_url(character, kind, obj):
    return reverse("roll_create", args=[character.pk, kind, obj.pk])


def follow_url(entry, action):
    return reverse("roll_follow_up", args=[entry.pk, action])


def seed_where(predicate, roll):
    """The first seed whose dice satisfy ``predicate``; ``roll(rng)`` rolls them with the engine."""
    for seed in range(10_000):
        if predicate(roll(random.Random(seed))):
            return seed
    raise AssertionError("no seed found")  # pragma: no cover


def token(entry) -> str:
    """What pages, links and the stream call an entry (rolls/log/tokens.py), never its pk."""
    return entry_token(entry.pk)


def latest():
    return RollEntry.objects.order_by("-pk").first()


def tamper(sql, params):
    """Change rolls_rollentry behind the app's back, as someone with database access could —
    around PostgreSQL's append-only trigger (triggers off for this transaction)."""
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(sql, params)


def dad6_opposed(opposition):
    """A DAD6 campaign in which Kim (Climb, expert) acts against Lee's opposition: returns
    ``(campaign, kim, climb, contest)``."""
    from tests.factories import CampaignFactory, CharacterFactory, ContestFactory

    campaign = CampaignFactory(system="dad6")
    kim = CharacterFactory(campaign=campaign, name="Kim")
    lee = CharacterFactory(campaign=campaign, name="Lee")
    climb = kim.dad6.skills.create(name="Climb", competence="expert")
    contest = ContestFactory(
        campaign=campaign,
        kind="dad6_opposed",
        character_a=kim,
        character_b=lee,
        skill_a="Climb",
        skill_b="",
        opposition=opposition,
    )
    return campaign, kim, climb, contest


def gm_of(campaign):
    from sheets.models import Role

    return campaign.memberships.get(role=Role.GM).user


def start_contest(client, campaign, **fields):
    """The GM starts a contest through the dashboard's form (``fields`` without the prefix)."""
    from rolls.models import Contest

    client.force_login(gm_of(campaign))
    data = {f"contest-{key}": value for key, value in fields.items()}
    response = client.post(reverse("contest_create", args=[campaign.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Contest.objects.latest("pk")
