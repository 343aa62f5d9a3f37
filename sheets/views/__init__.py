"""Views for accounts (``accounts``), campaigns, members and invites (``campaigns``), and
characters and their sheets (``characters``).

Permission helpers (`campaign_for_member`, `campaign_for_gm`, `character_for_reader`,
`character_for_editor`) are the only way views load a campaign or character: a non-member always
gets a 404 (no existence leak), a member without the right role a 403.
Every HTMX action is a plain form too: HTMX requests get the named partial, plain POSTs a redirect.
"""
