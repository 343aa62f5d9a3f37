"""Log tools: the roll log's filters and search, CSV and JSON exports, and statistics.

Visibility (docs/permissions.md) holds on every channel here:

* listings use ``RollEntry.objects.visible_to(membership)`` and render each entry through
  ``card_for``, so a blind roll shows its roller a placeholder and nobody else anything;
* every filter or search term that looks at figures (outcome, breakdown, detail, outcome label)
  only ever matches entries the member may *read* — otherwise filtering a placeholder by
  "Critical failure" would tell its roller the hidden outcome;
* exports give readable entries in full, placeholders with placeholder fields only, and nothing else;
* statistics count readable entries only.

Formats and definitions: docs/log-tools.md.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import AsyncIterator, Callable, Iterator
from datetime import UTC, date, datetime, time, timedelta
from fractions import Fraction
from typing import Any, cast

from asgiref.sync import sync_to_async
from django import forms
from django.contrib.auth.decorators import login_required
from django.core.handlers.asgi import ASGIRequest
from django.db.models import Q, Value
from django.http import HttpRequest, HttpResponse, QueryDict, StreamingHttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_vary_headers
from django.views.decorators.http import require_GET

from config.http import AuthenticatedHttpRequest
from rolls.live.stream import live_context
from rolls.log.statistics import TRIAL_KINDS, Summary, Tally
from rolls.log.tokens import entry_pk, entry_token
from rolls.models import OUTCOME_LABELS, LogHead, RollEntry
from sheets.access import campaign_for_member, character_for_reader
from sheets.models import Campaign, Character, Membership

LOG_PAGE_SIZE = 25
# Rows per export query: big enough that a million entries take 2,000 queries, small enough that a
# chunk's rows and their rendered text stay a few megabytes.
EXPORT_CHUNK = 500
STATS_CHUNK = 2000
SEARCH_MAX_WORDS = 8

ANY_SUCCESS, ANY_FAILURE = "any_success", "any_failure"
# The dates a filter takes. Python's dates end at 9999-12-31, and a day's bounds are shifted by
# the time zone and by a day ("To" is inclusive), so the extremes overflowed (a 500); no roll is
# older than the app or millennia ahead.
DATE_MIN, DATE_MAX = date(1900, 1, 1), date(9998, 12, 31)


# ---------------------------------------------------------------------------------------------
# Filters and search
# ---------------------------------------------------------------------------------------------


class LogFilterForm(forms.Form):
    """The log's GET form. Always bound (to the query string); a field with a bad value reports it
    beside the field and is left out of the filter, so the rest still applies."""

    q = forms.CharField(
        label="Search",
        required=False,
        max_length=200,
        help_text="Character, player, skill, pool, outcome or detail; every word must match.",
        widget=forms.TextInput(attrs={"type": "search", "autocomplete": "off"}),
    )
    character = forms.TypedChoiceField(label="Character", required=False, coerce=int)
    player = forms.TypedChoiceField(label="Player", required=False, coerce=int)
    skill = forms.ChoiceField(label="Skill", required=False)
    outcome = forms.ChoiceField(label="Outcome", required=False)
    date_from = forms.DateField(
        label="From",
        required=False,
        widget=forms.DateInput(attrs={"type": "date", "min": DATE_MIN, "max": DATE_MAX}),
    )
    date_to = forms.DateField(
        label="To",
        required=False,
        widget=forms.DateInput(attrs={"type": "date", "min": DATE_MIN, "max": DATE_MAX}),
    )

    def __init__(
        self, data: QueryDict, *, campaign: Campaign, membership: Membership, **kwargs: Any
    ) -> None:
        super().__init__(data, **kwargs)
        self.campaign, self.membership = campaign, membership
        # Only what the member may know: no hidden NPC for a player, no skill of a roll they may
        # not know exists.
        # Characters and players in one query (a UNION), skills in another (a loose index scan
        # that stays fast at a million entries): the log page's query budget is six.
        characters = (
            Character.objects.visible_to(membership)
            .order_by()
            .annotate(choice=Value("character"))
            .values_list("choice", "name", "pk")
        )
        players = (
            Membership.objects.filter(campaign=campaign)
            .order_by()
            .annotate(choice=Value("player"))
            .values_list("choice", "user__username", "user_id")
        )
        choices: dict[str, list[tuple[int, str]]] = {"character": [], "player": []}
        for kind, name, pk in characters.union(players, all=True).order_by("choice", "name", "pk"):
            choices[kind].append((pk, name))
        # Declared above as choice fields; self.fields only knows them as fields.
        character, player, skill, outcome = (
            cast(forms.ChoiceField, self.fields[name])
            for name in ("character", "player", "skill", "outcome")
        )
        character.choices = [("", "All characters"), *choices["character"]]
        player.choices = [("", "Everyone"), *choices["player"]]
        labels = RollEntry.objects.visible_to(membership).filter(campaign=campaign).labels()
        skill.choices = [("", "All skills")] + [(label, label) for label in labels]
        outcome.choices = [
            ("", "All outcomes"),
            (ANY_SUCCESS, "Any success"),
            (ANY_FAILURE, "Any other outcome"),
        ] + [(code, OUTCOME_LABELS[code]) for code in campaign.rule_system.log_outcomes]

    def _clean_date(self, name: str) -> date | None:
        value = self.cleaned_data.get(name)
        if value is not None and not DATE_MIN <= value <= DATE_MAX:
            raise forms.ValidationError(
                f"Enter a date from {DATE_MIN:%-d %B %Y} to {DATE_MAX:%-d %B %Y}.", code="range"
            )
        return value

    def clean_date_from(self) -> date | None:
        return self._clean_date("date_from")

    def clean_date_to(self) -> date | None:
        return self._clean_date("date_to")

    def clean(self) -> dict[str, Any]:
        super().clean()  # Form.clean() answers cleaned_data
        data = self.cleaned_data
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", "“To” is before “From”; both dates are ignored.")
            data.pop("date_from", None)
        return data

    @property
    def active(self) -> dict[str, Any]:
        """The valid, non-empty filters (a field with an error is not among them)."""
        if not hasattr(self, "cleaned_data"):
            self.is_valid()
        return {k: v for k, v in self.cleaned_data.items() if v not in (None, "")}

    def apply(self, entries: Any) -> Any:
        """``entries`` (the member's visible entries) narrowed by every valid filter."""
        f = self.active
        # ``readable`` is visible_to's per-row answer to "may this member see the figures?".
        readable = Q(readable=True)
        if "character" in f:
            entries = entries.filter(character_id=f["character"])
        if "player" in f:
            entries = entries.filter(user_id=f["player"])
        if "skill" in f:
            entries = entries.filter(label=f["skill"])
        if "outcome" in f:
            outcome = f["outcome"]
            if outcome == ANY_SUCCESS:
                figures = Q(outcome__in=RollEntry.SUCCESS_OUTCOMES)
            elif outcome == ANY_FAILURE:
                figures = ~Q(outcome__in=RollEntry.SUCCESS_OUTCOMES)
            else:
                figures = Q(outcome=outcome)
            # An outcome is a figure: a placeholder never matches, whatever its hidden outcome.
            entries = entries.filter(figures & readable)
        tz = timezone.get_current_timezone()
        if "date_from" in f:
            entries = entries.filter(
                created_at__gte=datetime.combine(f["date_from"], time.min, tzinfo=tz)
            )
        if "date_to" in f:
            next_day = f["date_to"] + timedelta(days=1)
            entries = entries.filter(created_at__lt=datetime.combine(next_day, time.min, tzinfo=tz))
        for word in f.get("q", "").split()[:SEARCH_MAX_WORDS]:
            known = (
                Q(character_name__icontains=word)
                | Q(username__icontains=word)
                | Q(label__icontains=word)
            )
            figures = (
                Q(breakdown__icontains=word)
                | Q(detail__icontains=word)
                | Q(outcome_label__icontains=word)
            )
            entries = entries.filter(known | (figures & readable))
        return entries

    def querydict(self) -> QueryDict:
        """The active filters as query parameters (for links that keep them)."""
        params = QueryDict(mutable=True)
        for name in self.fields:
            value = self.data.get(name, "")
            if value and name in self.active:
                params[name] = value
        return params


def _filtered(request: AuthenticatedHttpRequest, campaign: Campaign, membership: Membership) -> Any:
    form = LogFilterForm(request.GET, campaign=campaign, membership=membership)
    form.is_valid()
    entries = form.apply(RollEntry.objects.visible_to(membership).filter(campaign=campaign))
    return form, entries


def _url(name: str, campaign: Campaign, params: QueryDict, **extra: Any) -> str:
    params = params.copy()
    for key, value in extra.items():
        params[key] = value
    query = params.urlencode()
    return reverse(name, args=[campaign.pk]) + (f"?{query}" if query else "")


@login_required
@require_GET
def campaign_log(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The campaign's log, newest first, filtered; keyset pages (``?before=<entry token>``, never
    OFFSET). The cursor is the last entry's token, not its pk (rolls/log/tokens.py)."""
    campaign, membership = campaign_for_member(request, pk)
    before = request.GET.get("before", "")
    before_pk = entry_pk(before) if before else None
    if before and before_pk is None:
        return HttpResponse(
            "“before” must be the link of an older page of this log.",
            status=400,
            content_type="text/plain",
        )
    form, entries = _filtered(request, campaign, membership)
    rows = entries.page(campaign, before=before_pk, size=LOG_PAGE_SIZE)
    page, more = rows[:LOG_PAGE_SIZE], len(rows) > LOG_PAGE_SIZE
    params = form.querydict()
    context = {
        "campaign": campaign,
        "membership": membership,
        "show_seq": membership.is_gm,  # chain numbers' gaps would count hidden rolls
        "form": form,
        "filtered": bool(form.active),
        "entries": [entry.card_for(membership) for entry in page],
        "older_url": (
            _url("campaign_log", campaign, params, before=entry_token(page[-1].pk)) if more else ""
        ),
        "before": before,
        "newest_url": _url("campaign_log", campaign, params),
        "csv_url": _url("campaign_log_csv", campaign, params),
        "json_url": _url("campaign_log_json", campaign, params),
    }
    # Live updates (docs/live.md): the unfiltered newest page takes new entries as they come,
    # starting after the newest one it shows; other views keep the stream for other components.
    context["live_entries"] = not form.active and not before
    newest = context["entries"][0].pk if context["entries"] else 0
    context |= live_context(campaign, last_id=newest if context["live_entries"] else None)
    if request.htmx and not request.htmx.history_restore_request:
        # A filter change swaps the results (and the field errors, out of band); scrolling to the
        # end of a page appends the next page's entries.
        part = "entries" if before else "results"
        response = render(request, f"rolls/log.html#{part}", context)
    else:
        response = render(request, "rolls/log.html", context)
    # The same URL answers with a partial or the page: caches must keep them apart.
    patch_vary_headers(response, ("HX-Request",))
    return response


# ---------------------------------------------------------------------------------------------
# Exports
# ---------------------------------------------------------------------------------------------

# Every member's export. No ``seq`` and no ``prev_hash``: a gap in the numbers, or a prev_hash that
# isn't the hash of the entry before it, would tell a player that a roll they can't see exists. A
# readable entry's ``hash`` is given (a fingerprint a later export must repeat) — its salt stays
# with the GM, so it can't be checked against guesses either (docs/roll-log.md).
CSV_COLUMNS = (
    "time",
    "character",
    "player",
    "system",
    "kind",
    "visibility",
    "label",
    "breakdown",
    "faces",
    "outcome",
    "outcome_label",
    "detail",
    "odds",
    "odds_percent",
    "follows",
    "resources",
    "redacted",
    "hash",
)
# The GM's export reads every entry, so it carries the whole chain: enough to verify it.
GM_CSV_COLUMNS = ("seq", *CSV_COLUMNS, "prev_hash", "salt")
# Cells a spreadsheet would read as a formula (or that hide one behind a tab or carriage return).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
DIE_LETTERS = {"ability": "A", "skill": "S", "risk": "R"}
PLACEHOLDER_FIELDS = ("time", "character", "player", "system", "kind", "visibility", "label")
EXPORT_VALUES = (
    "pk",
    "seq",
    "created_at",
    "character_name",
    "username",
    "system",
    "kind",
    "visibility",
    "label",
    "options",
    "pool",
    "breakdown",
    "faces",
    "outcome",
    "outcome_label",
    "detail",
    "result",
    "odds",
    "odds_table",
    "resource_changes",
    "follows__hash",
    "follows__seq",
    "reveals__seq",
    "root__seq",
    "call_id",
    "contest_id",
    "character_ref",
    "user_ref",
    "roller_ref",
    "hidden_character",
    "salt",
    "hash",
    "prev_hash",
    "readable",
)


def safe_cell(value: Any) -> Any:
    """CSV/formula injection: a text cell starting like a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def compact_faces(faces: list[dict[str, Any]]) -> str:
    """Every die in a few characters: ``4 5 1`` (d6), ``A7 S10 R3`` (Cold Stars: Ability, Skill,
    Risk), ``5>4`` for a DAD6 die whose face 5 the task modified to 4."""
    parts = []
    for die in faces:
        text = f"{DIE_LETTERS.get(die.get('kind', ''), '')}{die['face']}"
        if "value" in die and die["value"] != die["face"]:
            text += f">{die['value']}"
        parts.append(text)
    return " ".join(parts)


def _percent(odds: str) -> str:
    try:
        return f"{float(Fraction(odds)) * 100:.2f}"
    except (ValueError, ZeroDivisionError):
        return ""


def export_rows(entries: Any, *, full: bool) -> Iterator[list[dict[str, Any]]]:
    """The filtered visible entries, oldest first, as export records — one list per keyset chunk of
    ``EXPORT_CHUNK`` rows (``seq > last``: never OFFSET, never the whole log in memory).

    A readable entry gives every field; an entry the member only knows exists gives the
    placeholder fields. ``full`` (the GM's export) adds the chain: seq, prev_hash, salt and the
    rest of the hashed fields.
    """
    last_seq = 0
    while True:
        chunk = list(
            entries.filter(seq__gt=last_seq)
            .order_by("seq")
            .values(*EXPORT_VALUES)[:EXPORT_CHUNK]
            .iterator()
        )
        if not chunk:
            return
        yield [_record(row, bool(row["readable"]), full=full) for row in chunk]
        last_seq = chunk[-1]["seq"]
        if len(chunk) < EXPORT_CHUNK:
            return


def _record(row: dict[str, Any], readable: bool, *, full: bool) -> dict[str, Any]:
    base = {"seq": row["seq"]} if full else {}
    base |= {
        "time": row["created_at"].astimezone(UTC).isoformat(timespec="microseconds"),
        "character": row["character_name"],
        "player": row["username"],
        "system": row["system"],
        # A placeholder's kind is always "roll": the real one (an automatic pass, a skip) would
        # tell how the hidden roll went.
        "kind": row["kind"] if readable else "roll",
        "visibility": row["visibility"],
        "label": row["label"],
        "redacted": not readable,
    }
    if not readable:
        return base
    record = base | {
        "options": row["options"],
        "pool": row["pool"],
        "breakdown": row["breakdown"],
        "faces": row["faces"],
        "outcome": row["outcome"],
        "outcome_label": row["outcome_label"],
        "detail": row["detail"],
        "result": row["result"] if full else _numberless(row["result"]),
        "odds": row["odds"],
        "odds_table": row["odds_table"],
        "resources": row["resource_changes"],
        # The followed entry's hash: an id that numbers nothing (it is readable whenever this is).
        "follows": row["follows__hash"],
        "hash": row["hash"],
    }
    if full:
        record |= {
            "prev_hash": row["prev_hash"],
            "salt": row["salt"],
            "follows_seq": row["follows__seq"],
            "reveals_seq": row["reveals__seq"],
            "root_seq": row["root__seq"],
            "call": row["call_id"],
            "contest": row["contest_id"],
            "character_id": row["character_ref"],
            "user_id": row["user_ref"],
            "roller_id": row["roller_ref"],
            "hidden_character": row["hidden_character"],
        }
    return record


def _numberless(result: dict[str, Any]) -> dict[str, Any]:
    """A contest verdict's result names its rolls by ``seq`` and database id; a player gets the
    sides without them (a chain number counts the rolls before it, hidden ones included)."""
    if "sides" not in result:
        return result
    sides = [
        {key: value for key, value in side.items() if key not in ("seq", "entry")}
        for side in result["sides"]
    ]
    return result | {"sides": sides}


def _csv_line(record: dict[str, Any], columns: tuple[str, ...]) -> list[Any]:
    readable = not record["redacted"]
    cells = {key: record.get(key, "") for key in ("seq", *PLACEHOLDER_FIELDS)}
    cells["redacted"] = "yes" if record["redacted"] else "no"
    if readable:
        cells |= {
            "breakdown": record["breakdown"],
            "faces": compact_faces(record["faces"]),
            "outcome": record["outcome"],
            "outcome_label": record["outcome_label"],
            "detail": record["detail"],
            "odds": record["odds"],
            "odds_percent": _percent(record["odds"]),
            "follows": record["follows"] or "",
            "resources": json.dumps(record["resources"], sort_keys=True, ensure_ascii=False)
            if record["resources"]
            else "",
            "hash": record["hash"],
            "prev_hash": record.get("prev_hash", ""),
            "salt": record.get("salt", ""),
        }
    return [safe_cell(cells.get(column, "")) for column in columns]


def _csv_chunks(head: dict[str, Any], chunks: Iterator[list[dict[str, Any]]]) -> Iterator[str]:
    columns = GM_CSV_COLUMNS if "chain_head" in head else CSV_COLUMNS
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(columns)
    yield buffer.getvalue()
    for records in chunks:
        buffer.seek(0)
        buffer.truncate()
        writer.writerows(_csv_line(record, columns) for record in records)
        yield buffer.getvalue()


def _json_chunks(head: dict[str, Any], chunks: Iterator[list[dict[str, Any]]]) -> Iterator[str]:
    """One valid JSON object, written as it streams: the head, then the entries one per line."""
    opening = json.dumps(head, ensure_ascii=False)
    yield opening[:-1] + ', "entries": ['
    first = True
    for records in chunks:
        parts = []
        for record in records:
            parts.append(("" if first else ",") + "\n" + json.dumps(record, ensure_ascii=False))
            first = False
        yield "".join(parts)
    yield "\n]}\n"


def _stream(request: HttpRequest, parts: Iterator[str]) -> Iterator[bytes] | AsyncIterator[bytes]:
    """Under ASGI, Django would read a synchronous iterator into a list before sending it; an async
    iterator that pulls one chunk at a time (each in the request's sync thread, so it uses the
    request's database connection) keeps the export streaming there too."""
    encoded = (part.encode("utf-8") for part in parts)
    if not isinstance(request, ASGIRequest):
        return encoded
    pull = sync_to_async(lambda: next(encoded, None), thread_sensitive=True)

    async def chunks() -> AsyncIterator[bytes]:
        while (part := await pull()) is not None:
            yield part

    return chunks()


def _export(
    request: AuthenticatedHttpRequest,
    pk: int,
    extension: str,
    content_type: str,
    render_parts: Callable[[dict[str, Any], Iterator[list[dict[str, Any]]]], Iterator[str]],
) -> HttpResponse | StreamingHttpResponse:
    campaign, membership = campaign_for_member(request, pk)
    form, entries = _filtered(request, campaign, membership)
    if form.errors:
        # An export is a record someone keeps: rather than quietly exporting something other than
        # what was asked for, say what is wrong.
        problems = "; ".join(
            f"{form.fields[name].label}: {' '.join(errors)}" for name, errors in form.errors.items()
        )
        return HttpResponse(
            f"Can't export with these filters. {problems}",
            status=400,
            content_type="text/plain; charset=utf-8",
        )
    now = timezone.now().astimezone(UTC)
    head = {
        "format": "poolside-roll-log",
        # 2: no seq/prev_hash for players, "follows" is the followed entry's hash, the GM's
        # export has the salt and every other hashed field.
        "version": 2,
        "campaign": {"id": campaign.pk, "name": campaign.name, "system": campaign.system},
        "exported_at": now.isoformat(timespec="seconds"),
        "exported_by": request.user.get_username(),
        "filters": {key: str(value) for key, value in form.active.items()},
    }
    if membership.is_gm:
        # Where the whole chain ends now (filters or not): keep it with the export to check later
        # that nothing was cut from the end (docs/roll-log.md). Players don't get it: its count
        # would tell them how many rolls they can't see.
        log_head = LogHead.objects.filter(campaign=campaign).first() or LogHead()
        head["chain_head"] = {"length": log_head.length, "hash": log_head.hash}
    chunks = export_rows(entries, full=membership.is_gm)
    response = StreamingHttpResponse(
        _stream(request, render_parts(head, chunks)), content_type=content_type
    )
    filename = f"poolside-campaign-{campaign.pk}-log-{now:%Y%m%d-%H%M}.{extension}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


@login_required
@require_GET
def campaign_log_csv(
    request: AuthenticatedHttpRequest, pk: int
) -> HttpResponse | StreamingHttpResponse:
    return _export(request, pk, "csv", "text/csv; charset=utf-8", _csv_chunks)


@login_required
@require_GET
def campaign_log_json(
    request: AuthenticatedHttpRequest, pk: int
) -> HttpResponse | StreamingHttpResponse:
    return _export(request, pk, "json", "application/json", _json_chunks)


# ---------------------------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------------------------

STATS_VALUES = ("character_id", "character_name", "kind", "outcome", "odds_table", "faces")


def tally(entries: Any) -> tuple[Summary, list[tuple[int | None, str, Summary]]]:
    """One pass over the trials among ``entries`` (only the needed columns, streamed in chunks):
    the overall summary and one per character, by name."""
    overall = Tally(frozenset(RollEntry.SUCCESS_OUTCOMES))
    per_character: dict[tuple[int | None, str], Tally] = {}
    rows = (
        entries.filter(kind__in=TRIAL_KINDS)
        .values_list(*STATS_VALUES)
        .iterator(chunk_size=STATS_CHUNK)
    )
    for character_id, name, kind, outcome, odds_table, faces in rows:
        overall.add(kind, outcome, odds_table, faces)
        key = (character_id, name)
        if key not in per_character:
            per_character[key] = Tally(overall.success_outcomes)
        per_character[key].add(kind, outcome, odds_table, faces)
    characters = sorted(
        ((pk, name, t.summary()) for (pk, name), t in per_character.items()),
        key=lambda row: (row[1].casefold(), row[0] or 0),
    )
    return overall.summary(), characters


@login_required
@require_GET
def campaign_stats(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for_member(request, pk)
    entries = RollEntry.objects.readable_by(membership).filter(campaign=campaign)
    summary, characters = tally(entries)
    readable_ids = set(Character.objects.visible_to(membership).values_list("pk", flat=True))
    return render(
        request,
        "rolls/stats.html",
        {
            "campaign": campaign,
            "membership": membership,
            "summary": summary,
            "characters": [
                (pk if pk in readable_ids else None, name, s) for pk, name, s in characters
            ],
        },
    )


@login_required
@require_GET
def character_stats(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    character, membership = character_for_reader(request, pk)
    entries = RollEntry.objects.readable_by(membership).filter(character=character)
    summary, _ = tally(entries)
    return render(
        request,
        "rolls/stats.html",
        {
            "campaign": character.campaign,
            "character": character,
            "membership": membership,
            "summary": summary,
        },
    )
