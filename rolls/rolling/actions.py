"""Making a roll and following one up: the service the roll panel's views, the API, the GM's calls
and contests go through (the views only read requests and draw answers). Each action is one
transaction that re-checks what it relies on under a lock, and raises :class:`Refused` with
nothing written when the rules, the resources or a moment-earlier change say no.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import IntegrityError, transaction

import live
from log.models import HeadMoved, Kind, RollEntry, Visibility
from rolls.models import Assist, AssistRequest
from rolls.rolling import choosers, followups
from rolls.rolling.asks import Ask, ask_for
from rolls.rolling.dice import dice_for, nonce_from
from rolls.rolling.forms.base import RollForm
from rolls.rolling.outcomes import Outcome
from rolls.rolling.targets import Target
from rolls.table import contests
from sheets.models import Character, Refused
from sheets.systems import rule_system_of

if TYPE_CHECKING:
    from django.contrib.auth.models import User

NONCE_USED = (
    "This dice nonce was already used for another roll: send a new one with each roll, and the "
    "same one only to retry a roll whose answer you didn't get."
)


def make_roll(
    user: User, target: Target, form: RollForm, action: str, params: Any
) -> tuple[RollEntry, Ask | None]:
    """Roll a valid panel ``form`` for ``target`` as ``user``: one transaction that re-checks the
    GM's request it answers (``params``: call/contest), spends, rolls and appends. Raises
    :class:`Refused` (nothing written) when the rules or resources say no. The page and the API
    both roll through here. ``params["nonce"]``: the roller's contribution to the dice."""
    assisted, taken = _assists(form)
    # A plain roll — no GM's request to re-check, nothing spent, no assist given or taken —
    # writes nothing but its entry, and the append is a transaction of its own (on PostgreSQL one
    # statement, RollEntryQuerySet.append). Anything more commits with the entry, or not at all.
    plain = not (
        params.get("call")
        or params.get("contest")
        or form.spends(action)
        or assisted is not None
        or taken is not None
    )
    if form.player_choices(action):
        # Press, Brace, Willpower or a skip: the character's player's to make (RULES.md §8).
        choosers.check(user, target.character)
    # Drawn once when none was sent: a retry after a lost race draws with the same nonce and
    # the same counter, so the same dice (docs/verifiable-dice.md).
    nonce = nonce_from(params.get("nonce", ""))
    try:
        if plain:
            try:
                return _roll(user, target, form, action, params, nonce)
            except HeadMoved:
                # Another roll took the place in the log these dice were drawn for; nothing was
                # written. Roll again where this one will land, under the head's lock: the same
                # nonce and (unless this roller's counter moved meanwhile) the same dice.
                pass
        with transaction.atomic():
            return _roll(user, target, form, action, params, nonce)
    except (IntegrityError, Refused):
        # A retry of a request that was written but whose answer was lost: the nonce is the
        # roll's idempotency key, so the answer is the entry already made, never a second roll
        # (nor a refusal because the first one spent, answered or took something).
        made = _made_before(user, target.character, nonce)
        if made is None:
            raise
        if (made.character_id, made.follows_id, made.label) != (
            target.character.pk,
            None,
            target.label,
        ):
            raise Refused(NONCE_USED) from None
        made.replayed = True
        return made, None


def _made_before(user: User, character: Character, nonce: object) -> RollEntry | None:
    """The entry ``user`` already made with ``nonce`` (an idempotency key), if any. None when
    this runs inside a caller's transaction the failed append has spoilt (the append adds no
    savepoint of its own: RollEntryQuerySet.append): that caller reports the failure."""
    connection = transaction.get_connection()
    if connection.in_atomic_block and transaction.get_rollback():
        return None
    return RollEntry.objects.made_with_nonce(character.campaign_id, user, str(nonce or ""))


def _roll(
    user: User, target: Target, form: RollForm, action: str, params: Any, nonce: str
) -> tuple[RollEntry, Ask | None]:
    character = target.character
    assisted, _ = _assists(form)
    # Re-checked under a row lock: closed, answered or decided a moment ago refuses.
    ask = ask_for(params, character, target, lock=True)
    if ask is not None and assisted is not None:
        raise Refused("An answer to the GM's request can't be an assist roll.")
    # A roll that spends nothing needs no sheet lock: it reads the sheet as loaded.
    sheet = (
        rule_system_of(character.campaign).lock_sheet(character.pk)
        if form.spends(action)
        else form.sheet
    )
    dice = dice_for(character.campaign, nonce, target.label, roller=user.pk)
    outcome = form.roll(action, sheet, dice)
    _lock_assists(form)
    links = ask.links() if ask else {}
    entry = _append(
        user,
        character,
        outcome,
        label=target.label,
        visibility=form.chosen_visibility,
        dice=dice,
        **links,
    )
    _answered(ask, entry, user)
    _record_assist(form, entry)
    return entry, ask


def changed(form: RollForm, entry: RollEntry, ask: Ask | None) -> tuple[bool, bool]:
    """What a roll changed on its sheet besides the log: its resources (something spent), and
    its prompts (a GM's request answered, an assist given or taken)."""
    assisted, taken = _assists(form)
    return bool(entry.resource_changes), not (ask is None and assisted is None and taken is None)


def _assists(form: RollForm) -> tuple[Character | None, Assist | None]:
    """The character this roll assists and the waiting assist it takes (Cogent's panel only;
    None and None for the others)."""
    return form.assist_target, form.assist_taken()


def _lock_assists(form: RollForm) -> None:
    """Inside the roll's transaction, re-check the assist state the form was built on: the
    waiting assist this roll takes is still waiting, and no other assist has started to wait
    for the character this one is for (one at a time, cogent.ASSISTS_PER_ROLL)."""
    assisted, taken = _assists(form)
    if taken is not None:
        # Its wins too: destiny spent after the assist roll changes them (RULES.md §8).
        still = Assist.objects.select_for_update().waiting().filter(pk=taken.pk, wins=taken.wins)
        if not still.exists():
            raise Refused(
                f"{taken.by_name}'s assist was used, dropped or changed a moment ago; check the "
                "odds again."
            )
    if assisted is not None:
        rule_system_of(assisted.campaign).lock_sheet(assisted.pk)  # serialises two assists for one
        if Assist.objects.waiting_for(assisted).exists():
            raise Refused(f"An assist already waits for {assisted.name}.")


def _record_assist(form: RollForm, entry: RollEntry) -> None:
    """After the entry is appended: an assist starts to wait, or the one taken is used."""
    assisted, taken = _assists(form)
    if entry.kind == Kind.ASSIST and assisted is not None:
        Assist.objects.create(
            campaign_id=entry.campaign_id,
            entry=entry,
            assisted=assisted,
            wins=entry.result["assist"],
            further_helpers=entry.options.get("further_helpers", 0),
        )
        AssistRequest.objects.close_for(assisted)  # the request, if any, is answered
        # The assisted character's sheet (its stream hears only its own entries) and every
        # sheet's prompt area (an answered request goes away) learn of it without a reload.
        live.publish(entry.campaign_id, "sheet", assisted.pk)
        live.publish(entry.campaign_id, "call", 0)
        return
    if taken is not None and "assist" in entry.options:
        Assist.objects.filter(pk=taken.pk).update(used_by=entry)


def _answered(ask: Ask | None, entry: RollEntry, user: User) -> None:
    """Inside the roll's transaction: tell the GM table (and decide a single-roll contest)."""
    if ask is None:
        return
    # Caused by the entry: a member who may not know of a hidden roll doesn't hear of its answer.
    if ask.call is not None:
        live.publish(entry.campaign_id, "call", ask.call.pk, cause=entry.pk)
    elif ask.contest is not None:
        contests.rolled_single(ask.contest, entry, user)
        live.publish(entry.campaign_id, "contest", ask.contest.pk, cause=entry.pk)


def _append(
    user: User,
    character: Character,
    outcome: Outcome,
    *,
    label: str,
    follows: RollEntry | None = None,
    visibility: str = Visibility.PUBLIC,
    dice: Any = None,
    **links: object,
) -> RollEntry:
    return RollEntry.objects.append_by(
        user,
        character,
        **links,
        dice=dice,
        follows=follows,
        label=label,
        visibility=visibility,
        **outcome.fields(),
    )


def make_follow_up(
    user: User, entry: RollEntry, character: Character, action: str, value: str, nonce: str = ""
) -> RollEntry:
    """Follow ``entry`` up with ``action`` (one of ``followups.names()``) in one transaction
    that locks the sheet; :class:`Refused` when the rules or resources say no, or when someone
    followed it up a moment earlier. The page and the API both follow up through here."""
    if not entry.info.followable:
        raise Refused("Only a roll is followed up.")
    # Every follow-up is a choice or a spend after the roll: its player's on a player
    # character's roll, the GM's on an NPC's (RULES.md §8); a 403 for anyone else.
    choosers.check(user, character, entry)
    try:
        with transaction.atomic():
            sheet = rule_system_of(character.campaign).lock_sheet(character.pk)
            dice = dice_for(character.campaign, nonce, entry.label, roller=user.pk)
            outcome = followups.perform(action, entry, sheet, dice, value)
            return _append(user, character, outcome, label=entry.label, follows=entry, dice=dice)
    except (IntegrityError, Refused) as exc:
        made = _made_before(user, character, nonce)
        if made is not None and (made.character_id, made.follows_id) == (character.pk, entry.pk):
            # A retry of this very follow-up, written before its answer was lost.
            made.replayed = True
            return made
        if made is not None:
            raise Refused(NONCE_USED) from None
        if isinstance(exc, Refused):
            raise
        # Someone followed this entry up a moment earlier: the one-follow-up constraint held.
        raise Refused("This roll already has a follow-up.") from None
