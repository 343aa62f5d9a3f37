"""A table note: the GM's line in the log between rolls ("The party rests at the inn"), a kind of
log entry that lives only in tests/ (tests/settings.py registers it through LOG_KINDS). It has no
dice and no follow-ups, is not a character's roll, and is drawn with its own card."""

from log.models.kinds import KindInfo

TABLE_NOTE = KindInfo(
    key="table_note",
    label="Table note",
    has_dice=False,
    followable=False,
    on_roll_lists=False,
    card_template="note/_table_note.html",
    webhook_shape="message",
    recap_shape="",
)
