"""Every answer under /api/v1/ is JSON, whatever refuses the request — no route, a method the
route doesn't take, a body past the limit — and /api/v1/ itself says where everything is
(web/errors.py, api/v1.py; docs/api.md)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from log.models import RollEntry
from sheets.models import ApiToken, Scope
from tests.factories import CampaignFactory, CharacterFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    gm = UserFactory()
    campaign = CampaignFactory(gm=gm)
    character = CharacterFactory(campaign=campaign, owner=gm)
    _, raw = ApiToken.issue(gm, name="bot", scope=Scope.ROLL)
    client = Client(HTTP_AUTHORIZATION=f"Bearer {raw}", raise_request_exception=False)
    client.character = character
    return client


def error_of(response):
    assert response["Content-Type"].startswith("application/json"), response.content[:80]
    body = response.json()
    assert set(body) == {"detail", "errors"} and body["detail"]
    return body["detail"]


def test_the_root_is_an_index_of_the_api_without_a_token():
    response = Client().get("/api/v1/")
    assert response.status_code == 200
    index = response.json()
    assert index["schema"] == "http://testserver/api/v1/openapi.json"
    assert index["docs"] == "http://testserver/api/v1/docs"
    assert "Bearer" in index["authentication"]
    for url in (index["schema"], index["docs"]):
        assert Client().get(url).status_code == 200


@pytest.mark.parametrize(
    "path", ["/api/v1/nothing-here", "/api/v1/campaigns/1/nope", "/api/v1/me/", "/api/v1/x/y/z"]
)
def test_an_unknown_address_is_a_json_404(api, path):
    response = api.get(path)
    assert response.status_code == 404
    assert "GET /api/v1/" in error_of(response)


def test_pages_keep_their_html_404(client):
    response = client.get("/nothing-here/")
    assert response.status_code == 404
    assert response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("method", ["delete", "put", "patch", "post"])
def test_a_method_the_route_doesnt_take_is_a_json_405(api, method):
    response = getattr(api, method)("/api/v1/campaigns", {}, content_type="application/json")
    assert response.status_code == 405
    assert response["Allow"] == "GET"
    assert f"not {method.upper()}" in error_of(response)


@pytest.mark.parametrize("content_type", ["application/json", "text/plain"])
def test_a_body_over_a_mebibyte_is_a_json_413_and_writes_nothing(api, content_type):
    skill = api.character.cogent.skills.get(name="Athletics")
    url = f"/api/v1/characters/{api.character.pk}/targets/cogent-skill/{skill.pk}/rolls"
    body = json.dumps({"visibility": "public", "padding": "x" * (1 << 20)})
    response = api.post(url, body, content_type=content_type)
    assert response.status_code == 413
    assert "at most 1 MiB" in error_of(response)
    assert not RollEntry.objects.exists()
    # Just under the limit is read, and refused for what it says, not for its size.
    small = api.post(url, json.dumps({"visibility": "nope"}), content_type="application/json")
    assert small.status_code == 422
