"""Live updates in two browsers at one table: the GM and a player, each in their own context,
against a real uvicorn process (SSE needs ASGI; pytest-django's live_server is WSGI)."""

import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from tests.browser.live_pages import live, requests_of, roll, wait_until
from tests.factories import CharacterFactory
from tests.rolls.helpers import athletics, roll_url

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def call_for_athletics(gm, character):
    """The GM, on the dashboard, calls for Athletics at CL 2 from ``character``."""
    gm.locator("#calls summary").click()
    gm.check(f"#calls input[name='call-characters'][value='{character.pk}']")
    gm.select_option("#id_call-skill", "Athletics")
    gm.fill("#id_call-difficulty", "2")
    gm.locator("#calls form.table-form button[type=submit]").click()


def test_the_gms_open_log_shows_a_players_roll_without_reloading(pages, party):
    gm, player, ada = pages["gm"], pages["player"], party.pc
    log = f"/campaigns/{ada.campaign_id}/log/"
    live(gm, log)
    expect(gm.locator("#log-entries li.empty")).to_be_visible()
    card_id = roll(player, ada, athletics(ada))
    expect(gm.locator(f"#log-entries #{card_id}")).to_be_visible()
    expect(gm.locator("#log-entries li.empty")).to_be_hidden()
    # The player's own log, opened after the roll, then takes a second roll once only.
    live(player, log)
    expect(player.locator(f"#log-entries #{card_id}")).to_have_count(1)
    gm_roll = roll(gm, ada, athletics(ada))
    expect(player.locator(f"#log-entries #{gm_roll}")).to_be_visible()
    expect(player.locator("#log-entries > li > .entry")).to_have_count(2)


def test_the_players_open_sheet_shows_the_gms_roll_for_their_character(pages, party):
    gm, player, ada = pages["gm"], pages["player"], party.pc
    live(player, ada.get_absolute_url())
    card_id = roll(gm, ada, athletics(ada))
    expect(player.locator(f"#recent-rolls #{card_id}")).to_be_visible()


def test_a_blind_roll_shows_the_gm_the_card_and_the_player_only_a_placeholder(pages, party):
    gm, player, ada = pages["gm"], pages["player"], party.pc
    log = f"/campaigns/{ada.campaign_id}/log/"
    live(gm, log)
    card_id = roll(player, ada, athletics(ada), visibility="blind")
    # The roller's own panel says only that the roll was made.
    expect(player.locator("#roll-result .entry")).to_contain_text("A blind roll was made.")
    gm_card = gm.locator(f"#log-entries #{card_id}")
    expect(gm_card.locator(".die").first).to_be_visible()
    dice = gm_card.locator(".die .visually-hidden").all_inner_texts()
    outcome = gm_card.locator(".outcome").inner_text()
    # The log folds the pool under "Pool and odds": read it whether shown or not.
    breakdown = (gm_card.locator(".breakdown").text_content() or "").strip()
    assert dice and outcome and breakdown
    live(player, log)
    expect(player.locator(f"#log-entries #{card_id}")).to_contain_text("A blind roll was made.")
    for path in (log, ada.get_absolute_url()):
        player.goto(path)
        html = player.content()
        assert f'id="{card_id}"' in html
        assert not [die for die in dice if die in html], path
        assert f'<strong class="outcome">{outcome}</strong>' not in html
        assert "outcome-" not in html.split(f'id="{card_id}"')[0].rsplit("<article", 1)[-1]
        if path == log:
            assert breakdown not in html  # the pool in words (the sheet's panel shows it pre-roll)


def test_the_gm_calls_for_a_roll_and_the_table_follows_it_live(pages, party, browser):
    """The GM calls for Athletics at CL 2 from the dashboard; the player's open sheet shows the
    prompt without reloading, opens the prefilled panel from it and rolls; the GM's dashboard,
    the GM's log and the player's log all show the result live."""
    gm, player, ada = pages["gm"], pages["player"], party.pc
    gm_log = gm.context.new_page()
    player_log = player.context.new_page()
    log = f"/campaigns/{ada.campaign_id}/log/"
    live(gm_log, log)
    live(player_log, log)
    live(player, ada.get_absolute_url())
    live(gm, f"/campaigns/{ada.campaign_id}/dashboard/")

    call_for_athletics(gm, ada)
    call = gm.locator("#call-list .call").first
    expect(call).to_contain_text("Athletics")
    expect(call).to_contain_text("waiting")

    prompt = player.locator("#gm-prompts .call-prompt")
    expect(prompt).to_contain_text("Roll Athletics")  # arrived live: the sheet was never reloaded
    prompt.get_by_role("link", name="Open the roll panel").click()
    expect(player.locator("#roll-panel .roll-panel")).to_be_visible()
    expect(player.locator("#roll_challenge_level")).to_have_value("2")
    heard_entries(player)
    on_own = requests_of(player)
    player.locator("#roll-action-roll").click()
    card = player.locator("#roll-result .entry").first
    expect(card).to_be_visible()
    card_id = "entry-" + card.get_attribute("id").removeprefix("result-")
    # The result's headline stands in for the card's own outcome label, which is hidden there.
    outcome = card.locator(".outcome").text_content().strip()

    expect(call).to_contain_text(f"Ada: {outcome}")
    expect(call).to_contain_text("1 of 1 rolled")
    expect(gm_log.locator(f"#log-entries #{card_id}")).to_be_visible()
    expect(player_log.locator(f"#log-entries #{card_id}")).to_be_visible()
    expect(prompt).to_have_count(0)  # answered: the prompt is gone from the sheet
    # One request: the roll's response brought the prompts; the call's event, which names the
    # roll the page already had, fetched nothing.
    wait_until(player, "window.heardKinds.call >= 1 && window.heard >= 1")
    assert [method for method, _ in on_own] == ["POST"], on_own


def test_a_call_that_arrives_live_is_noticed_where_the_player_is(pages, party):
    """Far down a phone-sized sheet, the GM's call arrives as a toast in view and a count in the
    tab title; Show goes to the prompt, and the count goes back."""
    gm, player, ada = pages["gm"], pages["player"], party.pc
    player.set_viewport_size({"width": 390, "height": 844})
    live(player, ada.get_absolute_url())
    title = player.title()
    player.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    live(gm, f"/campaigns/{ada.campaign_id}/dashboard/")
    call_for_athletics(gm, ada)

    toast = player.locator("#notices .notice")
    expect(toast).to_contain_text("The GM asks Ada to roll Athletics · CL 2")
    expect(toast).to_be_in_viewport()
    expect(player).to_have_title(f"(1) {title}")
    toast.get_by_role("button", name="Show").click()
    prompt = player.locator("#gm-prompts .call-prompt")
    expect(prompt).to_be_focused()
    expect(prompt).to_be_in_viewport()
    expect(toast).to_have_count(0)
    expect(player).to_have_title(title)


def test_a_reveal_is_noticed_on_the_open_log(pages, party):
    gm, player, ada = pages["gm"], pages["player"], party.pc
    card_id = roll(player, ada, athletics(ada), visibility="gm_only")
    live(player, f"/campaigns/{ada.campaign_id}/log/")
    gm.goto(f"/rolls/{card_id.removeprefix('entry-')}/")
    gm.locator("#reveal").click()
    toast = player.locator("#notices .notice")
    expect(toast).to_contain_text("The GM revealed a roll: Ada, Athletics")
    # The reveal came with today's heading; the log keeps one heading for the day, on top.
    days = player.locator("#log-entries > li.log-day")
    expect(days).to_have_count(1)
    assert player.evaluate("document.querySelector('#log-entries > li').matches('.log-day')")
    toast.get_by_role("button", name="Dismiss").click()
    expect(toast).to_have_count(0)


def test_only_a_roll_that_arrives_live_tumbles_in(pages, party):
    """The dice of an entry the stream brings roll in (static/js/panel.js); those the page loaded
    with, or that a reload shows, don't move."""
    gm, player, ada = pages["gm"], pages["player"], party.pc
    log = f"/campaigns/{ada.campaign_id}/log/"
    first = roll(player, ada, athletics(ada))
    live(gm, log)
    expect(gm.locator(f"#log-entries #{first}")).not_to_have_class(re.compile(r"\bjust-rolled\b"))
    second = roll(player, ada, athletics(ada))
    card = gm.locator(f"#log-entries #{second}")
    expect(card).to_have_class(re.compile(r"\bjust-rolled\b"))
    assert (
        card.locator(".die-face").first.evaluate("e => getComputedStyle(e).animationName")
        == "die-tumble"
    )
    live(gm, log)
    expect(gm.locator(f"#log-entries #{second}")).to_be_visible()
    assert gm.locator(".just-rolled").count() == 0
    # A sheet re-fetches its recent rolls when the stream announces one: that card rolls in too.
    live(player, ada.get_absolute_url())
    third = roll(gm, ada, athletics(ada))
    expect(player.locator(f"#recent-rolls #{third}")).to_have_class(re.compile(r"\bjust-rolled\b"))


def heard_entries(page):
    """Count, in the page, the entry events its stream delivers (htmx's SSE extension), and the
    characters of their data; ``window.heardKinds`` counts every kind."""
    page.evaluate(
        """window.heard = 0; window.heardSize = 0; window.heardKinds = {};
           document.addEventListener("htmx:sseMessage", function (e) {
             var kind = e.detail && e.detail.type;
             window.heardKinds[kind] = (window.heardKinds[kind] || 0) + 1;
             if (kind === "entry") {
               window.heard += 1; window.heardSize += e.detail.data.length;
             } });"""
    )


@pytest.fixture
def crowded(party):
    """60 characters at the party's table, and three rolls of Ada's on her GM table card (before
    the server starts: it reads what is committed)."""
    for n in range(60 - party.campaign.characters.count()):
        CharacterFactory(campaign=party.campaign, owner=party.gm, name=f"Extra {n:02}", is_npc=True)
    party.pc.cogent.skills.filter(name="Athletics").update(rating=2)
    client = Client()
    client.force_login(party.player)
    for _ in range(3):
        url = roll_url(party.pc, "cogent-skill", athletics(party.pc))
        assert client.post(url, {"challenge_level": 2, "extra_penalty": 0}).status_code == 302


def test_one_roll_is_one_request_on_every_open_page(crowded, pages, party):
    """The roller's page makes one request per click (the roll; its response brings what changed
    on the sheet), the GM table none (its stream draws the roll as the card's row), and another
    open sheet of the character fetches its rolled parts alone (docs/live.md, "the browser
    side")."""
    gm, player, ada = pages["gm"], pages["player"], party.pc
    gm_sheet = gm.context.new_page()
    live(gm, f"/campaigns/{ada.campaign_id}/dashboard/")
    live(gm_sheet, ada.get_absolute_url())
    live(player, ada.get_absolute_url())
    skill = athletics(ada)
    player.locator(f"#skill-{skill.pk} .roll-button").click()
    expect(player.locator("#roll-panel .roll-panel")).to_be_visible()
    heard_entries(player)
    heard_entries(gm_sheet)
    on_table, on_sheet, on_own = requests_of(gm), requests_of(gm_sheet), requests_of(player)
    player.locator("#roll-action-roll").click()
    card = player.locator("#roll-result .entry").first
    expect(card).to_be_visible()
    card_id = "entry-" + card.get_attribute("id").removeprefix("result-")
    # The roller's sheet shows the roll in its recent rolls, from the roll's own response; the
    # stream's entry event reached the page too, and fetched nothing.
    expect(player.locator(f"#recent-rolls #{card_id}")).to_be_visible()
    wait_until(player, "window.heard >= 1")
    assert [method for method, _ in on_own] == ["POST"], on_own
    # The GM table: the new roll on top of Ada's card, still three, as the stream drew it.
    rolls = gm.locator(f"#char-{ada.pk}-rolls > li")
    expect(rolls.first.locator(f"#{card_id}")).to_be_visible()
    expect(rolls).to_have_count(3)
    assert len(rolls.first.evaluate("row => row.outerHTML")) < 15_000
    # The GM's open copy of Ada's sheet: the rolled parts alone.
    expect(gm_sheet.locator(f"#recent-rolls #{card_id}")).to_be_visible()
    assert on_sheet == [("GET", f"characters/{ada.pk}/?part=rolled")]
    assert on_table == [], on_table


def test_a_roll_that_spent_makes_the_table_fetch_that_cards_news_alone(crowded, pages, party):
    """Destiny spent changed Ada's sheet, which the row can't show: her card alone fetches its
    news (one request), with the destiny left and the roll on top."""
    gm, player, ada = pages["gm"], pages["player"], party.pc
    live(gm, f"/campaigns/{ada.campaign_id}/dashboard/")
    destiny_left = gm.locator(f"#resources-{ada.pk} [name='res-{ada.pk}-destiny_points']")
    before = int(destiny_left.input_value())
    assert before > 0
    live(player, ada.get_absolute_url())
    player.locator(f"#skill-{athletics(ada).pk} .roll-button").click()
    destiny = player.locator("#roll-panel [name=destiny_before]")
    player.locator("#roll-panel .roll-more summary").click()  # behind "More options"
    destiny.check()
    on_table = requests_of(gm)
    with gm.expect_response(lambda r: "/table-card/" in r.url):
        player.locator("#roll-action-roll").click()
        result = player.locator("#roll-result .entry").first
        expect(result).to_be_visible()
    token = result.get_attribute("id").removeprefix("result-")
    expect(destiny_left).to_have_value(str(before - 1))
    rolls = gm.locator(f"#char-{ada.pk}-rolls > li")
    expect(rolls.first.locator(f"#entry-{token}")).to_be_visible()
    expect(rolls).to_have_count(3)
    assert on_table == [("GET", f"characters/{ada.pk}/table-card/?entry={token}")]
