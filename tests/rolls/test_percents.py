"""Exact percents everywhere (issue 48, item 5): a chance is rounded half up on its exact
fraction, never through a float — 5/16 = 31.25% reads "31.3%" on the panel, in the API and (to
two places) in the CSV export, as ``percent`` rounds it (tests/rolls/test_display.py)."""

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse

from sheets.models import ApiToken, Scope
from tests.factories import RollEntryFactory
from tests.rolls.helpers import odds_url

pytestmark = pytest.mark.django_db

# Ada's 6d6 Athletics (rulebook_athletics) less 2 penalty dice against CL 3: 4 dice, success
# exactly 5/16 and critical failure 1/16 — 31.25% and 6.25%, which a float rounds to even.
FOUR_DICE = {"challenge_level": 3, "extra_penalty": 2}


def test_the_panel_rounds_half_up(client, party, rulebook_athletics):
    client.force_login(party.player)
    html = client.get(odds_url(party.pc, "cogent-skill", rulebook_athletics), FOUR_DICE)
    page = html.content.decode()
    assert "31.3%" in page and "(5/16)" in page and "6.3%" in page
    assert "31.2%" not in page and "6.2%" not in page


def test_the_api_rounds_half_up(party, rulebook_athletics):
    _, raw = ApiToken.issue(party.player, name="test", scope=Scope.ROLL)
    url = reverse("api:target", args=[party.pc.pk, "cogent-skill", rulebook_athletics.pk])
    odds = Client(HTTP_AUTHORIZATION=f"Bearer {raw}").get(url, FOUR_DICE).json()["odds"]
    shown = {band["chance"]: band["percent"] for band in odds}
    assert shown["5/16"] == "31.3%" and shown["1/16"] == "6.3%"


def test_the_export_rounds_half_up(client, party):
    """417/800 = 52.125% (a Cold Stars 3 Ability + 2 Risk Costly success), to two places:
    half, up — a float rounds it to even, "52.12"."""
    RollEntryFactory(character=party.pc, label="Stealth", odds="417/800")
    client.force_login(party.player)
    response = client.get(reverse("campaign_log_csv", args=[party.campaign.pk]))
    text = b"".join(response.streaming_content).decode()
    [row] = list(csv.DictReader(io.StringIO(text)))
    assert row["odds_percent"] == "52.13"
