"""The GM table: the campaign dashboard, inline resources, calls for a roll and contests.

One view serves HTMX and plain requests: HTMX gets a named partial of ``rolls/dashboard.html`` (or
the prompt fragment on a sheet), a plain POST a redirect or the page with the message beside the
field (400) or the refusal (409). Every change publishes its live event inside its transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.db.models import F, Prefetch, Window
from django.db.models.functions import RowNumber
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import trigger_client_event

from rolls import live
from rolls.models import (
    Assist,
    AssistRequest,
    Contest,
    ContestState,
    Kind,
    RollCall,
    RollCallTarget,
    RollEntry,
)
from rolls.rolling.display import percent
from rolls.rolling.outcomes import Refused, dice_rng
from rolls.rolling.targets import find_target
from rolls.rolling.views import ROLL_EVENT, assist_panel_url
from rolls.rules import cogent
from rolls.table import contests
from rolls.table.forms import AssistForm, CallForm, ContestForm
from sheets.access import (
    campaign_for_gm,
    campaign_for_member,
    character_for_gm,
    character_for_reader,
)
from sheets.models import Campaign, Character, Membership, cogent_combat_skills

LAST_ROLLS = 3  # per character on the dashboard
RECENT_CLOSED = 5  # closed calls and decided contests still shown
PARTS = ("characters", "calls", "contests")
HIDDEN_CHOICE = "A roll of this contest is hidden from you, so the GM settles it."

# ---------------------------------------------------------------------------------------------
# The dashboard
# ---------------------------------------------------------------------------------------------


def _last_rolls(campaign: Campaign, membership: Membership, size: int) -> dict[int, list[Any]]:
    """The last ``size`` entries of every character, in one query (a window function numbers
    each character's entries newest first), as cards for this member."""
    ranked = (
        RollEntry.objects.visible_to(membership)
        .filter(character__isnull=False)
        .for_cards()
        .annotate(rank=Window(RowNumber(), partition_by=F("character_id"), order_by=F("pk").desc()))
        .filter(rank__lte=size)
        .order_by("character_id", "-pk")
    )
    by_character: dict[int, list[Any]] = {}
    for entry in ranked:
        by_character.setdefault(entry.character_id, []).append(entry.card_for(membership))
    return by_character


def _character_rows(
    campaign: Campaign, membership: Membership, bound: dict[int, Any] | None = None
) -> list[dict[str, Any]]:
    system = campaign.rule_system
    characters = (
        Character.objects.filter(campaign=campaign)
        .select_related("owner", system.related_name)
        .prefetch_related(*system.summary_related())
        .order_by("is_npc", "name", "pk")
    )
    rolls = _last_rolls(campaign, membership, LAST_ROLLS)
    bound = bound or {}
    rows = []
    for character in characters:
        sheet = system.sheet_of(character)
        form = bound.get(character.pk) or system.resources_form(
            instance=sheet, prefix=f"res-{character.pk}"
        )
        rows.append(
            {
                "character": character,
                "sheet": sheet,
                "form": form,
                "rolls": rolls.get(character.pk, []),
            }
        )
    return rows


def _calls(campaign: Campaign) -> list[dict[str, Any]]:
    """Open calls and the last few closed ones, each target with its answer (entry) if any."""
    prefetch = [
        Prefetch(
            "targets",
            queryset=RollCallTarget.objects.select_related("character").order_by("character__name"),
        ),
        Prefetch("entries", queryset=RollEntry.objects.order_by("pk")),
    ]
    open_calls = list(campaign.roll_calls.open().prefetch_related(*prefetch).order_by("-pk"))
    closed = list(
        campaign.roll_calls.filter(closed_at__isnull=False)
        .prefetch_related(*prefetch)
        .order_by("-closed_at", "-pk")[:RECENT_CLOSED]
    )
    result = []
    for call in open_calls + closed:
        answers = {e.character_id: e for e in call.entries.all()}
        result.append(
            {
                "call": call,
                "targets": [(t.character, answers.get(t.character_id)) for t in call.targets.all()],
                "answered": len(answers),
            }
        )
    return result


# A contest's entries, with what visibility needs to decide who reads each (no query per entry).
def _contest_entries() -> Prefetch:
    return Prefetch(
        "entries", queryset=RollEntry.objects.select_related("character").order_by("pk")
    )


def _contests(campaign: Campaign, membership: Membership) -> list[dict[str, Any]]:
    related = ("character_a", "character_b", "campaign")
    entries = _contest_entries()
    active = list(campaign.contests.active().select_related(*related).prefetch_related(entries))
    decided = list(
        campaign.contests.exclude(state__in=[ContestState.OPEN, ContestState.CHOOSING])
        .select_related(*related)
        .prefetch_related(entries)
        .order_by("-decided_at", "-pk")[:RECENT_CLOSED]
    )
    # The dashboard lists every contest: a side's pool and odds (reads of both sheets) are on the
    # rolling character's own prompt, not repeated per contest here.
    for contest in active + decided:
        contest.campaign = campaign  # one instance: what is read of the campaign is read once
    return [_contest_card(contest, membership, figures=False) for contest in active + decided]


def _contest_card(
    contest: Contest, membership: Membership, *, figures: bool = True
) -> dict[str, Any]:
    """A contest with, per side, what it rolled and what this member may do for it now.

    A member who may not read every roll of the contest (``contests.readable_by``) gets no
    figures: each side they can't read shows only that it rolled, and once every side is in the
    contest shows as decided with its result hidden — an even result waiting for the initiator's
    choice looks the same (the GM chooses), so it can't be told apart from a win."""
    entries = list(contest.entries.all())
    verdict = next((e for e in entries if e.kind == Kind.CONTEST), None)
    readable = contests.readable_by(membership, entries)
    hidden_result = not readable and contest.state in (ContestState.CHOOSING, ContestState.DECIDED)
    active = contest.is_active and not hidden_result
    sides = []
    for status in contests.sides(contest, entries):
        character = status.character
        can_act = active and character is not None and character.can_roll(membership)
        side: dict[str, Any] = {
            "status": status,
            "can_act": can_act,
            "panel_url": "",
            "readable": status.entry is not None and status.entry.is_readable_by(membership),
        }
        if can_act and not contest.both_roll and status.side == "a" and not status.rolled:
            target = find_target(character, contest.skill_a)
            if target is not None:
                side["panel_url"] = (
                    reverse("roll_panel", args=[character.pk, target.kind, target.obj.pk])
                    + f"?contest={contest.pk}"
                )
        if can_act and contest.both_roll and not status.rolled:
            side["visibilities"] = contests.visibility_choices(contest, membership)
        if can_act and contest.style.rounds and not status.rolled:
            side |= _cogent_side_choices(contest, status.side, figures=figures)
        if can_act and contest.both_roll and contest.style.keep_or_correct and not status.rolled:
            try:
                sheet = character.cold_stars
                side["willpower"] = contests.willpower_choices(contest, status.side, sheet)
            except Refused as exc:
                side["problem"] = str(exc)
        sides.append(side)
    return {
        "contest": contest,
        "sides": sides,
        "verdict": verdict,
        "readable": readable,
        # What the card may say of the state: CHOOSING gives an even result away.
        "active": active,
        "state": ContestState.DECIDED if hidden_result else contest.state,
        "state_label": ContestState.DECIDED.label if hidden_result else contest.get_state_display(),
        "hidden_result": hidden_result,
        "is_gm": membership.is_gm,
        "can_choose": contest.state == ContestState.CHOOSING and sides[0]["can_act"],
        "can_cancel": contest.is_active and membership.is_gm,
    }


def _dashboard_context(
    campaign: Campaign,
    membership: Membership,
    *,
    bound: dict[int, Any] | None = None,
    call_form: CallForm | None = None,
    contest_form: ContestForm | None = None,
    assist_form: AssistForm | None = None,
) -> dict[str, Any]:
    # Calls and contests name what is rolled; an assist may also be made with a vocation.
    skills = campaign.rule_system.skill_names(campaign, vocations=False)
    if campaign.rule_system.has_assists:
        assist_form = assist_form or AssistForm(
            campaign=campaign, skills=campaign.rule_system.skill_names(campaign)
        )
    return {
        "assist_form": assist_form,
        "campaign": campaign,
        "membership": membership,
        "live_campaign": campaign,
        "rows": _character_rows(campaign, membership, bound),
        "calls": _calls(campaign),
        "contest_cards": _contests(campaign, membership),
        "call_form": call_form or CallForm(campaign=campaign, skills=skills),
        "contest_form": contest_form or ContestForm(campaign=campaign, skills=skills),
        "dashboard_url": reverse("campaign_dashboard", args=[campaign.pk]),
    }


@login_required
@require_GET
def campaign_dashboard(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for_gm(request, pk)
    part = request.GET.get("part", "")
    if request.htmx and part in PARTS:
        context = {"campaign": campaign, "membership": membership}
        if part == "characters":
            context["rows"] = _character_rows(campaign, membership)
        elif part == "calls":
            context["calls"] = _calls(campaign)
        else:
            context["contest_cards"] = _contests(campaign, membership)
        return render(request, f"rolls/dashboard.html#{part}", context)
    return render(request, "rolls/dashboard.html", _dashboard_context(campaign, membership))


# ---------------------------------------------------------------------------------------------
# Inline resources
# ---------------------------------------------------------------------------------------------


@login_required
@require_POST
def character_resources(request: HttpRequest, pk: int) -> HttpResponse:
    character, membership = character_for_gm(request, pk)
    campaign = character.campaign
    form_class = campaign.rule_system.resources_form
    prefix = f"res-{character.pk}"
    saved = False
    with transaction.atomic():
        sheet = campaign.rule_system.lock_sheet(character.pk)
        form = form_class(request.POST, instance=sheet, prefix=prefix)
        if form.is_valid():
            try:
                with transaction.atomic():
                    form.save()
                    live.publish(campaign.pk, "sheet", character.pk)
            except IntegrityError:
                form.add_error(None, "That value clashed with a concurrent change; try again.")
            else:
                saved = True
    if request.htmx:
        if saved:
            form = form_class(instance=campaign.rule_system.read_sheet(pk), prefix=prefix)
        context = {"row": {"character": character, "form": form}, "saved": saved}
        return render(request, "rolls/dashboard.html#resources", context)
    if saved:
        messages.success(request, f"Saved {character.name}'s resources.")
        return redirect(reverse("campaign_dashboard", args=[campaign.pk]) + f"#char-{character.pk}")
    context = _dashboard_context(campaign, membership, bound={character.pk: form})
    return render(request, "rolls/dashboard.html", context, status=400)


# ---------------------------------------------------------------------------------------------
# Calls for a roll
# ---------------------------------------------------------------------------------------------


@login_required
@require_POST
def call_create(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for_gm(request, pk)
    form = CallForm(
        request.POST,
        campaign=campaign,
        skills=campaign.rule_system.skill_names(campaign, vocations=False),
    )

    def create(d: dict[str, Any]) -> str:
        call = RollCall.objects.create(
            campaign=campaign,
            created_by=request.user,
            skill=d["skill"],
            difficulty=d["difficulty"],
            ability=d.get("ability", ""),
            note=d["note"],
        )
        RollCallTarget.objects.bulk_create(
            RollCallTarget(call=call, character=c) for c in d["characters"]
        )
        live.publish(campaign.pk, "call", call.pk)
        return f"Called for {call.skill} ({call.difficulty_label})."

    return _create(request, campaign, membership, form, create, "call")


@login_required
@require_POST
def assist_start(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM has a character assist another (Cogent): opens the assisting character's roll
    panel set up for the assist. Nothing is rolled or written here; the panel rolls it."""
    campaign, membership = campaign_for_gm(request, pk)
    if not campaign.rule_system.has_assists:
        raise Http404("Assists are a Cogent rule.")
    form = AssistForm(
        request.POST, campaign=campaign, skills=campaign.rule_system.skill_names(campaign)
    )
    if not form.is_valid() or form.target is None:
        context = _dashboard_context(campaign, membership, assist_form=form)
        return render(request, "rolls/dashboard.html", context, status=400)
    d = form.cleaned_data
    return redirect(assist_panel_url(form.target, d["assisted"].pk, d["challenge_level"]))


def _create(
    request: HttpRequest,
    campaign: Campaign,
    membership: Membership,
    form: CallForm | ContestForm,
    create: Callable[[dict[str, Any]], str],
    what: str,
) -> HttpResponse:
    """Create a call or a contest from its dashboard form (``what``: "call" or "contest").
    HTMX gets the section's partial (a fresh form, or this one with its errors); a plain POST a
    redirect, or the dashboard with the errors beside the fields (400)."""
    announce = ""
    if form.is_valid():
        with transaction.atomic():
            announce = create(form.cleaned_data)
        if not request.htmx:
            messages.success(request, announce)
            return redirect(reverse("campaign_dashboard", args=[campaign.pk]) + f"#{what}s")
        form = type(form)(
            campaign=campaign,
            skills=campaign.rule_system.skill_names(
                campaign, vocations=isinstance(form, AssistForm)
            ),
        )
    elif not request.htmx:
        context = _dashboard_context(campaign, membership, **{f"{what}_form": form})
        return render(request, "rolls/dashboard.html", context, status=400)
    context: dict[str, Any] = {
        "campaign": campaign,
        "membership": membership,
        f"{what}_form": form,
        "announce": announce,
    }
    if what == "call":
        context["calls"] = _calls(campaign)
    else:
        context["contest_cards"] = _contests(campaign, membership)
    return render(request, f"rolls/dashboard.html#{what}-area", context)


@login_required
@require_POST
def call_close(request: HttpRequest, pk: int) -> HttpResponse:
    call = get_object_or_404(RollCall.objects.select_related("campaign"), pk=pk)
    campaign, _ = campaign_for_gm(request, call.campaign_id)
    with transaction.atomic():
        call.close()
        live.publish(campaign.pk, "call", call.pk)
    if request.htmx:
        return render(
            request, "rolls/dashboard.html#calls", {"campaign": campaign, "calls": _calls(campaign)}
        )
    messages.success(request, f"Closed the call for {call.skill}.")
    return redirect(reverse("campaign_dashboard", args=[campaign.pk]) + "#calls")


# ---------------------------------------------------------------------------------------------
# Prompts on a sheet: open calls and contests this character takes part in
# ---------------------------------------------------------------------------------------------


def prompts_context(character: Character, membership: Membership) -> dict[str, Any]:
    """What the sheet's prompt area shows (empty for anyone who can't roll this character)."""
    context: dict[str, Any] = {"character": character, "prompt_calls": [], "prompt_contests": []}
    if not character.can_roll(membership):
        return context
    for call in RollCall.objects.prompts_for(character).select_related("campaign"):
        target = find_target(character, call.skill)
        url = ""
        if target is not None:
            url = reverse("roll_panel", args=[character.pk, target.kind, target.obj.pk])
            url += f"?call={call.pk}"
        context["prompt_calls"].append({"call": call, "url": url})
    context["prompt_contests"] = [
        _contest_card(contest, membership)
        for contest in Contest.objects.prompts_for(character).prefetch_related(_contest_entries())
    ]
    context["membership"] = membership
    if character.campaign.rule_system.has_assists:
        # Only the assisted character's rollers see it wait: whether it is used tells of rolls.
        context["waiting_assist"] = Assist.objects.waiting_for(character).first()
        # "Ask for an assist": this character's own open request, and the others' it may answer
        # (a hidden NPC never asks, so no request names one).
        requests = list(
            AssistRequest.objects.open()
            .filter(campaign_id=character.campaign_id, character__hidden_from_players=False)
            .select_related("character")
        )
        context["own_assist_request"] = any(r.character_id == character.pk for r in requests)
        context["assist_requests"] = [r for r in requests if r.character_id != character.pk]
        if context["assist_requests"]:
            context["assist_skills"] = _row_names(character)
    return context


def _row_names(character: Character) -> list[str]:
    """The names of the rows an assist may be rolled with, in sheet order."""
    sheet = character.cogent
    names = list(sheet.skills.values_list("name", flat=True))
    for vocation in sheet.vocations.prefetch_related("subskills"):
        names.append(vocation.name)
        names += [sub.name for sub in vocation.subskills.all()]
    return list(dict.fromkeys(names))


@login_required
@require_GET
def character_prompts(request: HttpRequest, pk: int) -> HttpResponse:
    character, membership = character_for_reader(request, pk)
    if not request.htmx:
        return redirect(character)
    return render(request, "rolls/_prompts.html", prompts_context(character, membership))


# ---------------------------------------------------------------------------------------------
# Contests
# ---------------------------------------------------------------------------------------------


@login_required
@require_POST
def contest_create(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for_gm(request, pk)
    form = ContestForm(
        request.POST,
        campaign=campaign,
        skills=campaign.rule_system.skill_names(campaign, vocations=False),
    )

    def create(d: dict[str, Any]) -> str:
        a, b = d["character_a"], d["character_b"]
        contest = Contest.objects.create(
            campaign=campaign,
            created_by=request.user,
            kind=d["kind"],
            character_a=a,
            character_b=b,
            name_a=a.name,
            name_b=b.name,
            skill_a=d["skill_a"],
            skill_b=d.get("skill_b") or "",
            ability_a=d.get("ability_a", ""),
            ability_b=d.get("ability_b", ""),
            outside_domain_a=d.get("outside_domain_a", False),
            outside_domain_b=d.get("outside_domain_b", False),
            difficulty=d.get("difficulty") or 1,
            opposition=d.get("opposition") or 0,
        )
        live.publish(campaign.pk, "contest", contest.pk)
        return f"Started {contest}."

    return _create(request, campaign, membership, form, create, "contest")


def _contest_for_member(request: HttpRequest, pk: int) -> tuple[Contest, Membership]:
    contest = get_object_or_404(
        Contest.objects.select_related("campaign", "character_a", "character_b"), pk=pk
    )
    _, membership = campaign_for_member(request, contest.campaign_id)
    return contest, membership


def _back(request: HttpRequest, contest: Contest, membership: Membership) -> str:
    nxt = request.POST.get("next", "")
    # Only a path on this site: redirect() would take anything else for a view name (and 500).
    if nxt.startswith("/") and url_has_allowed_host_and_scheme(
        nxt, {request.get_host()}, request.is_secure()
    ):
        return nxt
    if membership.is_gm:
        return reverse("campaign_dashboard", args=[contest.campaign_id]) + "#contests"
    return reverse("campaign_log", args=[contest.campaign_id])


def _contest_response(
    request: HttpRequest, contest: Contest, membership: Membership, refusal: str, done: str
) -> HttpResponse:
    if request.htmx:
        contest.refresh_from_db()
        context = {
            "card": _contest_card(contest, membership),
            "membership": membership,
            "refusal": refusal,
            "next": request.POST.get("next", ""),
        }
        response = render(request, "rolls/_contest.html", context)
        return response if refusal else trigger_client_event(response, ROLL_EVENT)
    if refusal:
        return render(
            request,
            "rolls/contest_refused.html",
            {"contest": contest, "refusal": refusal, "back": _back(request, contest, membership)},
            status=409,
        )
    messages.success(request, done)
    return redirect(_back(request, contest, membership))


def _side_character(contest: Contest, side: str, membership: Membership) -> Character:
    """The side's character, if this member may act for it: 404 when they can't even read it,
    403 when they can read it but don't play it."""
    character = contest.character(side)
    if character is None or not character.can_read(membership):
        raise Http404("No such contest side.")
    if not character.can_roll(membership):
        raise PermissionDenied("Only this side's player or the GM acts for it.")
    return character


def _change_contest(
    request: HttpRequest,
    contest: Contest,
    membership: Membership,
    change: Callable[[Contest], object],
    done: str,
) -> HttpResponse:
    """Run ``change`` on the contest locked in one transaction, announce it, and answer."""
    refusal = ""
    try:
        with transaction.atomic():
            contest = Contest.objects.select_for_update().get(pk=contest.pk)
            change(contest)
            live.publish(contest.campaign_id, "contest", contest.pk)
    except Refused as exc:
        refusal = str(exc)
    return _contest_response(request, contest, membership, refusal, done)


def _cogent_side_choices(contest: Contest, side: str, *, figures: bool) -> dict[str, Any]:
    """A Cogent conflict side's options before it rolls (rules at the table: what an action's
    roll may use, less destiny after). With ``figures``: its pool and its chance to win a round
    against the other side's pool, both at their defaults (odds from the engine)."""
    skill = contest.skill(side)
    choices: dict[str, Any] = {
        # Circumstances are offered for a combat skill (the server checks the row itself).
        "combat": skill in cogent_combat_skills(contest.campaign),
        "circumstances": [
            (key, f"{label} (+{dice})")
            for key, (label, dice) in cogent.COMBAT_CIRCUMSTANCES.items()
        ],
        "equipment_range": (cogent.EQUIPMENT_MIN, cogent.EQUIPMENT_MAX),
        "destiny": None,  # unknown without the sheet: a request without any left is refused
    }
    if figures:
        try:
            target = contests.target_for(contest, side)
            other = contests.target_for(contest, "b" if side == "a" else "a")
        except Refused as exc:
            return {"problem": str(exc)}
        defaults = contests.CogentSide()
        pool, _ = contests.cogent_side_pool(target, target.sheet, defaults)
        other_pool, _ = contests.cogent_side_pool(other, other.sheet, defaults)
        chances = cogent.conflict_odds(pool, other_pool)
        decided = chances["a"] + chances["b"]
        win = chances["a"] / decided if decided else Fraction(1, 2)
        choices |= {
            "combat": target.is_combat,
            "pool": pool,
            "other_pool": other_pool,
            "win": percent(win),
            "destiny": target.sheet.destiny_points,
        }
    return {"cogent": choices}


@login_required
@require_POST
def contest_side(request: HttpRequest, pk: int, side: str, action: str) -> HttpResponse:
    """A side's roll, Correct or "keep this roll"; the verdict follows when both are in."""
    contest, membership = _contest_for_member(request, pk)
    if side not in contests.SIDES or action not in ("roll", "correct", "keep"):
        raise Http404("No such contest action.")
    character = _side_character(contest, side, membership)

    def change(contest: Contest) -> None:
        sheet = contest.campaign.rule_system.lock_sheet(character.pk)
        if action == "roll":
            try:
                willpower = int(request.POST.get("willpower", "0") or 0)
            except ValueError:
                raise Refused("Willpower must be a whole number of dice.") from None
            visibility = contests.chosen_visibility(
                contest, membership, request.POST.get("visibility", "")
            )
            cogent_options = (
                contests.CogentSide.from_post(request.POST) if contest.style.rounds else None
            )
            contests.roll_side(
                contest,
                side,
                sheet,
                dice_rng(),
                request.user,
                willpower=willpower,
                visibility=visibility,
                cogent=cogent_options,
            )
            if contest.style.rounds:
                contests.decide_if_ready(contest, request.user)
        elif action == "correct":
            rolled = contests.side_status(contest, side).entry
            if rolled is not None and not rolled.is_readable_by(membership):
                # As for any follow-up: nobody re-rolls a result they can't read (a blind roll).
                raise PermissionDenied(
                    "Only the GM sees this roll's result, so only the GM Corrects it."
                )
            contests.correct_side(contest, side, sheet, dice_rng(), request.user)
        else:
            contests.settle_side(contest, side, request.user)

    return _change_contest(request, contest, membership, change, "Rolled for the contest.")


@login_required
@require_POST
def contest_choose(request: HttpRequest, pk: int) -> HttpResponse:
    """Cold Stars, exactly even: the initiator (side A's player or the GM) chooses."""
    contest, membership = _contest_for_member(request, pk)
    _side_character(contest, "a", membership)
    choice = request.POST.get("choice", "")

    def change(contest: Contest) -> None:
        # Choosing would show the result is even: only for a member who may read every roll.
        # Asked first, so the refusal is the same whatever state the contest is in.
        if not contests.readable_by(membership, contests.deciding_entries(contest)):
            raise Refused(HIDDEN_CHOICE)
        contests.choose(contest, choice, request.user)

    return _change_contest(request, contest, membership, change, "Chose the contest's result.")


@login_required
@require_POST
def contest_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    contest, _ = _contest_for_member(request, pk)
    _, membership = campaign_for_gm(request, contest.campaign_id)
    return _change_contest(request, contest, membership, contests.cancel, "Called the contest off.")
