"""What can be rolled on a sheet: each rollable row is a target, named by a URL kind and its pk.

Targets are looked up *within* the character in the URL (404 otherwise), like every sheet row.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, wraps
from typing import Any, cast

from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from config.http import AuthenticatedHttpRequest
from config.prepared import Prepared
from config.sessions import SessionStore
from sheets.access import character_for_roller, check_reader, check_roller, with_viewer
from sheets.models import Character, Membership, Sheet
from sheets.systems import RowKind, RuleSystem, all_rule_systems


@dataclass(frozen=True)
class Target:
    kind: str
    obj: Any
    character: Character

    @property
    def system(self) -> str:
        return self.character.campaign.system

    @property
    def sheet(self) -> Sheet:
        return self.obj.owning_sheet

    @property
    def label(self) -> str:
        return self.obj.roll_label

    @property
    def is_combat(self) -> bool:
        return self.obj.is_combat


def load_target(character: Character, kind: str, pk: int) -> Target:
    """The row ``pk`` of ``kind`` on this character's sheet; 404 for anything else."""
    row = character.campaign.rule_system.row_kind(kind)
    if row is None:
        raise Http404("Nothing to roll there.")
    qs = row.model._default_manager.select_related(*row.related).prefetch_related(*row.prefetch)
    obj = get_object_or_404(qs, pk=pk, **{row.lookup: character.pk})
    return Target(kind=kind, obj=obj, character=character)


def target_for_roller(
    request: AuthenticatedHttpRequest, pk: int, kind: str, target_pk: int
) -> tuple[Target, Membership]:
    """The row a roll panel, its odds or a roll is for, and the roller's membership — in one
    query with the sheet, the character, its campaign, the membership and what the panel reads
    about the character (the roll is the hot path: docs/performance.md). The permission answers
    are :func:`character_for_roller`'s then :func:`load_target`'s: a non-member or a hidden NPC
    is a 404, a member who may not roll a 403, a row that isn't on this character's sheet a
    404."""
    prepared = _roll_rows(kind)
    if prepared is not None:
        ahead = request.__dict__.pop(_READ_AHEAD, None)
        if ahead is not None and ahead[:4] == (kind, pk, target_pk, request.user.pk):
            found = ahead[4]
        else:
            found = prepared.fetch(pk=target_pk, character=pk, user=request.user.pk)
        character = found[0].owning_sheet.character if found else None
        if character is not None and character.campaign.system == prepared.system:
            membership = check_reader(character, found[0])
            check_roller(character, membership)
            return Target(kind=kind, obj=found[0], character=character), membership
    # Whatever didn't check out, the step-by-step way says why.
    character, membership = character_for_roller(request, pk)
    return load_target(character, kind, target_pk), membership


# The request's attribute for what read_with_session read: (kind, pk, target pk, user id, rows).
_READ_AHEAD = "poolside_roll_rows"


def read_with_session[V: Callable[..., HttpResponse]](view: V) -> V:
    """For a view of a roll target (``pk``, ``kind``, ``target_pk``), outside ``login_required``:
    the target's row is read in the statement that reads the session, for the session's user
    (``SessionStore.read_along``) — one round trip fewer on the roll's path
    (docs/performance.md). :func:`target_for_roller` takes those rows only if they were read
    for the user the session then logs in, after every check Django makes; otherwise, as
    without this, it reads them itself."""

    @wraps(view)
    def read_first(request: HttpRequest, pk: int, kind: str, target_pk: int) -> HttpResponse:
        prepared = _roll_rows(kind)
        session = getattr(request, "session", None)
        if prepared is not None and isinstance(session, SessionStore):
            read = session.read_along(prepared, "user", pk=target_pk, character=pk)
            if read is not None and read[0] is not None:
                setattr(request, _READ_AHEAD, (kind, pk, target_pk, *read))
        return view(request, pk, kind, target_pk)

    return cast(V, read_first)


class _RollRows(Prepared[Any]):
    system: str


@cache
def _roll_rows(kind: str) -> _RollRows | None:
    """The prepared query for rows of ``kind`` (one per kind and process)."""
    for system in all_rule_systems():
        row = system.row_kind(kind)
        if row is not None:
            return _prepare(system, row)
    return None


def _prepare(system: RuleSystem[Any], row: RowKind) -> _RollRows:
    to_character = row.lookup.removesuffix("_id") + "__character"

    def build(pk: int, character: int, user: int) -> QuerySet[Any]:
        # Not the owner: nothing a roll shows names them, and each join costs PostgreSQL's
        # planner more than it would cost to read it later (docs/performance.md). The log's
        # head is: a roll links its entry to it (RollEntryQuerySet.append), and read here it
        # costs no round trip of its own.
        rows = row.model._default_manager.select_related(
            *row.related, f"{to_character}__campaign__log_head"
        ).prefetch_related(*row.prefetch)
        rows = with_viewer(rows, f"{to_character}__campaign", user)
        rows = system.roll_form.with_roll_state(rows, row.lookup)
        return rows.filter(pk=pk, **{row.lookup: character}).order_by()

    prepared = _RollRows(build, pk=int, character=int, user=int)
    prepared.system = system.key
    return prepared


def find_target(character: Character, name: str, *, assist: bool = False) -> Target | None:
    """The row called ``name`` on this character's sheet, or None when the sheet has none.

    Names are unique per sheet, except Cogent sub-skills (unique per vocation): the first one, in
    vocation order, is taken. A Cogent vocation is found only for an assist (rules at the table:
    vocations only assist), so a call or a contest never rolls one.
    """
    for row in character.campaign.rule_system.rows:
        if row.assist_only and not assist:
            continue
        qs = row.model._default_manager.filter(**{row.lookup: character.pk}, name=name)
        if row.order_by:
            qs = qs.order_by(*row.order_by)
        pk = qs.values_list("pk", flat=True).first()
        if pk is not None:
            return load_target(character, row.kind, pk)
    return None


def row_names(character: Character, *, assist: bool = False) -> dict[str, tuple[str, int]]:
    """Every rollable row of this sheet by name → (URL kind, pk), the one :func:`find_target`
    would pick for that name; one query per kind of row, however many names are looked up."""
    found: dict[str, tuple[str, int]] = {}
    for row in character.campaign.rule_system.rows:
        if row.assist_only and not assist:
            continue
        qs = row.model._default_manager.filter(**{row.lookup: character.pk})
        if row.order_by:
            qs = qs.order_by(*row.order_by)
        for name, pk in qs.values_list("name", "pk"):
            found.setdefault(name, (row.kind, pk))
    return found
