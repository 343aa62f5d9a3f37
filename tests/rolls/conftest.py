import pytest

from tests.rolls.helpers import SEED


@pytest.fixture
def seeded(settings):
    """Repeatable dice: the setting only tests set (production uses the OS CSPRNG)."""
    settings.ROLLS_RNG_SEED = SEED
    return settings
