import pytest

from sheets.models import Role, System
from tests.factories import CharacterFactory
from tests.rolls.helpers import SEED


@pytest.fixture
def seeded(settings):
    """Repeatable dice: the setting only tests set (production uses the OS CSPRNG)."""
    settings.ROLLS_RNG_SEED = SEED
    return settings


@pytest.fixture
def table():
    """A Cold Stars table for the log tools: ana plays Ada, ben plays Bo; the GM has a visible NPC
    (Warden) and a hidden one (Spy)."""
    ada = CharacterFactory(campaign__system=System.COLD_STARS, name="Ada", owner__username="ana")
    campaign = ada.campaign
    bo = CharacterFactory(campaign=campaign, name="Bo", owner__username="ben")
    gm = campaign.memberships.get(role=Role.GM).user
    npc = CharacterFactory(campaign=campaign, name="Warden", owner=gm, is_npc=True)
    spy = CharacterFactory(
        campaign=campaign, name="Spy", owner=gm, is_npc=True, hidden_from_players=True
    )
    return {"campaign": campaign, "ada": ada, "bo": bo, "gm": gm, "npc": npc, "spy": spy}
