"""The webhooks' payloads without a network: Discord's documented embed limits hold whatever the
names and labels, markdown and mentions stay inert, and the signature is what docs/webhooks.md
says it is."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

import pytest
from django.conf import settings

from rolls.log.records import public_record
from rolls.webhooks import payloads
from sheets.ranges import NAME_MAX_LENGTH
from tests.factories import CampaignFactory, CharacterFactory, RollEntryFactory

pytestmark = pytest.mark.django_db

LIMITS = {
    "title": 256,
    "description": 4096,
    "fields": 25,
    "field name": 256,
    "field value": 1024,
    "footer": 2048,
    "author": 256,
    "total": 6000,
    "embeds": 10,
}


def assert_within_discords_limits(message):
    embeds = message["embeds"]
    assert 1 <= len(embeds) <= LIMITS["embeds"]
    for embed in embeds:
        assert len(embed["title"]) <= LIMITS["title"]
        assert len(embed.get("description", "")) <= LIMITS["description"]
        assert len(embed["fields"]) <= LIMITS["fields"]
        for field in embed["fields"]:
            assert 0 < len(field["name"]) <= LIMITS["field name"]
            assert 0 < len(field["value"]) <= LIMITS["field value"]
        assert len(embed["footer"]["text"]) <= LIMITS["footer"]
        assert len(embed.get("author", {}).get("name", "")) <= LIMITS["author"]
        total = len(embed["title"]) + len(embed.get("description", ""))
        total += sum(len(f["name"]) + len(f["value"]) for f in embed["fields"])
        total += len(embed["footer"]["text"]) + len(embed.get("author", {}).get("name", ""))
        assert total <= LIMITS["total"]
    # It is JSON Discord can read.
    json.loads(payloads.encode(message))


def message_for(entry):
    record = public_record(entry.pk, base_url=settings.SITE_URL)
    return payloads.discord_message(entry.campaign, record)


def test_very_long_names_labels_and_details_are_cut_with_an_ellipsis():
    campaign = CampaignFactory(name="C" * NAME_MAX_LENGTH)
    character = CharacterFactory(campaign=campaign, name="N" * NAME_MAX_LENGTH)
    entry = RollEntryFactory(
        character=character,
        username="u" * 150,
        label="L" * 200,
        detail="D" * 10_000,
        breakdown="B" * 5000,
        faces=[{"kind": "d6", "face": 6, "reading": "win"}] * 400,
    )
    message = message_for(entry)
    assert_within_discords_limits(message)
    [embed] = message["embeds"]
    assert len(embed["title"]) == 256 and embed["title"].endswith("…")
    assert embed["description"].endswith("…")
    dice = next(f for f in embed["fields"] if f["name"] == "Dice")
    assert dice["value"].endswith("…") and len(dice["value"]) <= 1024


def test_the_total_stays_under_6000_when_every_part_is_at_its_own_limit():
    embed = {
        "title": "T" * 1000,
        "description": "D" * 9000,
        "author": {"name": "A" * 1000},
        "footer": {"text": "F" * 5000},
        "fields": [{"name": "N" * 500, "value": "V" * 2000} for _ in range(40)],
    }
    fitted = payloads.fit(embed)
    assert_within_discords_limits({"embeds": [fitted]})
    assert payloads.embed_length(fitted) <= 6000
    # 25 fields of 256 + 1 characters are over 6000 with the rest: the last ones give way.
    assert 0 < len(fitted["fields"]) <= 25


@pytest.mark.parametrize(
    "name", ["@everyone", "**bold** _it_ ~~gone~~", "[click](https://evil.example)", "`code` > q"]
)
def test_names_never_ping_or_render_as_markdown(name):
    character = CharacterFactory(name=name)
    entry = RollEntryFactory(character=character, label="Athletics", detail=name)
    message = message_for(entry)
    assert message["allowed_mentions"] == {"parse": []}
    [embed] = message["embeds"]
    for text in (embed["title"], embed["description"]):
        assert payloads.plain(name) in text
    assert payloads.plain("**b** [x](y)") == r"\*\*b\*\* \[x\](y)"


def test_a_test_message_fits_too():
    message = payloads.discord_message(CampaignFactory(name="X" * NAME_MAX_LENGTH), None)
    assert_within_discords_limits(message)
    assert payloads.json_payload(CampaignFactory(), None)["event"] == "test"


def test_the_signature_is_standard_webhooks_hmac_of_the_id_the_timestamp_and_the_body():
    body = payloads.encode({"event": "roll", "entry": {"label": "Älg"}})
    assert body == '{"event":"roll","entry":{"label":"Älg"}}'.encode()
    secret = "whsec_" + base64.b64encode(b"k" * 32).decode()
    headers = payloads.signed_headers([secret], "msg_abc", 1_700_000_000, body)
    digest = hmac.new(b"k" * 32, b"msg_abc.1700000000." + body, hashlib.sha256).digest()
    assert headers == {
        "webhook-id": "msg_abc",
        "webhook-timestamp": "1700000000",
        "webhook-signature": "v1," + base64.b64encode(digest).decode(),
    }
    # During a rotation: one signature per secret, space-separated, the current one first.
    old = "whsec_" + base64.b64encode(b"o" * 32).decode()
    both = payloads.signed_headers([secret, old], "msg_abc", 1_700_000_000, body)
    assert both["webhook-signature"].split(" ") == [
        payloads.signature(secret, "msg_abc", 1_700_000_000, body),
        payloads.signature(old, "msg_abc", 1_700_000_000, body),
    ]


@pytest.mark.parametrize(
    ("name", "sent"),
    [
        ("Ada", "Ada"),
        ("  Ada   the\tBold ", "Ada the Bold"),
        ("Clyde the Bard", "Poolside"),
        ("My DISCORD pal", "Poolside"),
        ("everyone", "Poolside"),
        ("System Message", "Poolside"),
        ("x" * NAME_MAX_LENGTH, "x" * 79 + "…"),  # a name may be longer than Discord takes
    ],
)
def test_a_roll_goes_out_as_its_character_where_discord_takes_the_name(name, sent):
    entry = RollEntryFactory(character=CharacterFactory(name=name))
    message = message_for(entry)
    assert message["username"] == sent and len(message["username"]) <= 80
    assert_within_discords_limits(message)
