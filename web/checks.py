"""Deployment checks (`manage.py check --deploy`): settings that are right for `make run` and
tests but open a door in production say so, next to Django's own security warnings (README
"Production")."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import CheckMessage, Tags, Warning, register


@register(Tags.security, deploy=True)
def demo_and_private_webhooks_check(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
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
    return found
