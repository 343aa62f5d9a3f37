"""Characters and their sheets: create, import and export, the sheet page, and every save of it (the
sheet's basics and figures, and its rows through one view driven by ``sheets.rows``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.forms import BaseForm, ModelForm
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from config.http import AuthenticatedHttpRequest, form_data
from rolls import live
from rolls.live.stream import live_context
from rolls.models import RollEntry
from sheets.access import (
    campaign_for_creator,
    character_for_editor,
    character_for_reader,
)
from sheets.character_json import CharacterImportError, export_json, import_character
from sheets.forms import (
    CharacterBasicsForm,
    CharacterImportForm,
)
from sheets.models import (
    Character,
    Membership,
)
from sheets.rows import DELETE, SheetRow

RECENT_ROLLS = 5  # entries shown on a sheet; the campaign log has the rest


# ---------------------------------------------------------------------------------------------
# Characters
# ---------------------------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def character_create(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Guided creation: the whole first sheet on one page, the system's steps from the seam.

    With htmx, every change posts the form here and gets back the budget partial, recomputed by
    the engine: that request never writes, and neither does "Check the budget" (the page again).
    The Create button is a plain POST, which creates the character and its sheet in one
    transaction, or answers with the page, the messages beside their fields and everything typed
    kept.
    """
    campaign, membership = campaign_for_creator(request, pk)
    system = campaign.rule_system
    form = system.creation_form_for(campaign, form_data(request), gm=membership.is_gm)
    context = {"form": form, "campaign": campaign, "membership": membership, "system": system}
    if request.method == "POST" and request.htmx:
        return render(request, "sheets/character_form.html#budget", context | {"preview": True})
    if request.method == "POST" and "check" in request.POST:
        # Without JavaScript, "Check the budget" redraws the page with the budget and the
        # messages for what was typed; nothing is created.
        form.is_valid()
        return render(request, "sheets/character_form.html", context)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            character = campaign.new_character(
                owner=request.user,
                name=form.cleaned_data["name"],
                # The GM's characters are NPCs; players' are player characters.
                is_npc=membership.is_gm,
                hidden_from_players=form.cleaned_data.get("hidden_from_players", False),
            )
            system.create_from(character, form.build)
        messages.success(request, f"{character.name} created.")
        return redirect(character)
    return render(
        request, "sheets/character_form.html", context, status=400 if form.is_bound else 200
    )


@login_required
@require_http_methods(["GET", "POST"])
def character_import(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    campaign, membership = campaign_for_creator(request, pk)
    form = CharacterImportForm(
        form_data(request), request.FILES if request.method == "POST" else None
    )
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
def character_export(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    character, _ = character_for_reader(request, pk)
    response = HttpResponse(export_json(character), content_type="application/json")
    filename = "".join(ch if ch.isalnum() else "-" for ch in character.name).strip("-") or "sheet"
    response["Content-Disposition"] = f'attachment; filename="{filename}.poolside.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def character_delete(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
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
def character_detail(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    character, membership = character_for_reader(request, pk)
    return _render_sheet(request, character, membership)


# ---------------------------------------------------------------------------------------------
# Sheet rendering and saving
# ---------------------------------------------------------------------------------------------


def _sheet_context(
    character: Character, membership: Membership, bound: dict[str, BaseForm]
) -> dict[str, Any]:
    """Everything the sheet partial shows: each row with its engine pool and (if editable) form.

    `bound` holds a submitted form with errors by its key, so the message appears beside its field.
    """
    can_edit = character.can_edit(membership)
    gm = membership.is_gm

    def form(key: str, factory: Callable[..., BaseForm]) -> BaseForm | None:
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
    request: AuthenticatedHttpRequest,
    character: Character,
    membership: Membership,
    *,
    bound: dict[str, BaseForm] | None = None,
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
    request: AuthenticatedHttpRequest,
    character: Character,
    membership: Membership,
    form: ModelForm,
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
def character_basics(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    character, membership = character_for_editor(request, pk)
    form = CharacterBasicsForm(
        request.POST, instance=character, gm=membership.is_gm, prefix="basics"
    )
    return _save(request, character, membership, form, "basics", "Saved the character.", "basics")


@login_required
@require_POST
def sheet_update(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    character, membership = character_for_editor(request, pk)
    system = character.campaign.rule_system
    sheet = system.sheet_of(character)
    form = system.sheet_form_for(sheet, gm=membership.is_gm, data=request.POST)
    return _save(request, character, membership, form, "sheet", "Saved the sheet.", "sheet-top")


@login_required
@require_POST
def sheet_row(
    request: AuthenticatedHttpRequest, pk: int, row: SheetRow, row_pk: int | None = None
) -> HttpResponse:
    """Add, save or delete one row of a sheet, as the line ``row`` of ``sheets.rows`` says."""
    character, membership = character_for_editor(request, pk)
    if character.campaign.system != row.system:
        raise Http404("This character plays another system.")
    obj = None
    if row.model is not None:
        obj = get_object_or_404(row.queryset(), pk=row_pk, **{row.lookup: character.pk})
    if row.action == DELETE:
        if request.POST.get("confirm") != "yes":
            # One click never destroys data: without the answer, ask (htmx asks in the browser
            # and sends it; a plain form gets this page).
            return _confirm_delete(request, character, row, obj)
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


def _confirm_delete(
    request: AuthenticatedHttpRequest, character: Character, row: SheetRow, obj: Any
) -> HttpResponse:
    what = row.question(obj)
    return render(
        request,
        "sheets/confirm.html",
        {
            "campaign": character.campaign,
            "title": f"Remove {what}?",
            "body": f"{what[0].upper()}{what[1:]} is removed from {character.name}'s sheet. "
            "This can't be undone.",
            "action": request.path,
            "confirm_field": True,
            "button": "Remove",
            "cancel_url": character.get_absolute_url() + f"#{row.anchor(obj)}",
        },
    )


def _after_delete(
    request: AuthenticatedHttpRequest,
    character: Character,
    membership: Membership,
    saved: str,
    anchor: str,
) -> HttpResponse:
    live.publish(character.campaign_id, "sheet", character.pk)
    if request.htmx:
        return _render_sheet(request, character, membership, saved=saved)
    messages.success(request, saved)
    return redirect(character.get_absolute_url() + f"#{anchor}")
