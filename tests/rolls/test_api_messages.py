"""Messages through the API (docs/api.md, docs/messages.md): the composer's rules, audiences and
rate, with the API's answers (201, 403, 404, 409, 422, 429)."""

import pytest
from django.test import Client
from django.urls import reverse

from log.models import Kind, RollEntry, Visibility
from sheets.models import ApiToken, Scope
from tests.rolls.helpers import append, token

pytestmark = pytest.mark.django_db


def api(user, scope=Scope.ROLL) -> Client:
    _, raw = ApiToken.issue(user, name="t", scope=scope)
    return Client(headers={"Authorization": f"Bearer {raw}"})


def post(client, party, **body):
    return client.post(
        reverse("api:messages", args=[party.campaign.pk]), body, content_type="application/json"
    )


def test_posting_with_the_composers_rules(party):
    ana = api(party.player)
    made = post(ana, party, text="**Hi**", speaker=str(party.pc.pk))
    assert made.status_code == 201
    record = made.json()
    assert (record["kind"], record["character"], record["detail"]) == ("message", "Ada", "**Hi**")
    assert record["options"] == {"voice": "in_character", "audience": "everyone"}
    whisper = post(ana, party, text="psst", audience="whisper", to=["ben"])
    assert whisper.status_code == 201 and whisper.json()["visibility"] == Visibility.WHISPER
    assert whisper.json()["options"]["to_names"] == ["ben"]
    # Refusals name the field, as the page puts them beside it.
    for body, field in (
        ({"text": ""}, "text"),
        ({"text": "x", "speaker": str(party.other_pc.pk)}, "speaker"),
        ({"text": "x", "speaker": "narration"}, "speaker"),
        ({"text": "x", "audience": "whisper"}, "to"),
        ({"text": "x", "audience": "whisper", "to": ["nobody-here"]}, "to"),
        ({"text": "x", "audience": "shout"}, "audience"),
    ):
        refused = post(ana, party, **body)
        assert refused.status_code == 422 and field in refused.json()["errors"], body
    assert post(api(party.player, Scope.READ), party, text="x").status_code == 403
    assert post(api(party.nonmember), party, text="x").status_code == 404
    assert RollEntry.objects.filter(kind=Kind.MESSAGE).count() == 2


def test_a_whisper_is_a_404_to_those_outside_it(party):
    made = post(api(party.player), party, text="secret", audience="whisper", to=["ben"]).json()
    url = reverse("api:entry", args=[made["id"]])
    assert api(party.other_player).get(url).status_code == 200
    assert api(party.gm).get(url).status_code == 200
    assert api(party.observer).get(url).status_code == 404
    log = api(party.observer).get(reverse("api:log", args=[party.campaign.pk])).json()
    assert made["id"] not in [entry["id"] for entry in log["entries"]]


def test_corrections_are_the_authors_and_messages_only(party):
    made = post(api(party.player), party, text="teh plan").json()
    url = reverse("api:message_correct", args=[made["id"]])
    body = {"text": "the plan"}
    other = api(party.other_player).post(url, body, content_type="application/json")
    assert other.status_code == 409
    fixed = api(party.player).post(url, body, content_type="application/json")
    assert fixed.status_code == 201 and fixed.json()["kind"] == "message_edit"
    assert fixed.json()["follows"] == RollEntry.objects.get(kind=Kind.MESSAGE).hash
    roll_url = reverse("api:message_correct", args=[token(append(party.pc)[0])])
    not_one = api(party.player).post(roll_url, body, content_type="application/json")
    assert not_one.status_code == 409
    empty = api(party.player).post(url, {"text": " "}, content_type="application/json")
    assert empty.status_code == 422 and "text" in empty.json()["errors"]


def test_the_message_rate_is_a_429_with_retry_after(party, settings):
    settings.MESSAGE_RATE = "1/60"
    ana = api(party.player)
    assert post(ana, party, text="one").status_code == 201
    refused = post(ana, party, text="two")
    assert refused.status_code == 429 and int(refused["Retry-After"]) > 0
    assert "wait" in refused.json()["detail"]
