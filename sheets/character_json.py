"""Character export/import as versioned JSON (schema documented in docs/character-json.md).

Import runs every value through the same forms the sheet page uses, inside one transaction: any
error rolls the whole character back, so an import either fully succeeds or leaves nothing behind.
It acts with the importing member's role: what only the GM may set (NPC flags, Cold Stars resource
maximums) is taken from the GM's import and left out of a player's, with a notice saying so.

Hostile input is refused before any form runs: more than MAX_BYTES, nesting deeper than MAX_DEPTH
(checked before json.loads, which would recurse), more than MAX_ROWS items in one list or
MAX_TOTAL_ROWS in all.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.forms import ModelForm

from rules import cogent
from sheets import ranges
from sheets.forms import (
    CharacterBasicsForm,
    CogentDisabilityForm,
    CogentInjuryForm,
    CogentSheetForm,
    CogentSkillForm,
    CogentSubSkillForm,
    CogentSubSkillRatingForm,
    CogentVocationForm,
    ColdStarsDomainForm,
    ColdStarsSheetForm,
    ColdStarsSkillForm,
    Dad6BaneForm,
    Dad6ForwardBoonsForm,
    Dad6SheetForm,
    Dad6SkillForm,
)
from sheets.models import Campaign, Character, Membership
from sheets.registry import rule_system_keys
from sheets.systems import rule_system, rule_system_of
from web.text import cleaned

if TYPE_CHECKING:
    from sheets.models import CogentSheet, ColdStarsSheet, Dad6Sheet

FORMAT = "poolside-character"
VERSION = 1

# Limits (docs/character-json.md, "Limits"). A real export is a few KiB, nests 6 levels deep
# (character → sheet → vocations → vocation → subskills → subskill) and its longest list is a
# Cold Stars catalog's worth of skills; these leave room to spare and bound an import's work.
MAX_BYTES = ranges.IMPORT_MAX_BYTES  # UTF-8 bytes, pasted or uploaded (the form says so first)
MAX_DEPTH = 10  # objects and lists inside one another
MAX_ROWS = 100  # items in any one list (skills, vocations, sub-skills, domains)
MAX_TOTAL_ROWS = 200  # items in all lists together (each is a form and a row: bounds the work)

# The fields only the GM sets, per system (the sheet forms take `gm=` for the same ones).
GM_ONLY_CHARACTER_FIELDS = ("hidden_from_players", "is_npc")
GM_ONLY_COLD_STARS_FIELDS = ("momentum_max", "willpower_max")


class CharacterImportError(Exception):
    def __init__(self, errors: list[str]) -> None:
        super().__init__("; ".join(errors))
        self.errors = errors


# ---------------------------------------------------------------------------------------------
# Export
# ---------------------------------------------------------------------------------------------


def export_character(character: Character) -> dict[str, object]:
    about: dict[str, object] = {"name": character.name, "notes": character.notes}
    if character.hidden_from_players:
        # Only the GM reads a hidden NPC, so only the GM's export says so; the GM's import keeps it.
        about["hidden_from_players"] = True
    system = rule_system_of(character.campaign)
    return {
        "format": FORMAT,
        "version": VERSION,
        "system": character.campaign.system,
        "character": about,
        "sheet": system.json.dump(system.sheet_of(character)),
    }


def export_cogent(sheet: CogentSheet) -> dict[str, object]:
    return {
        **{f: getattr(sheet, f) for f in CogentSheetForm.Meta.fields},
        "skills": [
            {"name": s.name, "rating": s.rating} | ({"craft": s.craft} if s.craft else {})
            for s in sheet.skills.all()
        ],
        "injuries": [{"level": i.level, "description": i.description} for i in sheet.injury_list],
        "disabling_characteristics": [
            {"name": d.name, "attribute": d.attribute, "dice": d.dice}
            for d in sheet.disability_list
        ],
        "vocations": [
            {
                "name": v.name,
                "attribute": v.attribute,
                "rating": v.rating,
                "subskills": [
                    {"kind": s.kind, "name": s.name, "rating": s.rating}
                    | ({"attribute": s.attribute} if not s.is_combat else {})
                    | (
                        {"weapon": s.weapon, "weapon_bonus": s.weapon_bonus}
                        if s.is_combat and s.weapon
                        else {}
                    )
                    for s in v.subskills.all()
                ],
            }
            for v in sheet.vocations.prefetch_related("subskills")
        ],
    }


def export_dad6(sheet: Dad6Sheet) -> dict[str, object]:
    return {
        "class_name": sheet.class_name,
        "level": sheet.level,
        "skills": [
            {"name": s.name, "is_class_skill": s.is_class_skill}
            | ({} if s.is_class_skill else {"competence": s.competence})
            for s in sheet.skills.all()
        ],
        "banes": [b.description for b in sheet.banes.all()],
        "forward_boons": sheet.forward_boons,
    }


def export_cold_stars(sheet: ColdStarsSheet) -> dict[str, object]:
    return {
        **{f: getattr(sheet, f) for f in ColdStarsSheetForm.Meta.fields},
        # Untrained skills without domains are the default: only what differs is exported.
        "skills": [
            {
                "name": s.name,
                "trained": s.trained,
                "rating": s.rating,
                "domains": [d.name for d in s.domains.all()],
            }
            for s in sheet.skills.prefetch_related("domains")
            if s.trained or s.domains.all()
        ],
    }


def export_json(character: Character) -> str:
    return json.dumps(export_character(character), indent=2, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------------------------------------
# Import
# ---------------------------------------------------------------------------------------------


class Collector:
    """Runs forms and gathers their errors with a JSON path, so the user sees where to look."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def error(self, path: str, message: str) -> None:
        self.errors.append(f"{path}: {message}" if path else message)

    def run(self, form: ModelForm, path: str) -> bool:
        if not self.scalars(form.data, path):
            return False
        if form.is_valid():
            form.save()
            return True
        for field, messages in form.errors.items():
            where = f"{path}.{field}" if field != "__all__" else path
            for message in messages:
                self.error(where, str(message))
        return False

    def scalars(self, data: Mapping[str, object], path: str) -> bool:
        """False (with an error per field) where a list or an object stands in for a field's
        text or number: a form would read its repr (`["a"]` became the name)."""
        ok = True
        for name, value in data.items():
            if isinstance(value, list | dict):
                shape = "a list" if isinstance(value, list) else "an object"
                self.error(f"{path}.{name}", f"expected text or a number, not {shape}.")
                ok = False
        return ok

    def name(self, item: Mapping[str, object], path: str) -> str | None:
        """A row's name, which the import looks its row up by: text, or an error."""
        value = item.get("name", "")
        if isinstance(value, str):
            return value
        self.error(f"{path}.name", "expected the name as text.")
        return None

    def obj(self, value: object, path: str) -> dict[str, Any] | None:
        if isinstance(value, dict):
            return value
        self.error(path, "expected an object ({…}).")
        return None

    def items(self, parent: Mapping[str, object], key: str, path: str) -> list[dict[str, Any]]:
        value = parent.get(key, [])
        if not isinstance(value, list):
            self.error(f"{path}.{key}", "expected a list ([…]).")
            return []
        return [item for i, v in enumerate(value) if (item := self.obj(v, f"{path}.{key}[{i}]"))]


def _fields(
    data: Mapping[str, object], names: tuple[str, ...] | list[str], base: object = None
) -> dict[str, object]:
    """Form data from JSON values; missing keys keep the current value (`base`)."""
    out: dict[str, object] = {}
    for name in names:
        value = data.get(name, getattr(base, name, None) if base is not None else None)
        if isinstance(value, bool):
            # Forms read "on"/absent for checkboxes; JSON true/false maps to that.
            if value:
                out[name] = "on"
            continue
        out[name] = "" if value is None else value
    return out


# The tokens that matter for nesting: a whole JSON string (so brackets inside it don't count; an
# unterminated one runs to the end rather than being retried from every quote, which would be
# quadratic) or a bracket. One left-to-right pass, linear in the input.
_TOKENS = re.compile(r'"(?:[^"\\]+|\\.)*"?|[\[\]{}]', re.DOTALL)


def _too_deep(raw: str) -> bool:
    """True if objects and lists nest more than MAX_DEPTH deep. Checked before json.loads, whose
    recursion would otherwise end in a RecursionError on `[[[[…`."""
    depth = 0
    for token in _TOKENS.finditer(raw):
        bracket = token.group()
        if bracket == "[" or bracket == "{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif bracket == "]" or bracket == "}":
            depth -= 1
    return False


def _check_rows(data: object) -> None:
    """Refuse a list longer than MAX_ROWS, or more than MAX_TOTAL_ROWS items in all, before any
    form runs: each row is a form and an insert, and an import must answer quickly. Refuse text
    holding a lone surrogate too (JSON's "\\ud800" escape): it is no character, and PostgreSQL
    refuses to store it (a 500)."""
    total = 0
    pending: list[tuple[str, object]] = [("", data)]
    while pending:  # depth is bounded by _too_deep already; no recursion needed anyway
        path, value = pending.pop()
        if isinstance(value, str) and not _encodable(value):
            raise CharacterImportError(
                [f"{path or 'The file'}: this text holds a lone surrogate (a broken character)."]
            )
        if isinstance(value, dict):
            for key in value:
                if not _encodable(key):
                    raise CharacterImportError(
                        [
                            f"{path or 'The file'}: a key holds a lone surrogate (a broken character)."
                        ]
                    )
            pending.extend((f"{path}.{key}" if path else str(key), v) for key, v in value.items())
        elif isinstance(value, list):
            if len(value) > MAX_ROWS:
                raise CharacterImportError(
                    [f"{path}: {len(value)} rows; a character has at most {MAX_ROWS} per list."]
                )
            total += len(value)
            pending.extend((f"{path}[{i}]", v) for i, v in enumerate(value))
    if total > MAX_TOTAL_ROWS:
        message = f"{total} rows in all; a character has at most {MAX_TOTAL_ROWS} rows in all."
        raise CharacterImportError([message])


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _parse(raw: str, campaign: Campaign) -> dict[str, Any]:
    if len(raw.encode("utf-8", errors="surrogatepass")) > MAX_BYTES:
        raise CharacterImportError(
            [f"This is too large for a character ({MAX_BYTES // 1024} KiB max)."]
        )
    if _too_deep(raw):
        raise CharacterImportError(
            [f"This JSON is nested too deeply (more than {MAX_DEPTH} levels): not a character."]
        )
    try:
        # A file or a paste comes in a multipart body, which web/text.py leaves alone: its
        # text loses the bidi controls here, as every other text does at the door.
        data = cleaned(json.loads(raw))
    except json.JSONDecodeError as exc:
        raise CharacterImportError(
            [f"This is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})."]
        ) from None
    except (ValueError, RecursionError) as exc:
        # A number too long to convert (Python caps int digits), or nesting the scan missed.
        raise CharacterImportError([f"This is not valid JSON: {exc}."]) from None
    _check_rows(data)
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise CharacterImportError(
            [f'This is not a Poolside character export (expected "format": "{FORMAT}").']
        )
    version = data.get("version")
    if version != VERSION:
        raise CharacterImportError(
            [f"Export version {version!r} is not supported; this Poolside reads version {VERSION}."]
        )
    system = data.get("system")
    if not isinstance(system, str) or system not in rule_system_keys():
        raise CharacterImportError([f"Unknown system {system!r}."])
    if system != campaign.system:
        raise CharacterImportError(
            [
                f"This is a {rule_system(system).label} character; “{campaign.name}” plays "
                f"{rule_system_of(campaign).label}. Import it into a campaign of the same system."
            ]
        )
    for key in ("character", "sheet"):
        if not isinstance(data.get(key), dict):
            raise CharacterImportError([f"{key}: expected an object ({{…}})."])
    return data


@dataclass
class Imported:
    character: Character
    # What the import left out and why (a player's GM-only fields): shown to the importer.
    notices: list[str] = dataclass_field(default_factory=list)


def import_character(raw: str, *, membership: Membership) -> Imported:
    """Create a character in the member's campaign from exported JSON, as that member: the GM's
    import is an NPC and keeps GM-only fields, a player's is their PC and leaves them out (with a
    notice). Raises CharacterImportError, leaving nothing behind, when anything is wrong."""
    campaign = membership.campaign
    gm = membership.is_gm
    data = _parse(raw, campaign)
    c = Collector()
    basics = data["character"]
    hidden = basics.get("hidden_from_players", False)
    if gm and not isinstance(hidden, bool):
        raise CharacterImportError(["character.hidden_from_players: expected true or false."])
    ignored = [] if gm else [f for f in GM_ONLY_CHARACTER_FIELDS if basics.get(f)]
    with transaction.atomic():
        form = CharacterBasicsForm(data=_fields(basics, ("name", "notes")))
        if not c.scalars(form.data, "character"):
            raise CharacterImportError(c.errors)
        if not form.is_valid():
            for name, messages in form.errors.items():
                for message in messages:
                    c.error(f"character.{name}", str(message))
            raise CharacterImportError(c.errors)
        character = campaign.new_character(
            owner=membership.user,
            name=form.cleaned_data["name"],
            notes=form.cleaned_data["notes"],
            # The GM's characters are NPCs, players' are PCs, whatever the file says.
            is_npc=gm,
            hidden_from_players=gm and hidden,
        )
        result = Imported(character)
        system = rule_system_of(campaign)
        sheet = system.sheet_of(character)
        system.json.load(sheet, data["sheet"], c, gm=gm, result=result, ignored=ignored)
        if c.errors:
            # Raising inside atomic() rolls back the character and every row created so far.
            raise CharacterImportError(c.errors)
    if ignored:
        result.notices.insert(
            0,
            "Only the GM sets "
            + ", ".join(ignored)
            + ", so they were not imported: this is your player character, visible to the "
            "table; ask your GM for anything else.",
        )
    return result


def import_cogent(sheet: CogentSheet, data: dict[str, Any], c: Collector, **_: Any) -> None:
    fields = CogentSheetForm.Meta.fields
    c.run(CogentSheetForm(data=_fields(data, fields, sheet), instance=sheet), "sheet")
    skills = {s.name.lower(): s for s in sheet.skills.all()}
    seen: set[str] = set()
    for i, item in enumerate(c.items(data, "skills", "sheet")):
        path = f"sheet.skills[{i}]"
        name = c.name(item, path)
        if name is None:
            continue
        skill = skills.get(name.lower())
        if skill is None:
            c.error(f"{path}.name", f"“{name}” is not one of the 15 Cogent core skills.")
        elif name.lower() in seen:
            c.error(f"{path}.name", f"“{name}” appears twice.")
        else:
            seen.add(name.lower())
            rated = ("rating", "craft") if skill.has_craft else ("rating",)
            c.run(CogentSkillForm(data=_fields(item, rated), instance=skill), path)
    injuries = c.items(data, "injuries", "sheet")
    if not injuries and isinstance(data.get("injury_dice"), int) and data["injury_dice"] > 0:
        # Exports before individual injuries carried one number: it comes back as injuries
        # whose levels add up to it, like the migration that replaced it.
        left, injuries = data["injury_dice"], []
        while left > 0:
            level = min(max(cogent.INJURY_LEVELS), left)
            injuries.append({"level": level, "description": "carried over"})
            left -= level
    for i, item in enumerate(injuries):
        form: ModelForm = CogentInjuryForm(
            data=_fields(item, ("level", "description")), sheet=sheet
        )
        c.run(form, f"sheet.injuries[{i}]")
    for i, item in enumerate(c.items(data, "disabling_characteristics", "sheet")):
        form = CogentDisabilityForm(data=_fields(item, ("name", "attribute", "dice")), sheet=sheet)
        c.run(form, f"sheet.disabling_characteristics[{i}]")
    for i, item in enumerate(c.items(data, "vocations", "sheet")):
        path = f"sheet.vocations[{i}]"
        form = CogentVocationForm(data=_fields(item, ("name", "attribute", "rating")), sheet=sheet)
        if not c.run(form, path):
            continue
        vocation = form.instance
        for j, sub in enumerate(c.items(item, "subskills", path)):
            sub_data = _fields(sub, ("kind", "attribute", "rating"))
            name_key = "combat_skill" if sub.get("kind") == "combat" else "name"
            sub_data[name_key] = sub.get("name", "")
            sub_form = CogentSubSkillForm(data=sub_data, vocation=vocation)
            if c.run(sub_form, f"{path}.subskills[{j}]") and sub_form.instance.is_combat:
                weapon = _fields(sub, ("rating", "weapon", "weapon_bonus"), sub_form.instance)
                c.run(
                    CogentSubSkillRatingForm(data=weapon, instance=sub_form.instance),
                    f"{path}.subskills[{j}]",
                )


def import_dad6(
    sheet: Dad6Sheet, data: dict[str, Any], c: Collector, *, gm: bool, ignored: list[str], **_: Any
) -> None:
    if "forward_boons" in data:
        # Rolled-forward boons are earned by rolls; only the GM sets them by hand (or by import).
        if gm:
            form: ModelForm = Dad6ForwardBoonsForm(
                data=_fields(data, ("forward_boons",)), instance=sheet
            )
            c.run(form, "sheet")
        elif data["forward_boons"]:
            ignored.append("forward_boons")
    c.run(
        Dad6SheetForm(data=_fields(data, ("class_name", "level"), sheet), instance=sheet), "sheet"
    )
    for i, item in enumerate(c.items(data, "skills", "sheet")):
        form = Dad6SkillForm(
            data=_fields(item, ("name", "is_class_skill", "competence")), sheet=sheet
        )
        c.run(form, f"sheet.skills[{i}]")
    banes = data.get("banes", [])
    if not isinstance(banes, list):
        c.error("sheet.banes", "expected a list of bane descriptions ([…]).")
        banes = []
    for i, description in enumerate(banes):
        if not isinstance(description, str):
            c.error(f"sheet.banes[{i}]", "expected a bane's description (text).")
            continue
        c.run(Dad6BaneForm(data={"description": description}, sheet=sheet), f"sheet.banes[{i}]")


def import_cold_stars(
    sheet: ColdStarsSheet,
    data: dict[str, Any],
    c: Collector,
    *,
    gm: bool,
    result: Imported,
    ignored: list[str],
) -> None:
    form: ModelForm = ColdStarsSheetForm(instance=sheet, gm=gm)
    values = _fields(data, list(form.fields), sheet)
    _default_maxima(sheet, data, values, gm=gm)
    if not gm:
        _leave_out_gm_only_resources(sheet, data, values, result, ignored)
    c.run(ColdStarsSheetForm(data=values, instance=sheet, gm=gm), "sheet")
    skills = {s.name.lower(): s for s in sheet.skills.all()}
    for i, item in enumerate(c.items(data, "skills", "sheet")):
        path = f"sheet.skills[{i}]"
        name = c.name(item, path)
        if name is None:
            continue
        skill = skills.get(name.lower())
        if skill is None:
            c.error(
                f"{path}.name",
                f"“{name}” is not a skill in this campaign; the GM can add it as a custom skill.",
            )
            continue
        domains = item.get("domains", [])
        if not isinstance(domains, list):
            c.error(f"{path}.domains", "expected a list of domain names.")
            continue
        # Domains first: a domain skill rated 3+ must already have one when its rating is saved.
        for j, domain in enumerate(domains):
            form = ColdStarsDomainForm(data={"name": domain}, skill=skill)
            c.run(form, f"{path}.domains[{j}]")
        c.run(ColdStarsSkillForm(data=_fields(item, ("trained", "rating")), instance=skill), path)


def _default_maxima(
    sheet: ColdStarsSheet, data: dict[str, object], values: dict[str, object], *, gm: bool
) -> None:
    """A maximum the file leaves out (or a player's file, whose maxima the GM sets) is the
    campaign's default (Campaign.momentum_max_default, willpower_max_default), not the blank
    sheet's 0: on a maximum of 0 a first Press would spend a Risk die and gain nothing."""
    campaign = sheet.character.campaign
    for name, default in (
        ("momentum_max", campaign.momentum_max_default),
        ("willpower_max", campaign.willpower_max_default),
    ):
        if not gm or name not in data:
            setattr(sheet, name, default)
            if gm:
                values[name] = default


def _leave_out_gm_only_resources(
    sheet: ColdStarsSheet,
    data: dict[str, Any],
    values: dict[str, Any],
    result: Imported,
    ignored: list[str],
) -> None:
    """A player's Cold Stars import: the resource maximums stay the blank sheet's (the GM sets
    them, RULES.md §3), and Momentum or Willpower above them come down to them, with a notice;
    every export carries maximums, so refusing would fail every player's import."""
    for name in GM_ONLY_COLD_STARS_FIELDS:
        if name in data and data[name] != getattr(sheet, name):
            ignored.append(name)
    lowered = []
    for name in ("momentum", "willpower"):
        value, maximum = values.get(name), getattr(sheet, f"{name}_max")
        if isinstance(value, int) and not isinstance(value, bool) and value > maximum:
            values[name] = maximum
            lowered.append(f"{name} from {value} to {maximum}")
    if lowered:
        result.notices.append(
            "Lowered " + " and ".join(lowered) + ": they can't exceed the maximums the GM sets."
        )
