"""Posting a message from the log's composer, and correcting one from its permalink.

One view each serves HTMX and plain POSTs (docs/messages.md): HTMX gets the composer back, empty
and ready for the next message (or with the message beside the field), and the message itself
reaches every open log of its audience through the chain's live announcement, like a roll. A
plain POST is redirected to the message in the log, or gets the page again with the message
beside the field (400; 429 over the rate) and what was typed kept.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from log.tokens import entry_token
from rolls.log.page import log_context
from rolls.messages import actions
from rolls.messages.forms import CorrectionForm, MessageForm
from rolls.rolling.access import entry_for_member
from rolls.rolling.permalink import entry_page
from sheets.access import campaign_for_member
from sheets.models import Refused
from web.http import AuthenticatedHttpRequest

COMPOSER = "rolls/log.html#composer"


def _status(refused: Refused) -> int:
    return 429 if isinstance(refused, actions.TooFast) else 400


@login_required
@require_POST
def message_post(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for_member(request, pk)
    form = MessageForm(request.POST, membership=membership, campaign=campaign)
    status = 400
    if form.is_valid():
        data = form.cleaned_data
        try:
            entry = actions.post_message(request.user, membership, campaign, **form.message())
        except Refused as refused:
            form.add_error("text", str(refused))
            status = _status(refused)
        else:
            if not request.htmx:
                log = reverse("campaign_log", args=[campaign.pk])
                return redirect(f"{log}#entry-{entry_token(entry.pk)}")
            # A fresh composer that keeps who speaks and to whom: the next line is likely theirs.
            keep = {name: data[name] for name in ("speaker", "audience", "to")}
            form = MessageForm(initial=keep, membership=membership, campaign=campaign)
            # Back in the box for the next line: htmx focuses an autofocus field it swaps in.
            form.fields["text"].widget.attrs["autofocus"] = True
            context = {"campaign": campaign, "message_form": form, "message_sent": True}
            return render(request, COMPOSER, context)
    if request.htmx:
        # HTMX swaps 2xx answers only: the composer with the message beside the field.
        return render(request, COMPOSER, {"campaign": campaign, "message_form": form})
    context = log_context(request, campaign, membership, None, message_form=form)
    return render(request, "rolls/log.html", context, status=status)


@login_required
@require_POST
def message_correct(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The author's correction of their message: a new entry that follows its newest version."""
    entry, membership = entry_for_member(request, pk)
    form = CorrectionForm(request.POST)
    status = 400
    if not entry.info.correctable:
        form.add_error(None, "Only a message is corrected here.")
    elif form.is_valid():
        try:
            correction = actions.correct_message(request.user, entry, form.cleaned_data["text"])
        except Refused as refused:
            form.add_error("text", str(refused))
            status = _status(refused)
        else:
            return redirect(correction)
    return entry_page(request, entry, membership, correction_form=form, status=status)
