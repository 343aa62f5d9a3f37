"""A roll through the API is announced live like a roll from the sheet: every open log hears of
it once its transaction commits (on every transport: .ci/run runs this module on Redis too)."""

import asyncio

import pytest
from django.test import Client

import live
from log.tokens import entry_token
from sheets.models import ApiToken, Scope
from tests.rolls.helpers import athletics
from tests.rolls.live_helpers import in_thread

pytestmark = pytest.mark.django_db(transaction=True)


def test_an_api_roll_reaches_the_campaigns_streams(party, rulebook_athletics):
    _, raw = ApiToken.issue(party.player, name="bot", scope=Scope.ROLL)
    url = f"/api/v1/characters/{party.pc.pk}/targets/cogent-skill/{athletics(party.pc).pk}/rolls"

    def roll():
        response = Client(HTTP_AUTHORIZATION=f"Bearer {raw}").post(
            url, {"challenge_level": 2}, content_type="application/json"
        )
        assert response.status_code == 201, response.content
        return response.json()["id"]

    async def scenario():
        async with live.hub.subscribe(party.campaign.pk) as subscription:
            made = await asyncio.to_thread(in_thread, roll)
            event = await subscription.get(timeout=5)
            assert event is not None and event.kind == "entry"
            assert entry_token(event.id) == made

    asyncio.run(scenario())
