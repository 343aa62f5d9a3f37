"""Shared web helpers every app uses (docs/architecture.md, "Code map"): request types, error
pages, security middleware, rate limits, the deployment checks, the database connection hook and
the ASGI stream helpers. It imports no other app of ours, so every app may import it."""
