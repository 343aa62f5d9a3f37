"""The table's sessions and scenes (docs/sessions.md): the GM starts a session, marks scenes in it
and ends it. Each is an entry of the campaign's chain (a *marker*), so the grouping is as
tamper-evident as the rolls; an entry belongs to the session and scene of the newest marker at or
before it. ``state`` reads that; ``actions`` writes the markers (the pages and the API share it);
``views`` are the GM table's buttons."""
