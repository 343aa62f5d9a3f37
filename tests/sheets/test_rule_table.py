"""Sheet rules from the rule brief that had no test of their own, named in docs/rules.md's rule
table: destiny starts at 3, injuries and situational penalties remove dice, the default Cold Stars
catalog."""

import pytest
from django.urls import reverse

from rules import cogent
from sheets.catalog import cold_stars_catalog, cold_stars_groups
from sheets.models import System
from tests.factories import CampaignFactory, CharacterFactory, MembershipFactory
from tests.rolls.helpers import panel_url

pytestmark = pytest.mark.django_db


def test_a_new_cogent_character_starts_with_three_destiny_points(client):
    campaign = CampaignFactory(system=System.COGENT)
    player = MembershipFactory(campaign=campaign).user
    client.force_login(player)
    client.post(reverse("character_create", args=[campaign.pk]), {"name": "Pip"})
    assert campaign.characters.get(name="Pip").cogent.destiny_points == cogent.DESTINY_MAX == 3


def test_injuries_and_situational_penalties_remove_dice(client):
    character = CharacterFactory(campaign__system=System.COGENT)
    sheet = character.cogent
    sheet.strength, sheet.penalty_dice = 1, 2
    sheet.save()
    sheet.injuries.create(level=1, description="cut")
    athletics = sheet.skills.get(name="Athletics")  # STR: a physical check
    athletics.rating = 2
    athletics.save()
    client.force_login(character.owner)
    page = client.get(panel_url(character, "cogent-skill", athletics)).content.decode()
    assert "3 base + 2 Athletics + 1 Strength − 1 injury − 2 situational = 3d6" in page


def test_the_default_catalog_has_groups_and_domain_skills_with_examples():
    catalog = cold_stars_catalog()
    assert len(cold_stars_groups()) >= 3
    domain_skills = [skill for skill in catalog if skill.domain]
    assert len(domain_skills) >= 2 and all(skill.example_domains for skill in domain_skills)
    piloting = next(skill for skill in catalog if skill.name == "Piloting")
    assert piloting.domain and "Small Craft" in piloting.example_domains
