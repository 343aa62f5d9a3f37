from __future__ import annotations

from typing import TYPE_CHECKING

from rolls.rolling.outcomes import Headline

if TYPE_CHECKING:
    from log.models import RollEntry


def headline(entry: RollEntry) -> Headline:
    successes = entry.result.get("successes")
    figure = (
        f"{successes} successes vs {entry.options.get('need')}" if successes is not None else ""
    )
    return Headline(entry.outcome_label, figure, "You do it." if entry.outcome == "success" else "")
