"""The error pages: styled like the rest of the site, saying what happened and how to get back.
Django shows them only with DEBUG off, which is the default (config/settings.py)."""

from __future__ import annotations

import re

import pytest
from django.test import AsyncClient, Client, RequestFactory
from django.urls import reverse
from django.views.defaults import server_error

from sheets.models.campaigns import CampaignQuerySet
from tests.rolls.live_helpers import run
from tests.worlds import build_party

pytestmark = pytest.mark.django_db


def test_debug_is_off(settings):
    assert settings.DEBUG is False


def test_404_for_a_missing_campaign(client, party):
    client.force_login(party.player)
    response = client.get(reverse("campaign_detail", kwargs={"pk": 999_999}))
    assert response.status_code == 404
    html = response.content.decode()
    assert "We can't find that page" in html
    assert "a campaign you are not a member of" in html
    assert f'href="{reverse("home")}">Back to my campaigns' in html
    assert 'class="brand"' in html and "poolside.css" in html  # the site's own look


def test_404_for_a_non_member_says_the_same_as_for_nothing(client, party):
    """A non-member's 404 must not tell the campaign exists: the very same page as a missing one."""
    client.force_login(party.nonmember)
    real = client.get(reverse("campaign_detail", kwargs={"pk": party.campaign.pk}))
    missing = client.get(reverse("campaign_detail", kwargs={"pk": 999_999}))
    assert real.status_code == missing.status_code == 404
    # Equal but for the CSRF token and the CSP nonce, new in every response.
    token = re.compile(
        rb'"X-CSRFToken": "[^"]+"|name="csrfmiddlewaretoken" value="[^"]+"|nonce="[^"]+"'
    )
    assert token.sub(b"", real.content) == token.sub(b"", missing.content)


def test_404_for_a_visitor_offers_home_and_log_in(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    html = response.content.decode()
    assert "Go to the home page" in html and f'href="{reverse("login")}"' in html


def test_403_says_why_and_the_way_back(client, party):
    client.force_login(party.player)
    response = client.get(reverse("campaign_edit", kwargs={"pk": party.campaign.pk}))
    assert response.status_code == 403
    html = response.content.decode()
    assert "You can't do that here" in html
    assert "Only the GM can do that." in html  # the reason sheets/access.py gives
    assert "Back to my campaigns" in html


def test_500_is_styled_and_offers_the_way_home(party, monkeypatch):
    def broken(self, user):
        raise RuntimeError("a bug")

    monkeypatch.setattr(CampaignQuerySet, "for_home", broken)
    client = Client(raise_request_exception=False)
    client.force_login(party.player)
    response = client.get(reverse("home"))
    assert response.status_code == 500
    html = response.content.decode()
    assert "Something went wrong on our side" in html
    assert f'href="{reverse("home")}">Back to my campaigns' in html
    assert "poolside.css" in html and 'class="brand-mark"' in html
    assert "a bug" not in html  # nothing of the error itself reaches the visitor


def test_500_renders_without_context_processors_or_the_database(django_assert_num_queries):
    # Django renders 500.html with an empty context: no request, no user, no queries (the
    # database may be what failed).
    with django_assert_num_queries(0):
        response = server_error(RequestFactory().get("/"))
    assert response.status_code == 500
    assert b"Something went wrong on our side" in response.content


def test_a_failed_csrf_check_is_a_readable_403():
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("login"), {"username": "a", "password": "b"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "That form had expired" in html and "Nothing was saved" in html
    assert "CSRF verification failed" not in html  # not Django's unstyled page


def test_405_is_a_readable_page(client, party):
    client.force_login(party.player)
    response = client.get(reverse("logout"))  # log-out takes only a POST
    assert response.status_code == 405
    assert response["Allow"] == "POST, OPTIONS"
    html = response.content.decode()
    assert "This address only takes a form" in html and "Nothing was changed" in html
    assert "Back to my campaigns" in html
    # Still logged in: the GET did nothing.
    assert client.get(reverse("home")).wsgi_request.user == party.player


def test_405_for_htmx_stays_empty(client, party):
    # htmx shows its own message for a failed request (static/js/feedback.js).
    client.force_login(party.player)
    response = client.get(reverse("logout"), headers={"HX-Request": "true"})
    assert response.status_code == 405 and response.content == b""


@pytest.mark.django_db(transaction=True)
def test_405_of_an_async_view_is_a_readable_page_too():
    # The live stream is an async view: under ASGI the middleware renders its page on a thread.
    party = build_party()
    client = AsyncClient()
    client.force_login(party.player)
    url = reverse("campaign_events", kwargs={"pk": party.campaign.pk})

    async def scenario():
        response = await client.post(url)
        assert response.status_code == 405
        assert "This address only takes a form" in response.content.decode()

    run(scenario)
