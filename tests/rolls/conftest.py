import pytest

from sheets.models import Role, System
from tests.factories import CharacterFactory, MembershipFactory
from tests.rolls.helpers import SEED


@pytest.fixture
def seeded(settings):
    """Repeatable dice: the setting only tests set (production uses the OS CSPRNG)."""
    settings.ROLLS_RNG_SEED = SEED
    return settings


# Shared by the visibility tests of pages (test_visibility) and of the stream (test_live_visibility).
@pytest.fixture
def table(client):
    """A Cogent table: GM, alice playing Rob (6d6 Athletics), bob playing Jack, an observer."""
    rob = CharacterFactory(campaign__system=System.COGENT, name="Rob")
    campaign = rob.campaign
    rob.cogent.strength = 1
    rob.cogent.save()
    rob.cogent.skills.filter(name="Athletics").update(rating=2)
    jack = CharacterFactory(campaign=campaign, name="Jack")
    observer = MembershipFactory(campaign=campaign, role=Role.OBSERVER).user
    gm = campaign.memberships.get(role=Role.GM).user
    return {
        "campaign": campaign,
        "rob": rob,
        "athletics": rob.cogent.skills.get(name="Athletics"),
        "gm": gm,
        "alice": rob.owner,
        "bob": jack.owner,
        "observer": observer,
    }
