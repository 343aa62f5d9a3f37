"""Writing messages and their corrections: the log's composer and the API both write through here
(docs/messages.md).

A message is an entry of the chain like a roll: appended under the chain's head lock, hashed, and
announced live to those who may read it. A whisper's recipients are hashed with it
(``options["to"]``) and written, in the same transaction, to the rows the visibility rule reads.
A correction is a new entry that follows the message's newest version; the one-follow-up
constraint keeps the versions in one line even when two corrections race.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.db import IntegrityError, transaction

from log.models import EntryRecipient, Kind, RollEntry, Visibility
from log.models.texts import keep, seal
from rolls.messages.forms import EVERYONE, GM_ONLY, WHISPER
from sheets.models import Campaign, Character, Membership, Refused
from web.ratelimit import Rate, attempt, rate

if TYPE_CHECKING:
    from django.contrib.auth.models import User

AUDIENCES = {EVERYONE: Visibility.PUBLIC, GM_ONLY: Visibility.GM_ONLY, WHISPER: Visibility.WHISPER}


class TooFast(Refused):
    """Over the member's message rate (settings.MESSAGE_RATE); ``wait`` seconds until the next."""

    def __init__(self, wait: int) -> None:
        super().__init__(f"That is a lot of messages at once: wait {wait} s and send it again.")
        self.wait = wait


def _throttle(user: User) -> None:
    count, seconds = rate(settings.MESSAGE_RATE)
    if count and (wait := attempt("message", str(user.pk), Rate(count, seconds))):
        raise TooFast(wait)


def post_message(
    user: User,
    membership: Membership,
    campaign: Campaign,
    *,
    text: str,
    character: Character | None,
    narration: bool = False,
    audience: str = EVERYONE,
    to: list[tuple[int, str]] | None = None,
) -> RollEntry:
    """Append a message. ``character``: spoken in character (one the form offered); none, out of
    character or, for the GM, ``narration``. ``to``: a whisper's recipients as (user id,
    username), as the form offered them. The form checked who may say what; this checks the
    audience rules again, since the API calls it too."""
    to = sorted(set(to or [])) if audience == WHISPER else []
    if audience == WHISPER and not to:
        raise Refused("Choose who the whisper is to.")
    if narration and not membership.is_gm:
        raise Refused("Only the GM narrates.")
    _throttle(user)
    voice = "in_character" if character else "narration" if narration else "out_of_character"
    options: dict[str, object] = {"voice": voice, "audience": audience}
    if to:
        options |= {"to": [pk for pk, _ in to], "to_names": [name for _, name in to]}
    with transaction.atomic():
        entry = _append(
            user,
            campaign,
            character=character,
            character_name=character.name if character else "",
            kind=Kind.MESSAGE,
            visibility=AUDIENCES[audience],
            options=options,
            text=text,
        )
        _write_recipients(entry)
    return entry


def correct_message(user: User, entry: RollEntry, text: str) -> RollEntry:
    """Append a correction of ``entry`` (the message, or any version of it): it follows the
    newest version, never rewrites one. Only the author corrects their message."""
    root = entry.root if entry.root_id else entry
    if root is None or root.kind != Kind.MESSAGE or root.roller_id != user.pk:
        raise Refused("Only its author corrects a message.")
    _throttle(user)
    try:
        with transaction.atomic():
            newest = RollEntry.objects.filter(root=root).order_by("-seq").first() or root
            if newest.said == text:
                raise Refused("That is what the message says already.")
            correction = _append(
                user,
                root.campaign,
                character=root.character,
                character_name=root.character_name,
                kind=Kind.MESSAGE_EDIT,
                follows=newest,
                options=root.options,
                text=text,
            )
            _write_recipients(correction)
    except IntegrityError:
        raise Refused("Someone corrected this message a moment ago: reload it first.") from None
    return correction


def _append(user: User, campaign: Campaign, *, text: str, **fields: Any) -> RollEntry:
    # A message has no dice and nothing to chance; what was said stands in ``detail`` (searched
    # like a roll's words), and ``label`` stays empty as a marker's does (the skill filter passes
    # empty labels for free). The text itself is committed, not bound (hash version 6): the
    # entry hashes SHA-256(salt ‖ text) and an empty ``detail``, the text and salt are kept
    # beside the chain in the same transaction, so it can be removed and the chain still verify.
    commitments, texts = seal({"detail": text})
    entry = RollEntry.objects.append(
        campaign=campaign,
        user=user,
        username=user.get_username(),
        system=campaign.system,
        detail="",
        commitments=commitments,
        **fields,
    )
    keep(entry, texts)
    return entry


def _write_recipients(entry: RollEntry) -> None:
    EntryRecipient.objects.bulk_create(
        EntryRecipient(entry=entry, user_ref=pk) for pk in entry.recipient_ids
    )
