"""Messages in the log (docs/messages.md): who may say what as whom, the composer with and without
JavaScript, corrections as new entries, the rate, and what messages never are (rolls)."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from log.models import EntryRecipient, Kind, RollEntry, Visibility
from log.tokens import entry_token
from tests.rolls.helpers import append, follow_url
from tests.rolls.message_helpers import correct, post_message, said

pytestmark = pytest.mark.django_db


def log_of(client, party, user):
    client.force_login(getattr(party, user))
    return client.get(reverse("campaign_log", args=[party.campaign.pk])).content.decode()


def test_members_speak_in_and_out_of_character_and_the_gm_narrates(client, party):
    response = post_message(client, party, "player", "We *climb*.", speaker=party.pc)
    entry = RollEntry.objects.get(kind=Kind.MESSAGE)
    # A plain form: back to the log, at the message.
    assert response.status_code == 302
    assert response["Location"].endswith(f"/log/#entry-{entry_token(entry.pk)}")
    assert (entry.character, entry.character_name, entry.said) == (party.pc, "Ada", "We *climb*.")
    assert entry.options == {"voice": "in_character", "audience": "everyone"}
    assert entry.visibility == Visibility.PUBLIC and entry.roller == party.player
    said(client, party, "observer", "Can I watch?")
    said(client, party, "gm", "The wind howls.", speaker="narration")
    said(client, party, "gm", "Halt!", speaker=party.npc)
    page = log_of(client, party, "other_player")
    assert "We <em>climb</em>." in page and "Can I watch?" in page
    assert "voice-narration" in page and "The wind howls." in page
    assert re.search(r'class="message-speaker"[^>]*>.*?Warden', page, re.S)
    assert "out of character" in page  # the observer's
    assert RollEntry.objects.verify_chain(party.campaign.pk).intact


@pytest.mark.parametrize(
    ("user", "fields", "field"),
    [
        ("player", {"speaker": "other_pc"}, "speaker"),  # ben's Bo
        ("player", {"speaker": "narration"}, "speaker"),  # only the GM narrates
        ("gm", {"speaker": "hidden_npc"}, "speaker"),  # a hidden NPC would give itself away
        ("observer", {"speaker": "pc"}, "speaker"),
        ("gm", {"audience": "gm"}, "audience"),  # the GM's "GM only" is no audience
        ("player", {"audience": "whisper"}, "to"),  # a whisper to nobody
        ("player", {"audience": "whisper", "to": ["gm"]}, "to"),  # the GM reads it anyway
        ("player", {"audience": "whisper", "to": ["nonmember"]}, "to"),
        ("player", {"text": "   "}, "text"),
        ("player", {"text": "x" * 2001}, "text"),
        ("player", {"text": "line\n" * 41}, "text"),
    ],
)
def test_what_may_not_be_said_is_refused_beside_the_field_and_kept(
    client, party, user, fields, field
):
    text = fields.pop("text", "Keep me")
    if fields.get("speaker") not in (None, "narration"):
        fields["speaker"] = getattr(party, fields["speaker"])
    response = post_message(client, party, user, text, **fields)
    assert response.status_code == 400
    page = response.content.decode()
    errors = re.search(
        rf'composer-{field if field != "text" else "text"}[^"]*has-error|'
        rf'field[^"]*has-error[^>]*>\s*<label for="message_{field}"',
        page,
    )
    assert errors or f'id="message_{field}_error' in page, page[:3000]
    if text.strip() and len(text) <= 2000 and text.count("\n") < 40:
        assert text in page  # what was typed is still there
    assert not RollEntry.objects.filter(kind=Kind.MESSAGE).exists()


def test_htmx_gets_a_fresh_composer_that_remembers_who_speaks(client, party):
    client.force_login(party.player)
    url = reverse("message_post", args=[party.campaign.pk])
    data = {"text": "Psst", "speaker": str(party.pc.pk), "audience": "whisper"}
    data["to"] = [str(party.other_player.pk)]
    page = client.post(url, data, headers={"HX-Request": "true"}).content.decode()
    assert page.startswith('\n<form id="composer"') or page.lstrip().startswith(
        '<form id="composer"'
    )
    assert "Psst" not in page and "Message sent." in page
    assert re.search(rf'<option value="{party.pc.pk}" selected>', page)
    assert re.search(r'<option value="whisper" selected>', page)
    refused = client.post(url, data | {"text": ""}, headers={"HX-Request": "true"})
    assert refused.status_code == 200 and "has-error" in refused.content.decode()


def test_a_correction_is_a_new_entry_that_shows_the_edit(client, party):
    message = said(client, party, "player", "We go nrth.", speaker=party.pc)
    assert correct(client, party, "other_player", message, "Mine now").status_code == 400
    response = correct(client, party, "player", message, "We go north.")
    first = RollEntry.objects.get(kind=Kind.MESSAGE_EDIT)
    assert response.status_code == 302 and response["Location"] == first.get_absolute_url()
    assert (first.follows, first.root, first.said) == (message, message, "We go north.")
    # Correcting the original again corrects its newest version: the versions stay in one line.
    correct(client, party, "player", message, "We go north, fast.")
    second = RollEntry.objects.filter(kind=Kind.MESSAGE_EDIT).latest("pk")
    assert second.follows == first and second.root == message
    assert correct(client, party, "player", second, "We go north, fast.").status_code == 400
    message.refresh_from_db()
    assert message.said == "We go nrth."  # never an overwrite
    client.force_login(party.other_player)
    page = client.get(second.get_absolute_url()).content.decode()
    assert "We go north, fast." in page and "What it said before" in page
    assert "We go north." in page and "Correct your message" not in page
    client.force_login(party.player)
    assert "Correct your message" in client.get(second.get_absolute_url()).content.decode()
    assert "Correct your message" not in client.get(message.get_absolute_url()).content.decode()
    assert RollEntry.objects.verify_chain(party.campaign.pk).intact


def test_the_message_rate_answers_429_and_keeps_the_text(client, party, settings):
    settings.MESSAGE_RATE = "2/60"
    said(client, party, "player", "one")
    said(client, party, "player", "two")
    response = post_message(client, party, "player", "three")
    assert response.status_code == 429 and "three" in response.content.decode()
    assert "wait" in response.content.decode()
    said(client, party, "other_player", "ben is not ana")  # per member


def test_messages_are_never_followed_up_revealed_or_rolled_again(client, party):
    message = said(client, party, "player", "Hidden thoughts", speaker=party.pc, audience="gm")
    client.force_login(party.player)
    assert client.post(follow_url(message, "destiny")).status_code in (404, 409)
    client.force_login(party.gm)
    assert client.post(reverse("roll_reveal", args=[message.pk])).status_code == 400
    page = client.get(message.get_absolute_url()).content.decode()
    assert "Reveal to everyone" not in page and "again</a>" not in page
    assert not RollEntry.objects.filter(kind=Kind.REVEAL).exists()


def test_a_campaign_of_public_rolls_keeps_a_whisper_a_whisper(client, party):
    party.campaign.force_public_rolls = True
    party.campaign.save()
    whisper = said(client, party, "player", "Only ben", audience="whisper", to=["other_player"])
    assert whisper.visibility == Visibility.WHISPER


def test_messages_stay_off_the_characters_roll_lists(client, party):
    roll = append(party.pc)[0]
    message = said(client, party, "player", "Ada says hi", speaker=party.pc)
    client.force_login(party.player)
    sheet = client.get(party.pc.get_absolute_url()).content.decode()
    assert entry_token(roll.pk) in sheet and "Ada says hi" not in sheet
    client.force_login(party.gm)
    table = client.get(reverse("campaign_dashboard", args=[party.campaign.pk])).content.decode()
    assert entry_token(roll.pk) in table and entry_token(message.pk) not in table
    card = client.get(
        reverse("table_character", args=[party.pc.pk]),
        {"entry": entry_token(message.pk)},
        headers={"HX-Request": "true"},
    ).content.decode()
    assert "Ada says hi" not in card


def test_verify_log_catches_a_recipient_added_by_hand(client, party):
    whisper = said(client, party, "player", "For ben", audience="whisper", to=["other_player"])
    assert whisper.recipient_ids == [party.other_player.pk]
    assert RollEntry.objects.verify_chain(party.campaign.pk).intact
    EntryRecipient.objects.create(entry=whisper, user_ref=party.observer.pk)
    report = RollEntry.objects.verify_chain(party.campaign.pk)
    assert not report.intact and report.broken == whisper
    assert "recipients" in report.reason


def test_the_log_page_costs_no_query_more_with_messages_and_the_composer(client, party):
    append(party.pc, 3)
    said(client, party, "player", "Hello", speaker=party.pc)
    said(client, party, "player", "To ben", audience="whisper", to=["other_player"])
    said(client, party, "gm", "Narration", speaker="narration")
    correct(client, party, "player", RollEntry.objects.filter(kind=Kind.MESSAGE).first(), "Hi")
    for user in ("player", "gm", "observer"):
        client.force_login(getattr(party, user))
        with CaptureQueriesContext(connection) as queries:
            page = client.get(reverse("campaign_log", args=[party.campaign.pk]))
        assert page.status_code == 200 and 'id="composer"' in page.content.decode()
        assert len(queries.captured_queries) == 6, user


def test_a_public_message_goes_to_discord_as_its_speaker(client, party, settings):
    from rolls.log.records import public_record
    from rolls.webhooks import payloads

    message = said(client, party, "player", "We **run**! @everyone <@123>", speaker=party.pc)
    record = public_record(message.pk, base_url=settings.SITE_URL)
    discord = payloads.discord_message(party.campaign, record)
    (embed,) = discord["embeds"]
    assert discord["username"] == "Ada" and discord["allowed_mentions"] == {"parse": []}
    assert embed["description"] == "We **run**! \\@everyone \\<\\@123>"
    assert embed["author"] == {"name": "ana"} and embed["url"].endswith(message.get_absolute_url())
    assert payloads.json_payload(party.campaign, record)["event"] == "message"
    narration = said(client, party, "gm", "Night falls.", speaker="narration")
    record = public_record(narration.pk, base_url=settings.SITE_URL)
    assert payloads.discord_message(party.campaign, record)["username"] == "Narration"
    ooc = said(client, party, "observer", "brb")
    record = public_record(ooc.pk, base_url=settings.SITE_URL)
    assert payloads.discord_message(party.campaign, record)["username"] == party.observer.username


def test_a_recap_holds_the_messages_its_reader_may_read(client, party):
    from rolls.sessions import actions as sessions

    sessions.start_session(party.gm, party.campaign, "Night")
    said(client, party, "player", "Onward, *friends*", speaker=party.pc)
    said(client, party, "player", "psst ben", audience="whisper", to=["other_player"])
    recaps = {}
    for user in ("player", "other_player", "observer"):
        client.force_login(getattr(party, user))
        response = client.get(reverse("session_recap", args=[party.campaign.pk, 1]))
        recaps[user] = response.content.decode()
    assert all("**Ada**: Onward, friends" in text for text in recaps.values())
    assert "(whisper to ben): psst ben" in recaps["other_player"]
    assert "psst" in recaps["player"] and "psst" not in recaps["observer"]


def test_a_message_fills_no_roll_columns_and_one_written_with_the_stand_ins_still_verifies(
    client, party
):
    """Messages written before issue 55 carry odds "1/1", hashed with them: they verify as they
    did beside the new ones, which leave the odds empty."""
    old = RollEntry.objects.append(
        campaign=party.campaign,
        user=party.player,
        username=party.player.username,
        system=party.campaign.system,
        kind=Kind.MESSAGE,
        options={"voice": "out_of_character", "audience": "everyone"},
        detail="Written the old way.",
        label="",
        odds="1/1",
        odds_display="",
    )
    new = said(client, party, "player", "Written now.")
    assert (old.odds, new.odds, new.label, new.odds_display) == ("1/1", "", "", "")
    assert RollEntry.objects.verify_chain(party.campaign.pk).intact
