"""The log: its entries and their kinds, the chain and its head, the signing keys, members' signed
views and the statistics' trial rows (one module per concern; every model is imported here so
Django finds it). The tables keep the names they had in the rolls app (``db_table``)."""

from log.models.chain import (
    HASH_VERSION,
    HASH_VERSION_GM_TABLE,
    HASH_VERSION_PROOF,
    HASH_VERSION_SALTED,
    HASH_VERSION_TEXT,
    SALT_BYTES,
    AppendOnlyError,
    HeadMoved,
    RollEntryQuerySet,
)
from log.models.chain_check import ChainReport
from log.models.dice import DIE_NAMES, READING_WORDS, Die, dice_of
from log.models.entry import HiddenEntry, RollEntry, canonical_json
from log.models.head import GENESIS_HASH, LogHead
from log.models.keys import KeyRotation, SigningKey
from log.models.kinds import (
    KINDS,
    MARKER_KINDS,
    OUTCOME_LABELS,
    VISIBILITY_NAMES,
    Kind,
    KindInfo,
    Visibility,
    kind_info,
    kinds_where,
    offered_visibilities,
)
from log.models.messages import EntryRecipient
from log.models.recorded import RECORDED_LINKS
from log.models.seen import SeenCheckpoint, SeenHead
from log.models.texts import EntryText
from log.models.trials import (
    FACE_COLUMNS,
    TALLY_KEY,
    Trial,
    TrialDayTally,
    TrialDayTallyQuerySet,
    TrialQuerySet,
    TrialTally,
    TrialTallyQuerySet,
)

__all__ = [
    "DIE_NAMES",
    "FACE_COLUMNS",
    "GENESIS_HASH",
    "HASH_VERSION",
    "HASH_VERSION_GM_TABLE",
    "HASH_VERSION_PROOF",
    "HASH_VERSION_SALTED",
    "HASH_VERSION_TEXT",
    "KINDS",
    "MARKER_KINDS",
    "OUTCOME_LABELS",
    "READING_WORDS",
    "RECORDED_LINKS",
    "SALT_BYTES",
    "TALLY_KEY",
    "VISIBILITY_NAMES",
    "AppendOnlyError",
    "ChainReport",
    "Die",
    "EntryRecipient",
    "EntryText",
    "HeadMoved",
    "HiddenEntry",
    "KeyRotation",
    "Kind",
    "KindInfo",
    "LogHead",
    "RollEntry",
    "RollEntryQuerySet",
    "SeenCheckpoint",
    "SeenHead",
    "SigningKey",
    "Trial",
    "TrialDayTally",
    "TrialDayTallyQuerySet",
    "TrialQuerySet",
    "TrialTally",
    "TrialTallyQuerySet",
    "Visibility",
    "canonical_json",
    "dice_of",
    "kind_info",
    "kinds_where",
    "offered_visibilities",
]
