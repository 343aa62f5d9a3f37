"""How open pages learn of a roll (docs/live.md, "the browser side"): the roller's response carries
what changed on the sheet (out-of-band parts), another open sheet fetches its rolled parts alone
(``?part=rolled``), the GM table one character's card (``table_character``). Every visibility
holds on every one of those pages, and on the log."""

import pytest
from django.test import Client
from django.urls import reverse

from log.models import Visibility
from sheets.models import System
from tests.factories import CharacterFactory, RollCallFactory
from tests.rolls.helpers import athletics, follow_url, latest, roll_url, token

# ana's Ada rolls Athletics at 6d6 (tests/rolls/conftest.py).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rulebook_athletics")]

HX = {"HX-Request": "true"}
FULL, PLACEHOLDER, NOTHING = "full", "placeholder", "nothing"


def on_page(url):
    """htmx's headers for a request made from the page at ``url``."""
    return HX | {"HX-Current-URL": f"http://testserver{url}"}


def rolled_url(character):
    return character.get_absolute_url() + "?part=rolled"


def card_url(character):
    return reverse("table_character", args=[character.pk])


# What the panel's Roll button adds: its target, the panel (a roll that changed nothing else
# is answered with the result alone, retargeted).
PANEL = {"HX-Target": "roll-panel"}
NEW_CARD = 'hx-swap-oob="afterbegin:#recent-rolls-list"'


def roll_on_sheet(client, user, character, visibility=Visibility.PUBLIC, **extra):
    """``user`` rolls ``character``'s Athletics (CL 2) from its sheet's panel with htmx: the
    response."""
    client.force_login(user)
    data = {"challenge_level": 2, "extra_penalty": 0, "visibility": visibility, **extra}
    url = roll_url(character, "cogent-skill", athletics(character))
    return client.post(url, data, headers=on_page(character.get_absolute_url()) | PANEL)


def secrets_of(entry):
    """Text only a reader of the entry may see: the pool in words, the outcome's detail, a die."""
    return [entry.breakdown, entry.detail, entry.dice[0].label]


def what_shows(html, entry):
    shown = f'id="entry-{token(entry)}"' in html
    leaked = [secret for secret in secrets_of(entry) if secret in html]
    if leaked:
        assert shown and len(leaked) == len(secrets_of(entry))
        return FULL
    if shown:
        assert "roll was made" in html
        return PLACEHOLDER
    assert token(entry) not in html
    return NOTHING


# --- the roller's page: one request ------------------------------------------------------------


def test_a_roll_on_the_sheet_brings_what_it_changed(client, party):
    pc = party.pc
    sheet = pc.cogent
    sheet.destiny_points = 2
    sheet.save()
    response = roll_on_sheet(client, party.player, pc, destiny_before="on")
    html = response.content.decode()
    entry = latest()
    assert response.status_code == 200 and entry.resource_changes == {"destiny": -1}
    # No re-fetch asked for: the parts come out of band with the result.
    assert "HX-Trigger" not in response
    assert f'id="result-{token(entry)}"' in html
    assert '<section id="attributes"' in html and "<dt>Destiny points</dt><dd>1</dd>" in html
    assert (
        '<section id="recent-rolls" aria-labelledby="recent-rolls-heading" class="panel" ' in html
    )
    assert f'id="entry-{token(entry)}"' in html
    # Only what changed: the prompts didn't (no GM's request answered, no assist), nor the rest.
    assert 'id="gm-prompts" ' not in html
    assert html.count('hx-swap-oob="true"') == 2
    assert '<section id="skills"' not in html and '<section id="basics"' not in html


def test_a_roll_that_changed_nothing_else_brings_its_result_and_card_alone(client, party):
    roll_on_sheet(client, party.player, party.pc)
    earlier = latest()
    response = roll_on_sheet(client, party.player, party.pc)
    html = response.content.decode()
    entry = latest()
    assert response.status_code == 200 and entry.resource_changes == {}
    # The result into #roll-result: the form, the odds and the rest of the panel stay.
    assert response["HX-Retarget"] == "#roll-result" and response["HX-Reswap"] == "innerHTML"
    assert f'id="result-{token(entry)}"' in html and 'id="roll-form"' not in html
    assert 'id="roll-announce" hx-swap-oob="innerHTML"' in html
    # On the sheet, its card alone on top of the recent rolls: not the list again.
    assert html.count(NEW_CARD) == 1 and f'id="entry-{token(entry)}"' in html
    assert token(earlier) not in html and 'hx-swap-oob="true"' not in html
    assert '<section id="recent-rolls"' not in html and 'id="gm-prompts" ' not in html


def test_a_roll_from_a_panel_with_a_message_draws_the_panel_again(client, party):
    """A message the roll makes stale (a refusal, an error beside a field) goes with it: the
    panel that shows one sends ``redraw``, and its roll's answer is the whole panel."""
    client.force_login(party.player)
    url = roll_url(party.pc, "cogent-skill", athletics(party.pc))
    headers = on_page(party.pc.get_absolute_url()) | PANEL
    wrong = client.post(url, {"challenge_level": "many", "extra_penalty": 0}, headers=headers)
    assert wrong.status_code == 200 and 'name="redraw"' in wrong.content.decode()
    data = {"challenge_level": 2, "extra_penalty": 0, "redraw": "1"}
    response = client.post(url, data, headers=headers)
    html = response.content.decode()
    assert "HX-Retarget" not in response and 'id="roll-form"' in html
    assert f'id="result-{token(latest())}"' in html and 'name="redraw"' not in html


def test_a_roll_that_answers_the_gms_call_brings_the_prompts(client, party):
    call = RollCallFactory(
        campaign=party.campaign, skill="Athletics", difficulty=2, targets=[party.pc]
    )
    sheet = roll_on_sheet(client, party.player, party.pc, call=call.pk)
    html = sheet.content.decode()
    assert sheet.status_code == 200 and latest().call == call
    assert 'id="gm-prompts" ' in html and "The GM asks" not in html  # answered: gone


def test_a_follow_up_on_the_sheet_brings_what_it_changed(client, party):
    pc = party.pc
    sheet = pc.cogent
    sheet.destiny_points = 1
    sheet.save()
    roll_on_sheet(client, party.player, pc)
    entry = latest()
    response = client.post(follow_url(entry, "destiny"), headers=on_page(pc.get_absolute_url()))
    html = response.content.decode()
    assert response.status_code == 200 and "HX-Trigger" not in response
    assert latest().follows == entry
    assert "<dt>Destiny points</dt><dd>0</dd>" in html
    assert f'id="entry-{token(latest())}"' in html


def test_from_any_other_page_a_roll_brings_its_result_alone(client, party):
    pc = party.pc
    client.force_login(party.player)
    url = roll_url(pc, "cogent-skill", athletics(pc))
    data = {"challenge_level": 2, "extra_penalty": 0}
    panel_page = on_page(reverse("roll_panel", args=[pc.pk, "cogent-skill", 1]))
    for headers in (HX, panel_page, panel_page | PANEL):
        response = client.post(url, data, headers=headers)
        html = response.content.decode()
        assert response.status_code == 200 and 'hx-swap-oob="true"' not in html
        assert f'id="result-{token(latest())}"' in html and NEW_CARD not in html


def test_without_javascript_a_roll_still_redirects_to_its_entry(client, party):
    client.force_login(party.player)
    url = roll_url(party.pc, "cogent-skill", athletics(party.pc))
    response = client.post(url, {"challenge_level": 2, "extra_penalty": 0})
    assert response.status_code == 302 and response["Location"] == latest().get_absolute_url()


def test_without_javascript_update_odds_keeps_the_csrf_token_out_of_the_address(party):
    """ "Update odds" posts (a GET form would put the token in the address: history, referrers,
    logs); the answer redirects to the panel's page with the options and nothing else."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(party.player)
    row = athletics(party.pc)
    page = client.get(reverse("roll_panel", args=[party.pc.pk, "cogent-skill", row.pk]))
    assert 'name="action" value="odds"' in page.content.decode()
    assert 'formmethod="get"' not in page.content.decode()
    csrf = page.cookies["csrftoken"].value
    data = {"csrfmiddlewaretoken": csrf, "challenge_level": 3, "extra_penalty": 1, "action": "odds"}
    before = latest()
    response = client.post(roll_url(party.pc, "cogent-skill", row), data)
    panel = reverse("roll_panel", args=[party.pc.pk, "cogent-skill", row.pk])
    assert response.status_code == 302
    assert response["Location"] == f"{panel}?challenge_level=3&extra_penalty=1"
    assert latest() == before  # nothing was rolled
    odds = client.get(response["Location"]).content.decode()
    assert '<option value="3" selected>' in odds and "csrfmiddlewaretoken=" not in odds


# --- the fragments: who may fetch them ---------------------------------------------------------


@pytest.mark.parametrize(
    ("actor", "status"),
    [("nonmember", 404), ("observer", 200), ("other_player", 200), ("player", 200), ("gm", 200)],
)
def test_the_rolled_parts_are_for_the_sheets_readers(client, party, actor, status):
    client.force_login(getattr(party, actor))
    assert client.get(rolled_url(party.pc), headers=HX).status_code == status
    hidden = client.get(rolled_url(party.hidden_npc), headers=HX).status_code
    assert hidden == (200 if actor == "gm" else 404)


@pytest.mark.parametrize(
    ("rules", "sections"),
    [
        (System.COGENT, ["attributes"]),
        (System.DAD6, ["class", "banes"]),
        (System.COLD_STARS, ["abilities"]),
    ],
)
def test_the_rolled_parts_are_the_systems_rolled_sections(client, rules, sections):
    character = CharacterFactory(campaign__system=rules)
    if rules == System.DAD6:  # what a bought boon accepts, shown with the parts
        character.dad6.banes.create(description="Owes the ferryman")
    client.force_login(character.owner)
    html = client.get(rolled_url(character), headers=HX).content.decode()
    for key in sections:
        assert f'<section id="{key}"' in html
    assert ("Owes the ferryman" in html) == (rules == System.DAD6)
    # Each section, the recent rolls and the prompts, out of band; nothing else of the sheet.
    assert html.count('hx-swap-oob="true"') == len(sections) + 2
    assert '<section id="skills"' not in html and 'id="sheet"' not in html


def test_the_rolled_parts_without_htmx_are_the_sheet(client, party):
    client.force_login(party.player)
    response = client.get(rolled_url(party.pc))
    assert response.status_code == 302 and response["Location"] == party.pc.get_absolute_url()


@pytest.mark.parametrize(
    ("actor", "status"),
    [("nonmember", 404), ("observer", 403), ("other_player", 403), ("player", 403), ("gm", 200)],
)
def test_a_table_card_is_the_gms_alone(client, party, actor, status):
    client.force_login(getattr(party, actor))
    for character in (party.pc, party.hidden_npc):
        assert client.get(card_url(character), headers=HX).status_code == status


def test_a_table_card_is_one_character_and_without_htmx_the_table(client, party):
    client.force_login(party.gm)
    html = client.get(card_url(party.pc), headers=HX).content.decode()
    assert f'id="char-{party.pc.pk}"' in html and "<html" not in html
    assert f'id="char-{party.other_pc.pk}"' not in html
    assert 'hx-trigger="live:card"' in html  # the card it replaces keeps refreshing itself
    response = client.get(card_url(party.pc))
    dashboard = reverse("campaign_dashboard", args=[party.campaign.pk])
    assert response.status_code == 302 and response["Location"] == f"{dashboard}#char-{party.pc.pk}"


def test_a_table_cards_news_is_the_one_roll_and_what_it_changed(client, party):
    pc = party.pc
    sheet = pc.cogent
    sheet.destiny_points = 2
    sheet.save()
    roll_on_sheet(client, party.player, pc)
    first = latest()
    roll_on_sheet(client, party.player, pc, destiny_before="on")
    entry = latest()
    client.force_login(party.gm)
    response = client.get(card_url(pc) + f"?entry={token(entry)}", headers=HX)
    html = response.content.decode()
    # Only the news, out of band (the card itself is not swapped): the figures, the resources
    # form and the new roll on top of the card's last rolls.
    assert response.status_code == 200 and response["HX-Reswap"] == "none"
    assert f'id="char-{pc.pk}-summary" hx-swap-oob="true"' in html
    assert (
        f'id="resources-{pc.pk}"' in html
        and f'hx-swap-oob="afterbegin:#char-{pc.pk}-rolls"' in html
    )
    assert f'id="entry-{token(entry)}"' in html and token(first) not in html
    assert f'<article class="table-character" id="char-{pc.pk}"' not in html
    # A roll of another character: the whole card. A token that is no token: a 400.
    response = client.get(card_url(party.other_pc), {"entry": token(entry)}, headers=HX)
    whole = f'<article class="table-character" id="char-{party.other_pc.pk}"'
    assert "HX-Reswap" not in response and whole in response.content.decode()
    response = client.get(card_url(pc), {"entry": "not-a-token"}, headers=HX)
    assert response.status_code == 400 and "entry" in response.content.decode()
    client.force_login(party.player)
    assert client.get(card_url(pc), {"entry": token(entry)}, headers=HX).status_code == 403


# --- every visibility on every page ------------------------------------------------------------


def pages_after(client, party, character, entry):
    """What each viewer gets of ``entry`` on the pages a roll updates: ``character``'s sheet
    (its rolled parts), the GM table (its card) and the log."""
    seen = {}
    for viewer in ("gm", "player", "other_player", "observer"):
        client.force_login(getattr(party, viewer))
        part = client.get(rolled_url(character), headers=HX)
        log = client.get(reverse("campaign_log", args=[party.campaign.pk])).content.decode()
        seen[viewer] = {
            "sheet": what_shows(part.content.decode(), entry) if part.status_code == 200 else None,
            "log": what_shows(log, entry),
        }
        card = client.get(card_url(character), headers=HX)
        if viewer == "gm":
            seen[viewer]["table"] = what_shows(card.content.decode(), entry)
        else:
            assert card.status_code == 403
    return seen


@pytest.mark.parametrize(
    ("visibility", "roller_sees", "others_see"),
    [
        (Visibility.PUBLIC, FULL, FULL),
        (Visibility.GM_ONLY, FULL, NOTHING),
        (Visibility.BLIND, PLACEHOLDER, NOTHING),
    ],
)
def test_a_players_roll_on_every_page(client, party, visibility, roller_sees, others_see):
    response = roll_on_sheet(client, party.player, party.pc, visibility)
    entry = latest()
    assert entry.visibility == visibility
    # The roller's own page: the card on top of its recent rolls (the result is the panel's).
    own = response.content.decode().split(NEW_CARD, 1)[1]
    assert what_shows(own, entry) == roller_sees
    seen = pages_after(client, party, party.pc, entry)
    assert seen["gm"] == {"sheet": FULL, "log": FULL, "table": FULL}
    assert seen["player"] == {"sheet": roller_sees, "log": roller_sees}
    for viewer in ("other_player", "observer"):
        assert seen[viewer] == {"sheet": others_see, "log": others_see}


def test_a_hidden_npcs_roll_on_every_page(client, party):
    npc = party.hidden_npc
    npc.cogent.skills.filter(name="Athletics").update(rating=2)
    response = roll_on_sheet(client, party.gm, npc)
    entry = latest()
    assert response.status_code == 200 and entry.visibility == Visibility.PUBLIC
    assert f'id="entry-{token(entry)}"' in response.content.decode()
    seen = pages_after(client, party, npc, entry)
    assert seen["gm"] == {"sheet": FULL, "log": FULL, "table": FULL}
    for viewer in ("player", "other_player", "observer"):
        # The sheet is a 404 for them: no part of it, and nothing in the log.
        assert seen[viewer] == {"sheet": None, "log": NOTHING}
