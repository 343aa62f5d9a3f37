"""The roll log and the GM table's requests (one module per concern; every model is imported here
so Django finds it)."""

from rolls.models.assists import (
    Assist,
    AssistQuerySet,
    AssistRequest,
    AssistRequestQuerySet,
)
from rolls.models.chain_check import ChainReport
from rolls.models.dice import DIE_NAMES, READING_WORDS, Die, dice_of
from rolls.models.entry import HiddenEntry, RollEntry, canonical_json
from rolls.models.head import GENESIS_HASH, LogHead
from rolls.models.keys import SigningKey
from rolls.models.kinds import (
    MARKER_KINDS,
    MESSAGE_KINDS,
    OUTCOME_LABELS,
    ROOT_KINDS,
    VISIBILITY_NAMES,
    Kind,
    Visibility,
    offered_visibilities,
)
from rolls.models.log import (
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
from rolls.models.messages import EntryRecipient
from rolls.models.recorded import RECORDED_LINKS
from rolls.models.seen import SeenCheckpoint, SeenHead
from rolls.models.table import (
    Contest,
    ContestKind,
    ContestQuerySet,
    ContestState,
    RollCall,
    RollCallQuerySet,
    RollCallTarget,
)
from rolls.models.texts import EntryText
from rolls.models.trials import (
    FACE_COLUMNS,
    TALLY_KEY,
    Trial,
    TrialDayTally,
    TrialDayTallyQuerySet,
    TrialQuerySet,
    TrialTally,
    TrialTallyQuerySet,
)
from rolls.models.webhooks import (
    MAX_ATTEMPTS,
    DeliveryStatus,
    Webhook,
    WebhookDelivery,
    WebhookDeliveryQuerySet,
    WebhookFormat,
    WebhookQuerySet,
    retry_delay,
    sync_has_webhooks,
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
    "MARKER_KINDS",
    "MAX_ATTEMPTS",
    "MESSAGE_KINDS",
    "OUTCOME_LABELS",
    "READING_WORDS",
    "RECORDED_LINKS",
    "ROOT_KINDS",
    "SALT_BYTES",
    "TALLY_KEY",
    "VISIBILITY_NAMES",
    "AppendOnlyError",
    "Assist",
    "AssistQuerySet",
    "AssistRequest",
    "AssistRequestQuerySet",
    "ChainReport",
    "Contest",
    "ContestKind",
    "ContestQuerySet",
    "ContestState",
    "DeliveryStatus",
    "Die",
    "EntryRecipient",
    "EntryText",
    "HeadMoved",
    "HiddenEntry",
    "Kind",
    "LogHead",
    "RollCall",
    "RollCallQuerySet",
    "RollCallTarget",
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
    "Webhook",
    "WebhookDelivery",
    "WebhookDeliveryQuerySet",
    "WebhookFormat",
    "WebhookQuerySet",
    "canonical_json",
    "dice_of",
    "offered_visibilities",
    "retry_delay",
    "sync_has_webhooks",
]
