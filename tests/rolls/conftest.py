import random

import pytest

from rules import cogent
from sheets.models import System
from tests.factories import CharacterFactory
from tests.rolls.helpers import ADA_POOL, SEED, athletics, seed_where


@pytest.fixture
def seeded(settings):
    """Repeatable dice: the setting only tests set (production uses the OS CSPRNG)."""
    settings.ROLLS_RNG_SEED = SEED
    return settings


@pytest.fixture
def rulebook_athletics(party):
    """The rulebook's example on the party's pc (Ada): Strength 1, Athletics 2, a 6d6 pool."""
    sheet = party.pc.cogent
    sheet.strength = 1
    sheet.save()
    sheet.skills.filter(name="Athletics").update(rating=2)
    return athletics(party.pc)


@pytest.fixture
def rob(client):
    """The rulebook example, logged in as its player: Strength 1, Athletics 2 → a 6d6 pool."""
    character = CharacterFactory(campaign__system=System.COGENT, name="Rob")
    sheet = character.cogent
    sheet.strength = 1
    sheet.save()
    sheet.skills.filter(name="Athletics").update(rating=2)
    client.force_login(character.owner)
    return character, sheet.skills.get(name="Athletics")


@pytest.fixture
def private(settings):
    """Webhooks may post to 127.0.0.1, where the test receiver listens (tests/rolls/receiver.py);
    links in what they send are under https://poolside.example."""
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    settings.SITE_URL = "https://poolside.example"
    return settings


@pytest.fixture
def receiver(private):
    """A real HTTP receiver on 127.0.0.1, webhooks allowed to post to it."""
    from tests.rolls.receiver import Receiver

    with Receiver() as receiver:
        yield receiver


@pytest.fixture
def ada_assists(party):
    """Cogent assists: Ada (ana) assists Bo (ben) with Perception at 9d6 (Reflex 2, Perception
    4); Cy (player cy) sits at the table too; the GM has Warden (seen) and Spy (hidden)."""
    sheet = party.pc.cogent
    sheet.reflex = 2
    sheet.save()
    sheet.skills.filter(name="Perception").update(rating=4)
    CharacterFactory(campaign=party.campaign, name="Cy", owner__username="cy")


@pytest.fixture
def helpful(settings):
    """Dice for which Ada's 9d6 assist against CL 3 changes the next roll."""
    settings.ROLLS_RNG_SEED = seed_where(
        lambda faces: cogent.assist(faces) != 0, lambda rng: cogent.roll(ADA_POOL, rng)
    )
    return cogent.assist(cogent.roll(ADA_POOL, random.Random(settings.ROLLS_RNG_SEED)))
