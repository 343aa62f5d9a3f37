"""What every JSON body of the API must be (api/inputs.py, docs/api.md "Bad input"): a JSON object,
whose every text is whole Unicode — a lone surrogate answered 500 while the entry was hashed —
and the OpenAPI schema says what the server refuses (minLength, required, pattern)."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from log.models import RollEntry
from sheets.models import ApiToken, Scope, System
from tests.rolls.helpers import athletics

pytestmark = pytest.mark.django_db

SURROGATE = "Rob \ud800"


def api(user) -> Client:
    _, raw = ApiToken.issue(user, name="t", scope=Scope.ROLL)
    return Client(headers={"Authorization": f"Bearer {raw}"})


def send(client: Client, url: str, body: object) -> object:
    # json.dumps writes a lone surrogate as JSON's own escape, "\ud800", as a client would.
    return client.post(url, json.dumps(body), content_type="application/json")


def _writes(party) -> dict[str, tuple[str, dict[str, object]]]:
    """Every write of the API, with a body it would take (a roll row of Ada's, her message)."""
    pk = party.campaign.pk
    row = athletics(party.pc)
    roll_url = reverse("api:target", args=[party.pc.pk, "cogent-skill", row.pk]) + "/rolls"
    return {
        "session": (reverse("api:sessions", args=[pk]), {"title": "The heist"}),
        "scene": (reverse("api:session_scene", args=[pk]), {"title": "The docks"}),
        "message": (reverse("api:messages", args=[pk]), {"text": "Hi", "speaker": "ooc"}),
        "roll": (roll_url, {"challenge_level": 2, "nonce": "abcdefgh12"}),
    }


@pytest.mark.parametrize("system", [System.COGENT])
@pytest.mark.parametrize(
    ("write", "field", "body"),
    [
        ("session", "title", {"title": SURROGATE}),
        ("scene", "title", {"title": SURROGATE}),
        ("message", "text", {"text": SURROGATE}),
        ("message", "speaker", {"text": "Hi", "speaker": SURROGATE}),
        ("message", "to.0", {"text": "Hi", "audience": "whisper", "to": [SURROGATE]}),
        ("roll", "nonce", {"nonce": SURROGATE}),
        ("roll", "action", {"action": SURROGATE}),
        ("roll", "__all__", {"challenge_level": 2, "extra_penalty": SURROGATE}),
        ("roll", "__all__", {"challenge_level": 2, SURROGATE: 1}),
    ],
)
def test_a_lone_surrogate_in_any_text_is_a_422_beside_its_field(party, write, field, body):
    gm = api(party.gm)
    if write == "scene":
        assert send(gm, _writes(party)["session"][0], {}).status_code == 201
    before = RollEntry.objects.count()
    url, _ = _writes(party)[write]
    refused = send(gm, url, body)
    assert refused.status_code == 422, refused.content
    assert "lone surrogate" in refused.json()["errors"][field][0]
    assert RollEntry.objects.count() == before  # nothing written


@pytest.mark.parametrize("system", [System.COGENT])
def test_a_lone_surrogate_in_a_correction_or_a_follow_up_is_a_422(party):
    gm = api(party.gm)
    message = send(gm, _writes(party)["message"][0], {"text": "teh plan"}).json()
    url = reverse("api:message_correct", args=[message["id"]])
    refused = send(gm, url, {"text": SURROGATE})
    assert refused.status_code == 422 and "lone surrogate" in refused.json()["errors"]["text"][0]
    roll_url, body = _writes(party)["roll"]
    rolled = send(gm, roll_url, body).json()
    follow = reverse("api:follow_up", args=[rolled["id"], "destiny"])
    for field in ("value", "nonce"):
        refused = send(gm, follow, {field: SURROGATE})
        assert refused.status_code == 422, field
        assert "lone surrogate" in refused.json()["errors"][field][0]
    assert RollEntry.objects.count() == 2


@pytest.mark.parametrize("system", [System.COGENT])
@pytest.mark.parametrize("body", [[], ["x"], None, 7, "title", True])
def test_a_body_that_is_not_a_json_object_is_a_422(party, body):
    """A JSON array used to start a session (read as an empty object); now every write refuses
    anything but an object, and writes nothing."""
    gm = api(party.gm)
    for name, (url, _) in _writes(party).items():
        refused = send(gm, url, body)
        assert refused.status_code == 422, (name, refused.content)
        assert "must be a JSON object" in refused.json()["errors"]["__all__"][0], name
    assert not RollEntry.objects.exists()
    # A write whose fields are all optional takes an empty object.
    started = send(gm, _writes(party)["session"][0], {})
    assert started.status_code == 201


def test_the_schema_says_what_the_server_refuses():
    schema = Client().get("/api/v1/openapi.json").json()
    parts = schema["components"]["schemas"]
    for name in ("MessageIn", "CorrectionIn"):
        text = parts[name]["properties"]["text"]
        assert "text" in parts[name]["required"], name
        assert text["minLength"] == 1 and text["pattern"], name
    assert parts["TitleIn"]["properties"]["title"]["pattern"]
    assert parts["MessageIn"]["properties"]["speaker"]["pattern"]
    assert parts["FollowUpIn"]["properties"]["nonce"]["pattern"]
    log = schema["paths"]["/api/v1/campaigns/{pk}/log"]["get"]["parameters"]
    cursors = {p["name"]: p["schema"] for p in log if p["name"] in ("before", "after")}
    assert all(c.get("pattern") for c in cursors.values()) and len(cursors) == 2


@pytest.mark.parametrize("system", [System.COGENT])
def test_a_pattern_refusal_reads_as_a_sentence(party):
    gm = api(party.gm)
    url, _ = _writes(party)["message"]
    blank = send(gm, url, {"text": "  \n "})
    assert blank.status_code == 422
    assert blank.json()["errors"]["text"] == [
        "Write something: this can't be blank (nor hold a NUL character)."
    ]
    bad_nonce = send(gm, _writes(party)["roll"][0], {"nonce": "short"})
    assert bad_nonce.json()["errors"]["nonce"] == [
        "The dice nonce must be 8 to 64 letters, digits, '-' or '_'."
    ]
    log = gm.get(reverse("api:log", args=[party.campaign.pk]), {"before": "nope"})
    assert log.status_code == 422
    assert log.json()["errors"]["before"] == ["Not a cursor of this log."]
