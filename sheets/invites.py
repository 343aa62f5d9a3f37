"""The invite a browser opened before it had an account: remembered in its session until the
logged-in user can use it (the home page offers it) or it can no longer be used. Not a views
module: the campaigns' and the accounts' views both use it.
"""

from __future__ import annotations

from sheets.models import Invite
from web.http import HtmxHttpRequest

PENDING_INVITE = "pending_invite"


def pending_invite(request: HtmxHttpRequest) -> Invite | None:
    """The invite this browser opened before it had an account, while the logged-in user can
    still use it (not a member yet, the link still good); forgotten otherwise."""
    token = request.session.get(PENDING_INVITE)
    if not token or not request.user.is_authenticated:
        return None
    invite = Invite.objects.select_related("campaign").filter(token=token).first()
    if invite is None or invite.problem() or invite.campaign.membership_for(request.user):
        del request.session[PENDING_INVITE]
        return None
    return invite


def forget_pending_invite(request: HtmxHttpRequest, invite: Invite) -> None:
    """Drop the invite the session remembers, once it is used or can no longer be."""
    if request.session.get(PENDING_INVITE) == invite.token:
        del request.session[PENDING_INVITE]
