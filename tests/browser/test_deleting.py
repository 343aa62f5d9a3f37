"""Removing a row asks first in the browser (htmx's hx-confirm): dismissing keeps it, accepting
removes it and the sheet refreshes in place, still in the section's edit mode."""

import pytest
from playwright.sync_api import expect

from sheets.models import System
from tests.factories import CharacterFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]


def test_a_remove_asks_first(page, log_in):
    character = CharacterFactory(campaign__system=System.DAD6)
    skill = character.dad6.skills.create(name="Tracking", competence="trained")
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    # Removing is part of the Skills section's edit mode.
    expect(page.locator(f"#skill-{skill.pk} button.danger")).to_have_count(0)
    page.get_by_role("link", name="Edit skills").click()
    remove = page.locator(f"#skill-{skill.pk} button.danger")
    questions = []

    def answer(dialog, accept):
        questions.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, accept=False))
    remove.click()
    expect(page.locator(f"#skill-{skill.pk}")).to_be_visible()
    assert character.dad6.skills.filter(pk=skill.pk).exists()

    page.once("dialog", lambda dialog: answer(dialog, accept=True))
    remove.click()
    expect(page.locator(f"#skill-{skill.pk}")).to_have_count(0)
    expect(page.locator("#skills-form, #skills .section-actions")).not_to_have_count(0)
    assert not character.dad6.skills.filter(pk=skill.pk).exists()
    assert questions == ["Remove Tracking? This can't be undone."] * 2
