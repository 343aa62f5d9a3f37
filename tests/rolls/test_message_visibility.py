"""Who reads a message, on every channel (docs/messages.md, "Audiences"): everyone, the GM only, or
a whisper to chosen members (the GM always among them). A member outside the audience learns
neither the text nor that the message exists — no placeholder, no count, no gap — on the log and
its search, the permalink, the sheets, the GM table, the exports, the statistics, the recap, the
API and the webhooks. The live stream's side is in test_live_messages.py."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from log.tokens import entry_token
from rolls.models import WebhookDelivery
from rolls.sessions import actions as sessions
from sheets.models import ApiToken, Scope
from tests.factories import WebhookFactory
from tests.rolls.helpers import append
from tests.rolls.message_helpers import correct, said

pytestmark = pytest.mark.django_db

MEMBERS = ("gm", "player", "other_player", "observer")

# Each message: (author, text's secret word, what to post, who reads it).
MESSAGES = {
    "public": ("player", "Zqpublic", {"speaker": "pc"}, set(MEMBERS)),
    "to_gm": ("player", "Zqtogm", {"audience": "gm"}, {"gm", "player"}),
    "whisper": (
        "player",
        "Zqwhisper",
        {"audience": "whisper", "to": ["observer"]},
        {"gm", "player", "observer"},
    ),
    "whisper_back": (
        "other_player",
        "Zqback",
        {"audience": "whisper", "to": ["player"]},
        {"gm", "other_player", "player"},
    ),
    "gm_whisper": (
        "gm",
        "Zqnarrate",
        {"audience": "whisper", "to": ["other_player"], "speaker": "narration"},
        {"gm", "other_player"},
    ),
}


def post(client, party, name):
    author, word, fields, _ = MESSAGES[name]
    fields = dict(fields)
    if fields.get("speaker") == "pc":
        fields["speaker"] = party.pc
    return said(client, party, author, f"{word} is *the* word", **fields)


def api_for(user) -> Client:
    _, raw = ApiToken.issue(user, name="t", scope=Scope.READ)
    return Client(headers={"Authorization": f"Bearer {raw}"})


# Per response whatever the log holds: CSRF tokens, CSP nonces, the export's time.
PER_RESPONSE = re.compile(
    r'((?:name="csrfmiddlewaretoken" value|nonce)="|"(?:X-CSRFToken|exported_at)": ")[^"]+'
)


def channels(client, party, user, word="Zqnothing"):
    """Everything ``user`` reads of the campaign, by channel, as text (what differs per response
    blanked)."""
    campaign = party.campaign
    client.force_login(getattr(party, user))
    pages = {
        "log": client.get(reverse("campaign_log", args=[campaign.pk])),
        "search": client.get(reverse("campaign_log", args=[campaign.pk]), {"q": word}),
        "csv": client.get(reverse("campaign_log_csv", args=[campaign.pk])),
        "json": client.get(reverse("campaign_log_json", args=[campaign.pk])),
        "stats": client.get(reverse("campaign_stats", args=[campaign.pk])),
        "sheet": client.get(party.pc.get_absolute_url()),
        "other_sheet": client.get(party.other_pc.get_absolute_url()),
        "recap": client.get(reverse("session_recap", args=[campaign.pk, 1])),
        "api_log": api_for(getattr(party, user)).get(
            reverse("api:log", args=[campaign.pk]), {"limit": 100}
        ),
    }
    if user == "gm":
        pages["table"] = client.get(reverse("campaign_dashboard", args=[campaign.pk]))
    for name, response in pages.items():
        assert response.status_code == 200, (user, name, response.status_code)
    text = {}
    for name, response in pages.items():
        body = b"".join(response.streaming_content) if response.streaming else response.content
        text[name] = PER_RESPONSE.sub(r"\1", body.decode())
    return text


@pytest.fixture
def table(party):
    """A session going on, a roll in it, a webhook listening."""
    WebhookFactory(campaign=party.campaign)
    sessions.start_session(party.gm, party.campaign, "The heist")
    append(party.pc)
    return party


def test_every_channel_holds_a_message_for_its_audience_alone(client, table):
    party = table
    entries = {name: post(client, party, name) for name in MESSAGES}
    for name, (_, word, _, readers) in MESSAGES.items():
        entry = entries[name]
        for user in MEMBERS:
            seen = channels(client, party, user, word)
            reads = user in readers
            for channel in ("log", "csv", "json", "recap", "api_log"):
                assert (word in seen[channel]) is reads, (name, user, channel)
            # The search box repeats the word: the results are told by the entry's id.
            for channel in ("log", "search"):
                assert (entry_token(entry.pk) in seen[channel]) is reads, (name, user, channel)
            for channel in ("sheet", "other_sheet", "stats", "table"):
                assert word not in seen.get(channel, ""), (name, user, channel)
            client.force_login(getattr(party, user))
            assert client.get(entry.get_absolute_url()).status_code == (200 if reads else 404)
            detail = api_for(getattr(party, user)).get(
                reverse("api:entry", args=[entry_token(entry.pk)])
            )
            assert detail.status_code == (200 if reads else 404), (name, user)
    # Only what every member reads leaves the site.
    # (What the commit would run: a test's transaction never commits.)
    queued = {
        name for name, entry in entries.items() if WebhookDelivery.objects.record_entry(entry.pk)
    }
    assert queued == {"public"}


@pytest.mark.parametrize(
    ("name", "outsider"),
    [
        ("to_gm", "other_player"),
        ("to_gm", "observer"),
        ("whisper", "other_player"),
        ("whisper_back", "observer"),
        ("gm_whisper", "player"),
        ("gm_whisper", "observer"),
    ],
)
def test_an_outsider_sees_exactly_what_they_saw_before(client, table, name, outsider):
    """No trace: every page, export and answer of the outsider is the same byte for byte before
    and after the message (and its correction), the search for its very word included."""
    party = table
    word = MESSAGES[name][1]
    before = channels(client, party, outsider, word)
    entry = post(client, party, name)
    correct(client, party, MESSAGES[name][0], entry, f"{word} corrected")
    after = channels(client, party, outsider, word)
    for channel, text in before.items():
        assert after[channel] == text, (name, outsider, channel)


def test_a_whisper_names_its_recipients_to_its_readers(client, table):
    party = table
    post(client, party, "whisper")
    for user in ("player", "observer"):
        client.force_login(getattr(party, user))
        page = client.get(reverse("campaign_log", args=[party.campaign.pk])).content.decode()
        assert "whisper to observer and the GM" in page
    client.force_login(party.gm)
    page = client.get(reverse("campaign_log", args=[party.campaign.pk])).content.decode()
    assert "whisper to observer</span>" in page  # the GM reads every whisper: no "and the GM"
