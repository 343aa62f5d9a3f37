"""Which roll entries a member may open, and what of them they see: the permalink's, a follow-up's,
an assist's and the API's one check (a non-member, or a member who may not know of the roll, gets
a 404 exactly like a roll that doesn't exist).
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404

from log.models import RollEntry
from sheets.models import Membership
from web.http import AuthenticatedHttpRequest


def shows_seq(membership: Membership | None) -> bool:
    """Only the GM sees an entry's chain number: its gaps would count the hidden rolls."""
    return membership is not None and membership.is_gm


def entry_for_member(request: AuthenticatedHttpRequest, pk: int) -> tuple[RollEntry, Membership]:
    """Any member reads any entry of their campaign; non-members get a 404 (no existence leak)."""
    entry = get_object_or_404(
        RollEntry.objects.for_cards().select_related("campaign", "character"), pk=pk
    )
    membership = Membership.objects.filter(
        campaign_id=entry.campaign_id, user_id=request.user.pk
    ).first()
    # A roll the member may not know of answers exactly like one that doesn't exist.
    if membership is None or not entry.is_known_to(membership):
        raise Http404("No such roll.")
    return entry, membership
