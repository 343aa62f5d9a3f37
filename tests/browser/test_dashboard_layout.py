"""The GM table's creation forms in a real browser, for every system, at laptop and phone size:
no select narrower than its longest choice unless it takes the whole row (the review found
"Mundane (+0 per…" cut off) and no field running under its form's button (the call's Note did)."""

import pytest
from django.urls import reverse

from sheets.models import System

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

CLIPPED_SELECTS = """() => {
  const ctx = document.createElement("canvas").getContext("2d");
  return [...document.querySelectorAll(".table-form select")].filter(select => {
    const style = getComputedStyle(select);
    ctx.font = style.font;
    const widest = Math.max(...[...select.options].map(o => ctx.measureText(o.text).width));
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    // A choice wider than the whole row (one Cold Stars contest style on a phone) can't fit;
    // its select must then take the whole row.
    const whole = select.getBoundingClientRect().width >= select.form.clientWidth - 1;
    return widest > room && !whole;
  }).map(select => select.name);
}"""

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
    assert page.evaluate(CLIPPED_SELECTS) == []
    assert page.evaluate(OVERLAPS) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
