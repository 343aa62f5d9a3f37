"""Writing a table note: the kind's one action, through the log's own append like every entry."""

from django.contrib.auth.models import AbstractBaseUser

from log.models import RollEntry
from sheets.models import Campaign, Membership, Refused
from tests.note.kind import TABLE_NOTE


def write_note(user: AbstractBaseUser, membership: Membership, text: str) -> RollEntry:
    """Append the GM's note to the campaign's log: public, no dice, nothing to chance. The roll
    columns it has no use for stay at their empty defaults (no odds, no label)."""
    if not membership.is_gm:
        raise Refused("Only the GM writes table notes.")
    campaign: Campaign = membership.campaign
    return RollEntry.objects.append(
        campaign=campaign,
        user=user,
        username=user.get_username(),
        system=campaign.system,
        kind=TABLE_NOTE.key,
        detail=text,
    )
