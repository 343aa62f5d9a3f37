"""The log as CSV or JSON, streamed in chunks with the same filters and visibility as the page
(docs/log-tools.md has the formats).
"""

from __future__ import annotations

import csv
import functools
import io
import json
import queue
import threading
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

import orjson
from asgiref.sync import sync_to_async
from django.contrib.auth.decorators import login_required
from django.core.handlers.asgi import ASGIRequest
from django.db import connections
from django.db.models import TextField
from django.db.models.functions import Cast
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.utils import timezone
from django.views.decorators.http import require_GET

from log.models import MARKER_KINDS, LogHead, RollEntryQuerySet
from log.models.keys import published_keys
from log.models.texts import TEXT_REMOVED, TITLE_REMOVED, with_texts
from proofs.protocol import roller_secret
from rolls.log.filters import filtered_entries
from rolls.log.records import EXPORT_VALUES, Record
from rolls.log.records import record as export_record
from rolls.models import WebhookDelivery
from rolls.rolling.display import decimal_text
from sheets.access import campaign_for_member
from sheets.models import Campaign
from sheets.usage import heavy_limited
from web.abandon import stops_when_abandoned
from web.http import AuthenticatedHttpRequest

# Rows per export query: big enough that a million entries take 500 queries, small enough that a
# chunk's rows and their rendered text stay a few megabytes.
EXPORT_CHUNK = 2000


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
    "placeholder",
    "hash",
)


# The GM's export reads every entry, so it carries the whole chain: enough to verify it.
GM_CSV_COLUMNS = ("seq", *CSV_COLUMNS, "prev_hash", "salt")


# Cells a spreadsheet would read as a formula (or that hide one behind a tab or carriage return).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


DIE_LETTERS = {"ability": "A", "skill": "S", "risk": "R"}


PLACEHOLDER_FIELDS = ("time", "character", "player", "system", "kind", "visibility", "label")


def safe_cell(value: object) -> object:
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


@functools.lru_cache(maxsize=1024)
def _percent(odds: str) -> str:
    try:
        return decimal_text(Fraction(odds) * 100, 2)
    except (ValueError, ZeroDivisionError):
        return ""


# The JSON columns of an export row. Read as their text (``Cast``), not through JSONField's
# ``json.loads``: the JSON export splices the text in as it is (``orjson.Fragment``), and the CSV
# parses only the two columns it shows — decoding and re-encoding six JSON values per row was most
# of an export's time.
JSON_COLUMNS = ("options", "pool", "faces", "result", "odds_table", "resource_changes", "proof")


# The CSV's two JSON cells, straight from the stored text. A log repeats its dice and resources
# endlessly, so each distinct text is parsed and written once (the caches are small and bounded).
@functools.lru_cache(maxsize=8192)
def _faces_cell(text: str) -> str:
    return compact_faces(orjson.loads(text))


@functools.lru_cache(maxsize=8192)
def _resources_cell(text: str) -> str:
    value = orjson.loads(text)
    return json.dumps(value, sort_keys=True, ensure_ascii=False) if value else ""


CSV_CELLS: dict[str, Callable[[str], object]] = {
    "faces": _faces_cell,
    "resource_changes": _resources_cell,
}

# What no CSV column shows (the JSON export's alone): not read for a CSV. Two of them need joins
# of their own (reveals, root), four are JSON columns the query would turn into text.
CSV_UNREAD = (
    "pk",
    "proof",
    "signature",
    "signed_by",
    "options",
    "pool",
    "result",
    "odds_table",
    "follows__seq",
    "reveals__seq",
    "root__seq",
    "call_id",
    "contest_id",
    "character_ref",
    "user_ref",
    "roller_ref",
    "hidden_character",
    "hash_version",
    "odds_display",
)


def export_rows(
    entries: RollEntryQuerySet,
    *,
    full: bool,
    cells: Mapping[str, Callable[[str], object]] | None = None,
    unread: tuple[str, ...] = (),
) -> Iterator[list[Record]]:
    """The filtered visible entries, oldest first, as export records — one list per keyset chunk of
    ``EXPORT_CHUNK`` rows (``seq > last``: never OFFSET, never the whole log in memory).

    A readable entry gives every field; an entry the member only knows exists gives the
    placeholder fields. ``full`` (the GM's export) adds the chain: seq, prev_hash, salt and the
    rest of the hashed fields. The JSON columns come as ``orjson.Fragment`` (their stored text),
    those in ``cells`` as what its function makes of the text (the CSV's cells). ``unread``: the
    values a format never writes (``CSV_UNREAD``), left out of the query — no join, no text
    made of a JSON column — and None in the records.

    The next chunk is read on a second connection (``Prefetch``) while this one is written, so
    the database's work and the writing overlap — except inside a transaction (tests,
    ``ATOMIC_REQUESTS``), whose rows another connection might not see: there one connection
    reads every chunk in turn.
    """
    entries = with_texts(entries)  # a committed text: one LEFT JOIN, no query per entry
    read = tuple(name for name in JSON_COLUMNS if name not in unread)
    texts = {f"{name}__text": Cast(name, TextField()) for name in read}
    fields = [name for name in EXPORT_VALUES if name not in JSON_COLUMNS + unread]
    blank = dict.fromkeys(unread)

    def fetch(last_seq: int) -> list[dict[str, Any]]:
        rows = entries.filter(seq__gt=last_seq).order_by("seq").values(*fields, **texts)
        return list(rows[:EXPORT_CHUNK])

    prefetch = None if connections[entries.db].in_atomic_block else Prefetch(fetch)
    try:
        chunk = fetch(0)
        while chunk:
            more = len(chunk) == EXPORT_CHUNK
            if more and prefetch is not None:
                prefetch.ask(chunk[-1]["seq"])
            yield [
                export_record(
                    _json_values(row | blank, read, full, cells or {}),
                    bool(row["readable"]),
                    full=full,
                )
                for row in chunk
            ]
            if not more:
                return
            chunk = prefetch.take() if prefetch is not None else fetch(chunk[-1]["seq"])
    finally:
        if prefetch is not None:
            prefetch.stop()


class Prefetch:
    """A thread with its own database connection that reads an export's next chunk while the
    request's thread writes the current one. It ends (and gives its connection back) when told
    to stop, on its first error (handed to the reader), or after ``IDLE`` seconds unasked — an
    export abandoned without being closed leaves no thread or connection behind."""

    IDLE = 30.0

    def __init__(self, fetch: Callable[[int], list[dict[str, object]]]) -> None:
        self._fetch = fetch
        self._asks: queue.SimpleQueue[int | None] = queue.SimpleQueue()
        self._rows: queue.SimpleQueue[list[dict[str, object]] | BaseException] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None

    def ask(self, last_seq: int) -> None:
        """Start reading the chunk after ``last_seq`` (the thread starts with the first ask: an
        export of one chunk needs none)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="export-prefetch", daemon=True)
            self._thread.start()
        self._asks.put(last_seq)

    def take(self) -> list[dict[str, Any]]:
        """The chunk asked for last (waiting for it), or its error raised."""
        rows = self._rows.get()
        if isinstance(rows, BaseException):
            raise rows
        return rows

    def stop(self) -> None:
        self._asks.put(None)

    def _run(self) -> None:
        try:
            while True:
                try:
                    last_seq = self._asks.get(timeout=self.IDLE)
                except queue.Empty:
                    return
                if last_seq is None:
                    return
                try:
                    self._rows.put(self._fetch(last_seq))
                except Exception as error:  # the reader raises it
                    self._rows.put(error)
                    return
        finally:
            connections.close_all()  # this thread's connections only (they are per thread)


def _json_values(
    row: dict[str, Any],
    read: tuple[str, ...],
    full: bool,
    cells: Mapping[str, Callable[[str], object]],
) -> dict[str, object]:
    for name in read:
        text = row.pop(f"{name}__text")
        # A player's contest result loses its numbers (records._numberless): it must be read.
        if name in cells:
            row[name] = cells[name](text)
        elif name == "result" and not full and '"sides"' in text:
            row[name] = orjson.loads(text)
        else:
            row[name] = orjson.Fragment(text)
    return row


def _removed(record: Mapping[str, object]) -> str:
    """What the CSV says of a committed text removed: a marker's was the GM's title."""
    return TITLE_REMOVED if record.get("kind") in MARKER_KINDS else TEXT_REMOVED


def _csv_line(record: Mapping[str, object], columns: tuple[str, ...]) -> list[object]:
    readable = not record["placeholder"]
    cells = {key: record.get(key, "") for key in ("seq", *PLACEHOLDER_FIELDS)}
    cells["placeholder"] = "yes" if record["placeholder"] else "no"
    if readable:
        cells |= {
            "breakdown": record["breakdown"],
            "faces": record["faces"],  # already the cell (CSV_CELLS)
            "outcome": record["outcome"],
            "outcome_label": record["outcome_label"],
            "detail": _removed(record) if record["detail"] is None else record["detail"],
            "odds": record["odds"],
            "odds_percent": _percent(record["odds"]),
            "follows": record["follows"] or "",
            "resources": record["resources"],
            "hash": record["hash"],
            "prev_hash": record.get("prev_hash", ""),
            "salt": record.get("salt", ""),
        }
    return [safe_cell(cells.get(column, "")) for column in columns]


def _csv_chunks(head: dict[str, object], chunks: Iterator[list[Record]]) -> Iterator[str]:
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


def _json_chunks(head: dict[str, object], chunks: Iterator[list[Record]]) -> Iterator[str]:
    """One valid JSON object, written as it streams: the head, then the entries one per line."""
    opening = json.dumps(head, ensure_ascii=False)
    yield opening[:-1] + ', "entries": ['
    first = True
    for records in chunks:
        # orjson writes UTF-8 as it is (like ensure_ascii=False), compactly, and ten times faster.
        lines = b",\n".join(orjson.dumps(record) for record in records).decode()
        yield ("\n" if first else ",\n") + lines
        first = False
    yield "\n]}\n"


def streamed(request: HttpRequest, parts: Iterator[str]) -> Iterator[bytes] | AsyncIterator[bytes]:
    """Under ASGI, Django would read a synchronous iterator into a list before sending it; an async
    iterator that pulls one chunk at a time (each in the request's sync thread, so it uses the
    request's database connection) keeps the export streaming there too."""
    encoded = (part.encode("utf-8") for part in parts)
    if not isinstance(request, ASGIRequest):
        return encoded
    pull = sync_to_async(lambda: next(encoded, None), thread_sensitive=True)

    async def chunks() -> AsyncIterator[bytes]:
        try:
            while (part := await pull()) is not None:
                yield part
        finally:  # the client went (Django cancels the sending) or the end: stop the reading
            encoded.close()

    return chunks()


def _export_head(
    request: AuthenticatedHttpRequest,
    campaign: Campaign,
    is_gm: bool,
    filters: Mapping[str, object],
    now: datetime,
) -> dict[str, object]:
    """What an export says before its entries: the campaign, who and when, the filters, the
    published keys and (the GM's) the signed head of the whole chain."""
    head = {
        "format": "poolside-roll-log",
        # 2: no seq/prev_hash for players, "follows" is the followed entry's hash, the GM's
        # export has the salt and every other hashed field. 3: the dice proofs, the keys, and
        # (the GM's) the signatures, the signed head and the position secret. 4: a placeholder is
        # "placeholder" (was "redacted"), and a message's text comes with its commitment and salt.
        "version": 4,
        "campaign": {"id": campaign.pk, "name": campaign.name, "system": campaign.system},
        "exported_at": now.isoformat(timespec="seconds"),
        "exported_by": request.user.get_username(),
        "filters": {key: str(value) for key, value in filters.items()},
        # Every key the server has signed and proved with, and the span each signed: what the
        # standalone verifier checks proofs and signatures against (docs/verifiable-dice.md).
        "keys": published_keys(),
    }
    log_head = LogHead.objects.filter(campaign=campaign).first() or LogHead()
    # The exporter's own counter secret: with it the standalone verifier numbers their rolls
    # (alpha version 2) and finds a roll drawn and never logged. Only their own: another's
    # would count that member's hidden rolls (docs/verifiable-dice.md).
    mine = roller_secret(log_head.position_secret, campaign.pk, request.user.pk)
    head["counter"] = {"roller": request.user.pk, "secret": mine}
    if is_gm:
        # Where the whole chain ends now (filters or not), signed: keep it with the export to
        # check later that nothing was cut from the end (docs/roll-log.md). Players don't get
        # it: its count would tell them how many rolls they can't see. Nor the position secret,
        # which would let them number the proofs.
        head["chain_head"] = {
            "length": log_head.length,
            "hash": log_head.hash,
            "signature": log_head.signature,
            "key": log_head.signed_by,
        }
        head["position_secret"] = log_head.position_secret
        head["witnesses"] = gm_witnesses(campaign)
    return head


def gm_witnesses(campaign: Campaign) -> list[dict[str, object]]:
    """Every witness token posted for the campaign, as the GM keeps it: the token with its
    salt (``verify_log --witness`` takes it), the head it was taken of and when. Players never
    get it: the salt and the length are what the posted token keeps from them
    (docs/verifiable-dice.md#an-outside-witness)."""
    kept: dict[str, dict[str, object]] = {}
    snapshots = WebhookDelivery.objects.filter(
        webhook__campaign=campaign, witness__isnull=False
    ).order_by("pk")
    for delivery in snapshots.only("pk", "witness"):
        token = delivery.witness_token
        if token is not None and token.token not in kept:
            head = delivery.witness or {}
            kept[token.token] = {
                "token": token.token,
                "gm_copy": token.gm_copy,
                "length": head.get("length"),
                "at": head.get("at"),
            }
    return list(kept.values())


def _export(
    request: AuthenticatedHttpRequest,
    pk: int,
    extension: str,
    content_type: str,
    render_parts: Callable[[dict[str, object], Iterator[list[Record]]], Iterator[str]],
) -> HttpResponse | StreamingHttpResponse:
    campaign, membership = campaign_for_member(request, pk)
    form, entries = filtered_entries(request, campaign, membership)
    if form.errors:
        # An export is a record someone keeps: rather than quietly exporting something other than
        # what was asked for, say what is wrong.
        problems = "; ".join(
            f"{form.fields[name].label}: {' '.join(map(str, errors))}"
            for name, errors in form.errors.items()
        )
        return HttpResponse(
            f"Can't export with these filters. {problems}",
            status=400,
            content_type="text/plain; charset=utf-8",
        )
    now = timezone.now().astimezone(UTC)
    head = _export_head(request, campaign, membership.is_gm, form.active, now)
    as_csv = extension == "csv"
    chunks = export_rows(
        entries,
        full=membership.is_gm,
        cells=CSV_CELLS if as_csv else None,
        unread=CSV_UNREAD if as_csv else (),
    )
    response = StreamingHttpResponse(
        streamed(request, render_parts(head, chunks)), content_type=content_type
    )
    filename = f"poolside-campaign-{campaign.pk}-log-{now:%Y%m%d-%H%M}.{extension}"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


@stops_when_abandoned
@login_required
@require_GET
@heavy_limited("export")
def campaign_log_csv(
    request: AuthenticatedHttpRequest, pk: int
) -> HttpResponse | StreamingHttpResponse:
    return _export(request, pk, "csv", "text/csv; charset=utf-8", _csv_chunks)


@stops_when_abandoned
@login_required
@require_GET
@heavy_limited("export")
def campaign_log_json(
    request: AuthenticatedHttpRequest, pk: int
) -> HttpResponse | StreamingHttpResponse:
    return _export(request, pk, "json", "application/json", _json_chunks)
