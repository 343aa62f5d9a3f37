"""Cold Stars: the GM refreshes Momentum and Willpower to their maxima for one character or all,
from a character's card or the session bar (RULES.md §8, a Decision), and each refresh is a
recorded entry of the log like any resource change (rolls/table/refresh.py)."""

import pytest
from django.urls import reverse

from log.models import Kind, RollEntry
from sheets.models import System
from tests.factories import CharacterFactory
from tests.rolls.helpers import latest
from tests.worlds import build_party

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


@pytest.fixture
def system():
    return System.COLD_STARS


def _low(character, momentum=1, willpower=0):
    sheet = character.cold_stars
    sheet.momentum_max, sheet.momentum = 5, momentum
    sheet.willpower_max, sheet.willpower = 3, willpower
    sheet.save()


def _resources(character):
    character.cold_stars.refresh_from_db()
    return character.cold_stars.momentum, character.cold_stars.willpower


def _url(party):
    return reverse("resources_refresh", args=[party.campaign.pk])


@pytest.mark.parametrize(
    ("actor", "status"),
    [("nonmember", 404), ("observer", 403), ("player", 403), ("other_player", 403), ("gm", 302)],
)
def test_only_the_gm_refreshes(client, party, actor, status):
    _low(party.pc)
    client.force_login(party.user(actor))
    response = client.post(_url(party), {"character": party.pc.pk, "resource": "both"})
    assert response.status_code == status
    assert _resources(party.pc) == ((5, 3) if actor == "gm" else (1, 0))
    assert RollEntry.objects.count() == (1 if actor == "gm" else 0)


def test_anonymous_visitors_log_in_first(client, party):
    response = client.post(_url(party), {"character": "all", "resource": "both"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_a_card_refreshes_one_character_and_the_log_records_it(client, party):
    _low(party.pc)
    _low(party.other_pc)
    client.force_login(party.gm)
    table = client.get(reverse("campaign_dashboard", args=[party.campaign.pk])).content.decode()
    assert "Momentum and Willpower</span> to 5" in table and "Refresh to the maximum" in table
    response = client.post(_url(party), {"character": party.pc.pk, "resource": "both"})
    assert response.status_code == 302
    assert response["Location"].endswith(f"#char-{party.pc.pk}")
    assert _resources(party.pc) == (5, 3) and _resources(party.other_pc) == (1, 0)
    entry = latest()
    assert (entry.kind, entry.character, entry.resource_changes) == (
        Kind.REFRESH,
        party.pc,
        {"momentum": 4, "willpower": 3},
    )
    assert entry.detail == "The GM refreshed Momentum to 5 (+4) and Willpower to 3 (+3)."
    assert RollEntry.objects.verify_chain(party.campaign.pk).intact
    # Every member reads it in the log, and on the character's sheet among its rolls.
    client.force_login(party.observer)
    log = client.get(reverse("campaign_log", args=[party.campaign.pk])).content.decode()
    assert "Resources refreshed" in log and "Momentum to 5 (+4)" in log


def test_the_session_bar_refreshes_everyone_as_htmx(client, party):
    _low(party.pc)
    _low(party.npc, momentum=5, willpower=1)
    _low(party.other_pc, momentum=5, willpower=3)  # already full: no entry
    client.force_login(party.gm)
    response = client.post(_url(party), {"character": "all", "resource": "willpower"}, headers=HX)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="session-bar"' in html and "Refreshed Willpower to the maximum" in html
    assert _resources(party.pc) == (1, 3) and _resources(party.npc) == (5, 3)
    refreshed = RollEntry.objects.filter(kind=Kind.REFRESH)
    # Spy's blank sheet has maxima of 0: full already, like Bo.
    assert {e.character for e in refreshed} == {party.pc, party.npc}
    assert all(set(e.resource_changes) == {"willpower"} for e in refreshed)
    again = client.post(_url(party), {"character": "all", "resource": "willpower"}, headers=HX)
    assert "already at the maximum" in again.content.decode()
    assert RollEntry.objects.filter(kind=Kind.REFRESH).count() == 2


def test_a_choice_that_isnt_one_is_refused_with_nothing_written(client, party):
    _low(party.pc)
    client.force_login(party.gm)
    bad = client.post(_url(party), {"character": party.pc.pk, "resource": "luck"}, headers=HX)
    assert bad.status_code == 200 and "Choose Momentum, Willpower or both." in bad.content.decode()
    elsewhere = CharacterFactory(campaign__system=System.COLD_STARS)
    plain = client.post(_url(party), {"character": elsewhere.pk, "resource": "both"}, follow=True)
    assert "Choose a character of this campaign" in plain.content.decode()
    assert RollEntry.objects.count() == 0 and _resources(party.pc) == (1, 0)


def test_other_systems_have_nothing_to_refresh(client):
    cogent = build_party(System.COGENT)
    client.force_login(cogent.gm)
    url = reverse("resources_refresh", args=[cogent.campaign.pk])
    assert client.post(url, {"character": "all", "resource": "both"}).status_code == 404
    table = client.get(reverse("campaign_dashboard", args=[cogent.campaign.pk])).content.decode()
    assert "Refresh to the maximum" not in table
