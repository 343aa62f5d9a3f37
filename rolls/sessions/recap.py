"""A session's recap (docs/sessions.md#recaps): the session as Markdown — its scenes as headings,
each roll and each message one line — for a member (what they may know of, as the log shows it)
or for the webhooks (what every member may read). The JSON slice is the log's export filtered to
the session."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils import timezone

from log.models import RollEntry, kind_info
from log.models.texts import row_detail, shown, with_texts
from log.tokens import entry_url
from rolls.log.records import EXPORT_VALUES
from rolls.messages.text import speaker_name, to_plain
from rolls.sessions.state import SessionItem, SessionState
from rolls.webhooks.payloads import plain
from sheets.models import Campaign, Membership

# A recap reads at most this many entries: a session is an evening, not a campaign, and a page
# that reads without end is a slow page (the JSON export has no such limit).
RECAP_MAX = 2000


def rows_for(campaign: Campaign, item: SessionItem, membership: Membership | None) -> list[Any]:
    """The session's entries, oldest first, as rows of the export: those ``membership`` may know
    of (placeholders marked unreadable), or with ``None`` those every member may read."""
    if membership is None:
        entries = RollEntry.objects.filter(campaign=campaign).readable_by_everyone()
        fields: Sequence[str] = [name for name in EXPORT_VALUES if name != "readable"]
    else:
        entries = RollEntry.objects.visible_to(membership)
        fields = EXPORT_VALUES
    rows = list(with_texts(item.narrow(entries)).order_by("seq").values(*fields)[:RECAP_MAX])
    rows = [row | {"detail": row_detail(row)} for row in rows]
    return rows if membership is not None else [row | {"readable": True} for row in rows]


def markdown(campaign: Campaign, item: SessionItem, rows: list[Any], base_url: str) -> str:
    """The recap. Names, labels and titles are the players' own text, escaped so they read as
    written: CommonMark (and Discord) show a backslashed punctuation mark as the mark."""
    lines = [f"# {title(item)}", "", _subtitle(campaign, rows), ""]
    rolls = 0
    for row in rows:
        shape = kind_info(row["kind"]).recap_shape
        if shape == "heading":
            # A scene of hash version 6 names itself beside the chain (with_texts joined it on).
            text, salt = shown(row)
            scene = SessionState.of(row["result"], marker_named=text if salt else None)
            lines += ["", f"## {scene.scene_named(plain) if scene else plain(row['detail'])}", ""]
        elif shape == "message":
            lines.append(_said(row, base_url))
        elif shape == "roll":
            lines.append(_line(row, base_url))
            rolls += 1
    if not rolls:
        lines.append("No rolls in this session.")
    if len(rows) == RECAP_MAX:
        lines += ["", f"(The first {RECAP_MAX} entries; the log has the rest.)"]
    return "\n".join(lines).strip() + "\n"


def title(item: SessionItem) -> str:
    """ "Session 3: The heist", its title escaped (and only its title)."""
    return item.state.named(plain)


def _subtitle(campaign: Campaign, rows: list[Any]) -> str:
    parts = [plain(campaign.name), campaign.get_system_display()]
    if rows:
        start = timezone.localtime(rows[0]["created_at"])
        end = timezone.localtime(rows[-1]["created_at"])
        when = f"{start:%a} {start.day} {start:%b %Y}, {start:%H:%M}"
        parts.append(when + (f"–{end:%H:%M}" if end.date() == start.date() else ""))
    return " · ".join(parts)


def _line(row: dict[str, Any], base_url: str) -> str:
    """One entry: its time, who, what, and how it went (or that a hidden roll was made)."""
    when = timezone.localtime(row["created_at"]).strftime("%H:%M")
    who = f"**{plain(row['character_name'])}**" if row["character_name"] else ""
    what = f"{who} · {plain(row['label'])}" if who else plain(row["label"])
    link = f"([link]({base_url}{entry_url(row['pk'])}))"
    if not row["readable"]:
        return f"- {when} · {what}: a hidden roll was made; only the GM sees it. {link}"
    outcome = f"**{plain(row['outcome_label'])}**" if row["outcome_label"] else ""
    detail = f" — {plain(row['detail'])}" if row["detail"] else ""
    dice = ", ".join(str(die.get("face")) for die in row["faces"] or [])
    dice = f" · dice {dice}" if dice else ""
    return f"- {when} · {what}: {outcome}{detail}{dice} {link}"


def _said(row: dict[str, Any], base_url: str) -> str:
    """One message (docs/messages.md), on one line: who, to whom, what (its markup dropped, the
    words escaped like every other member's text). Only ever a message the reader may read."""
    when = timezone.localtime(row["created_at"]).strftime("%H:%M")
    options = row["options"] or {}
    who = speaker_name(row["character_name"], options, row["username"])
    to = ""
    if row["visibility"] == "whisper":
        to = " (whisper to " + ", ".join(options.get("to_names", [])) + ")"
    elif row["visibility"] == "gm_only":
        to = " (to the GM)"
    edit = "" if kind_info(row["kind"]).starts_chain else "correction: "
    link = f"([link]({base_url}{entry_url(row['pk'])}))"
    return f"- {when} · **{plain(who)}**{plain(to)}: {edit}{plain(to_plain(row['detail']))} {link}"
