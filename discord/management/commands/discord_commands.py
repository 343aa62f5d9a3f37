"""`manage.py discord_commands`: register (or update) Poolside's commands with Discord — /poolside
everywhere, and /roll, /odds, /sheet in every server with a bound channel, with the options of
the system it plays. ``--dry-run`` prints them instead (docs/discord.md)."""

from __future__ import annotations

import json

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from discord import rest
from discord.commands import global_commands, guild_commands
from discord.models import ChannelBinding
from sheets.systems import all_rule_systems, rule_system


class Command(BaseCommand):
    help = "Register Poolside's slash commands with Discord (or print them with --dry-run)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--dry-run",
            action="store_true",
            help="Print the commands as JSON (global, then per rule system); send nothing.",
        )

    def handle(self, *args: object, dry_run: bool = False, **options: object) -> None:
        if dry_run:
            shown = {"global": global_commands()} | {
                system.key: guild_commands(system) for system in all_rule_systems()
            }
            self.stdout.write(json.dumps(shown, indent=2, ensure_ascii=False))
            return
        missing = [
            name
            for name in ("DISCORD_APPLICATION_ID", "DISCORD_BOT_TOKEN")
            if not getattr(settings, name)
        ]
        if missing:
            raise CommandError(f"Set {', '.join(missing)} first (docs/discord.md).")
        try:
            rest.register_global()
            self.stdout.write("Registered /poolside.")
            guilds = ChannelBinding.objects.values_list("guild", flat=True).distinct()
            for guild in sorted(set(guilds)):
                rest.register_guild(guild)
                system = rule_system(rest.guild_system(guild) or "")
                self.stdout.write(f"Registered /roll, /odds, /sheet ({system.label}) in {guild}.")
        except rest.DiscordError as failed:
            raise CommandError(str(failed)) from None
