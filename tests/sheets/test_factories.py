import pytest

from tests import factories

pytestmark = pytest.mark.django_db

ALL = [
    factories.UserFactory,
    factories.CampaignFactory,
    factories.MembershipFactory,
    factories.InviteFactory,
    factories.CharacterFactory,
    factories.CogentSheetFactory,
    factories.CogentSkillFactory,
    factories.CogentVocationFactory,
    factories.CogentSubSkillFactory,
    factories.Dad6SheetFactory,
    factories.Dad6SkillFactory,
    factories.ColdStarsSheetFactory,
    factories.CampaignSkillFactory,
    factories.ColdStarsSkillFactory,
    factories.ColdStarsDomainFactory,
]


@pytest.mark.parametrize("factory_class", ALL, ids=lambda f: f.__name__)
def test_every_factory_builds_a_valid_saved_row(factory_class):
    obj = factory_class()
    assert obj.pk is not None
    obj.full_clean()
