"""Discord payloads carry the players' text so that nothing in it links, embeds or mentions: a
character or skill named like a URL, a bare domain, an ``<…>`` tag or ``@everyone`` reads as typed
and is no link in the GM's channel (rolls/webhooks/payloads.py, docs/webhooks.md)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings

from rolls.log.records import public_record
from rolls.webhooks import payloads
from tests.factories import CharacterFactory, RollEntryFactory

pytestmark = pytest.mark.django_db

HOSTILE = [
    "https://evil.example/phish",
    "see http://10.0.0.1:8000/x now",
    "<https://evil.example>",
    "steam://run/1",
    "mailto:gm@evil.example",
    "evil.example/login",
    "discord.gg/invite",
    "@everyone",
    "@here",
    "<@123456789012345678>",
    "<@&123456789012345678>",
    "<#123456789012345678>",
    "<t:0:R>",
    "<:emoji:123456789012345678>",
    "[click](https://evil.example)",
]

# What Discord would still read as a link, a mention or a tag: a character that starts one,
# with no backslash before it.
LIVE = re.compile(r"(?<!\\)[:<@]|(?<!\\)\.(?=\w)")


def unescaped(text: str) -> str:
    """The text as Discord shows it: a backslash before punctuation shows that character."""
    return re.sub(r"\\([^0-9A-Za-z\s])", r"\1", text)


@pytest.mark.parametrize("name", HOSTILE)
def test_names_and_skills_never_link_mention_or_embed(name):
    entry = RollEntryFactory(character=CharacterFactory(name=name), label=name, detail=name)
    record = public_record(entry.pk, base_url=settings.SITE_URL)
    message = payloads.discord_message(entry.campaign, record)
    assert message["allowed_mentions"] == {"parse": []}
    assert "content" not in message  # nothing outside the embed, so no link preview
    [embed] = message["embeds"]
    assert embed["url"] == record["url"]  # the only link: the entry's permalink
    title, description = embed["title"], embed["description"]
    # The name, where it appears, is shown as typed…
    assert unescaped(title) == f"{name}: {name}"
    assert name in unescaped(description)
    # …and nothing of it is live markdown: no scheme, domain, mention or tag left unescaped.
    texts = [field["value"] for field in embed["fields"] if field["name"] != "Odds of this outcome"]
    title = re.sub(r"(?<!\\): ", " ", title, count=1)  # the title's own "character: skill"
    for text in (title, description, *texts):
        assert not LIVE.search(text), text


def test_plain_escapes_what_starts_a_link_and_keeps_the_text():
    escaped = payloads.plain("https://evil.example/a")
    assert escaped == r"https\:\/\/evil\.example\/a"
    assert unescaped(escaped) == "https://evil.example/a"
    assert payloads.plain("@everyone <@1>") == r"\@everyone \<\@1\>"
