"""manage.py verify_log [campaign] [--witness TOKEN …]: recompute roll log hash chains, name the
first broken entry, and check that the log still holds each witnessed head."""

from django.core.management.base import BaseCommand, CommandError, CommandParser

from log.models import ChainReport, LogHead, RollEntry
from proofs.witness import Witness, WitnessError
from sheets.models import Campaign


class Command(BaseCommand):
    help = (
        "Recompute every campaign's roll log hash chain (or one campaign's) as docs/roll-log.md "
        "defines it, check that each ends at its recorded head, and check what the server's key "
        "vouches for: every entry's signature, every dice proof and the head's signature "
        "(docs/verifiable-dice.md). Prints each head's digest (to write down and compare later). "
        "With --witness, checks that the log still holds the head each token was taken of. "
        "Exits with status 1 and names the first broken entry when a chain is broken."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("campaign", nargs="?", type=int, help="Only this campaign id.")
        parser.add_argument(
            "--witness",
            action="append",
            default=[],
            metavar="TOKEN",
            help="The GM's copy of a witness token (poolside-head:v2:…:<salt>, the log's "
            "fingerprint a webhook posted, with the salt the GM's export keeps; a v1 token as "
            "posted): its campaign's log must hold the head it was taken of. Repeatable.",
        )

    def handle(
        self, *args: object, campaign: int | None = None, witness: list[str], **options: object
    ) -> None:
        witnesses = _parse(witness)
        campaigns = Campaign.objects.order_by("pk")
        if campaign is not None:
            campaigns = campaigns.filter(pk=campaign)
            if not campaigns.exists():
                raise CommandError(f"There is no campaign with id {campaign}.")
        named = {w.campaign for w in witnesses}
        if stray := sorted(named - set(campaigns.values_list("pk", flat=True))):
            where = f"not campaign {campaign}" if campaign is not None else "which doesn't exist"
            raise CommandError(f"A witness token is of campaign {stray[0]}, {where}.")
        broken = 0
        for each in campaigns.iterator():
            report = RollEntry.objects.verify_chain(each.pk, witnesses)
            if report.intact:
                self._intact(each, report)
            else:
                broken += 1
                self._broken(each, report)
        if broken:
            raise CommandError(f"{broken} broken chain(s).", returncode=1)

    def _intact(self, campaign: Campaign, report: ChainReport) -> None:
        head = LogHead.objects.filter(campaign_id=campaign.pk).first() or LogHead()
        legacy = f" ({report.legacy} written before entries were signed)" if report.legacy else ""
        found = "".join(f"; witnessed head #{length} found" for length in report.witnessed)
        self.stdout.write(
            f"Campaign {campaign.pk} ({campaign.name}): {report.verified} entries, chain intact "
            f"and signed{legacy}, head {head.digest}{found}."
        )

    def _broken(self, campaign: Campaign, report: ChainReport) -> None:
        name = f"Campaign {campaign.pk} ({campaign.name})"
        entry = report.broken
        if report.witness:
            self.stderr.write(
                f"{name}: BROKEN: {report.reason}. {report.verified} entries chain intact."
            )
        elif entry is None:
            self.stderr.write(
                f"{name}: BROKEN at the head: {report.reason}. "
                f"{report.verified} entries chain intact."
            )
        else:
            self.stderr.write(
                f"{name}: BROKEN at entry #{entry.seq} (id {entry.pk}): "
                f"{report.reason}. {report.verified} entries before it are intact."
            )


def _parse(tokens: list[str]) -> list[Witness]:
    witnesses = []
    for token in tokens:
        try:
            witness = Witness.parse(token)
        except WitnessError as error:
            raise CommandError(f"Can't read the witness token {token[:40]!r}: {error}.") from None
        if witness.version != "v1" and witness.salt is None:
            # The posted token can't be checked alone: that is what keeps it from telling the
            # channel anything. The GM's copy carries the salt.
            raise CommandError(
                f"The witness token {token[:40]!r} needs its salt: give the GM's copy (the "
                "token followed by :<salt>), from the GM's JSON export or the webhooks page."
            )
        witnesses.append(witness)
    return witnesses
