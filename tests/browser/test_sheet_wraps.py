"""Sheet controls keep their words whole on laptops (issue 34, item 5): Cold Stars' Roll button
once wrapped to "Ro / ll" (49×50 px) at 1024–1440 px, squeezed by its longer odds text, and DAD6's
"Expert (from level)" wrapped in its column."""

import pytest

from sheets.models import System
from tests.factories import CharacterFactory

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

WIDTHS = [1024, 1280, 1440]
# Lines a piece of text takes: one unless it wraps.
LINES = """selector => [...document.querySelectorAll(selector)].filter(e => e.offsetParent)
  .map(e => { const r = document.createRange(); r.selectNodeContents(e);
    return new Set([...r.getClientRects()].map(rect => Math.round(rect.top))).size; })"""


@pytest.mark.parametrize("width", WIDTHS)
def test_cold_stars_roll_buttons_stay_one_line(page, log_in, width):
    page.set_viewport_size({"width": width, "height": 800})
    character = CharacterFactory(campaign__system=System.COLD_STARS)
    character.cold_stars.skills.update(trained=True, rating=3)
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    lines = page.evaluate(LINES, "#sheet .roll-button")
    assert lines and set(lines) == {1}, lines
    box = page.locator("#sheet .roll-button").first.bounding_box()
    assert box is not None and box["width"] > box["height"]


@pytest.mark.parametrize("width", WIDTHS)
def test_dad6_competence_from_level_stays_one_line(page, log_in, width):
    page.set_viewport_size({"width": width, "height": 800})
    character = CharacterFactory(campaign__system=System.DAD6)
    character.dad6.skills.create(name="Archery", is_class_skill=True)
    character.dad6.skills.create(name="Cooking", competence="familiar")
    log_in(character.owner)
    page.goto(character.get_absolute_url())
    assert "(from level)" in page.locator("#sheet td.rating").first.inner_text()
    lines = page.evaluate(LINES, "#sheet td.rating .derived")
    assert len(lines) == 2 and set(lines) == {1}, lines
    assert set(page.evaluate(LINES, "#sheet .roll-button")) == {1}
