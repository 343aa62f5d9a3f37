"""What an entry is (its kind) and who may read it (its visibility): the log's vocabulary, shared
by the models, the forms and the pages (docs/roll-log.md, docs/permissions.md)."""

from __future__ import annotations

from django.db import models


class Kind(models.TextChoices):
    ROLL = "roll", "Roll"
    AUTO_PASS = "auto_pass", "Automatic pass"
    SKIP = "skip", "Skipped roll"
    REVEAL = "reveal", "Reveal"
    DESTINY = "destiny", "Destiny after the roll"
    CORRECT = "correct", "Correct (re-roll)"
    CHOICE = "choice", "Choice"
    BUY_BOON = "buy_boon", "Boon bought with a bane"
    EXTRA_BOON = "extra_boon", "Extra boon spent"
    CONTEST = "contest", "Contest"
    ASSIST = "assist", "Assist"
    # The table's session markers (docs/sessions.md): entries of the chain like the rolls, so
    # the grouping is as tamper-evident as they are. No dice, no figures; always public.
    SESSION = "session", "Session started"
    SCENE = "scene", "New scene"
    SESSION_END = "session_end", "Session ended"
    # Messages (docs/messages.md): what members say at the table, in the same chain. A correction
    # is a new entry that follows the message (or its last correction), never an overwrite.
    MESSAGE = "message", "Message"
    MESSAGE_EDIT = "message_edit", "Correction"


# Kinds that start a chain (everything else follows one of these).
ROOT_KINDS = (
    Kind.ROLL,
    Kind.AUTO_PASS,
    Kind.SKIP,
    Kind.REVEAL,
    Kind.CONTEST,
    Kind.ASSIST,
    Kind.SESSION,
    Kind.SCENE,
    Kind.SESSION_END,
    Kind.MESSAGE,
)


# The session markers: an entry belongs to the session (and scene) of the newest marker at or
# before it in the chain, so belonging is decided by the chain's order and stored nowhere else.
MARKER_KINDS = (Kind.SESSION, Kind.SCENE, Kind.SESSION_END)


# Messages and their corrections: no dice. Never on a character's roll list (the sheet's strip,
# the GM table's cards) and never followed up, revealed or counted as a roll.
MESSAGE_KINDS = (Kind.MESSAGE, Kind.MESSAGE_EDIT)


class Visibility(models.TextChoices):
    """Who may read a roll. Follow-ups inherit their root's; a reveal makes a root readable by all."""

    PUBLIC = "public", "Public"
    GM_ONLY = "gm_only", "GM only (you and the GM)"
    BLIND = "blind", "Blind (only the GM sees the result)"
    SECRET = "secret", "Secret (the GM's own hidden roll)"
    # Messages only: the members the author chose (``EntryRecipient``), the author and the GM.
    WHISPER = "whisper", "Whisper (the chosen members and the GM)"


def offered_visibilities(*, gm: bool) -> list[tuple[str, str]]:
    """What "Who sees the result" offers. For the GM's own roll, GM-only (the roller and the GM)
    and blind (only the GM sees the result) both mean "only me": the same audience as secret, so
    the GM is offered public or secret and never two names for one thing. Players may not make a
    roll only they cannot read about (secret); they choose among the other three."""
    if gm:
        return [
            (Visibility.PUBLIC.value, Visibility.PUBLIC.label),
            (Visibility.SECRET.value, "Secret (only you see it)"),
        ]
    return [
        (value, label)
        for value, label in Visibility.choices
        if value not in (Visibility.SECRET, Visibility.WHISPER)
    ]


# Short names for cards and sentences ("a blind roll").
VISIBILITY_NAMES: dict[str, str] = {
    Visibility.PUBLIC: "public",
    Visibility.GM_ONLY: "GM-only",
    Visibility.BLIND: "blind",
    Visibility.SECRET: "secret",
    Visibility.WHISPER: "whisper",
}


# Display names of outcome codes (the engine's odds bands and Cold Stars results).
OUTCOME_LABELS: dict[str, str] = {
    "critical_success": "Critical success",
    "success": "Success",
    "costly_success": "Costly success",
    "choice": "Your choice: costly success or failure",
    "failure": "Failure",
    "critical_failure": "Critical failure",
    "contest_roll": "Rolled for a contest",
}
