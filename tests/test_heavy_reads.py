"""No request holds a server worker hostage (docs/permissions.md#heavy-reads): heavy reads —
statistics, exports, log searches — are limited per user with a readable 429, and on PostgreSQL
a statement past the statement timeout is cancelled and answered with a readable 503."""

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from sheets.models import ApiToken, Scope
from web.errors import TIMEOUT_MESSAGE

pytestmark = pytest.mark.django_db

ON_POSTGRES = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="The statement timeout is PostgreSQL's: run with DATABASE_URL=postgres://…; "
    ".ci/run does.",
)


@pytest.fixture
def tight(settings):
    settings.HEAVY_RATES = {"statistics": "2/60", "export": "1/60", "search": "2/60"}
    return settings


def stats_url(party):
    return reverse("campaign_stats", args=[party.campaign.pk])


@pytest.mark.parametrize(
    ("name", "limit", "heading"),
    [
        ("campaign_stats", 2, "Too many statistics pages for now"),
        ("campaign_log_csv", 1, "Too many log exports for now"),
        ("campaign_log_json", 1, "Too many log exports for now"),
    ],
)
def test_heavy_pages_answer_a_readable_429_past_the_users_limit(
    client, party, tight, name, limit, heading
):
    client.force_login(party.player)
    url = reverse(name, args=[party.campaign.pk])
    for _ in range(limit):
        assert client.get(url).status_code == 200
    refused = client.get(url)
    body = refused.content.decode()
    assert refused.status_code == 429 and heading in body
    assert "Try again in" in body and int(refused["Retry-After"]) > 0
    # Per user: another member still reads; and the log itself is no heavy read.
    client.force_login(party.other_player)
    assert client.get(url).status_code == 200
    client.force_login(party.player)
    assert client.get(reverse("campaign_log", args=[party.campaign.pk])).status_code == 200


def test_a_log_search_counts_a_plain_log_page_does_not(client, party, tight):
    client.force_login(party.player)
    log = reverse("campaign_log", args=[party.campaign.pk])
    for _ in range(5):
        assert client.get(log).status_code == 200
        assert client.get(log, {"q": "  "}).status_code == 200  # blank: no search
    assert client.get(log, {"q": "Athletics"}).status_code == 200
    assert client.get(log, {"q": "Grip"}).status_code == 200
    refused = client.get(log, {"q": "Swim"})
    assert refused.status_code == 429 and "Too many log searches" in refused.content.decode()
    # Statistics count apart from searches.
    assert client.get(stats_url(party)).status_code == 200


def test_the_api_log_search_is_limited_in_json(party, tight):
    _, raw = ApiToken.issue(party.player, name="test", scope=Scope.READ)
    api = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    url = reverse("api:log", args=[party.campaign.pk])
    assert api.get(url, {"q": "a"}).status_code == 200
    assert api.get(url, {"q": "b"}).status_code == 200
    refused = api.get(url, {"q": "c"})
    assert refused.status_code == 429 and "log searches" in refused.json()["detail"]
    assert api.get(url).status_code == 200  # no search: only the API's own limits


def test_a_limit_of_zero_turns_it_off(client, party, settings):
    settings.HEAVY_RATES = {"statistics": "0/60", "export": "0/60", "search": "0/60"}
    client.force_login(party.player)
    assert all(client.get(stats_url(party)).status_code == 200 for _ in range(5))


@ON_POSTGRES
def test_server_connections_carry_the_statement_timeout(settings):
    assert "-c statement_timeout=5000" in settings.DATABASES["default"]["OPTIONS"]["options"]
    with connection.cursor() as cursor:
        cursor.execute("SHOW statement_timeout")
        assert cursor.fetchone()[0] == "5s"


def _slow(*args, **kwargs):
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL statement_timeout = 50")
        cursor.execute("SELECT pg_sleep(1)")


@ON_POSTGRES
def test_a_statement_past_the_timeout_is_a_readable_503_page(client, party, monkeypatch):
    monkeypatch.setattr("rolls.log.views.campaign_figures", _slow)
    client.force_login(party.player)
    response = client.get(stats_url(party))
    assert response.status_code == 503 and response["Retry-After"] == "5"
    assert "That took too long" in response.content.decode()


@ON_POSTGRES
def test_a_statement_past_the_timeout_is_a_json_503_in_the_api(party, monkeypatch):
    monkeypatch.setattr("api.rolls.filtered_entries", _slow)
    _, raw = ApiToken.issue(party.player, name="test", scope=Scope.READ)
    response = Client(HTTP_AUTHORIZATION=f"Bearer {raw}").get(
        reverse("api:log", args=[party.campaign.pk])
    )
    assert response.status_code == 503 and response.json()["detail"] == TIMEOUT_MESSAGE
