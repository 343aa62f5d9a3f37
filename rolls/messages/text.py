"""A message's text: Markdown, as members type it, to safe HTML.

Two well-kept libraries do the work, each the one thing it is for (never escaping of ours):
markdown-it-py parses a small CommonMark subset with raw HTML off, and nh3 (the bindings of the
ammonia sanitizer) keeps only the tags and attributes below from whatever it produced. The stored
text (``RollEntry.said``: committed into the chain from hash version 6, bound in ``detail``
before) is the Markdown itself, so a later change here re-renders every message without touching
the log.
"""

from __future__ import annotations

import threading
from html import unescape

import nh3
from markdown_it import MarkdownIt

# What a message may use: emphasis, strong, strikethrough, inline code, links, line breaks,
# quotes and lists. No headings, images, tables or raw HTML: a message is a line at the table.
_RULES = [
    "emphasis",
    "strikethrough",
    "backticks",
    "link",
    "autolink",
    "newline",
    "escape",
    "entity",
    "blockquote",
    "list",
]
TAGS = {"p", "br", "em", "strong", "s", "code", "a", "blockquote", "ul", "ol", "li"}
ATTRIBUTES = {"a": {"href"}, "ol": {"start"}}
URL_SCHEMES = {"http", "https", "mailto"}

# Discord's own limit for a message's content: a message posted to a webhook fits whole.
MAX_LENGTH = 2000
MAX_LINES = 40


_local = threading.local()


def _parser() -> MarkdownIt:
    """This thread's parser: one per thread, since pages and the live stream render messages
    on several threads at once and a parser is not documented as safe to share. Links: the
    parser's own check refuses javascript:, vbscript:, file: and data:; the sanitizer then
    keeps only URL_SCHEMES."""
    parser = getattr(_local, "parser", None)
    if parser is None:
        parser = _local.parser = MarkdownIt("zero", {"breaks": True, "html": False}).enable(_RULES)
    return parser


def to_html(text: str) -> str:
    """The message as HTML that is safe to put in a page as it is."""
    html = _parser().render(text)
    return nh3.clean(
        html,
        tags=TAGS,
        attributes=ATTRIBUTES,
        url_schemes=URL_SCHEMES,
        link_rel="nofollow noopener noreferrer ugc",
    )


def speaker_name(character_name: str, options: dict[str, object] | None, username: str) -> str:
    """Who a message is said by, as the log, the recap and the webhooks name them: the character
    spoken as, "Narration" for the GM's, else the member (out of character)."""
    if character_name:
        return character_name
    return "Narration" if (options or {}).get("voice") == "narration" else username


def to_plain(text: str) -> str:
    """The message without its markup, for a screen reader's notice and a short preview: plain
    text, not HTML (the template escapes it like any other)."""
    return " ".join(unescape(nh3.clean(to_html(text), tags=set())).split())
