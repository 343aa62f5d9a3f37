"""Right-to-left overrides and the other bidi controls in user text (issue 50): they reordered
the text around a title or a name on every page that showed it. They are taken out where text
comes in (web/text.py) — forms, query strings, the API's JSON, character imports, Discord's
options — so no page, log entry, export or webhook carries them; the marks that only hint a
direction stay."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from rolls.sessions.state import sessions
from sheets.models import ApiToken, Character, Scope

pytestmark = pytest.mark.django_db

RLO, PDF, LRI, PDI, RLM = "\u202e", "\u202c", "\u2066", "\u2069", "\u200f"


def test_a_session_title_from_the_page_loses_its_override(client, party):
    client.force_login(party.gm)
    title = f"The {RLO}tsieh{PDF} {LRI}night{PDI}"
    response = client.post(reverse("session_start", args=[party.campaign.pk]), {"title": title})
    assert response.status_code == 302
    (session,) = sessions(party.campaign)
    assert session.state.title == "The tsieh night"
    page = client.get(reverse("campaign_dashboard", args=[party.campaign.pk])).content.decode()
    assert RLO not in page and "Session 1: The tsieh night" in page


def test_a_session_title_from_the_api_loses_its_override(party):
    _, raw = ApiToken.issue(party.gm, name="bot", scope=Scope.ROLL)
    api = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    response = api.post(
        f"/api/v1/campaigns/{party.campaign.pk}/sessions",
        json.dumps({"title": f"Heist {RLO}3{PDF}"}),
        content_type="application/json",
    )
    assert response.status_code in (200, 201), response.content
    assert RLO not in response.content.decode("unicode_escape")
    (session,) = sessions(party.campaign)
    assert session.state.title == "Heist 3"


def test_a_character_name_keeps_its_marks_but_no_override(client, party):
    client.force_login(party.player)
    url = reverse("character_import", args=[party.campaign.pk])
    export = client.get(reverse("character_export", args=[party.pc.pk])).json()
    export["character"]["name"] = f"{RLM}Rob{RLO} the 3rd"
    response = client.post(url, {"text": json.dumps(export)})
    assert response.status_code == 302, response.content.decode()[:2000]
    imported = Character.objects.order_by("-pk").first()
    assert imported.name == f"{RLM}Rob the 3rd"
