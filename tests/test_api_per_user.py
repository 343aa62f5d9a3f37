"""The API counts per user, not per token (api/base.py, sheets/models/tokens.py): a user holds
at most MAX_ACTIVE_TOKENS active tokens, and every limit counts all of them together."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from sheets.models import MAX_ACTIVE_TOKENS, ApiToken, Scope, System
from tests.factories import UserFactory
from tests.worlds import build_parties

pytestmark = pytest.mark.django_db

ME = "/api/v1/me"


def bearer(raw: str) -> Client:
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


def fill(user, count=MAX_ACTIVE_TOKENS):
    return [ApiToken.issue(user, name=f"t{n}", scope=Scope.ROLL)[1] for n in range(count)]


def test_the_account_page_refuses_a_token_past_the_cap_and_says_why(client):
    user = UserFactory()
    fill(user)
    client.force_login(user)
    refused = client.post(reverse("account"), {"name": "one more", "scope": "read"})
    assert refused.status_code == 400
    html = refused.content.decode()
    assert f"You already have {MAX_ACTIVE_TOKENS} active tokens" in html and "revoke one" in html
    assert 'value="one more"' in html  # what was typed stays
    assert ApiToken.objects.filter(user=user).count() == MAX_ACTIVE_TOKENS
    htmx = client.post(reverse("account"), {"name": "x", "scope": "read"}, HTTP_HX_REQUEST="true")
    # htmx swaps only a 2xx: the section comes back with the message beside the form.
    assert htmx.status_code == 200 and "active tokens" in htmx.content.decode()
    assert "<html" not in htmx.content.decode()
    # Revoked and expired tokens don't count: revoke one, and one more can be made.
    ApiToken.objects.filter(user=user).first().revoke()
    assert client.post(reverse("account"), {"name": "y", "scope": "read"}).status_code == 200
    ApiToken.objects.filter(user=user, revoked_at__isnull=True).update(
        expires_at=timezone.now() - timedelta(days=1)
    )
    assert client.post(reverse("account"), {"name": "z", "scope": "read"}).status_code == 200


def test_the_command_refuses_past_the_cap_clearly():
    user = UserFactory(username="ana")
    fill(user)
    with pytest.raises(CommandError, match=f"ana: You already have {MAX_ACTIVE_TOKENS}"):
        call_command("api_token", "ana")
    assert ApiToken.objects.filter(user=user).count() == MAX_ACTIVE_TOKENS


def test_another_users_tokens_dont_count_towards_mine():
    fill(UserFactory())
    assert ApiToken.issue(UserFactory(), name="mine", scope=Scope.READ)[0].pk


def test_requests_count_per_user_across_tokens(settings):
    settings.API_RATE = "4/60"
    user = UserFactory()
    first, second = fill(user, 2)
    assert [bearer(first).get(ME).status_code for _ in range(2)] == [200, 200]
    assert [bearer(second).get(ME).status_code for _ in range(2)] == [200, 200]
    refused = bearer(second).get(ME)
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 60
    assert "all its tokens count together" in refused.json()["detail"]
    # A fresh token buys nothing more.
    assert bearer(ApiToken.issue(user, name="new", scope=Scope.READ)[1]).get(ME).status_code == 429
    _, other = ApiToken.issue(UserFactory(), name="u", scope=Scope.READ)
    assert bearer(other).get(ME).status_code == 200  # per user, not for everyone


def test_rolls_count_per_user_across_tokens(settings):
    settings.API_ROLL_RATE = "2/60"
    party = build_parties(furnished=True)[System.COGENT]
    url = reverse("api:roll", args=[party.pc.pk, party.rows["kind"], party.rows["target"].pk])
    tokens = fill(party.player, 3)

    def roll(raw):
        return bearer(raw).post(url, {}, content_type="application/json").status_code

    assert [roll(raw) for raw in tokens] == [201, 201, 429]
    assert bearer(tokens[0]).get(ME).status_code == 200  # reads have their own limit
