"""Posting messages the way members do, through the log's composer (tests of rolls/messages)."""

from django.test import Client
from django.urls import reverse

from log.models import Kind, RollEntry


def post_message(client: Client, party, user: str, text: str, **fields):
    """``user`` (a Party attribute) posts ``text`` as a plain form: ``audience`` (everyone, gm,
    whisper), ``to`` (Party attributes of the recipients), ``speaker`` ("ooc", "narration" or a
    character). Returns the response."""
    client.force_login(getattr(party, user))
    to = [str(getattr(party, name).pk) for name in fields.pop("to", ())]
    speaker = fields.pop("speaker", "ooc")
    if not isinstance(speaker, str):
        speaker = str(speaker.pk)
    data = {"text": text, "speaker": speaker, "audience": "everyone", "to": to} | fields
    return client.post(reverse("message_post", args=[party.campaign.pk]), data)


def said(client: Client, party, user: str, text: str, **fields) -> RollEntry:
    """As ``post_message``, and the message it wrote (the post must succeed)."""
    response = post_message(client, party, user, text, **fields)
    assert response.status_code == 302, response.content.decode()[:2000]
    return RollEntry.objects.filter(kind=Kind.MESSAGE).order_by("-pk").first()


def correct(client: Client, party, user: str, entry: RollEntry, text: str):
    client.force_login(getattr(party, user))
    return client.post(reverse("message_correct", args=[entry.pk]), {"text": text})
