"""The GM table's requests (calls, contests, assists) and the outgoing webhooks (one module per
concern; every model is imported here so Django finds it). The log's own models are the log app's
(log.models)."""

from rolls.models.assists import Assist, AssistQuerySet, AssistRequest, AssistRequestQuerySet
from rolls.models.table import (
    Contest,
    ContestKind,
    ContestQuerySet,
    ContestState,
    RollCall,
    RollCallQuerySet,
    RollCallTarget,
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
    "MAX_ATTEMPTS",
    "Assist",
    "AssistQuerySet",
    "AssistRequest",
    "AssistRequestQuerySet",
    "Contest",
    "ContestKind",
    "ContestQuerySet",
    "ContestState",
    "DeliveryStatus",
    "RollCall",
    "RollCallQuerySet",
    "RollCallTarget",
    "Webhook",
    "WebhookDelivery",
    "WebhookDeliveryQuerySet",
    "WebhookFormat",
    "WebhookQuerySet",
    "retry_delay",
    "sync_has_webhooks",
]
