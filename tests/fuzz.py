"""The bad-input harness: hypothesis strategies for hostile form values and the invariants every
request must keep — never a 5xx, never a partial write (tests/test_bad_input*.py)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.apps import apps
from django.db import transaction
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from rolls.models import RollEntry
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
UNTRACKED_MODELS = {"auth.Permission"}

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


def bad_value(forged: list[str]) -> st.SearchStrategy[Any]:
    """Boundaries and huge numbers, wrong types, odd and long unicode, lists (a field sent
    several times), and ids of objects of another campaign."""
    ints = st.one_of(st.sampled_from(HUGE_INTS), st.integers(-3, 12)).map(str)
    single = st.one_of(ints, st.sampled_from(ODD_STRINGS), ANY_TEXT)
    if forged:
        single = st.one_of(single, st.sampled_from(forged))
    return st.one_of(single, st.lists(single, min_size=2, max_size=3))


@st.composite
def mutated(draw: Any, valid: dict[str, Any], forged: list[str]) -> dict[str, Any]:
    """``valid`` with each field kept, dropped or replaced by a bad value, plus extra fields."""
    data = {}
    for name, value in valid.items():
        choice = draw(st.sampled_from(["keep", "keep", "drop", "bad"]))
        if choice == "keep":
            data[name] = value
        elif choice == "bad":
            data[name] = draw(bad_value(forged))
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
    data: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)


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
        response = send(request.url, request.data, headers=request.headers)
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
            assert response.content.strip(), f"{request.url} refused with an empty body"
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
