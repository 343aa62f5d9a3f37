"""One click never destroys data: removing a sheet row asks first. htmx asks in the browser's own
dialog and sends the answer (``confirm=yes``); a plain form without it gets a page that asks."""

import pytest
from django.urls import reverse

from sheets.models import System
from tests.factories import CharacterFactory

pytestmark = pytest.mark.django_db
# The sheet section whose edit mode shows each row's Remove button.
ROW_SECTIONS = {
    "cogent_injury_delete": "injuries",
    "cogent_disability_delete": "injuries",
    "cogent_subskill_delete": "vocations",
    "cogent_vocation_delete": "vocations",
    "dad6_skill_delete": "skills",
    "dad6_bane_delete": "banes",
    "cold_stars_domain_delete": "skills",
}


def _rows(system):
    """(URL name, a character, its row, how the question names it, the row's model count)."""
    character = CharacterFactory(campaign__system=system)
    if system == System.COGENT:
        sheet = character.cogent
        vocation = sheet.vocations.create(name="Surgeon", attribute="intelligence", rating=2)
        return character, [
            (
                "cogent_injury_delete",
                sheet.injuries.create(level=1, description="graze"),
                "Minor injury: graze",
            ),
            (
                "cogent_disability_delete",
                sheet.disabilities.create(name="Feeble", attribute="strength", dice=1),
                "Feeble",
            ),
            (
                "cogent_subskill_delete",
                vocation.subskills.create(slot=1, kind="combat", name="Small", rating=1),
                "Small",
            ),
            ("cogent_vocation_delete", vocation, "the vocation Surgeon"),
        ]
    if system == System.DAD6:
        sheet = character.dad6
        return character, [
            (
                "dad6_skill_delete",
                sheet.skills.create(name="Tracking", competence="trained"),
                "Tracking",
            ),
            (
                "dad6_bane_delete",
                sheet.banes.create(description="Owes the ferryman"),
                "the bane Owes the ferryman",
            ),
        ]
    skill = character.cold_stars.skills.get(name="Piloting")
    return character, [
        (
            "cold_stars_domain_delete",
            skill.domains.create(name="Small Craft"),
            "the domain Small Craft",
        ),
    ]


@pytest.mark.parametrize("system", System.values)
def test_a_remove_without_the_answer_asks_and_removes_nothing(client, system):
    character, rows = _rows(system)
    client.force_login(character.owner)
    for name, row, what in rows:
        url = reverse(name, args=[character.pk, row.pk])
        asked = client.post(url)
        page = asked.content.decode()
        assert asked.status_code == 200, name
        assert f"Remove {what}?" in page and "This can&#x27;t be undone." in page
        assert 'name="confirm" value="yes"' in page and f'action="{url}"' in page
        # Cancel goes back to the row, in its section's edit mode where the Remove button was.
        section = ROW_SECTIONS[name]
        assert f'href="{character.get_absolute_url()}?edit={section}#' in page
        assert type(row).objects.filter(pk=row.pk).exists(), name
        # htmx asks the same question in the browser before it sends anything.
        sheet = client.get(character.get_absolute_url(), {"edit": section}).content.decode()
        assert f'hx-confirm="Remove {what}? This can\'t be undone."' in sheet, name
        # Read mode offers no Remove at all.
        assert "hx-confirm" not in client.get(character.get_absolute_url()).content.decode()


@pytest.mark.parametrize("system", System.values)
def test_the_answer_removes_it(client, system):
    character, rows = _rows(system)
    client.force_login(character.owner)
    for name, row, _ in rows:  # a sub-skill before its vocation
        url = reverse(name, args=[character.pk, row.pk])
        assert client.post(url, {"confirm": "yes"}).status_code == 302, name
        assert not type(row).objects.filter(pk=row.pk).exists(), name
