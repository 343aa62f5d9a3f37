"""manage.py verify_log [campaign]: recompute roll log hash chains and name the first broken entry."""

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rolls.models import LogHead, RollEntry
from sheets.models import Campaign


class Command(BaseCommand):
    help = (
        "Recompute every campaign's roll log hash chain (or one campaign's) as docs/roll-log.md "
        "defines it, check that each ends at its recorded head, and check what the server's key "
        "vouches for: every entry's signature, every dice proof and the head's signature "
        "(docs/verifiable-dice.md). Prints each head's digest (to write down and compare later). "
        "Exits with status 1 and names the first broken entry when a chain is broken."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", nargs="?", type=int, help="Only this campaign id.")

    def handle(self, *args: Any, campaign: int | None = None, **options: Any) -> None:
        campaigns = Campaign.objects.order_by("pk")
        if campaign is not None:
            campaigns = campaigns.filter(pk=campaign)
            if not campaigns.exists():
                raise CommandError(f"There is no campaign with id {campaign}.")
        broken = 0
        for each in campaigns.iterator():
            report = RollEntry.objects.verify_chain(each.pk)
            if report.intact:
                head = LogHead.objects.filter(campaign_id=each.pk).first() or LogHead()
                legacy = (
                    f" ({report.legacy} written before entries were signed)"
                    if report.legacy
                    else ""
                )
                self.stdout.write(
                    f"Campaign {each.pk} ({each.name}): {report.verified} entries, chain intact "
                    f"and signed{legacy}, head {head.digest}."
                )
                continue
            broken += 1
            entry = report.broken
            if entry is None:
                self.stderr.write(
                    f"Campaign {each.pk} ({each.name}): BROKEN at the head: {report.reason}. "
                    f"{report.verified} entries chain intact."
                )
                continue
            self.stderr.write(
                f"Campaign {each.pk} ({each.name}): BROKEN at entry #{entry.seq} (id {entry.pk}): "
                f"{report.reason}. {report.verified} entries before it are intact."
            )
        if broken:
            raise CommandError(f"{broken} broken chain(s).", returncode=1)
