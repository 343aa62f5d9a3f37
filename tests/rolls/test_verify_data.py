"""The permalink's Verify island (rolls/rolling/verify_data.py, docs/verifiable-dice.md): what the
browser checks, given only to a member who may read the dice, with the key as the server
publishes it."""

from __future__ import annotations

import copy
import json
import re

import pytest
from django.urls import reverse

from log.models import Visibility
from log.models.keys import keys_by_id
from log.tokens import entry_token
from rolls.rolling.verify_data import verify_data
from tests.rolls.helpers import roll_athletics

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rulebook_athletics")]

ISLAND = re.compile(r'<script id="verify-data" type="application/json">(.*?)</script>', re.S)


def island(client, entry) -> dict | None:
    html = client.get(entry.get_absolute_url()).content.decode()
    found = ISLAND.search(html)
    return json.loads(found.group(1)) if found else None


def test_a_readable_roll_carries_what_the_browser_checks(client, party):
    entry = roll_athletics(client, party, Visibility.PUBLIC, nonce="browser-nonce-1234")
    data = island(client, entry)
    assert data == {
        "entry": entry_token(entry.pk),  # what the browser keeps the nonce it sent under
        "system": "cogent",
        "kind": "roll",
        "label": "Athletics",
        "faces": entry.faces,
        "outcome": entry.outcome,
        "result": entry.result,
        "options": entry.options,
        "pool": entry.pool,
        "proof": entry.proof,
        "key": keys_by_id()[entry.proof["key"]],
    }
    html = client.get(entry.get_absolute_url()).content.decode()
    # Hidden until the script shows it: without JavaScript the button could do nothing.
    assert re.search(r"<button [^>]*data-verify-dice=\"verify-data\"[^>]* hidden>", html)
    assert 'id="verify-result" class="verify-result" role="status"' in html


def test_the_roller_of_a_blind_roll_gets_no_island_until_it_is_revealed(client, party):
    blind = roll_athletics(client, party, Visibility.BLIND)
    assert island(client, blind) is None  # the roller sees a placeholder: no dice, no proof
    client.force_login(party.gm)
    assert island(client, blind)["proof"] == blind.proof
    assert client.post(reverse("roll_reveal", args=[blind.pk])).status_code == 302
    client.force_login(party.player)
    assert island(client, blind)["proof"] == blind.proof


def test_an_entry_without_a_proof_shows_no_verify(client, party, seeded):
    entry = roll_athletics(client, party, Visibility.PUBLIC)  # seeded dice carry no proof
    assert entry.proof == {}
    html = client.get(entry.get_absolute_url()).content.decode()
    assert "verify-data" not in html and "Verify these dice" not in html


def test_a_key_the_server_never_published_is_given_as_none(client, party):
    entry = roll_athletics(client, party, Visibility.PUBLIC)
    forged = copy.copy(entry)
    forged.proof = entry.proof | {"key": "0123456789abcdef"}
    assert verify_data(forged)["key"] is None
    assert verify_data(entry)["key"]["vrf_key"] == keys_by_id()[entry.proof["key"]]["vrf_key"]
