"""Every check constraint holds at the database, whatever route the data takes (here: raw ORM)."""

import pytest
from django.db import IntegrityError, transaction

from sheets.models import (
    Campaign,
    Character,
    CogentSheet,
    CogentSkill,
    CogentSubSkill,
    ColdStarsSheet,
    ColdStarsSkill,
    Dad6Sheet,
    Dad6Skill,
    Invite,
    Membership,
    Role,
)
from tests.factories import (
    CampaignFactory,
    CampaignSkillFactory,
    CharacterFactory,
    CogentSubSkillFactory,
    CogentVocationFactory,
    ColdStarsSkillFactory,
    Dad6SkillFactory,
    InviteFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def rejects(model, pk, **values):
    with pytest.raises(IntegrityError), transaction.atomic():
        model.objects.filter(pk=pk).update(**values)


def accepts(model, pk, **values):
    with transaction.atomic():
        model.objects.filter(pk=pk).update(**values)


def test_campaign_constraints():
    campaign = CampaignFactory()
    rejects(Campaign, campaign.pk, system="d20")
    rejects(Campaign, campaign.pk, name="")


def test_membership_constraints():
    campaign = CampaignFactory()
    player = Membership.objects.create(campaign=campaign, user=UserFactory(), role=Role.PLAYER)
    rejects(Membership, player.pk, role="admin")
    rejects(Membership, player.pk, role=Role.GM)  # a second GM
    with pytest.raises(IntegrityError), transaction.atomic():
        Membership.objects.create(campaign=campaign, user=player.user, role=Role.OBSERVER)


def test_invite_constraints():
    invite = InviteFactory()
    rejects(Invite, invite.pk, role=Role.GM)
    rejects(Invite, invite.pk, max_uses=0)
    accepts(Invite, invite.pk, max_uses=2, use_count=2)
    rejects(Invite, invite.pk, use_count=3)
    with pytest.raises(IntegrityError), transaction.atomic():
        InviteFactory(campaign=invite.campaign, token=invite.token)


def test_character_constraints():
    character = CharacterFactory()
    rejects(Character, character.pk, name="")
    rejects(Character, character.pk, hidden_from_players=True)  # only NPCs hide
    accepts(Character, character.pk, is_npc=True, hidden_from_players=True)


@pytest.mark.parametrize(
    ("field", "low", "high"),
    [
        ("strength", -1, 4),
        ("reflex", -1, 4),
        ("intelligence", -1, 4),
        ("destiny_points", 0, 3),
        ("penalty_dice", 0, 20),
    ],
)
def test_cogent_sheet_ranges(field, low, high):
    sheet = CharacterFactory().cogent
    accepts(CogentSheet, sheet.pk, **{field: low})
    accepts(CogentSheet, sheet.pk, **{field: high})
    rejects(CogentSheet, sheet.pk, **{field: low - 1})
    rejects(CogentSheet, sheet.pk, **{field: high + 1})


def test_cogent_injury_and_disability_constraints():
    from sheets.models import CogentDisability, CogentInjury

    sheet = CharacterFactory().cogent
    injury = sheet.injuries.create(level=1)
    accepts(CogentInjury, injury.pk, level=5)
    rejects(CogentInjury, injury.pk, level=0)
    rejects(CogentInjury, injury.pk, level=6)
    feeble = sheet.disabilities.create(name="Feeble", attribute="strength", dice=1)
    rejects(CogentDisability, feeble.pk, name="")
    rejects(CogentDisability, feeble.pk, dice=0)  # an attribute without dice
    rejects(CogentDisability, feeble.pk, attribute="")  # dice without an attribute
    accepts(CogentDisability, feeble.pk, attribute="", dice=0)  # no dice effect at all
    rejects(CogentDisability, feeble.pk, attribute="charisma")


def test_cogent_skill_constraints():
    skill = CharacterFactory().cogent.skills.first()
    accepts(CogentSkill, skill.pk, rating=-1)
    accepts(CogentSkill, skill.pk, rating=4)
    rejects(CogentSkill, skill.pk, rating=-2)
    rejects(CogentSkill, skill.pk, rating=5)
    rejects(CogentSkill, skill.pk, attribute="charisma")
    other = skill.sheet.skills.exclude(pk=skill.pk).first()
    rejects(CogentSkill, skill.pk, name=other.name)


def test_cogent_vocation_constraints():
    vocation = CogentVocationFactory()
    from sheets.models import CogentVocation

    rejects(CogentVocation, vocation.pk, rating=-1)
    rejects(CogentVocation, vocation.pk, rating=5)
    rejects(CogentVocation, vocation.pk, attribute="luck")
    rejects(CogentVocation, vocation.pk, name="")


def test_cogent_subskill_constraints():
    sub = CogentSubSkillFactory(vocation__rating=4)
    rejects(CogentSubSkill, sub.pk, rating=5)
    rejects(CogentSubSkill, sub.pk, rating=-1)
    rejects(CogentSubSkill, sub.pk, slot=0)
    rejects(CogentSubSkill, sub.pk, slot=5)  # at most four sub-skills
    rejects(CogentSubSkill, sub.pk, attribute="")  # vocational skills need an attribute
    rejects(CogentSubSkill, sub.pk, kind="combat")  # combat: no attribute, name from the list
    accepts(CogentSubSkill, sub.pk, kind="combat", attribute="", name="Heavy Ballistic")
    # Narrator-defined combat skills exist too: the form checks the name against the campaign's
    # list; the database only insists on a name.
    accepts(CogentSubSkill, sub.pk, kind="combat", attribute="", name="Lightsaber")
    rejects(CogentSubSkill, sub.pk, kind="combat", attribute="", name="")
    with pytest.raises(IntegrityError), transaction.atomic():
        CogentSubSkillFactory(vocation=sub.vocation, slot=sub.slot)


def test_dad6_constraints():
    skill = Dad6SkillFactory()
    rejects(Dad6Sheet, skill.sheet.pk, level=0)
    rejects(Dad6Sheet, skill.sheet.pk, level=21)
    accepts(Dad6Sheet, skill.sheet.pk, level=20)
    rejects(Dad6Skill, skill.pk, competence="")  # outside the class: competence required
    rejects(Dad6Skill, skill.pk, competence="godlike")
    rejects(Dad6Skill, skill.pk, is_class_skill=True)  # class skills store no competence
    accepts(Dad6Skill, skill.pk, is_class_skill=True, competence="")
    rejects(Dad6Skill, skill.pk, name="")


@pytest.mark.parametrize(
    "field", ["strength", "agility", "intellect", "presence", "perception", "will"]
)
def test_cold_stars_ability_ranges(field):
    sheet = CharacterFactory(campaign__system="cold_stars").cold_stars
    accepts(ColdStarsSheet, sheet.pk, **{field: 5})
    rejects(ColdStarsSheet, sheet.pk, **{field: 0})
    rejects(ColdStarsSheet, sheet.pk, **{field: 6})


def test_cold_stars_resource_constraints():
    sheet = CharacterFactory(campaign__system="cold_stars").cold_stars
    accepts(ColdStarsSheet, sheet.pk, momentum_max=5, momentum=5, willpower_max=3, willpower=3)
    rejects(ColdStarsSheet, sheet.pk, momentum=6)
    rejects(ColdStarsSheet, sheet.pk, willpower=4)
    rejects(ColdStarsSheet, sheet.pk, momentum_max=-1)
    rejects(ColdStarsSheet, sheet.pk, momentum_max=21)
    rejects(ColdStarsSheet, sheet.pk, willpower_max=21)


def test_cold_stars_skill_constraints():
    skill = ColdStarsSkillFactory()
    accepts(ColdStarsSkill, skill.pk, rating=5)
    rejects(ColdStarsSkill, skill.pk, rating=6)
    rejects(ColdStarsSkill, skill.pk, rating=-1)
    rejects(ColdStarsSkill, skill.pk, trained=False)  # untrained with a rating
    accepts(ColdStarsSkill, skill.pk, trained=False, rating=0)
    rejects(ColdStarsSkill, skill.pk, ability="luck")
    rejects(ColdStarsSkill, skill.pk, catalog_key="piloting")  # two sources
    rejects(ColdStarsSkill, skill.pk, campaign_skill=None)  # no source


def test_campaign_skill_constraints():
    skill = CampaignSkillFactory()
    from sheets.models import CampaignSkill

    rejects(CampaignSkill, skill.pk, ability="luck")
    rejects(CampaignSkill, skill.pk, name="")
