"""The view chain: which entries a member was shown, as what, and the signed head over them.

A member's view is every entry they could see **when it was written**, in chain order: in full if
they could read it then, as a placeholder if it was their own blind roll, else not at all. That is
fixed once written — a later reveal adds the reveal entry, it doesn't rewrite what came before —
so the chain only ever grows, and a browser that saw it can check that it still does.

Each item is the entry's record as the member's export writes it, with its opaque id; its
digest is chained as ``proofs.protocol.view_step`` says. The head is kept per member
(``SeenHead``) and caught up on request, with a checkpoint every ``STEP`` items, so a visit costs
what was added since and a re-check of the newest ``WINDOW`` items.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import BooleanField, ExpressionWrapper, QuerySet, Value

from log.models import (
    HASH_VERSION_TEXT,
    LogHead,
    RollEntry,
    SeenCheckpoint,
    SeenHead,
)
from log.models.keys import server_key
from log.models.texts import with_texts
from log.models.visibility import AsOf, member_q
from log.tokens import entry_token
from proofs.protocol import roller_secret, view_message, view_start, view_step
from rolls.log.records import EXPORT_VALUES, record
from sheets.models import Membership

STEP = 64  # a checkpoint every STEP items
BUDGET = 10_000  # items folded in one request at most (under a second), when catching up
WINDOW = 50  # the newest items a browser re-checks on every visit, whatever it saw before
PAGE = 2_000  # items in one answer at most

VALUES = (*(name for name in EXPORT_VALUES if name != "readable"), "seen_readable")


def seen_entries(membership: Membership) -> QuerySet[RollEntry]:
    """The entries in the member's view, each with ``seen_readable`` (in full, or a placeholder):
    the visibility rule as it stood when each entry was written (log/models/visibility.py)."""
    entries = with_texts(RollEntry.objects.filter(campaign_id=membership.campaign_id))
    rule = member_q(membership, AsOf.WRITTEN)
    if rule is None:  # the GM
        return entries.annotate(seen_readable=Value(True))
    return entries.filter(rule.known).annotate(
        seen_readable=ExpressionWrapper(rule.readable, output_field=BooleanField())
    )


def item(row: dict[str, Any]) -> dict[str, object]:
    """One item of the view: the entry as the member's export writes it, and its opaque id.

    An entry of hash version 6 or later gives an item of format 2: a placeholder says so as
    ``"placeholder"``, and a committed text is chained by its commitment (``view_bound``). An
    older entry's item keeps format 1 byte for byte (a placeholder is ``"redacted"``): members'
    saved heads and the checkpoints were chained over those bytes."""
    shown: dict[str, object] = {"id": entry_token(row["pk"])}
    shown |= record(row, bool(row["seen_readable"]), full=False)
    if (row["hash_version"] or 0) < HASH_VERSION_TEXT:
        shown = {("redacted" if k == "placeholder" else k): v for k, v in shown.items()}
    return shown


def role(membership: Membership) -> str:
    return "gm" if membership.is_gm else "member"


def catch_up(membership: Membership) -> tuple[SeenHead, bool]:
    """The member's head, caught up with the log (at most ``BUDGET`` items this time: False
    when more remain). One member's requests take turns on their head's row."""
    campaign_id, user_id = membership.campaign_id, membership.user_id
    with transaction.atomic():
        head, _ = SeenHead.objects.select_for_update().get_or_create(
            campaign_id=campaign_id,
            user_ref=user_id,
            defaults={"gm": membership.is_gm, "hash": view_start(campaign_id, user_id)},
        )
        if head.gm != membership.is_gm:  # a new role sees another log: a new view
            head.checkpoints.all().delete()
            head.gm, head.length, head.through = membership.is_gm, 0, 0
            head.hash = view_start(campaign_id, user_id)
        # The newest entry first: what is appended while this runs waits for the next visit.
        newest = newest_entry(campaign_id)
        found = seen_entries(membership).filter(pk__gt=head.through, pk__lte=newest)
        rows = list(found.order_by("pk").values(*VALUES)[: BUDGET + 1])
        complete = len(rows) <= BUDGET  # one more than the budget says whether more remain
        rows = rows[:BUDGET]
        checkpoints = []
        last = head.through
        for row in rows:
            head.hash, head.length, last = (
                view_step(head.hash, item(row)),
                head.length + 1,
                row["pk"],
            )
            if head.length % STEP == 0:
                checkpoints.append(
                    SeenCheckpoint(head=head, length=head.length, hash=head.hash, entry_ref=last)
                )
        head.through = newest if complete else last
        head.save()
        SeenCheckpoint.objects.bulk_create(checkpoints)
    return head, complete


def newest_entry(campaign_id: int) -> int:
    newest = (
        RollEntry.objects.filter(campaign_id=campaign_id)
        .order_by("-seq")
        .values_list("pk", flat=True)
        .first()
    )
    return newest or 0


def items_between(
    head: SeenHead, membership: Membership, start: int, stop: int
) -> list[dict[str, object]]:
    """The items at positions ``start + 1`` to ``stop`` of the member's view (as caught up)."""
    if stop <= start:
        return []
    mark = head.checkpoints.filter(length__lte=start).order_by("-length").first()
    base, after = (mark.length, mark.entry_ref) if mark else (0, 0)
    rows = seen_entries(membership).filter(pk__gt=after, pk__lte=head.through)
    rows = rows.order_by("pk").values(*VALUES)[start - base : stop - base]
    return [item(row) for row in rows]


def hash_at(head: SeenHead, length: int) -> str:
    """The view's hash after ``length`` items: 0 or a checkpoint's."""
    if length == 0:
        return view_start(head.campaign_id, int(head.user_ref))
    return head.checkpoints.get(length=length).hash


def signed(membership: Membership, length: int, hash_: str) -> dict[str, object]:
    """A view head as the server signs it."""
    key = server_key()
    message = view_message(
        membership.campaign_id, membership.user_id, role(membership), length, hash_
    )
    return {"length": length, "hash": hash_, "key": key.id, "signature": key.sign(message)}


def answer(membership: Membership, since: int | None, start: int | None) -> dict[str, Any]:
    """What a browser (or script) checks its saved head against: the signed head, and the items
    from where it should fold — the newest ``WINDOW`` or back to its saved length, whichever is
    further, from a checkpoint — ``PAGE`` at a time (``start``: the next page's first position).
    """
    head, complete = catch_up(membership)
    length = head.length
    if start is None:
        back = length - WINDOW if since is None else min(since, length - WINDOW)
        start = max(0, back) // STEP * STEP
        begin: dict[str, object] | None = {"length": start, "hash": hash_at(head, start)}
    else:
        start, begin = max(0, min(start, length)), None
    stop = min(length, start + PAGE)
    return {
        "campaign": membership.campaign_id,
        "member": membership.user_id,
        "role": role(membership),
        "head": signed(membership, length, head.hash) | {"complete": complete},
        "start": begin,
        "first": start + 1,
        "items": items_between(head, membership, start, stop),
        "next": stop if stop < length else None,
        "counter": own_counter(membership),
    }


def own_counter(membership: Membership) -> dict[str, object]:
    """The member's own counter secret and the name their entries carry: with them the browser
    numbers the member's rolls (alpha version 2) and finds one drawn and never logged
    (docs/verifiable-dice.md). Only their own: another's would count that member's hidden
    rolls. Outside the signed head: it proves nothing, it only opens the member's numbers."""
    secret = LogHead.objects.filter(campaign_id=membership.campaign_id).values_list(
        "position_secret", flat=True
    )
    mine = roller_secret(secret.first() or "", membership.campaign_id, membership.user_id)
    return {"roller": membership.user_id, "secret": mine, "player": membership.user.username}
