"""A grinding server, for the tests of each roller's counter (docs/verifiable-dice.md)."""

from __future__ import annotations

import json

from log.models import LogHead
from tests.rolls.helpers import tamper


def grind(campaign, user, burnt: int = 1) -> None:
    """What a grinding server does: draw dice for the roller's next number(s), dislike them and
    roll again for the number after. Here the counter is moved on by hand."""
    head = LogHead.objects.get(campaign_id=campaign.pk)
    counters = head.counters or {}
    counters[str(user.pk)] = counters.get(str(user.pk), 0) + burnt
    tamper(
        "UPDATE rolls_loghead SET counters = %s WHERE campaign_id = %s",
        [json.dumps(counters), campaign.pk],
    )
