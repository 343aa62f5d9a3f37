import pytest

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
