"""The parts of a sheet a roll changes — its "rolled" sections, the recent rolls, the prompts — for
the roll's own answer and for every other open sheet (docs/live.md, "the browser side"). Not a
views module: the sheet's views and the roll's (rolls.rolling, rolls.table) all use it.
"""

from __future__ import annotations

from django.http import HttpResponse
from django.template.loader import render_to_string

from log.models import RollEntry
from sheets.models import Character, Membership
from sheets.systems import rule_system_of
from web.http import AuthenticatedHttpRequest

RECENT_ROLLS = 5  # entries shown on a sheet; the campaign log has the rest


def with_sheet(character: Character) -> Character:
    """Reload with the one-to-one sheet joined so the page has a fixed number of queries."""
    related = rule_system_of(character.campaign).related_name
    return Character.objects.select_related("campaign", "owner", related).get(pk=character.pk)


def rolled_context(
    character: Character, membership: Membership, *, sections: bool = True
) -> dict[str, object]:
    """What the sheet's "rolled" partial shows: the parts of the sheet a roll or its follow-up
    may change (the rule system's rolled sections, the recent rolls, the prompts), in read mode,
    for this member — the roll's own response carries them, and every other open sheet fetches
    them when the stream brings a roll. ``sections=False``: the recent rolls (and prompts)
    only, for a roll that changed nothing else on the sheet — nothing of the sheet is read."""
    if not sections:
        only: dict[str, object] = {"character": character, "campaign": character.campaign}
        only |= {"membership": membership, "rolled_parts": [], "rolled_prompts": True}
        return only | recent_rolls(character, membership)
    character = with_sheet(character)
    system = rule_system_of(character.campaign)
    sheet = system.sheet_of(character)
    # Read mode, and only what those parts show: the rest of the sheet's rows stay unread.
    context: dict[str, object] = {
        "character": character,
        "campaign": character.campaign,
        "membership": membership,
        "can_edit": character.can_edit(membership),
        "editing": "",
        "sections": {s.key: s for s in system.sheet_page.sections},
        "sheet": sheet,
        "sheet_form": None,
    }
    context |= system.sheet_page.rolled_context(sheet) | recent_rolls(character, membership)
    context["rolled_parts"] = [
        f"{system.templates.sheet}#{section.key}"
        for section in system.sheet_page.sections
        if section.rolled
    ]
    context["rolled_prompts"] = True
    return context


def with_rolled_parts(
    request: AuthenticatedHttpRequest,
    response: HttpResponse,
    character: Character,
    membership: Membership,
    *,
    prompts: bool = True,
    sections: bool = True,
) -> HttpResponse:
    """A roll or follow-up made on the character's sheet: its response also carries what the roll
    changed there — the sheet's rolled parts as out-of-band swaps — so one click is one request
    (nothing re-fetches the sheet). From any other page (the panel's own page, a permalink) it
    carries the result alone. ``prompts=False``: not the prompts (a contest card's response,
    which is swapped into them, or a roll that changed none); ``sections=False``: not the rolled
    sections (a roll that spent nothing): only what changed is read, rendered and sent."""
    current = request.htmx.current_url_abs_path or ""
    if current.split("?", 1)[0].split("#", 1)[0] != character.get_absolute_url():
        return response
    context = rolled_context(character, membership, sections=sections) | {"rolled_prompts": prompts}
    parts = render_to_string("sheets/character_detail.html#rolled", context, request)
    response.write(parts)
    return response


def with_new_roll(
    request: AuthenticatedHttpRequest,
    response: HttpResponse,
    character: Character,
    membership: Membership,
    entry: RollEntry,
) -> HttpResponse:
    """A roll made on the character's sheet that changed nothing else there: its response also
    carries the roll's card, out of band on top of the sheet's recent rolls (the page keeps as
    many as it shows) — nothing of the sheet or its other rolls is read or rendered again."""
    current = request.htmx.current_url_abs_path or ""
    if current.split("?", 1)[0].split("#", 1)[0] != character.get_absolute_url():
        return response
    if not entry.is_known_to(membership):  # the same rule as the list's (visible_to)
        return response
    context = {"entry": entry.card_for(membership), "show_seq": membership.is_gm}
    response.write(render_to_string("sheets/character_detail.html#new-roll", context, request))
    return response


def recent_rolls(character: Character, membership: Membership) -> dict[str, object]:
    """The sheet's recent rolls as this member may know of them (placeholders for their own
    blind rolls), newest first."""
    return {
        "can_roll": character.can_roll(membership),
        "recent_rolls": [
            entry.card_for(membership)
            for entry in RollEntry.objects.visible_to(membership).recent_for(
                character, RECENT_ROLLS
            )
        ],
        "show_seq": membership.is_gm,  # chain numbers' gaps would count hidden rolls
        "recent_keep": RECENT_ROLLS,
    }
