import pytest

from sheets.models import System
from tests.factories import CharacterFactory
from tests.rolls.helpers import SEED, athletics


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
