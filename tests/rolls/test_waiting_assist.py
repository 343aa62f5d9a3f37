"""A waiting assist, priced alike everywhere (issue 48, item 3): the sheet's row, the API's
targets list and the GM table's card take it as the panel, the API's detail and ``/odds`` do,
and say an assist is waiting — to who may roll the character only. In the API, taking one is
explicit: a roll says ``use_assist`` when one waits, and "false" reads as false."""

import pytest
from django.test import Client
from django.urls import reverse

from log.models import RollEntry
from rolls.models import Assist
from rolls.rolling.display import bands, headline
from rules import cogent
from sheets.models import ApiToken, Scope
from tests.rolls.helpers import perception, roll_url

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ada_assists")]


def api(user) -> Client:
    _, raw = ApiToken.issue(user, name="test", scope=Scope.ROLL)
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


@pytest.fixture
def waiting(client, party, helpful):
    """Ada's assist (``helpful`` wins) waits for Bo, whose Perception is rated 1 (a key row of
    the GM's card): Bo's Perception at the panel's defaults, CL 1, with and without it."""
    party.other_pc.cogent.skills.filter(name="Perception").update(rating=1)
    client.force_login(party.pc.owner)
    data = {"challenge_level": 3, "extra_penalty": 0, "action": "assist"}
    response = client.post(
        roll_url(party.pc, "cogent-skill", perception(party.pc)),
        data | {"assist_for": party.other_pc.pk},
    )
    assert response.status_code == 302 and Assist.objects.get().wins == helpful
    pool = perception(party.other_pc).pool
    with_it = bands(cogent.odds(pool, challenge_level=1, assist=helpful))
    assert with_it != bands(cogent.odds(pool, challenge_level=1))
    return with_it, bands(cogent.odds(pool, challenge_level=1))


def _listed(client, character, label="Perception"):
    rows = client.get(reverse("api:targets", args=[character.pk])).json()
    return next(row for row in rows if row["label"] == label)


def _odds(found):
    return [(b.code, b.exact, b.percent) for b in found]


def _api_odds(listed):
    return [(b["outcome"], b["chance"], b["percent"]) for b in listed]


def test_the_api_list_prices_the_row_as_the_detail_does_and_marks_it(party, waiting, helpful):
    with_it, without = waiting
    bo = api(party.other_pc.owner)
    row = _listed(bo, party.other_pc)
    detail = bo.get(row["url"]).json()
    assert _api_odds(row["odds"]) == _api_odds(detail["odds"]) == _odds(with_it)
    assert row["pool"] == detail["pool"]
    assert row["assist"] == f"Ada's assist: {helpful:+d} win" + ("" if abs(helpful) == 1 else "s")
    # Who may not roll Bo learns of no assist: the row as it always read.
    other = _listed(api(party.pc.owner), party.other_pc)
    assert other["assist"] is None and _api_odds(other["odds"]) == _odds(without)


def test_the_sheet_row_and_the_gm_card_take_the_assist_and_say_so(client, party, waiting):
    with_it, without = waiting
    client.force_login(party.other_pc.owner)
    sheet = client.get(party.other_pc.get_absolute_url()).content.decode()
    assert "An assist is waiting — Ada&#x27;s assist" in sheet
    assert headline(with_it) in sheet
    client.force_login(party.gm)
    card = client.get(reverse("campaign_dashboard", args=[party.campaign.pk])).content.decode()
    assert "An assist is waiting — Ada&#x27;s assist" in card
    assert " · ".join(headline(with_it).split(" · ")) in card
    # Ada's player may not roll Bo: Bo's sheet reads as it did, without the assist.
    client.force_login(party.pc.owner)
    read = client.get(party.other_pc.get_absolute_url()).content.decode()
    assert "An assist is waiting" not in read and headline(without) in read


def test_a_roll_through_the_api_says_whether_it_takes_the_waiting_assist(party, waiting):
    bo = api(party.other_pc.owner)
    row = _listed(bo, party.other_pc)
    url = row["url"] + "/rolls"
    unsaid = bo.post(url, {"challenge_level": 2}, content_type="application/json")
    assert unsaid.status_code == 422 and "use_assist" in unsaid.json()["errors"]
    assert "Ada's assist" in unsaid.json()["errors"]["use_assist"][0]
    assert not RollEntry.objects.filter(character=party.other_pc).exists()
    kept = bo.post(
        url, {"challenge_level": 2, "use_assist": "false"}, content_type="application/json"
    )
    assert kept.status_code == 201, kept.content
    assert "assist" not in RollEntry.objects.get(character=party.other_pc).options
    assert Assist.objects.get().used_by is None  # still waiting
    taken = bo.post(
        url, {"challenge_level": 2, "use_assist": True}, content_type="application/json"
    )
    assert taken.status_code == 201, taken.content
    assert Assist.objects.get().used_by is not None


def test_false_reads_as_false_in_a_query_with_no_assist_waiting(party):
    bo = api(party.other_pc.owner)
    row = _listed(bo, party.other_pc)
    for word in ("false", "False", "0", "off"):
        answer = bo.get(row["url"], {"use_assist": word})
        assert answer.status_code == 200, (word, answer.content)
    assert bo.get(row["url"], {"use_assist": "true"}).status_code == 422  # none waits
