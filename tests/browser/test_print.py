"""A sheet printed from Chromium (its PDF printing, as "Save as PDF" does): each demo system's
sheet fits two A4 or Letter pages, without the navigation, the roll dialog, the Edit and Roll
controls or the live strip, and with the odds beside every skill."""

import re

import pytest
from django.core.management import call_command

from sheets.management.commands.demo import PASSWORD
from sheets.models import Character

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

GONE = (
    ".site-header",
    ".site-footer",
    "#roll-dialog",
    "#table-rolls",
    ".edit-button",
    ".roll-button",
    "#recent-rolls",
)


def pages_in(pdf: bytes) -> int:
    """The page count of a PDF as Chromium writes it (its one /Pages node's /Count)."""
    return max(int(n) for n in re.findall(rb"/Count\s+(\d+)", pdf))


@pytest.mark.parametrize(
    "viewport", [{"width": 390, "height": 844}, {"width": 1280, "height": 800}]
)
def test_every_systems_sheet_prints_on_two_pages_with_its_odds(page, viewport):
    call_command("demo", verbosity=0)
    page.set_viewport_size(viewport)
    page.goto("/accounts/login/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    sheets = Character.objects.filter(owner__username="alice").order_by("pk")
    assert sheets.count() == 3
    for character in sheets:
        page.goto(character.get_absolute_url())
        for paper in ("A4", "Letter"):
            assert pages_in(page.pdf(format=paper)) <= 2, (character.name, paper)
        page.emulate_media(media="print")
        try:
            for selector in GONE:
                shown = page.locator(selector).evaluate_all(
                    "els => els.filter(e => getComputedStyle(e).display !== 'none').length"
                )
                assert shown == 0, (character.name, selector)
            cells = page.locator("#sheet .roll-cell")
            assert cells.count() > 0
            odds = cells.locator(".odds-headline").evaluate_all(
                "els => els.map(e => getComputedStyle(e).display !== 'none' && e.textContent.trim())"
            )
            rolls = page.locator("#sheet .roll-cell:has(.odds-headline)").count()
            assert len(odds) == rolls and all(odds), character.name
            assert all("%" in text for text in odds)
        finally:
            page.emulate_media(media="screen")
