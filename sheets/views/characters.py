"""Characters and their sheets: create, import and export, the sheet page, and every change to it (the
basics, one Save per section, and adding or removing a row through one view driven by
``sheets.rows``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import IntegrityError, transaction
from django.forms import BaseForm, ModelForm
from django.http import Http404, HttpResponse, QueryDict
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods, require_POST

import live
from rolls.live.pages import live_context
from sheets.access import (
    campaign_for_creator,
    character_for_editor,
    character_for_reader,
)
from sheets.character_json import CharacterImportError, export_json, import_character
from sheets.forms import (
    CharacterBasicsForm,
    CharacterImportForm,
    SectionForm,
    show_ranges,
)
from sheets.models import (
    Character,
    Membership,
)
from sheets.rolled import recent_rolls, rolled_context, with_sheet
from sheets.rows import DELETE, SheetRow
from sheets.systems import rule_system_of
from web.http import AuthenticatedHttpRequest, form_data

if TYPE_CHECKING:
    from sheets.models import SystemSheet
    from sheets.systems import RuleSystem

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
    system = rule_system_of(campaign)
    form = system.creation.form_for(campaign, form_data(request), gm=membership.is_gm)
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
            system.creation.fill(system.sheet_of(character), form.build)
        said = f"{character.name} created."
        if form.strict and form.check.unspent:
            said += f" Not spent yet: {form.check.unspent_text}; spend them on the sheet."
        messages.success(request, said)
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
        {
            "form": form,
            "campaign": campaign,
            "membership": membership,
            "import_errors": import_errors,
        },
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
    """The sheet in read mode; ``?edit=<section>`` shows that one section as its form (the Edit
    link without JavaScript, and the section htmx swaps in), for the owner and the GM only."""
    editing = request.GET.get("edit", "")
    if editing:
        character, membership = character_for_editor(request, pk)
        if not _is_section(character, editing):
            raise Http404("No such part of the sheet.")
    else:
        character, membership = character_for_reader(request, pk)
    if request.GET.get("part") == "rolled":
        # What a roll changed, for an open sheet the live stream told of it (docs/live.md);
        # without htmx there is no such page part: the sheet itself.
        if not request.htmx:
            return redirect(character)
        return render(
            request, "sheets/character_detail.html#rolled", rolled_context(character, membership)
        )
    return _render_sheet(request, character, membership, editing=editing)


BASICS = "basics"  # the name and notes: every system's section, saved by character_basics


def _is_section(character: Character, key: str) -> bool:
    return key == BASICS or rule_system_of(character.campaign).sheet_page.section(key) is not None


# ---------------------------------------------------------------------------------------------
# Sheet rendering and saving
# ---------------------------------------------------------------------------------------------


def _carry_unsaved(section_forms: dict[str, BaseForm], carried: QueryDict) -> None:
    """Show the edited section's fields as a row add's or remove's request typed them."""
    for fresh in section_forms.values():
        names = {name: fresh.add_prefix(name) for name in fresh.fields}
        if any(key in carried for key in names.values()):
            fresh.initial.update(
                {
                    name: fresh.fields[name].widget.value_from_datadict(carried, {}, key)
                    for name, key in names.items()
                }
            )


def _mark_section_fields(
    section_forms: dict[str, BaseForm], bound: dict[str, BaseForm], editing: str
) -> None:
    """Tie the shown forms' fields to the section's one form, and focus its first field."""
    for key, fresh in section_forms.items():
        shown = bound.get(key, fresh)
        for field in shown.fields.values():
            # The rows' fields stand in their table rows, beside the rows' own Remove forms;
            # the attribute makes them the section form's (templates/sheets/_section_form.html).
            field.widget.attrs["form"] = f"{editing}-form"
    first = next(iter(section_forms), None)
    if first is not None:
        # The section opens with its first field focused (htmx honours autofocus after a swap).
        fields = bound.get(first, section_forms[first]).fields
        if fields:
            next(iter(fields.values())).widget.attrs["autofocus"] = True


def _edited_forms(
    system: RuleSystem[Any],
    sheet: SystemSheet,
    editing: str,
    *,
    gm: bool,
    bound: dict[str, BaseForm],
    carried: QueryDict | None,
) -> dict[str, BaseForm]:
    """The edited section's own forms by key, the same ones its Save validates (ranges shown up
    front), with any carried values filled in and the fields tied to the section's form."""
    edited = system.sheet_page.section(editing)
    if edited is None or not edited.saves:
        return {}
    section_forms = system.sheet_page.section_form(editing, sheet, gm=gm, data=None).bound
    if carried is not None:
        _carry_unsaved(section_forms, carried)
    _mark_section_fields(section_forms, bound, editing)
    return section_forms


def _sheet_context(
    character: Character,
    membership: Membership,
    bound: dict[str, BaseForm],
    editing: str,
    carried: QueryDict | None = None,
) -> dict[str, Any]:
    """Everything the sheet partial shows: each row with its engine pool, and the forms of the
    one section in edit mode (``editing``; "" for read mode everywhere).

    `bound` holds submitted forms with errors by their key, so each message appears beside its
    field and nothing typed is lost. `carried` is a row add's or remove's request, which brings
    the edited section's unsaved fields along: they are shown again as typed, not yet saved.
    """
    can_edit = character.can_edit(membership)
    editing = editing if can_edit else ""
    gm = membership.is_gm
    system = rule_system_of(character.campaign)
    sheet = system.sheet_of(character)
    section_forms = _edited_forms(system, sheet, editing, gm=gm, bound=bound, carried=carried)

    def form(
        section: str, key: str, factory: Callable[[], BaseForm] | None = None
    ) -> BaseForm | None:
        if section != editing:
            return None
        found = bound.get(key) or section_forms.get(key)
        if found is None and factory is not None:
            found = show_ranges(factory())
        return found

    context: dict[str, object] = {
        "character": character,
        "campaign": character.campaign,
        "membership": membership,
        "can_edit": can_edit,
        "editing": editing,
        "section_errors": any(bound[key].errors for key in bound if key in section_forms),
        "sections": {s.key: s for s in system.sheet_page.sections},
        "basics_form": form(
            BASICS,
            "basics",
            lambda: CharacterBasicsForm(instance=character, gm=gm, prefix="basics"),
        ),
        "sheet": sheet,
        "sheet_form": form(
            next((s.key for s in system.sheet_page.sections if s.figures), ""),
            "sheet",
        ),
    }
    context |= system.sheet_page.context(
        character, sheet, form, can_edit=can_edit, gm=gm, editing=editing
    )
    return context


def _render_sheet(
    request: AuthenticatedHttpRequest,
    character: Character,
    membership: Membership,
    *,
    bound: dict[str, BaseForm] | None = None,
    status: int = 200,
    saved: str = "",
    editing: str = "",
    focus: str = "",
    carried: QueryDict | None = None,
) -> HttpResponse:
    character = with_sheet(character)
    context = _sheet_context(character, membership, bound or {}, editing, carried)
    context["saved"] = saved
    # After a Save or Cancel the section's Edit control takes focus back (a saved section by
    # the view, a cancelled one by ?focus= on Cancel's request).
    context["focus"] = focus or request.GET.get("focus", "")
    context |= recent_rolls(character, membership)
    template = "sheets/character_detail.html"
    if request.htmx:
        # htmx swaps only 2xx responses by default; validation errors are part of the sheet.
        return render(request, template + "#sheet", context)
    # The page refreshes itself when this character rolls or changes (docs/live.md).
    recent = context["recent_rolls"]
    context |= live_context(
        character.campaign,
        last_id=recent[0].pk if recent else 0,
        character=character,
        table=True,
    )
    return render(request, template, context, status=status)


def _save(
    request: AuthenticatedHttpRequest,
    character: Character,
    membership: Membership,
    form: ModelForm | SectionForm,
    key: str,
    saved: str,
    anchor: str,
    section: str,
    *,
    stay: bool = False,
) -> HttpResponse:
    """Validate and save one sheet form or a whole section: the sheet partial for HTMX, a
    redirect (or the page with errors) otherwise. With errors, ``section`` stays in edit mode
    with what was typed; after a save the sheet reads again, unless ``stay`` (a row just added
    keeps its section in edit mode, so the next one can be added)."""
    editing = section if stay else ""
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
                return _render_sheet(
                    request,
                    character,
                    membership,
                    saved=saved,
                    editing=editing,
                    focus="" if stay else section,
                    carried=request.POST if stay else None,
                )
            messages.success(request, saved)
            return redirect(_sheet_url(character, editing, anchor))
    bound: dict[str, BaseForm] = form.bound if isinstance(form, SectionForm) else {key: form}
    return _render_sheet(
        request,
        character,
        membership,
        bound=bound,
        status=400,
        editing=section,
        carried=request.POST if stay else None,
    )


def _sheet_url(character: Character, editing: str = "", anchor: str = "") -> str:
    url = character.get_absolute_url()
    if editing:
        url += f"?edit={editing}"
    return url + (f"#{anchor}" if anchor else "")


@login_required
@require_POST
def character_basics(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    character, membership = character_for_editor(request, pk)
    form = CharacterBasicsForm(
        request.POST, instance=character, gm=membership.is_gm, prefix="basics"
    )
    return _save(
        request, character, membership, form, "basics", "Saved the character.", BASICS, BASICS
    )


@login_required
@require_POST
def sheet_section(request: AuthenticatedHttpRequest, pk: int, section: str) -> HttpResponse:
    """One section's Save: every field of it validated together and saved in one transaction,
    or nothing saved and the section shown again with what was typed and each error beside its
    field. The owner and the GM only."""
    character, membership = character_for_editor(request, pk)
    system = rule_system_of(character.campaign)
    part = system.sheet_page.section(section)
    if part is None or not part.saves:
        raise Http404("No such part of the sheet.")
    form = system.sheet_page.section_form(
        section, system.sheet_of(character), gm=membership.is_gm, data=request.POST
    )
    return _save(
        request,
        character,
        membership,
        form,
        section,
        f"Saved {part.title.lower()}.",
        section,
        section,
    )


@login_required
@require_POST
def sheet_row(
    request: AuthenticatedHttpRequest, pk: int, row: SheetRow, row_pk: int | None = None
) -> HttpResponse:
    """Add or remove one row of a sheet, as the line ``row`` of ``sheets.rows`` says."""
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
            return _back_to_section(
                request, character, membership, row, obj, problem, level=messages.ERROR
            )
        assert obj is not None
        obj.delete()
        live.publish(character.campaign_id, "sheet", character.pk)
        return _back_to_section(request, character, membership, row, obj, row.saved(obj))
    assert row.form is not None
    form = row.form(request.POST, obj, character.sheet)
    return _save(
        request,
        character,
        membership,
        form,
        row.key(obj),
        row.saved(obj),
        row.anchor(obj),
        row.section,
        stay=True,
    )


def _confirm_delete(
    request: AuthenticatedHttpRequest, character: Character, row: SheetRow, obj: object
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
            "cancel_url": _sheet_url(character, row.section, row.anchor(obj)),
        },
    )


def _back_to_section(
    request: AuthenticatedHttpRequest,
    character: Character,
    membership: Membership,
    row: SheetRow,
    obj: object,
    message: str,
    *,
    level: int = messages.SUCCESS,
) -> HttpResponse:
    """After a remove, or its refusal, the row's section stays in edit mode where its Remove
    button was: the sheet with ``message`` (and the section's unsaved fields, carried) for htmx,
    a redirect with the message otherwise."""
    if request.htmx:
        return _render_sheet(
            request, character, membership, saved=message, editing=row.section, carried=request.POST
        )
    messages.add_message(request, level, message)
    return redirect(_sheet_url(character, row.section, row.anchor(obj)))
