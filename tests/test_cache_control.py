"""Every response Django renders says `Cache-Control: private, no-store`: campaign data (pages,
partials, sheets, roll panels and results, the log, exports, statistics, the GM table, the live
stream) must never be kept by a shared cache nor stored on the player's disk. Checked over every
URL of the walker in tests/url_walker.py, as the GM (who may read everything)."""

import pytest
from django.test import AsyncClient
from django.urls import reverse

from sheets.models import ApiToken, Scope
from tests.rolls.live_helpers import open_stream, run
from tests.url_walker import KWARGS, is_api, walked, with_arguments
from tests.worlds import build_parties


def assert_private(response, what):
    directives = {d.strip() for d in response.get("Cache-Control", "").split(",")}
    assert {"private", "no-store"} <= directives, (
        f"{what} answered {response.status_code} with Cache-Control {response.get('Cache-Control')!r}"
    )
    assert "public" not in directives


# Transactional: the live stream (an async view) reads on worker threads, which see only
# committed rows.
@pytest.mark.django_db(transaction=True)
def test_every_url_answers_private_no_store(client):
    parties = build_parties(furnished=True)
    gm = next(iter(parties.values())).gm
    client.force_login(gm)
    urls = {name: reverse(name, kwargs=KWARGS[name](parties)) for name in KWARGS}
    urls |= {
        name: reverse(name)
        for name in set(walked()) - set(with_arguments())
        if name not in {"logout", "password_change_done", "api:api-root"}
    }
    # The API answers a token, not the session (api/base.py): the GM's.
    _, raw = ApiToken.issue(gm, name="t", scope=Scope.ROLL)
    token = {"Authorization": f"Bearer {raw}"}
    statuses = {}
    for name, url in sorted(urls.items()):
        for headers in ({}, {"HX-Request": "true"}):
            headers |= token if is_api(name) else {}
            response = client.get(url, headers=headers)
            statuses[name] = response.status_code
            assert_private(response, f"GET {url} ({name}, {headers or 'plain'})")
    # The walk really reached the pages: most answer 200, the rest are POST-only (405), the
    # stream needs ASGI under the test client (501, see below) and the GM may not leave (403).
    assert {code for code in statuses.values()} <= {200, 302, 403, 405, 501}, statuses
    assert sum(code == 200 for code in statuses.values()) >= 25, statuses
    # POSTs render sheet parts, roll results and table rows: every answer, whatever it is.
    for name, url in sorted(urls.items()):
        if name != "logout":
            headers = {"HX-Request": "true"} | (token if is_api(name) else {})
            response = client.post(url, {}, headers=headers)
            assert_private(response, f"POST {url} ({name})")


@pytest.mark.django_db
def test_posted_answers_are_private_too(client):
    parties = build_parties(furnished=True)
    party = next(iter(parties.values()))
    client.force_login(party.gm)
    url = reverse("roll_create", kwargs=KWARGS["roll_create"](parties))
    response = client.post(url, {}, headers={"HX-Request": "true"})
    assert_private(response, f"POST {url}")
    # A refusal of Django's own (CSRF, 405) is covered by the same middleware.
    response = client.post(reverse("campaign_stats", kwargs=KWARGS["campaign_stats"](parties)))
    assert_private(response, "POST to a GET-only page")


@pytest.mark.django_db(transaction=True)
def test_the_live_stream_is_private_and_not_stored():
    parties = build_parties(furnished=True)
    party = next(iter(parties.values()))
    client = AsyncClient()
    client.force_login(party.gm)

    async def scenario():
        stream = await open_stream(client, party.campaign)
        assert_private(stream.response, "the live stream")
        # The stream's own "no-cache" (revalidate before reuse) stays as well.
        assert "no-cache" in stream.response["Cache-Control"]
        await stream.close()

    run(scenario)


@pytest.mark.django_db
def test_static_files_keep_their_own_caching(client):
    response = client.get("/static/css/poolside.css")
    assert "no-store" not in response.get("Cache-Control", "")
