"""Views for accounts, campaigns, invites and character sheets.

Permission helpers (`campaign_for_member`, `campaign_for_gm`, `character_for_reader`,
`character_for_editor`) are the only way views load a campaign or character: a non-member always
gets a 404 (no existence leak), a member without the right role a 403.
Every HTMX action is a plain form too: HTMX requests get the named partial, plain POSTs a redirect.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.forms import Form
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from config.ratelimit import rate_limited
from rolls import live
from rolls.live.stream import live_context
from rolls.models import RollEntry
from sheets.access import (
    campaign_for_creator,
    campaign_for_gm,
    campaign_for_member,
    character_for_editor,
    character_for_reader,
)
from sheets.character_json import CharacterImportError, export_json, import_character
from sheets.forms import (
    CampaignForm,
    CharacterBasicsForm,
    CharacterCreateForm,
    CharacterImportForm,
    InviteForm,
    SignupForm,
)
from sheets.models import (
    Campaign,
    Character,
    Invite,
    InviteError,
    Membership,
)
from sheets.rows import DELETE, SheetRow

User = get_user_model()

RECENT_ROLLS = 5  # entries shown on a sheet; the campaign log has the rest


def _data(request: HttpRequest) -> Any:
    """Form data for a POST, even an empty one (`request.POST or None` would treat it as a GET)."""
    return request.POST if request.method == "POST" else None


# ---------------------------------------------------------------------------------------------
# Home and accounts
# ---------------------------------------------------------------------------------------------


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    campaigns = Campaign.objects.for_home(request.user) if request.user.is_authenticated else []
    return render(request, "sheets/home.html", {"campaigns": campaigns})


@require_http_methods(["GET", "POST"])
@rate_limited("signup", target=lambda request: request.POST.get("username", ""))
def signup(request: HttpRequest) -> HttpResponse:
    # The form must say when a username is taken; that is the only difference between a taken and
    # a free name (no email check, the same queries either way), and the rate limit keeps anyone
    # from asking about many names (docs/permissions.md, "Authentication and abuse").
    if request.user.is_authenticated:
        return redirect("home")
    form = SignupForm(_data(request))
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                user = form.save()
        except IntegrityError:
            # Someone took the name between the form's check and the insert.
            form.add_error("username", form.instance.unique_error_message(User, ["username"]))
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            messages.success(request, f"Welcome to Poolside, {user.username}.")
            next_url = request.POST.get("next", "")
            if next_url.startswith("/invite/"):
                return redirect(next_url)
            return redirect("home")
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": request.GET.get("next", request.POST.get("next", ""))},
        status=status,
    )


# ---------------------------------------------------------------------------------------------
# Campaigns
# ---------------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def campaign_create(request: HttpRequest) -> HttpResponse:
    form = CampaignForm(_data(request))
    if request.method == "POST" and form.is_valid():
        campaign = form.save(commit=False)
        campaign.start(gm=request.user)
        messages.success(request, f"Campaign “{campaign.name}” created. You are its GM.")
        return redirect(campaign)
    return render(
        request,
        "sheets/campaign_form.html",
        {"form": form, "campaign": None},
        status=400 if form.is_bound else 200,
    )


@login_required
@require_GET
def campaign_detail(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for_member(request, pk)
    return render(request, "sheets/campaign_detail.html", _campaign_context(campaign, membership))


def _campaign_context(
    campaign: Campaign, membership: Membership, invite_form: InviteForm | None = None
) -> dict[str, Any]:
    characters = (
        Character.objects.visible_to(membership).select_related("owner").order_by("is_npc", "name")
    )
    context: dict[str, Any] = {
        "campaign": campaign,
        "membership": membership,
        "members": campaign.memberships.select_related("user").order_by("role", "user__username"),
        "characters": characters,
    }
    if membership.is_gm:
        context["invites"] = campaign.invites.all()
        context["invite_form"] = invite_form or InviteForm()
    return context


@login_required
@require_http_methods(["GET", "POST"])
def campaign_edit(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, _ = campaign_for_gm(request, pk)
    form = CampaignForm(_data(request), instance=campaign)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Campaign saved.")
        return redirect(campaign)
    return render(
        request,
        "sheets/campaign_form.html",
        {"form": form, "campaign": campaign},
        status=400 if form.is_bound else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def member_remove(request: HttpRequest, pk: int, member_pk: int) -> HttpResponse:
    campaign, gm = campaign_for_gm(request, pk)
    member = get_object_or_404(campaign.memberships.select_related("user"), pk=member_pk)
    if member.pk == gm.pk:
        raise PermissionDenied("Hand the GM role to someone else before leaving.")
    if request.method == "POST":
        member.delete()
        # Their open live streams end (rolls/live/stream.py re-reads the membership).
        live.publish(campaign.pk, "member", member.user_id)
        messages.success(request, f"{member.user.username} was removed from the campaign.")
        return redirect(campaign)
    return render(
        request,
        "sheets/confirm.html",
        {
            "campaign": campaign,
            "title": f"Remove {member.user.username}?",
            "body": (
                f"{member.user.username} will lose access to “{campaign.name}”. Their characters "
                "stay in the campaign, editable by you."
            ),
            "action": reverse("member_remove", args=[campaign.pk, member.pk]),
            "button": "Remove member",
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def member_make_gm(request: HttpRequest, pk: int, member_pk: int) -> HttpResponse:
    campaign, gm = campaign_for_gm(request, pk)
    member = get_object_or_404(campaign.memberships.select_related("user"), pk=member_pk)
    if member.pk == gm.pk:
        return redirect(campaign)
    if request.method == "POST":
        campaign.hand_gm_to(member)
        # Both roles changed: their open streams re-read what each may now see.
        live.publish(campaign.pk, "member", member.user_id)
        live.publish(campaign.pk, "member", gm.user_id)
        messages.success(request, f"{member.user.username} is now the GM. You stay on as a player.")
        return redirect(campaign)
    return render(
        request,
        "sheets/confirm.html",
        {
            "campaign": campaign,
            "title": f"Make {member.user.username} the GM?",
            "body": (
                f"{member.user.username} becomes the GM of “{campaign.name}” and takes over the "
                "NPCs. You become a player and can no longer edit other players' characters."
            ),
            "action": reverse("member_make_gm", args=[campaign.pk, member.pk]),
            "button": "Hand over the GM role",
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def campaign_leave(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for_member(request, pk)
    if membership.is_gm:
        raise PermissionDenied("The GM cannot leave; hand the GM role to another member first.")
    if request.method == "POST":
        membership.delete()
        live.publish(campaign.pk, "member", membership.user_id)
        messages.success(request, f"You left “{campaign.name}”.")
        return redirect("home")
    return render(
        request,
        "sheets/confirm.html",
        {
            "campaign": campaign,
            "title": f"Leave “{campaign.name}”?",
            "body": "You will need a new invite link to come back.",
            "action": reverse("campaign_leave", args=[campaign.pk]),
            "button": "Leave campaign",
        },
    )


# ---------------------------------------------------------------------------------------------
# Invites
# ---------------------------------------------------------------------------------------------


@login_required
@require_POST
def invite_create(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for_gm(request, pk)
    form = InviteForm(request.POST)
    if form.is_valid():
        invite = form.save(commit=False)
        invite.campaign = campaign
        invite.created_by = request.user
        invite.save()
        if not request.htmx:
            messages.success(request, "Invite link created.")
            return redirect(reverse("campaign_detail", args=[campaign.pk]) + "#invites")
        form = None
    context = _campaign_context(campaign, membership, invite_form=form)
    if request.htmx:
        return render(request, "sheets/campaign_detail.html#invites", context)
    return render(request, "sheets/campaign_detail.html", context, status=400)


@login_required
@require_POST
def invite_revoke(request: HttpRequest, pk: int, invite_pk: int) -> HttpResponse:
    campaign, membership = campaign_for_gm(request, pk)
    invite = get_object_or_404(campaign.invites, pk=invite_pk)
    invite.revoke()
    if request.htmx:
        return render(
            request, "sheets/campaign_detail.html#invites", _campaign_context(campaign, membership)
        )
    messages.success(request, "Invite link revoked.")
    return redirect(reverse("campaign_detail", args=[campaign.pk]) + "#invites")


@require_http_methods(["GET", "POST"])
def invite_accept(request: HttpRequest, token: str) -> HttpResponse:
    invite = get_object_or_404(Invite.objects.select_related("campaign"), token=token)
    campaign = invite.campaign
    member = campaign.membership_for(request.user)
    if member is not None:
        messages.info(request, "You are already a member of this campaign.")
        return redirect(campaign)
    problem = invite.problem()
    if problem:
        # 410 Gone: the link existed but can no longer be used.
        return render(
            request, "sheets/invite.html", {"invite": invite, "problem": problem}, status=410
        )
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={invite.get_absolute_url()}")
        try:
            invite.redeem(request.user)
        except InviteError as exc:
            return render(
                request, "sheets/invite.html", {"invite": invite, "problem": str(exc)}, status=410
            )
        messages.success(
            request, f"You joined “{campaign.name}” as {invite.get_role_display().lower()}."
        )
        return redirect(campaign)
    return render(request, "sheets/invite.html", {"invite": invite, "problem": None})


# ---------------------------------------------------------------------------------------------
# Characters
# ---------------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def character_create(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for_creator(request, pk)
    form = CharacterCreateForm(_data(request), gm=membership.is_gm)
    if request.method == "POST" and form.is_valid():
        character = campaign.new_character(
            owner=request.user,
            name=form.cleaned_data["name"],
            # The GM's characters are NPCs; players' are player characters.
            is_npc=membership.is_gm,
            hidden_from_players=form.cleaned_data.get("hidden_from_players", False),
        )
        messages.success(request, f"{character.name} created. Fill in the sheet below.")
        return redirect(character)
    return render(
        request,
        "sheets/character_form.html",
        {"form": form, "campaign": campaign, "membership": membership},
        status=400 if form.is_bound else 200,
    )


@login_required
@require_http_methods(["GET", "POST"])
def character_import(request: HttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for_creator(request, pk)
    form = CharacterImportForm(_data(request), request.FILES if request.method == "POST" else None)
    import_errors: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            # As this member: a player's import can't set what only the GM sets.
            imported = import_character(form.cleaned_data["raw"], membership=membership)
        except CharacterImportError as exc:
            import_errors = exc.errors
        else:
            messages.success(request, f"{imported.character.name} imported.")
            for notice in imported.notices:
                messages.warning(request, notice)
            return redirect(imported.character)
    return render(
        request,
        "sheets/character_import.html",
        {"form": form, "campaign": campaign, "import_errors": import_errors},
        status=400 if form.is_bound else 200,
    )


@login_required
@require_GET
def character_export(request: HttpRequest, pk: int) -> HttpResponse:
    character, _ = character_for_reader(request, pk)
    response = HttpResponse(export_json(character), content_type="application/json")
    filename = "".join(ch if ch.isalnum() else "-" for ch in character.name).strip("-") or "sheet"
    response["Content-Disposition"] = f'attachment; filename="{filename}.poolside.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def character_delete(request: HttpRequest, pk: int) -> HttpResponse:
    character, _ = character_for_editor(request, pk)
    campaign = character.campaign
    if request.method == "POST":
        character.delete()
        messages.success(request, f"{character.name} was deleted.")
        return redirect(campaign)
    return render(
        request,
        "sheets/confirm.html",
        {
            "campaign": campaign,
            "title": f"Delete {character.name}?",
            "body": "The whole sheet is deleted. Export it first if you may want it back.",
            "action": reverse("character_delete", args=[character.pk]),
            "button": "Delete character",
        },
    )


@login_required
@require_GET
def character_detail(request: HttpRequest, pk: int) -> HttpResponse:
    character, membership = character_for_reader(request, pk)
    return _render_sheet(request, character, membership)


# ---------------------------------------------------------------------------------------------
# Sheet rendering and saving
# ---------------------------------------------------------------------------------------------


def _sheet_context(
    character: Character, membership: Membership, bound: dict[str, Form]
) -> dict[str, Any]:
    """Everything the sheet partial shows: each row with its engine pool and (if editable) form.

    `bound` holds a submitted form with errors by its key, so the message appears beside its field.
    """
    can_edit = character.can_edit(membership)
    gm = membership.is_gm

    def form(key: str, factory: Any) -> Form | None:
        if not can_edit:
            return None
        return bound.get(key) or factory()

    context: dict[str, Any] = {
        "character": character,
        "campaign": character.campaign,
        "membership": membership,
        "can_edit": can_edit,
        "basics_form": form(
            "basics", lambda: CharacterBasicsForm(instance=character, gm=gm, prefix="basics")
        ),
    }
    system = character.campaign.rule_system
    sheet = system.sheet_of(character)
    context |= {
        "sheet": sheet,
        "sheet_form": form("sheet", lambda: system.sheet_form_for(sheet, gm=gm)),
    }
    context |= system.sheet_context(character, sheet, form, can_edit=can_edit, gm=gm)
    return context


def _sheet_queryset_character(character: Character) -> Character:
    """Reload with the one-to-one sheet joined so the page has a fixed number of queries."""
    related = character.campaign.rule_system.related_name
    return Character.objects.select_related("campaign", "owner", related).get(pk=character.pk)


def _render_sheet(
    request: HttpRequest,
    character: Character,
    membership: Membership,
    *,
    bound: dict[str, Form] | None = None,
    status: int = 200,
    saved: str = "",
) -> HttpResponse:
    character = _sheet_queryset_character(character)
    context = _sheet_context(character, membership, bound or {})
    context["saved"] = saved
    context["can_roll"] = character.can_roll(membership)
    context["recent_rolls"] = [
        entry.card_for(membership)
        for entry in RollEntry.objects.visible_to(membership).recent_for(character, RECENT_ROLLS)
    ]
    context["show_seq"] = membership.is_gm  # chain numbers' gaps would count hidden rolls
    template = "sheets/character_detail.html"
    if request.htmx:
        # htmx swaps only 2xx responses by default; validation errors are part of the sheet.
        return render(request, template + "#sheet", context)
    # The page refreshes itself when this character rolls or changes (docs/live.md).
    recent = context["recent_rolls"]
    context |= live_context(
        character.campaign, last_id=recent[0].pk if recent else 0, character=character
    )
    return render(request, template, context, status=status)


def _save(
    request: HttpRequest,
    character: Character,
    membership: Membership,
    form: Form,
    key: str,
    saved: str,
    anchor: str = "",
) -> HttpResponse:
    """Validate and save one sheet form: partial for HTMX, redirect (or page + errors) otherwise."""
    if form.is_valid():
        try:
            with transaction.atomic():
                form.save()
                # Open sheets and dashboards refresh this character (delivered on commit).
                live.publish(character.campaign_id, "sheet", character.pk)
        except IntegrityError:
            # A concurrent edit beat this one to a unique name or slot: show it, don't 500.
            form.add_error(None, "That change clashed with another edit; reload and try again.")
        else:
            if request.htmx:
                return _render_sheet(request, character, membership, saved=saved)
            messages.success(request, saved)
            return redirect(character.get_absolute_url() + (f"#{anchor}" if anchor else ""))
    return _render_sheet(request, character, membership, bound={key: form}, status=400)


@login_required
@require_POST
def character_basics(request: HttpRequest, pk: int) -> HttpResponse:
    character, membership = character_for_editor(request, pk)
    form = CharacterBasicsForm(
        request.POST, instance=character, gm=membership.is_gm, prefix="basics"
    )
    return _save(request, character, membership, form, "basics", "Saved the character.", "basics")


@login_required
@require_POST
def sheet_update(request: HttpRequest, pk: int) -> HttpResponse:
    character, membership = character_for_editor(request, pk)
    system = character.campaign.rule_system
    sheet = system.sheet_of(character)
    form = system.sheet_form_for(sheet, gm=membership.is_gm, data=request.POST)
    return _save(request, character, membership, form, "sheet", "Saved the sheet.", "sheet-top")


@login_required
@require_POST
def sheet_row(
    request: HttpRequest, pk: int, row: SheetRow, row_pk: int | None = None
) -> HttpResponse:
    """Add, save or delete one row of a sheet, as the line ``row`` of ``sheets.rows`` says."""
    character, membership = character_for_editor(request, pk)
    if character.campaign.system != row.system:
        raise Http404("This character plays another system.")
    obj = None
    if row.model is not None:
        obj = get_object_or_404(row.queryset(), pk=row_pk, **{row.lookup: character.pk})
    if row.action == DELETE:
        problem = row.refuse(obj)
        if problem:
            if request.htmx:
                return _render_sheet(request, character, membership, saved=problem)
            messages.error(request, problem)
            return redirect(character.get_absolute_url() + f"#{row.anchor(obj)}")
        assert obj is not None
        obj.delete()
        return _after_delete(request, character, membership, row.saved(obj), row.anchor(obj))
    assert row.form is not None
    form = row.form(request.POST, obj, character.sheet)
    return _save(
        request, character, membership, form, row.key(obj), row.saved(obj), row.anchor(obj)
    )


def _after_delete(
    request: HttpRequest, character: Character, membership: Membership, saved: str, anchor: str
) -> HttpResponse:
    live.publish(character.campaign_id, "sheet", character.pk)
    if request.htmx:
        return _render_sheet(request, character, membership, saved=saved)
    messages.success(request, saved)
    return redirect(character.get_absolute_url() + f"#{anchor}")


@login_required
@require_http_methods(["GET", "POST"])
def campaign_skills(request: HttpRequest, pk: int) -> HttpResponse:
    """The GM's skills beside the rules' own: Cold Stars custom skills beside the default catalog,
    Cogent combat skills (magic, powers) beside the Book's fixed list."""
    campaign, membership = campaign_for_member(request, pk)
    system = campaign.rule_system
    if not system.campaign_skills_label:
        raise Http404(
            f"{system.label} skills are written on each sheet; there is no campaign list."
        )
    form = None
    if membership.is_gm:
        form = system.campaign_skill_form(campaign, _data(request))
    elif request.method == "POST":
        raise PermissionDenied("Only the GM adds skills.")
    if request.method == "POST" and form is not None and form.is_valid():
        with transaction.atomic():
            message = system.add_campaign_skill(form)
        messages.success(request, message)
        return redirect("campaign_skills", pk=campaign.pk)
    context: dict[str, Any] = {"campaign": campaign, "membership": membership, "form": form}
    context |= system.campaign_skills_context(campaign)
    return render(
        request,
        "sheets/campaign_skills.html",
        context,
        status=400 if form is not None and form.is_bound else 200,
    )
