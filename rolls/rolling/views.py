"""Roll panels, rolls and follow-ups, entry permalinks and reveals (the log page: rolls/log/).

One view serves HTMX and plain requests: HTMX gets a named partial, a plain POST a redirect (to the
new entry's permalink) or the page with the message. Refusals are never a 500 and write nothing:
HTMX gets the panel with the message (htmx swaps only 2xx), plain requests a 4xx page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget

from log.models import Kind, RollEntry, Visibility
from rolls.rolling import choosers, followups
from rolls.rolling.access import entry_for_member, shows_seq
from rolls.rolling.actions import changed, make_follow_up, make_roll
from rolls.rolling.asks import ASK_PARAMS, Ask, panel_ask
from rolls.rolling.forms.base import RollForm
from rolls.rolling.permalink import detail_context, entry_page, result_context
from rolls.rolling.targets import Target, target_for_roller
from rolls.table import verdicts
from sheets.models import Membership, Refused, Sheet
from sheets.rolled import with_new_roll, with_rolled_parts
from sheets.systems import rule_system_of
from web.http import AuthenticatedHttpRequest

if TYPE_CHECKING:
    from django.contrib.auth.models import User

UPDATE_ODDS = "odds"  # the panel's "Update odds" without JavaScript: no roll, its page again

# ---------------------------------------------------------------------------------------------
# The roll panel
# ---------------------------------------------------------------------------------------------


def _panel_urls(target: Target) -> dict[str, str]:
    args = [target.character.pk, target.kind, target.obj.pk]
    return {
        "panel_url": reverse("roll_panel", args=args),
        "odds_url": reverse("roll_odds", args=args),
        "roll_url": reverse("roll_create", args=args),
    }


def _panel_context(
    target: Target,
    form: RollForm,
    *,
    entry: RollEntry | None = None,
    refusal: str = "",
    ask: Ask | None = None,
    membership: Membership | None = None,
) -> dict[str, object]:
    context: dict[str, object] = {
        "ask": ask,
        # Cogent: the roller may ask the table for an assist when none waits yet.
        "ask_assist_url": reverse("assist_ask", args=[target.character.pk])
        if rule_system_of(target.character.campaign).rolling.has_assists
        and getattr(form, "waiting_assist", None) is None
        and not ask
        else "",
        "character": target.character,
        "campaign": target.character.campaign,
        "target": target,
        "form": form,
        "plan": form.plan,
        "entry": entry,
        "refusal": refusal,
        **_panel_urls(target),
    }
    if entry is not None:
        assert membership is not None  # a roll's answer names its roller's membership
        card = entry.card_for(membership)
        context |= result_context(card, form.sheet, membership, has_follow_up=False, can_roll=True)
        context["announce"] = True
        context["show_seq"] = shows_seq(membership)
    return context


def _form(
    data: QueryDict,
    target: Target,
    membership: Membership,
    sheet: Sheet | None = None,
    ask: Ask | None = None,
) -> RollForm:
    """The system's panel form, bound to ``data`` or, when there is none, to its defaults —
    with the GM's values prefilled and locked when the roll answers a call or contest."""
    form_class, sheet = (
        rule_system_of(target.character.campaign).rolling.form_class,
        sheet or target.sheet,
    )
    kwargs = {"gm": membership.is_gm} | (ask.presets() if ask else {})
    # Press, Brace, Willpower and a skip are the player's (RULES.md §8): "" when this roller's.
    waiting = choosers.waiting(target.character, membership)
    if not any(key not in ASK_PARAMS for key in data):
        form = form_class.with_defaults(
            target=target, sheet=sheet, choice_waiting=waiting, **kwargs
        )
    else:
        form = form_class(data, target=target, sheet=sheet, choice_waiting=waiting, **kwargs)
    form.is_valid()
    return form


@login_required
@require_GET
def roll_panel(
    request: AuthenticatedHttpRequest, pk: int, kind: str, target_pk: int
) -> HttpResponse:
    target, membership = target_for_roller(request, pk, kind, target_pk)
    if request.htmx and request.GET.get("close"):
        return HttpResponse("")
    ask, refusal = panel_ask(request.GET, target)
    form = _form(request.GET, target, membership, ask=ask)
    template = "rolls/panel.html#panel" if request.htmx else "rolls/panel.html"
    return render(request, template, _panel_context(target, form, ask=ask, refusal=refusal))


@login_required
@require_GET
def roll_odds(
    request: AuthenticatedHttpRequest, pk: int, kind: str, target_pk: int
) -> HttpResponse:
    target, membership = target_for_roller(request, pk, kind, target_pk)
    ask, _ = panel_ask(request.GET, target)
    form = _form(request.GET, target, membership, ask=ask)
    return render(request, "rolls/panel.html#odds", _panel_context(target, form, ask=ask))


@login_required
@require_POST
def roll_create(
    request: AuthenticatedHttpRequest, pk: int, kind: str, target_pk: int
) -> HttpResponse:
    target, membership = target_for_roller(request, pk, kind, target_pk)
    character = target.character
    action = request.POST.get("action", "roll")
    if action == UPDATE_ODDS:
        return _odds_page(request, target)
    ask, refusal = panel_ask(request.POST, target)
    form = _form(request.POST, target, membership, ask=ask)
    entry = None
    if form.is_valid() and not refusal:
        try:
            entry, ask = make_roll(request.user, target, form, action, request.POST)
        except Refused as exc:
            refusal = str(exc)
        else:
            if not request.htmx:
                return redirect(entry)
            spent, prompts = changed(form, entry, ask)
            if spent or prompts:
                # Re-read the sheet: the panel shows the resources as they now are, an option
                # they no longer pay for is unset rather than shown as an error under the
                # result, and an assist given or taken is done with. A roll that changed
                # nothing but the log keeps its form: the next roll's odds are the same.
                sheet = rule_system_of(character.campaign).read_sheet(character.pk)
                data = form.next_roll_data(request.POST, sheet)
                form = _form(data, target, membership, sheet=sheet, ask=ask)
    if entry is not None and request.htmx and not (spent or prompts) and _keeps_form(request):
        return _result_alone(request, target, entry, membership, form.sheet)
    context = _panel_context(
        target, form, entry=entry, refusal=refusal, ask=ask, membership=membership
    )
    if request.htmx:
        response = render(request, "rolls/panel.html#panel", context)
        if entry is None:
            return response
        return with_rolled_parts(
            request, response, character, membership, sections=spent, prompts=prompts
        )
    status = 409 if refusal else 400
    return render(request, "rolls/panel.html", context, status=status)


def _keeps_form(request: AuthenticatedHttpRequest) -> bool:
    """May the roll's answer leave the panel's form as it is? Only the panel's own Roll (its
    target the panel) and only when the form shows no message the roll has made stale: a panel
    drawn with errors or a refusal says so (``redraw``) and is drawn again."""
    return request.htmx.target == "roll-panel" and "redraw" not in request.POST


def _result_alone(
    request: AuthenticatedHttpRequest,
    target: Target,
    entry: RollEntry,
    membership: Membership,
    sheet: Sheet,
) -> HttpResponse:
    """The answer to a roll that changed nothing but the log: the result into #roll-result (its
    announcement out of band, and on the sheet the card on top of the recent rolls). The form,
    the odds and the rest of the panel stay as they are: the next roll's are the same."""
    card = entry.card_for(membership)
    context = result_context(card, sheet, membership, has_follow_up=False, can_roll=True)
    context |= {"announce": True, "show_seq": shows_seq(membership)}
    response = render(request, "rolls/entry_detail.html#result", context)
    reswap(retarget(response, "#roll-result"), "innerHTML")
    return with_new_roll(request, response, target.character, membership, entry)


def _odds_page(request: AuthenticatedHttpRequest, target: Target) -> HttpResponse:
    """Without JavaScript, "Update odds" posts the panel (a GET form would put the CSRF token in
    the address: history, referrers, logs): the answer is the panel's page with these options in
    its address, the token and the button left out. Nothing is rolled."""
    options = request.POST.copy()
    for name in ("csrfmiddlewaretoken", "action"):
        options.pop(name, None)
    return redirect(f"{_panel_urls(target)['panel_url']}?{options.urlencode()}")


# ---------------------------------------------------------------------------------------------
# Follow-ups
# ---------------------------------------------------------------------------------------------


@login_required
@require_POST
def roll_follow_up(request: AuthenticatedHttpRequest, pk: int, action: str) -> HttpResponse:
    entry, membership = entry_for_member(request, pk)
    character = entry.character
    if character is None or not character.can_read(membership):
        raise Http404("No such roll.")
    if not character.can_roll(membership):
        raise PermissionDenied("Only the character's player or the GM can follow up this roll.")
    if not entry.is_readable_by(membership):
        raise PermissionDenied("Only the GM sees this roll's result, so only the GM follows it up.")
    if action not in followups.names():
        raise Http404("No such follow-up.")
    value = request.POST.get("value", "")
    new_entry, refusal = None, ""
    try:
        new_entry = make_follow_up(
            request.user, entry, character, action, value, request.POST.get("nonce", "")
        )
    except Refused as exc:
        refusal = str(exc)
    sheet = rule_system_of(character.campaign).read_sheet(character.pk)
    if new_entry is not None:
        if not request.htmx:
            return redirect(new_entry)
        context = result_context(new_entry, sheet, membership, has_follow_up=False, can_roll=True)
        context["announce"] = True
        context["show_seq"] = shows_seq(membership)
        response = render(request, "rolls/entry_detail.html#result", context)
        return with_rolled_parts(request, response, character, membership)
    context = result_context(
        entry, sheet, membership, has_follow_up=entry.follow_ups.exists(), can_roll=True
    ) | {"refusal": refusal, "show_seq": shows_seq(membership)}
    if request.htmx:
        return render(request, "rolls/entry_detail.html#result", context)
    return render(
        request, "rolls/entry_detail.html", context | detail_context(entry, membership), status=409
    )


# ---------------------------------------------------------------------------------------------
# Permalink and log
# ---------------------------------------------------------------------------------------------


@login_required
@require_GET
def roll_entry(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    entry, membership = entry_for_member(request, pk)
    return entry_page(request, entry, membership)


@login_required
@require_POST
def roll_reveal(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The GM makes a hidden roll (and its follow-ups) readable by every member, with a new entry."""
    entry, membership = entry_for_member(request, pk)
    if not membership.is_gm:
        raise PermissionDenied("Only the GM reveals hidden rolls.")
    if entry.info.keeps_chosen_audience:
        return HttpResponse(
            "A message keeps the audience its author chose: it is never revealed.",
            status=400,
            content_type="text/plain",
        )
    if not entry.info.revealable:
        return HttpResponse(
            "Reveal the roll this follow-up belongs to.", status=400, content_type="text/plain"
        )
    if not entry.is_hidden:
        messages.info(request, f"Roll #{entry.seq} is already readable by everyone.")
        return redirect(entry)
    try:
        with transaction.atomic():
            reveal = _reveal(entry, request.user)
            # A contest's verdict and its rolls are revealed together: the verdict holds every
            # side's dice, and the rolls together decide the verdict (verdicts.revealed_with).
            also = [_reveal(other, request.user) for other in verdicts.revealed_with(entry)]
    except IntegrityError:
        # Another reveal of the same roll won the race; the roll is revealed either way.
        return redirect(entry)
    text = f"Revealed roll #{entry.seq} to everyone"
    if also:
        text += ", and with it the contest's " + ", ".join(
            f"#{other.reveals.seq}" for other in also if other.reveals is not None
        )
    messages.success(request, text + ".")
    return redirect(reveal)


def _reveal(entry: RollEntry, user: User) -> RollEntry:
    """The reveal entry that makes ``entry`` (and its follow-ups) readable by every member."""
    return RollEntry.objects.append(
        campaign=entry.campaign,
        character=entry.character,
        user=user,
        character_name=entry.character_name,
        username=user.get_username(),
        system=entry.system,
        kind=Kind.REVEAL,
        reveals=entry,
        visibility=Visibility.PUBLIC,
        label=entry.label,
        options=entry.options,
        pool=entry.pool,
        breakdown=entry.breakdown,
        faces=entry.faces,
        outcome=entry.outcome,
        outcome_label=entry.outcome_label,
        # No chain number: players see this entry, and numbers count hidden rolls.
        detail=f"The GM revealed a {entry.visibility_name} roll.",
        result=entry.result,
        odds=entry.odds,
        odds_display=entry.odds_display,
        odds_table=entry.odds_table,
        resource_changes={},
    )
