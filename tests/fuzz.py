"""The bad-input harness: hypothesis strategies for hostile form values and the invariants every
request must keep — never a 5xx, never a partial write (tests/test_bad_input*.py)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.db import transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from log.models import RollEntry
from sheets.models import Campaign

# Modest and repeatable: the whole fuzz suite stays within about a minute on two cores.
# FUZZ_EXAMPLES=200 digs deeper locally.
FUZZ = settings(
    max_examples=int(os.environ.get("FUZZ_EXAMPLES", "15")),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

KEEP, DROP = object(), object()

# Tables a request may touch without it being a write of the app's data.
UNTRACKED = {"sessions", "axes", "contenttypes", "admin"}
# An API token's row records its last use and the user's ApiUsage row counts their requests
# (throttling): every API request writes them, refused or not. Making and revoking tokens is
# tested directly (tests/test_api.py).
UNTRACKED_MODELS = {"auth.Permission", "sheets.ApiToken", "sheets.ApiUsage"}

# Text the client can send: every character except lone surrogates (not encodable as UTF-8).
ANY_TEXT = st.text(st.characters(exclude_categories=("Cs",)), max_size=40)
ODD_STRINGS = [
    "",
    " ",
    "\x00",
    "a\x00b",
    "\u202eevil\u202c",  # right-to-left override
    "\u200f\u200e",  # RTL / LTR marks
    "🎲" * 5,
    "👩‍👩‍👧‍👦",
    "e" + "\u0301" * 50,  # a pile of combining accents
    "Ａｔｈｌｅｔｉｃｓ",  # fullwidth
    "x" * 10_000,
    "ж" * 10_001,
    "<script>alert(1)</script>",
    "' OR 1=1 --",
    "=1+1",
    "null",
    "true",
    "[]",
    "{}",
    "NaN",
    "inf",
    "1.5",
    "1e3",
    "0x10",
    "٣",  # an Arabic-Indic digit
    "３",  # a fullwidth digit
    "+1",
    " 2 ",
    "1/2",
]
# Characters str.isdigit() accepts that int() reads differently or not at all: Arabic-Indic and
# Devanagari digits and mathematical bold (int() reads them), superscripts and circled digits (it
# raises), fullwidth. A parser checking isdigit() before int() 500s on some of them.
UNICODE_DIGITS = ["١٢٣", "𝟗", "²", "⑨", "３", "१२", "1²", "٠"]
HUGE_INTS = [-(2**63), -(2**31) - 1, -1, 0, 2**31, 2**63, 2**64, 10**30]
# Text only a JSON body carries: json.dumps writes these as "\ud800" escapes, which decode to
# lone surrogates — no character, refused by PostgreSQL (an import was a 500). No form can send
# them: the client can't encode them.
LONE_SURROGATES = ["\ud800", "Rob \udfff", "\udc00\ud800"]
# A body just past the 1 MiB every request is held to (settings.MAX_REQUEST_BYTES).
OVERSIZED_BODY = '{"padding": "' + "x" * (1 << 20) + '"}'


# Digit families str.isdigit() accepts: two int() can't read (superscripts, circled), then some
# it reads (Arabic-Indic, Devanagari, fullwidth, mathematical bold) and ASCII. Hypothesis tries
# the first entries first (and shrinks towards them), so the hostile ones lead: even CI's 15
# examples per endpoint meet them.
DIGIT_FAMILIES = [
    "⁰¹²³⁴⁵⁶⁷⁸⁹",
    "⓪①②③④⑤⑥⑦⑧⑨",
    "٠١٢٣٤٥٦٧٨٩",
    "०१२३४५६७८९",
    "０１２３４５６７８９",
    "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗",
    "0123456789",
]


@st.composite
def odd_integer(draw: Any) -> str:
    """A number as a hostile client writes it: small, at a boundary, past 64 bits or past the
    4,300 digits int() reads; in any digit family, even mixed; signed, zero-padded or spaced."""
    number = draw(
        st.one_of(
            st.integers(-3, 12),
            st.sampled_from(HUGE_INTS),
            st.integers(min_value=2**63, max_value=10**40),
        )
    )
    digits = str(abs(number))
    if draw(st.integers(0, 3)) == 1:
        digits = "9" * draw(st.sampled_from([19, 40, 4400]))
    family = draw(st.sampled_from(DIGIT_FAMILIES))
    text = "".join(family[int(d)] for d in digits)
    if draw(st.integers(0, 2)) == 1:  # mix in a second family for one digit
        other = draw(st.sampled_from(DIGIT_FAMILIES))
        text = other[int(digits[0])] + text[1:]
    sign = "-" if number < 0 else draw(st.sampled_from(["", "", "+", "-"]))
    pad = draw(st.sampled_from(["", "", "0", " ", "\t", "\u00a0"]))
    return f"{pad}{sign}{text}{pad if pad.isspace() else ''}"


CALENDAR_ENDS = ["9999-12-31", "0001-01-01", "9999-12-30", "0000-01-01", "10000-01-01"]


@st.composite
def odd_date(draw: Any) -> str:
    """A YYYY-MM-DD-ish date: year 0 or past 9999, month 0 or 13, 30 February, the calendar's
    first and last days, other separators and digit families."""
    if not draw(st.booleans()):  # the ends of Python's calendar (tried first) and past them
        text = draw(st.sampled_from(CALENDAR_ENDS))
    else:
        year = draw(
            st.one_of(
                st.sampled_from([0, 1, 1899, 1900, 1970, 2026, 9998, 9999, 10000, 99999]),
                st.integers(0, 100_000),
            )
        )
        month = draw(st.one_of(st.integers(1, 12), st.sampled_from([0, 2, 12, 13, 99])))
        day = draw(st.one_of(st.integers(1, 28), st.sampled_from([0, 29, 30, 31, 32])))
        text = f"{year:04d}-{month:02d}-{day:02d}"
    if draw(st.integers(0, 4)) == 1:
        family = draw(st.sampled_from(DIGIT_FAMILIES))
        text = "".join(family[int(c)] if c.isascii() and c.isdigit() else c for c in text)
    return text


@st.composite
def deep_json(draw: Any) -> str:
    """JSON nested deeper than any parser's recursion limit, or wide and long."""
    depth = draw(st.sampled_from([2, 100, 1_000, 20_000]))
    shape = draw(st.sampled_from(["list", "dict", "wide"]))
    if shape == "list":
        return "[" * depth + "]" * depth
    if shape == "dict":
        return '{"a":' * depth + "1" + "}" * depth
    return "[" + ",".join(["{}"] * depth) + "]"


def bad_value(forged: list[str]) -> st.SearchStrategy[Any]:
    """Boundaries and huge numbers in every digit family, impossible dates, wrong types, odd and
    long unicode, deeply nested JSON, lists (a field sent several times), and ids of objects of
    another campaign."""
    ints = st.one_of(st.sampled_from(HUGE_INTS), st.integers(-3, 12)).map(str)
    single = st.one_of(
        ints,
        odd_integer(),
        odd_date(),
        st.sampled_from(ODD_STRINGS + UNICODE_DIGITS),
        ANY_TEXT,
        deep_json(),
    )
    if forged:
        single = st.one_of(single, st.sampled_from(forged))
    return st.one_of(single, st.lists(single, min_size=2, max_size=3))


INTEGER = re.compile(r"-?[0-9]+")
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def bad_like(value: Any, forged: list[str]) -> st.SearchStrategy[Any]:
    """A bad value for a field whose valid value is ``value``: half the time one of its own
    shape — an integer field gets odd integers (other digit families, past 64 bits), a date field
    impossible dates — so every such parameter meets them, whatever its name."""
    text = str(value)
    if INTEGER.fullmatch(text):
        return st.one_of(odd_integer(), bad_value(forged))
    if DATE.fullmatch(text):
        return st.one_of(odd_date(), bad_value(forged))
    return bad_value(forged)


@st.composite
def mutated(draw: Any, valid: dict[str, Any], forged: list[str]) -> dict[str, Any]:
    """``valid`` with each field kept, dropped or replaced by a bad value (often one of the
    field's own shape), plus extra fields."""
    data = {}
    for name, value in valid.items():
        choice = draw(st.sampled_from(["keep", "keep", "drop", "bad"]))
        if choice == "keep":
            data[name] = value
        elif choice == "bad":
            data[name] = draw(bad_like(value, forged))
    for name in draw(st.lists(st.sampled_from(["extra", "pk", "id", "campaign", "owner"]))):
        data[name] = draw(bad_value(forged))
    return data


def htmx_or_plain(data: Any) -> dict[str, str]:
    """Headers of an HTMX request or of a plain one: the two paths of every view differ."""
    return {"HX-Request": "true"} if data.draw(st.booleans(), label="htmx") else {}


def snapshot() -> dict[str, list[dict[str, Any]]]:
    """Every row of every app table (small worlds): what a refused request must leave alone."""
    rows = {}
    for model in apps.get_models():
        if model._meta.app_label in UNTRACKED or model._meta.label in UNTRACKED_MODELS:
            continue
        rows[model._meta.label] = list(model._default_manager.order_by("pk").values())
    return rows


def changed_rows(before: dict, after: dict) -> dict[str, list[Any]]:
    """Per model: the rows added or changed (as now) and the keys of rows deleted."""
    result = {}
    for label, rows in after.items():
        key = apps.get_model(label)._meta.pk.attname
        old = {row[key]: row for row in before[label]}
        new = {row[key]: row for row in rows}
        diff = [row for pk, row in new.items() if old.get(pk) != row]
        diff += [{"deleted": pk} for pk in old.keys() - new.keys()]
        if diff:
            result[label] = diff
    return result


@dataclass
class Request:
    """What one example sends."""

    method: str
    url: str
    data: dict[str, Any] | str = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    content_type: str = ""  # a raw body (``data`` as text) of this type instead of a form


def readable(response: Any) -> str:
    """The words of a refusal's body (tags stripped); it must be UTF-8 and say something."""
    text = response.content.decode("utf-8")
    words = re.sub(r"<(script|style)\b.*?</\1>|<[^>]+>", " ", text, flags=re.S)
    return " ".join(words.split())


def check(client: Any, request: Request, *, writes: bool = True) -> Any:
    """Send ``request`` inside a savepoint that is rolled back afterwards (every example starts
    from the same world) and check the invariants:

    * never a 5xx;
    * a GET (``writes=False``) or a refused request (4xx) changes no row;
    * a request that went through leaves every changed row within its model's constraints and
      every campaign's hash chain intact;
    * a refusal says why (a body to read).
    """
    with transaction.atomic():
        before = snapshot()
        send: Callable = getattr(client, request.method)
        extra = {"content_type": request.content_type} if request.content_type else {}
        response = send(request.url, request.data, headers=request.headers, **extra)
        status = response.status_code
        assert status < 500, f"{request.method.upper()} {request.url} {request.data!r} → {status}"
        after = snapshot()
        changes = changed_rows(before, after)
        if status >= 400 or not writes:
            assert not changes, (
                f"{request.method.upper()} {request.url} answered {status} but changed {changes}"
            )
        # 405 is Django's answer to a method a view doesn't take: its Allow header says which.
        if status >= 400 and status != 405 and not getattr(response, "streaming", False):
            assert re.search(r"[^\W\d_]{3}", readable(response)), (
                f"{request.url} refused ({status}) without a readable reason"
            )
        for label, rows in changes.items():
            model = apps.get_model(label)
            key = model._meta.pk.attname
            for row in rows:
                if key in row:
                    model._default_manager.get(pk=row[key]).validate_constraints()
        for campaign_id in Campaign.objects.values_list("pk", flat=True):
            assert RollEntry.objects.verify_chain(campaign_id).intact
        transaction.set_rollback(True)
    return response


DATES = ["2020-02-30", "0000-01-01", "9999-12-31", "10000-01-01", "2020-1-1", "yesterday"]


@st.composite
def log_params(draw: Any, valid: dict[str, Any], forged: list[str]) -> dict[str, Any]:
    """The log's query string mutated, with the dates as often an impossible or extreme date and
    the cursor as often a number in another digit family as anything else."""
    params = draw(mutated(valid, forged + DATES))
    for name, strategy in (
        ("date_from", odd_date()),
        ("date_to", odd_date()),
        ("before", odd_integer()),
        ("character", odd_integer()),
        ("player", odd_integer()),
    ):
        if draw(st.booleans()):
            params[name] = draw(strategy)
    return params
