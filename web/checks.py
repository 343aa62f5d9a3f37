"""Deployment checks (`manage.py check --deploy`): settings that are right for `make run` and
tests but open a door in production say so, next to Django's own security warnings (README
"Production") — and so does a signing key kept in the checkout, where no secret belongs."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.checks import CheckMessage, Tags, Warning, register


@register(Tags.security, deploy=True)
def demo_and_private_webhooks_check(
    app_configs: object = None, **kwargs: object
) -> list[CheckMessage]:
    found: list[CheckMessage] = []
    if settings.DEMO_LOGINS:
        found.append(
            Warning(
                "DEMO_LOGINS is on: the landing page logs anyone in as the demo users with one "
                "click.",
                hint="Unset DEMO_LOGINS in production (it is for `make run` and demos).",
                id="poolside.W001",
            )
        )
    if settings.WEBHOOKS_ALLOW_PRIVATE:
        found.append(
            Warning(
                "WEBHOOKS_ALLOW_PRIVATE is on: a GM's webhook can make the server post to "
                "loopback, private and link-local addresses of its own network.",
                hint="Unset WEBHOOKS_ALLOW_PRIVATE unless this deployment means to post into "
                "its own network.",
                id="poolside.W002",
            )
        )
    if Path(settings.SIGNING_KEY_FILE).resolve() == (settings.BASE_DIR / ".signing_key").resolve():
        found.append(
            Warning(
                "SIGNING_KEY_FILE is the development key made in the checkout (.signing_key): "
                "it signs the log and proves the dice, and belongs with the server's secrets.",
                hint="Make a key file of your own outside the checkout, back it up apart from the "
                "database, and set SIGNING_KEY_FILE to it (docs/verifiable-dice.md).",
                id="poolside.W003",
            )
        )
    return found
