"""``manage.py api_token USERNAME --scope roll --name bot``: print a new personal access token for
a script or a bot (docs/api.md). The token is printed once; only its digest is stored."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from sheets.models import ApiToken, Scope, TokenLimitReached


class Command(BaseCommand):
    help = "Create a personal access token for the API and print it (once)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", default="script", help="What uses it (default: script)")
        parser.add_argument(
            "--scope",
            choices=Scope.values,
            default=Scope.READ,
            help="read, or roll (which includes read); default: read",
        )
        parser.add_argument(
            "--expires-in-days",
            type=int,
            default=None,
            help="Expire after this many days (default: never)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        try:
            user = User.objects.get(username=options["username"])
        except User.DoesNotExist:
            raise CommandError(f"No user is called “{options['username']}”.") from None
        if not user.is_active:
            raise CommandError(f"{user.get_username()} is not active: their tokens would not work.")
        name = options["name"].strip()
        if not name or len(name) > 100:
            raise CommandError("--name must be 1 to 100 characters.")
        days = options["expires_in_days"]
        if days is not None and not 1 <= days <= 3650:
            raise CommandError("--expires-in-days must be between 1 and 3650.")
        expires_at = timezone.now() + timedelta(days=days) if days else None
        try:
            _, raw = ApiToken.issue(user, name=name, scope=options["scope"], expires_at=expires_at)
        except TokenLimitReached as full:
            raise CommandError(f"{user.get_username()}: {full}") from None
        self.stdout.write(raw)
