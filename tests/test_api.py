"""The API's door (api/base.py, api/v1.py): tokens, scopes, errors, throttling, the
schema and the docs page."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from sheets.models import ApiToken, Scope
from sheets.models.tokens import digest
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

ME = "/api/v1/me"


def bearer(raw: str) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


def test_a_token_reads_as_its_user_and_is_stored_hashed():
    user = UserFactory(username="ana")
    token, raw = ApiToken.issue(user, name="bot", scope=Scope.ROLL)
    assert raw.startswith("pst_") and len(raw) > 40
    assert token.key_digest == digest(raw) and raw not in json.dumps(
        list(ApiToken.objects.values()), default=str
    )
    response = bearer(raw).get(ME)
    assert response.status_code == 200
    assert response.json() == {
        "username": "ana",
        "token": {"name": "bot", "scope": "roll", "expires_at": None},
    }
    token.refresh_from_db()
    assert token.last_used_at is not None


@pytest.mark.parametrize(
    ("headers", "says"),
    [
        ({}, "Authorization: Bearer"),
        ({"HTTP_AUTHORIZATION": "Bearer pst_nope"}, "not valid"),
        ({"HTTP_AUTHORIZATION": "Bearer "}, "not valid"),
        ({"HTTP_AUTHORIZATION": "Basic YWxpY2U6cG9vbHNpZGU="}, "Authorization: Bearer"),
        ({"HTTP_AUTHORIZATION": "Bearer " + "x" * 5000}, "not valid"),
    ],
)
def test_without_a_good_token_401_says_what_to_send(headers, says):
    response = Client(**headers).get(ME)
    assert response.status_code == 401
    assert response["Content-Type"].startswith("application/json")
    assert says in response.json()["detail"]
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_revoked_expired_and_deactivated_tokens_fail():
    user = UserFactory()
    revoked, raw_revoked = ApiToken.issue(user, name="a", scope=Scope.READ)
    revoked.revoke()
    _, raw_expired = ApiToken.issue(
        user, name="b", scope=Scope.READ, expires_at=timezone.now() - timedelta(seconds=1)
    )
    assert "revoked" in bearer(raw_revoked).get(ME).json()["detail"]
    assert "expired" in bearer(raw_expired).get(ME).json()["detail"]
    other = UserFactory()
    _, raw = ApiToken.issue(other, name="c", scope=Scope.READ)
    assert bearer(raw).get(ME).status_code == 200
    other.is_active = False
    other.save()
    refused = bearer(raw).get(ME)
    assert refused.status_code == 401 and "deactivated" in refused.json()["detail"]


def test_a_session_cookie_is_not_a_token(client):
    user = UserFactory()
    client.force_login(user)
    assert client.get(ME).status_code == 401
    response = client.post(
        "/api/v1/characters/1/targets/cogent-skill/1/rolls", {}, content_type="application/json"
    )
    assert response.status_code == 401


def test_errors_are_json_with_the_pages_words():
    _, raw = ApiToken.issue(UserFactory(), name="t", scope=Scope.READ)
    api = bearer(raw)
    missing = api.get("/api/v1/campaigns/999999")
    assert missing.status_code == 404 and missing.json() == {
        "detail": "No such campaign.",
        "errors": {},
    }
    huge = api.get(f"/api/v1/campaigns/{10**30}")
    assert huge.status_code == 422 and "pk" in huge.json()["errors"]
    no_route = api.get("/api/v1/nothing-here")
    assert no_route.status_code == 404


def test_throttled_per_token_with_retry_after(settings):
    settings.API_RATE = "3/60"
    _, raw = ApiToken.issue(UserFactory(), name="t", scope=Scope.READ)
    _, other = ApiToken.issue(UserFactory(), name="u", scope=Scope.READ)
    api = bearer(raw)
    assert [api.get(ME).status_code for _ in range(3)] == [200, 200, 200]
    refused = api.get(ME)
    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    assert "Too many" in refused.json()["detail"]
    assert bearer(other).get(ME).status_code == 200  # per user, not for everyone


def test_the_schema_and_the_docs_page():
    schema = Client().get("/api/v1/openapi.json")
    assert schema.status_code == 200
    spec = schema.json()
    assert spec["openapi"].startswith("3.")
    assert "/api/v1/characters/{pk}/targets/{kind}/{target_pk}/rolls" in spec["paths"]
    assert spec["components"]["securitySchemes"]["TokenAuth"]["scheme"] == "bearer"
    docs = Client().get("/api/v1/docs")
    assert docs.status_code == 200
    html = docs.content.decode()
    # Swagger UI from our own static files, nothing from a CDN, and no inline script.
    assert "/static/ninja/swagger-ui-bundle.js" in html
    assert "cdn" not in html.lower()
    assert "<script>" not in html.replace(" ", "")
    assert "Content-Security-Policy" in docs.headers


def test_api_token_command_prints_a_working_token(capsys):
    UserFactory(username="ana")
    call_command("api_token", "ana", "--scope", "roll", "--name", "bot")
    raw = capsys.readouterr().out.strip()
    token = ApiToken.objects.get()
    assert token.name == "bot" and token.scope == "roll" and token.key_digest == digest(raw)
    assert bearer(raw).get(ME).json()["token"]["scope"] == "roll"
    call_command("api_token", "ana", "--expires-in-days", "7")
    assert ApiToken.objects.filter(scope="read", expires_at__isnull=False).exists()


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["nobody"], "No user"),
        (["ana", "--name", " "], "--name"),
        (["ana", "--expires-in-days", "0"], "--expires-in-days"),
    ],
)
def test_api_token_command_refuses_clearly(args, says):
    from django.core.management.base import CommandError

    UserFactory(username="ana")
    with pytest.raises(CommandError, match=says):
        call_command("api_token", *args)


# --- the account page ---------------------------------------------------------------------------


def test_account_page_creates_shows_once_lists_and_revokes(client):
    user = UserFactory(username="ana")
    client.force_login(user)
    page = client.get(reverse("account"))
    assert page.status_code == 200 and "No tokens yet" in page.content.decode()
    made = client.post(
        reverse("account"), {"name": "Discord bot", "scope": "roll", "expires": "30"}
    )
    assert made.status_code == 200
    token = ApiToken.objects.get()
    html = made.content.decode()
    raw = html.split('aria-label="The new token"')[0].rsplit('value="', 1)[1].split('"')[0]
    assert digest(raw) == token.key_digest and "shown only this once" in html
    assert token.expires_at and 29 <= (token.expires_at - timezone.now()).days <= 30
    again = client.get(reverse("account")).content.decode()
    assert raw not in again and token.masked in again and "Discord bot" in again
    revoked = client.post(reverse("token_revoke", args=[token.pk]))
    assert revoked.status_code == 302
    token.refresh_from_db()
    assert token.revoked_at is not None
    assert bearer(raw).get(ME).status_code == 401


def test_account_page_htmx_and_bad_input(client):
    user = UserFactory()
    client.force_login(user)
    bad = client.post(reverse("account"), {"name": "", "scope": "admin"}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 200  # htmx swaps only a 2xx: the section with its messages
    html = bad.content.decode()
    assert "This field is required" in html and "Select a valid choice" in html
    assert "<html" not in html  # the partial
    assert not ApiToken.objects.exists()
    made = client.post(reverse("account"), {"name": "x", "scope": "read"}, HTTP_HX_REQUEST="true")
    assert made.status_code == 200 and "shown only this once" in made.content.decode()
    token = ApiToken.objects.get()
    revoked = client.post(reverse("token_revoke", args=[token.pk]), HTTP_HX_REQUEST="true")
    assert revoked.status_code == 200 and "was revoked" in revoked.content.decode()


def test_only_your_own_tokens(client):
    owner, other = UserFactory(), UserFactory()
    token, raw = ApiToken.issue(owner, name="mine", scope=Scope.READ)
    client.force_login(other)
    assert client.post(reverse("token_revoke", args=[token.pk])).status_code == 404
    assert "mine" not in client.get(reverse("account")).content.decode()
    assert bearer(raw).get(ME).status_code == 200
    client.logout()
    assert client.get(reverse("account")).status_code == 302
    assert client.post(reverse("token_revoke", args=[token.pk])).status_code == 302


def test_a_bug_is_a_json_500_and_logged(monkeypatch, caplog):
    from sheets.models import Campaign

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(Campaign.objects, "for_home", broken)
    _, raw = ApiToken.issue(UserFactory(), name="t", scope=Scope.READ)
    response = bearer(raw).get("/api/v1/campaigns")
    assert response.status_code == 500
    assert response.json() == {
        "detail": "Something went wrong on our side; it has been logged.",
        "errors": {},
    }
    assert any("boom" in (r.exc_text or str(r.exc_info)) for r in caplog.records)


def test_a_body_that_is_not_json_is_a_json_400():
    _, raw = ApiToken.issue(UserFactory(), name="t", scope=Scope.ROLL)
    response = bearer(raw).post(
        "/api/v1/characters/1/targets/cogent-skill/1/rolls", "{", content_type="application/json"
    )
    assert response.status_code in (400, 422)
    assert set(response.json()) == {"detail", "errors"}
