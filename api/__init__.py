"""The JSON API, /api/v1/ (docs/api.md): its building blocks (base.py: token auth, throttles,
the error shape), its resources (campaigns.py, rolls.py) and the NinjaAPI that routes them
(v1.py, mounted by config/urls.py). It builds on the apps; no app imports it."""
