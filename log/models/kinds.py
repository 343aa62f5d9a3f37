"""What an entry is (its kind) and who may read it (its visibility): the log's vocabulary, shared
by the models, the forms and the pages (docs/roll-log.md, docs/permissions.md)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, TypedDict, Unpack

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
    PUNCH = "punch", "Puncher's chance"
    CONTEST = "contest", "Contest"
    ASSIST = "assist", "Assist"
    SESSION = "session", "Session started"
    SCENE = "scene", "New scene"
    SESSION_END = "session_end", "Session ended"
    MESSAGE = "message", "Message"
    MESSAGE_EDIT = "message_edit", "Correction"
    REFRESH = "refresh", "Resources refreshed"


WebhookShape = Literal["roll", "message", "marker"]
RecapShape = Literal["roll", "message", "heading", ""]


@dataclass(frozen=True)
class KindInfo:
    """What the app asks of a kind of entry, answered once (docs/roll-log.md, "Adding a kind of
    log entry"). Every field is named by the question the code asks; no module compares kinds to
    decide these. ``Kind`` holds the app's own kinds; ``settings.LOG_KINDS`` adds more
    (``register_kind``, from ``RollsConfig.ready``)."""

    key: str
    label: str
    # Starts a chain (has no ``follows``); everything else follows one of these.
    starts_chain: bool = True
    # Holds dice drawn for it (faces, pool, odds, perhaps a proof).
    has_dice: bool = True
    # A rule system's follow-up (destiny, a bought boon, a correction) may follow it.
    followable: bool = True
    # Fresh dice with their own odds: one trial in the statistics (rolls/log/statistics.py).
    counts_as_roll: bool = False
    # Listed with a character's rolls: the sheet's strip, the GM table, the dashboard.
    on_roll_lists: bool = True
    # A session marker: an entry belongs to the session (and scene) of the newest one before it.
    marks_session: bool = False
    # Its author chose who reads it: "every roll public" doesn't bind it, the GM never reveals it.
    keeps_chosen_audience: bool = False
    # The GM's reveal applies to it: while it is hidden, a reveal entry opens it (and its chain).
    revealable: bool = False
    # Its author may correct it with a new entry that follows it (docs/messages.md).
    correctable: bool = False
    # A contest's verdict: its card shows the sides' rolls, not one roller's.
    is_verdict: bool = False
    # Its page offers "Roll again": a roll from a sheet's target, made again with its options.
    rolls_again: bool = False
    # The card it is drawn with; "" is the roll card (rolls/_entry.html).
    card_template: str = ""
    # How a webhook posts it (rolls/webhooks/payloads.py): "roll", "message" or "marker".
    webhook_shape: WebhookShape = "roll"
    # Its line in a session's recap (rolls/sessions/recap.py): "roll" (a line, counted as a
    # roll), "message" (who said what), "heading" (a scene) or "" (left out).
    recap_shape: RecapShape = "roll"


class _Answers(TypedDict, total=False):
    """The yes-or-no answers a kind of the app's own gives other than the defaults."""

    has_dice: bool
    followable: bool
    counts_as_roll: bool
    revealable: bool
    is_verdict: bool
    rolls_again: bool


def _own(kind: Kind, *, starts_chain: bool = True, **answers: Unpack[_Answers]) -> KindInfo:
    return KindInfo(kind.value, str(kind.label), starts_chain=starts_chain, **answers)


def _follow_up(kind: Kind, **answers: Unpack[_Answers]) -> KindInfo:
    """A follow-up: follows a roll, its dice re-read or re-rolled there."""
    return _own(kind, starts_chain=False, **answers)


def _marker(kind: Kind, recap_shape: RecapShape) -> KindInfo:
    # The table's session markers (docs/sessions.md): entries of the chain like the rolls, so
    # the grouping is as tamper-evident as they are. No dice, no figures; always public.
    return KindInfo(
        kind.value,
        str(kind.label),
        has_dice=False,
        followable=False,
        marks_session=True,
        # Always public: a reveal asked of one finds it readable by everyone already.
        revealable=True,
        card_template="rolls/_marker.html",
        webhook_shape="marker",
        recap_shape=recap_shape,
    )


def _message(kind: Kind, *, starts_chain: bool) -> KindInfo:
    # Messages (docs/messages.md): what members say at the table, in the same chain. A correction
    # is a new entry that follows the message (or its last correction), never an overwrite. No
    # dice; never on a roll list, never followed up, revealed or counted as a roll.
    return KindInfo(
        kind.value,
        str(kind.label),
        starts_chain=starts_chain,
        has_dice=False,
        followable=False,
        on_roll_lists=False,
        keeps_chosen_audience=True,
        correctable=True,
        card_template="rolls/_message.html",
        webhook_shape="message",
        recap_shape="message",
    )


_THE_APPS_OWN = (
    _own(Kind.ROLL, counts_as_roll=True, revealable=True, rolls_again=True),
    # Passed or skipped without rolling: no dice drawn.
    _own(Kind.AUTO_PASS, has_dice=False, revealable=True, rolls_again=True),
    _own(Kind.SKIP, has_dice=False, revealable=True, rolls_again=True),
    # A reveal opens the hidden roll it names (a copy of its dice, readable by all): it is
    # public, and a reveal is never itself revealed.
    _own(Kind.REVEAL),
    _follow_up(Kind.DESTINY),
    _follow_up(Kind.CORRECT, counts_as_roll=True),
    _follow_up(Kind.CHOICE),
    _follow_up(Kind.BUY_BOON),
    _follow_up(Kind.EXTRA_BOON),
    # A DAD6 puncher's chance re-roll (its own dice) or stop. Not a trial of its own: the roll it
    # follows is one, with the first throw's odds (the trials' triggers name roll and correct).
    _follow_up(Kind.PUNCH),
    _own(Kind.CONTEST, revealable=True, is_verdict=True),
    _own(Kind.ASSIST, revealable=True),
    _marker(Kind.SESSION, recap_shape=""),
    _marker(Kind.SCENE, recap_shape="heading"),
    _marker(Kind.SESSION_END, recap_shape=""),
    _message(Kind.MESSAGE, starts_chain=True),
    _message(Kind.MESSAGE_EDIT, starts_chain=False),
    # The GM refreshed a character's resources to their maxima (Cold Stars' Momentum and
    # Willpower, RULES.md §8): a resource change like a roll's, recorded with its
    # resource_changes; no dice, never followed up, on the character's roll lists.
    KindInfo(
        Kind.REFRESH.value,
        str(Kind.REFRESH.label),
        has_dice=False,
        followable=False,
        card_template="rolls/_refresh.html",
        webhook_shape="marker",
        recap_shape="",
    ),
)

# Every kind an entry may have, by key: the app's own, then the registered ones.
KINDS: dict[str, KindInfo] = {info.key: info for info in _THE_APPS_OWN}
THE_APPS_OWN_KINDS = tuple(KINDS)


def register_kind(info: KindInfo) -> None:
    """Add a kind (``RollsConfig.ready``, once per path in ``settings.LOG_KINDS``). A new kind may
    not mark sessions: the markers' partial indexes name the app's own markers in a migration."""
    if info.marks_session:
        raise ValueError(f"{info.key}: only the app's own kinds mark sessions.")
    # Nor count as a roll: the trials' triggers (migration 0015) name the app's own trials.
    if info.counts_as_roll:
        raise ValueError(f"{info.key}: only the app's own kinds count as rolls.")
    if len(info.key) > 16:  # RollEntry.kind's max_length
        raise ValueError(f"{info.key}: a kind's key is at most 16 characters.")
    KINDS[info.key] = info


def kind_info(kind: str) -> KindInfo:
    return KINDS[kind]


def kinds_where(question: Callable[[KindInfo], bool]) -> tuple[str, ...]:
    """The keys of the kinds that answer ``question`` yes, for a query's ``kind__in``."""
    return tuple(key for key, info in KINDS.items() if question(info))


def kind_choices() -> list[tuple[str, str]]:
    """Every kind as a field's choices (read when asked: registered kinds too)."""
    return [(key, info.label) for key, info in KINDS.items()]


# The session markers, the app's own: the markers' partial indexes (RollEntry.Meta) name these.
MARKER_KINDS = kinds_where(lambda info: info.marks_session)


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
