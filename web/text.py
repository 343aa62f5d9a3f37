"""User text at the door: the Unicode bidi controls that reorder the text around them are taken
out of everything a client sends, in one place, before any form, API schema or import reads it
(docs/permissions.md, "Bad input").

A right-to-left override (U+202E) in a name or a title turned "Rob rolled 3" into text read
backwards up to the end of its paragraph on every page that showed it, and into the signed log
with it. Isolating each place that prints user text (``<bdi>``) would need every template to
remember; removing the controls where text comes in covers every page, the log, the exports and
the webhooks at once. Only the explicit embeddings, overrides and isolates go (U+202A-U+202E,
U+2066-U+2069); the marks (U+200E, U+200F, U+061C), which only hint a direction and end with
themselves, stay, and right-to-left scripts show as they always did.

Read here: query strings and posted forms (``request.POST``, form-encoded or multipart, where
CSRF protection reads them too), and the API's JSON (``Parser``); a character import's JSON is
cleaned as it is parsed (sheets/character_json.py). Discord's interactions are signed over their raw body; their
option values are cleaned where they are read (discord/interactions.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from django.http import HttpRequest, HttpResponseBase, QueryDict
from ninja.parser import Parser as NinjaParser
from ninja.types import DictStrAny

BIDI_CONTROLS = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_TABLE = dict.fromkeys(map(ord, BIDI_CONTROLS))


def without_bidi_controls(text: str) -> str:
    return text.translate(_TABLE)


def cleaned(value: object) -> object:
    """``value`` with the bidi controls taken out of every string in it (JSON's shapes)."""
    if isinstance(value, str):
        return without_bidi_controls(value)
    if isinstance(value, list):
        return [cleaned(item) for item in value]
    if isinstance(value, dict):
        return {cleaned(key): cleaned(item) for key, item in value.items()}
    return value


def _has_controls(data: QueryDict) -> bool:
    return any(
        not set(BIDI_CONTROLS).isdisjoint(text)
        for key, values in data.lists()
        for text in (key, *values)
    )


def _cleaned_query(data: QueryDict) -> str:
    """``data`` without bidi controls, as a query string to make an immutable QueryDict of
    (as the request's own are)."""
    fresh = QueryDict(mutable=True)
    for key, values in data.lists():
        fresh.setlist(without_bidi_controls(key), [without_bidi_controls(v) for v in values])
    return fresh.urlencode()


class StripBidiControls:
    """Middleware: the query string's and a posted form's values without bidi controls, read
    where CsrfViewMiddleware would read the form anyway (its process_view, for every view that
    is not csrf_exempt). Views that are exempt read their own bodies: the portrait upload
    raises its size limit before its multipart body is parsed, Discord's interactions and the
    API's JSON are signed or parsed apart (``Parser``)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        return self.get_response(request)

    def process_view(
        self,
        request: HttpRequest,
        view: Callable[..., HttpResponseBase],
        args: tuple[object, ...],
        kwargs: dict[str, object],
    ) -> None:
        if _has_controls(request.GET):
            request.GET = QueryDict(_cleaned_query(request.GET))
        if (
            request.method == "POST"
            and not getattr(view, "csrf_exempt", False)
            and _has_controls(request.POST)
        ):
            request.POST = QueryDict(_cleaned_query(request.POST))


class Parser(NinjaParser):
    """The API's JSON bodies, with the bidi controls out of every string (api/v1.py)."""

    def parse_body(self, request: HttpRequest) -> DictStrAny:
        return cast(DictStrAny, cleaned(super().parse_body(request)))
