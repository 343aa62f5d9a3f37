"""Roll panels, rolls and follow-ups, entry permalinks and reveals (the log page: rolls/log/).

One view serves HTMX and plain requests: HTMX gets a named partial, a plain POST a redirect (to the
new entry's permalink) or the page with the message. Refusals are never a 500 and write nothing:
HTMX gets the panel with the message (htmx swaps only 2xx), plain requests a 4xx page.
"""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget

from config.http import AuthenticatedHttpRequest
from rolls import live
from rolls.models import (
    ROOT_KINDS,
    Assist,
    AssistRequest,
    HiddenEntry,
    Kind,
    RollEntry,
    Visibility,
)
from rolls.rolling import followups
from rolls.rolling.asks import Ask, ask_for
from rolls.rolling.forms.base import RollForm
from rolls.rolling.outcomes import Outcome, dice_rng
from rolls.rolling.targets import Target, target_for_roller
from rolls.table import contests, verdicts
from sheets.models import Character, Membership, Refused, Sheet
from sheets.registry import rule_system
from sheets.views.characters import with_new_roll, with_rolled_parts

ASK_PARAMS = ("call", "contest")  # not options: which GM request the panel answers
UPDATE_ODDS = "odds"  # the panel's "Update odds" without JavaScript: no roll, its page again


def shows_seq(membership: Membership | None) -> bool:
    """Only the GM sees an entry's chain number: its gaps would count the hidden rolls."""
    return membership is not None and membership.is_gm


def entry_for_member(request: AuthenticatedHttpRequest, pk: int) -> tuple[RollEntry, Membership]:
    """Any member reads any entry of their campaign; non-members get a 404 (no existence leak)."""
    entry = get_object_or_404(
        RollEntry.objects.select_related("campaign", "follows", "character"), pk=pk
    )
    membership = Membership.objects.filter(
        campaign_id=entry.campaign_id, user_id=request.user.pk
    ).first()
    # A roll the member may not know of answers exactly like one that doesn't exist.
    if membership is None or not entry.is_known_to(membership):
        raise Http404("No such roll.")
    return entry, membership


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
) -> dict[str, Any]:
    context: dict[str, Any] = {
        "ask": ask,
        # Cogent: the roller may ask the table for an assist when none waits yet.
        "ask_assist_url": reverse("assist_ask", args=[target.character.pk])
        if target.character.campaign.rule_system.has_assists
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
        card = entry.card_for(membership)
        context |= _result_context(card, form.sheet, has_follow_up=False, can_roll=True)
        context["announce"] = True
        context["show_seq"] = shows_seq(membership)
    return context


def _form(
    data: Any,
    target: Target,
    membership: Membership,
    sheet: Sheet | None = None,
    ask: Ask | None = None,
) -> RollForm:
    """The system's panel form, bound to ``data`` or, when there is none, to its defaults —
    with the GM's values prefilled and locked when the roll answers a call or contest."""
    form_class, sheet = target.character.campaign.rule_system.roll_form, sheet or target.sheet
    kwargs = {"gm": membership.is_gm} | (ask.presets() if ask else {})
    if not any(key not in ASK_PARAMS for key in data):
        form = form_class.with_defaults(target=target, sheet=sheet, **kwargs)
    else:
        form = form_class(data, target=target, sheet=sheet, **kwargs)
    form.is_valid()
    return form


def panel_ask(params: Any, target: Target) -> tuple[Ask | None, str]:
    """The call or contest the panel answers, or the reason it can't (shown in the panel)."""
    try:
        return ask_for(params, target.character, target), ""
    except Refused as exc:
        return None, str(exc)


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
            spent, prompts = _changed(form, entry, ask)
            if spent or prompts:
                # Re-read the sheet: the panel shows the resources as they now are, an option
                # they no longer pay for is unset rather than shown as an error under the
                # result, and an assist given or taken is done with. A roll that changed
                # nothing but the log keeps its form: the next roll's odds are the same.
                sheet = character.campaign.rule_system.read_sheet(character.pk)
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
    context = _result_context(card, sheet, has_follow_up=False, can_roll=True)
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


def make_roll(
    user: Any, target: Target, form: RollForm, action: str, params: Any
) -> tuple[RollEntry, Ask | None]:
    """Roll a valid panel ``form`` for ``target`` as ``user``: one transaction that re-checks the
    GM's request it answers (``params``: call/contest), spends, rolls and appends. Raises
    :class:`Refused` (nothing written) when the rules or resources say no. The page and the API
    both roll through here."""
    character = target.character
    assisted, taken = _assists(form)
    # A plain roll — no GM's request to re-check, nothing spent, no assist given or taken —
    # writes nothing but its entry, and the append is a transaction of its own (on PostgreSQL one
    # statement, RollEntryQuerySet.append). Anything more commits with the entry, or not at all.
    plain = not (
        params.get("call")
        or params.get("contest")
        or form.spends(action)
        or assisted is not None
        or taken is not None
    )
    with nullcontext() if plain else transaction.atomic():
        # Re-checked under a row lock: closed, answered or decided a moment ago refuses.
        ask = ask_for(params, character, target, lock=True)
        # A roll that spends nothing needs no sheet lock: it reads the sheet as loaded.
        sheet = (
            character.campaign.rule_system.lock_sheet(character.pk)
            if form.spends(action)
            else form.sheet
        )
        outcome = form.roll(action, sheet, dice_rng())
        if ask is not None and assisted is not None:
            raise Refused("An answer to the GM's request can't be an assist roll.")
        _lock_assists(form)
        links = ask.links() if ask else {}
        entry = _append(
            user,
            character,
            outcome,
            label=target.label,
            visibility=form.chosen_visibility,
            **links,
        )
        _answered(ask, entry, user)
        _record_assist(form, entry)
    return entry, ask


def _changed(form: RollForm, entry: RollEntry, ask: Ask | None) -> tuple[bool, bool]:
    """What a roll changed on its sheet besides the log: its resources (something spent), and
    its prompts (a GM's request answered, an assist given or taken)."""
    assisted, taken = _assists(form)
    return bool(entry.resource_changes), not (ask is None and assisted is None and taken is None)


def _assists(form: RollForm) -> tuple[Character | None, Assist | None]:
    """The character this roll assists and the waiting assist it takes (Cogent's panel only;
    None and None for the others)."""
    return getattr(form, "assist_target", None), getattr(form, "_assist_taken", lambda: None)()


def _lock_assists(form: RollForm) -> None:
    """Inside the roll's transaction, re-check the assist state the form was built on: the
    waiting assist this roll takes is still waiting, and no other assist has started to wait
    for the character this one is for (one at a time, cogent.ASSISTS_PER_ROLL)."""
    assisted, taken = _assists(form)
    if taken is not None:
        still = Assist.objects.select_for_update().waiting().filter(pk=taken.pk).exists()
        if not still:
            raise Refused(
                f"{taken.by_name}'s assist was used or dropped a moment ago; check the odds again."
            )
    if assisted is not None:
        assisted.campaign.rule_system.lock_sheet(assisted.pk)  # serialises two assists for one
        if Assist.objects.waiting_for(assisted).exists():
            raise Refused(f"An assist already waits for {assisted.name}.")


def _record_assist(form: RollForm, entry: RollEntry) -> None:
    """After the entry is appended: an assist starts to wait, or the one taken is used."""
    assisted, taken = _assists(form)
    if entry.kind == Kind.ASSIST and assisted is not None:
        Assist.objects.create(
            campaign_id=entry.campaign_id,
            entry=entry,
            assisted=assisted,
            wins=entry.result["assist"],
            further_helpers=entry.options.get("further_helpers", 0),
        )
        AssistRequest.objects.close_for(assisted)  # the request, if any, is answered
        # The assisted character's sheet (its stream hears only its own entries) and every
        # sheet's prompt area (an answered request goes away) learn of it without a reload.
        live.publish(entry.campaign_id, "sheet", assisted.pk)
        live.publish(entry.campaign_id, "call", 0)
        return
    if taken is not None and "assist" in entry.options:
        Assist.objects.filter(pk=taken.pk).update(used_by=entry)


def _answered(ask: Ask | None, entry: RollEntry, user: Any) -> None:
    """Inside the roll's transaction: tell the GM table (and decide a single-roll contest)."""
    if ask is None:
        return
    # Caused by the entry: a member who may not know of a hidden roll doesn't hear of its answer.
    if ask.call is not None:
        live.publish(entry.campaign_id, "call", ask.call.pk, cause=entry.pk)
    elif ask.contest is not None:
        contests.rolled_single(ask.contest, entry, user)
        live.publish(entry.campaign_id, "contest", ask.contest.pk, cause=entry.pk)


def _append(
    user: Any,
    character: Character,
    outcome: Outcome,
    *,
    label: str,
    follows: RollEntry | None = None,
    visibility: str = Visibility.PUBLIC,
    **links: Any,
) -> RollEntry:
    return RollEntry.objects.append_by(
        user,
        character,
        **links,
        follows=follows,
        label=label,
        visibility=visibility,
        **outcome.fields(),
    )


# ---------------------------------------------------------------------------------------------
# Follow-ups
# ---------------------------------------------------------------------------------------------


def _result_context(
    entry: RollEntry | HiddenEntry, sheet: Sheet | None, *, has_follow_up: bool, can_roll: bool
) -> dict[str, Any]:
    # Nobody follows up a result they can't see (the roller of a blind roll).
    offers = []
    if can_roll and sheet is not None and isinstance(entry, RollEntry):  # a placeholder: none
        offers = followups.available(entry, sheet, has_follow_up=has_follow_up)
    return {"entry": entry, "follow_ups": offers}


def make_follow_up(
    user: Any, entry: RollEntry, character: Character, action: str, value: str
) -> RollEntry:
    """Follow ``entry`` up with ``action`` (one of ``followups.names()``) in one transaction
    that locks the sheet; :class:`Refused` when the rules or resources say no, or when someone
    followed it up a moment earlier. The page and the API both follow up through here."""
    try:
        with transaction.atomic():
            sheet = character.campaign.rule_system.lock_sheet(character.pk)
            outcome = followups.perform(action, entry, sheet, dice_rng(), value)
            return _append(user, character, outcome, label=entry.label, follows=entry)
    except IntegrityError:
        # Someone followed this entry up a moment earlier: the one-follow-up constraint held.
        raise Refused("This roll already has a follow-up.") from None


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
        new_entry = make_follow_up(request.user, entry, character, action, value)
    except Refused as exc:
        refusal = str(exc)
    sheet = character.campaign.rule_system.read_sheet(character.pk)
    if new_entry is not None:
        if not request.htmx:
            return redirect(new_entry)
        context = _result_context(new_entry, sheet, has_follow_up=False, can_roll=True)
        context["announce"] = True
        context["show_seq"] = shows_seq(membership)
        response = render(request, "rolls/entry_detail.html#result", context)
        return with_rolled_parts(request, response, character, membership)
    context = _result_context(
        entry, sheet, has_follow_up=entry.follow_ups.exists(), can_roll=True
    ) | {"refusal": refusal, "show_seq": shows_seq(membership)}
    if request.htmx:
        return render(request, "rolls/entry_detail.html#result", context)
    return render(
        request, "rolls/entry_detail.html", context | _detail_context(entry, membership), status=409
    )


# ---------------------------------------------------------------------------------------------
# Permalink and log
# ---------------------------------------------------------------------------------------------


def _detail_context(entry: RollEntry, membership: Membership) -> dict[str, Any]:
    readable = entry.is_readable_by(membership)
    return {
        "campaign": entry.campaign,
        "membership": membership,
        "show_seq": shows_seq(membership),
        "follow_up_entry": entry.follow_ups.first() if readable else None,
        "can_reveal": membership.is_gm and entry.kind in ROOT_KINDS and entry.is_hidden,
    }


@login_required
@require_GET
def roll_entry(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    entry, membership = entry_for_member(request, pk)
    context = _detail_context(entry, membership)
    character = entry.character
    can_roll = character is not None and character.can_roll(membership)
    sheet = rule_system(entry.system).sheet_of(character) if character and can_roll else None
    context |= _result_context(
        entry.card_for(membership),
        sheet,
        has_follow_up=context["follow_up_entry"] is not None,
        can_roll=can_roll,
    )
    context["can_roll_again"] = (
        can_roll
        and not context["entry"].redacted
        and entry.kind in ("roll", "auto_pass", "skip")
        and "target" in entry.options
    )
    return render(request, "rolls/entry_detail.html", context)


@login_required
@require_POST
def roll_reveal(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The GM makes a hidden roll (and its follow-ups) readable by every member, with a new entry."""
    entry, membership = entry_for_member(request, pk)
    if not membership.is_gm:
        raise PermissionDenied("Only the GM reveals hidden rolls.")
    if entry.kind not in ROOT_KINDS or entry.kind == Kind.REVEAL:
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


def _reveal(entry: RollEntry, user: Any) -> RollEntry:
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
