"""The GM table's creation forms in a real browser, for every system, at laptop and phone size:
no select narrower than its longest choice unless it takes the whole row (the review found
"Mundane (+0 per…" cut off), no field running under its form's button (the call's Note did), and
the Cold Stars contest kinds read whole on a phone."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from rolls.models import ContestKind
from sheets.models import System
from sheets.systems import rule_system_of
from tests.browser.layout import clipped_selects, inside

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

OVERLAPS = """() => [...document.querySelectorAll(".table-form")].flatMap(form => {
  const button = form.querySelector("button[type=submit]").getBoundingClientRect();
  return [...form.querySelectorAll("input, select")].filter(field => {
    const r = field.getBoundingClientRect();
    return r.width && r.left < button.right && button.left < r.right
      && r.top < button.bottom && button.top < r.bottom;
  }).map(field => field.name);
})"""


@pytest.mark.parametrize("system", [System.COGENT, System.DAD6, System.COLD_STARS])
@pytest.mark.parametrize("width", [1280, 390])
def test_creation_forms_neither_clip_nor_overlap(page, log_in, parties, system, width):
    party = parties[system]
    page.set_viewport_size({"width": width, "height": 900})
    log_in(party.gm)
    page.goto(reverse("campaign_dashboard", args=[party.campaign.pk]))
    page.evaluate("document.querySelectorAll('details.add').forEach(d => d.open = true)")
    assert page.locator(".table-form select").count() >= 3
    assert clipped_selects(page, ".table-form") == []
    assert page.evaluate(OVERLAPS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_the_cold_stars_contest_kinds_read_whole_on_a_phone(page, log_in, parties):
    """A phone is narrower than "Active vs passive: the passive side sets the Risk": in a select
    only its start showed. Each kind is a choice whose label wraps inside the form."""
    party = parties[System.COLD_STARS]
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(party.gm)
    page.goto(reverse("campaign_dashboard", args=[party.campaign.pk]))
    page.locator("#contest-area summary").click()
    form = page.locator("#contest-area form.table-form").bounding_box()
    for kind in rule_system_of(party.campaign).table.contest_kinds:
        choice = page.get_by_label(ContestKind(kind).label, exact=True)
        expect(choice).to_be_visible()
        label = page.locator("#contest-area label", has=choice)
        assert inside(label.bounding_box(), form), kind
        assert label.evaluate("el => el.scrollWidth <= el.clientWidth"), kind
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
