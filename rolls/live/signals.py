"""What ends a user's open streams: the signals that announce a change to their login.

A stream is opened by a logged-in session and must not outlive it (docs/live.md#a-stream-ends-with-its-login).
Re-reading the session for every event would cost each of thousands of streams a query per roll;
instead the writes that can end a login announce themselves (``live.publish_user``) through the
live transport — so every server process hears them, whichever process made the change — and
only that user's streams re-read their session, on that event alone:

* a session row deleted: logging out (``flush``), a password change (``cycle_key``), the admin
  or ``clearsessions`` deleting it, the user deleted (the rows go with them);
* the user saved with a new password or ``is_active`` (a save naming neither field, such as the
  login's ``last_login``, changes neither).

Sessions that simply expire need no event: each stream knows when its own session expires.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Model
from django.db.models.signals import post_delete, post_save

import live
from sheets.models import Session

# The user fields the session's validity depends on (Django's get_user: the active flag, and the
# session hash made from the password).
LOGIN_FIELDS = frozenset({"password", "is_active"})


def session_deleted(sender: type[Session], instance: Session, **kwargs: object) -> None:
    if instance.user_id is not None:
        live.publish_user(instance.user_id)


def user_saved(
    sender: type[Model],
    instance: Model,
    created: bool,
    update_fields: frozenset[str] | None = None,
    **kwargs: object,
) -> None:
    if created:
        return  # no stream can be open for a user who didn't exist
    if update_fields is not None and not LOGIN_FIELDS.intersection(update_fields):
        return
    live.publish_user(instance.pk)


def connect() -> None:
    post_delete.connect(session_deleted, sender=Session, dispatch_uid="live_session_deleted")
    post_save.connect(user_saved, sender=get_user_model(), dispatch_uid="live_user_saved")
