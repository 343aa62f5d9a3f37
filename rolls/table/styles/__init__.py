"""Contest styles: one object per kind of contest, named by its rule system's seam
(``GmTable.contest_style_paths``, a system's ``table``). The shared state machine and the audience rules are in
``rolls.table.contests`` and ``verdicts``; a style says how its sides roll, what decides, what
the card offers a side and what side A's roll panel is prefilled with (``base.ContestStyle``)."""
