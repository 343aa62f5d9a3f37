"""The GM table as a dense, scannable grid (issue 34, item 6) in a real browser, on a phone and a
laptop: "The GM table fits 2 cards per laptop screen, shows no skills and has no quick roll for an
NPC: a 5-player table is three screens of scrolling." Now four cards across at 1280 px and one on
a phone, each with its key rows and their odds, and an NPC's row rolled from its card — in place
with JavaScript, as a plain POST and a redirect back to the card without it."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from log.models import RollEntry
from sheets.models import System
from tests.browser.layout import split_words
from tests.factories import CharacterFactory
from tests.rolls.helpers import token

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.filterwarnings("ignore:No directory at:UserWarning"),
]

PHONE, LAPTOP = {"width": 390, "height": 844}, {"width": 1280, "height": 800}

# Each card's place and size, and whether anything pokes out of it.
CARDS = """() => [...document.querySelectorAll(".table-character")].map(card => {
  const r = card.getBoundingClientRect();
  const out = [...card.querySelectorAll("*")].some(el => {
    const e = el.getBoundingClientRect();
    return e.width && (e.right > r.right + 1 || e.left < r.left - 1);
  });
  return {top: Math.round(r.top), height: r.height, width: r.width, out};
})"""


@pytest.fixture
def system():
    return System.COLD_STARS


def five_players(party):
    """Ada and Bo, three more players, and the GM's two NPCs; every sheet trained in three
    skills, so each card has its key rows."""
    for _ in range(3):
        CharacterFactory(campaign=party.campaign)
    for character in party.campaign.characters.all():
        skills = character.cold_stars.skills.order_by("position")[:3]
        for rating, skill in enumerate(skills, start=1):
            skill.trained, skill.rating = True, rating
            skill.save()


def open_table(page, log_in, party, viewport):
    page.set_viewport_size(viewport)
    log_in(party.gm)
    page.goto(reverse("campaign_dashboard", args=[party.campaign.pk]))


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_table_is_a_grid_of_short_cards(page, log_in, party, viewport):
    five_players(party)
    open_table(page, log_in, party, viewport)
    cards = page.evaluate(CARDS)
    assert len(cards) == 7
    across = sum(1 for card in cards if card["top"] == cards[0]["top"])
    assert across == (4 if viewport is LAPTOP else 1)
    assert not any(card["out"] for card in cards)
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    # Each card shows three key rows with their odds; an NPC's rows have Roll buttons.
    assert page.locator(".key-list li").count() == 7 * 3
    assert page.locator(".key-list button").count() == 2 * 3
    # Short cards: the tallest (an NPC's: key rows, who sees, resources, no rolls yet) under
    # 0.7 of the screen's height, so the 7 cards of a 5-player table are two screens on a
    # laptop (they were three screens with no skills shown).
    tallest = max(card["height"] for card in cards)
    assert tallest <= 0.7 * viewport["height"], tallest
    if viewport is LAPTOP:
        bottom = page.locator("#character-list").bounding_box()
        assert bottom is not None and bottom["y"] + bottom["height"] <= 2 * viewport["height"]


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_gm_rolls_an_npc_from_its_card_in_place(page, log_in, party, viewport):
    five_players(party)
    open_table(page, log_in, party, viewport)
    page.evaluate("window.stayed = true")  # gone if the page reloads
    card = page.locator(f"#char-{party.npc.pk}")
    first = card.locator(".key-list li").first
    name = first.locator(".key-name").inner_text()
    first.get_by_role("button").click()
    expect(card.locator(".quick-result")).to_contain_text(f"Rolled {name}:")
    entry = RollEntry.objects.get(character=party.npc)
    assert entry.label == name
    expect(card.locator(".log .entry")).to_have_count(1)
    assert page.evaluate("window.stayed") is True
    # Focus stays on the button that rolled, for the next roll.
    expect(page.locator(f"#quick-{party.npc.pk}-1")).to_be_focused()
    # A second roll, secret this time: on top, the first below it.
    card.locator("select[name=visibility]").select_option("secret")
    card.locator(".key-list li").first.get_by_role("button").click()
    expect(card.locator(".log .entry")).to_have_count(2)
    assert RollEntry.objects.filter(character=party.npc).latest("pk").visibility == "secret"
    expect(card.locator("select[name=visibility]")).to_have_value("secret")


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_without_javascript_the_roll_comes_back_to_the_card(no_js, party, viewport):
    page = no_js
    five_players(party)
    page.set_viewport_size(viewport)
    page.goto("/accounts/login/")
    page.fill("#id_username", party.gm.username)
    page.fill("#id_password", "pw")
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(reverse("campaign_dashboard", args=[party.campaign.pk]))
    card = page.locator(f"#char-{party.hidden_npc.pk}")
    card.locator(".key-list li").first.get_by_role("button").click()
    page.wait_for_url(f"**#char-{party.hidden_npc.pk}")
    entry = RollEntry.objects.get(character=party.hidden_npc)
    expect(page.locator(".messages")).to_contain_text(
        f"Spy rolled {entry.label}: {entry.outcome_label}."
    )
    expect(page.locator(f"#char-{party.hidden_npc.pk} #entry-{token(entry)}")).to_be_visible()


@pytest.mark.parametrize("system", [System.COGENT, System.DAD6, System.COLD_STARS])
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_every_figures_label_reads_whole(page, log_in, party, viewport, system):
    # In a fixed 4.6rem column Cogent's "Intelligence" broke as "Intelligenc/e" at 1280 px.
    open_table(page, log_in, party, viewport)
    expect(page.locator("dl.stats.compact").first).to_be_visible()
    assert split_words(page, "dl.stats.compact dt") == []
    assert not any(card["out"] for card in page.evaluate(CARDS))
