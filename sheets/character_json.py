"""Character export/import as versioned JSON (schema documented in docs/character-json.md).

Import runs every value through the same forms the sheet page uses, inside one transaction: any
error rolls the whole character back, so an import either fully succeeds or leaves nothing behind.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from django.db import transaction
from django.forms import ModelForm

from sheets.forms import (
    CharacterBasicsForm,
    CogentSheetForm,
    CogentSkillForm,
    CogentSubSkillForm,
    CogentVocationForm,
    ColdStarsDomainForm,
    ColdStarsSheetForm,
    ColdStarsSkillForm,
    Dad6SheetForm,
    Dad6SkillForm,
)
from sheets.models import Campaign, Character, System

if TYPE_CHECKING:
    from django.contrib.auth.models import AbstractBaseUser

FORMAT = "poolside-character"
VERSION = 1


class CharacterImportError(Exception):
    def __init__(self, errors: list[str]) -> None:
        super().__init__("; ".join(errors))
        self.errors = errors


# ---------------------------------------------------------------------------------------------
# Export
# ---------------------------------------------------------------------------------------------


def export_character(character: Character) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "system": character.campaign.system,
        "character": {"name": character.name, "notes": character.notes},
    }
    system = character.campaign.system
    if system == System.COGENT:
        sheet = character.cogent
        data["sheet"] = {
            **{f: getattr(sheet, f) for f in CogentSheetForm._meta.fields},
            "skills": [{"name": s.name, "rating": s.rating} for s in sheet.skills.all()],
            "vocations": [
                {
                    "name": v.name,
                    "attribute": v.attribute,
                    "rating": v.rating,
                    "subskills": [
                        {"kind": s.kind, "name": s.name, "rating": s.rating}
                        | ({"attribute": s.attribute} if not s.is_combat else {})
                        for s in v.subskills.all()
                    ],
                }
                for v in sheet.vocations.prefetch_related("subskills")
            ],
        }
    elif system == System.DAD6:
        sheet = character.dad6
        data["sheet"] = {
            "class_name": sheet.class_name,
            "level": sheet.level,
            "skills": [
                {"name": s.name, "is_class_skill": s.is_class_skill}
                | ({} if s.is_class_skill else {"competence": s.competence})
                for s in sheet.skills.all()
            ],
        }
    elif system == System.COLD_STARS:
        sheet = character.cold_stars
        data["sheet"] = {
            **{f: getattr(sheet, f) for f in ColdStarsSheetForm._meta.fields},
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
    return data


def export_json(character: Character) -> str:
    return json.dumps(export_character(character), indent=2, ensure_ascii=False) + "\n"


# ---------------------------------------------------------------------------------------------
# Import
# ---------------------------------------------------------------------------------------------


class _Collector:
    """Runs forms and gathers their errors with a JSON path, so the user sees where to look."""

    def __init__(self) -> None:
        self.errors: list[str] = []

    def error(self, path: str, message: str) -> None:
        self.errors.append(f"{path}: {message}" if path else message)

    def run(self, form: ModelForm, path: str) -> bool:
        if form.is_valid():
            form.save()
            return True
        for field, messages in form.errors.items():
            where = f"{path}.{field}" if field != "__all__" else path
            for message in messages:
                self.error(where, message)
        return False

    def obj(self, value: Any, path: str) -> dict[str, Any] | None:
        if isinstance(value, dict):
            return value
        self.error(path, "expected an object ({…}).")
        return None

    def items(self, parent: dict[str, Any], key: str, path: str) -> list[dict[str, Any]]:
        value = parent.get(key, [])
        if not isinstance(value, list):
            self.error(f"{path}.{key}", "expected a list ([…]).")
            return []
        return [item for i, v in enumerate(value) if (item := self.obj(v, f"{path}.{key}[{i}]"))]


def _fields(data: dict[str, Any], names: tuple[str, ...] | list[str], base: Any = None) -> dict:
    """Form data from JSON values; missing keys keep the current value (`base`)."""
    out = {}
    for name in names:
        value = data.get(name, getattr(base, name, None) if base is not None else None)
        if isinstance(value, bool):
            # Forms read "on"/absent for checkboxes; JSON true/false maps to that.
            if value:
                out[name] = "on"
            continue
        out[name] = "" if value is None else value
    return out


def _parse(raw: str, campaign: Campaign) -> dict[str, Any]:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise CharacterImportError(
            [f"This is not valid JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})."]
        ) from None
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
    if system not in System.values:
        raise CharacterImportError([f"Unknown system {system!r}."])
    if system != campaign.system:
        raise CharacterImportError(
            [
                f"This is a {System(system).label} character; “{campaign.name}” plays "
                f"{System(campaign.system).label}. Import it into a campaign of the same system."
            ]
        )
    for key in ("character", "sheet"):
        if not isinstance(data.get(key), dict):
            raise CharacterImportError([f"{key}: expected an object ({{…}})."])
    return data


def import_character(
    raw: str, *, campaign: Campaign, owner: AbstractBaseUser, is_npc: bool = False
) -> Character:
    """Create a character in `campaign` from exported JSON, or raise CharacterImportError."""
    data = _parse(raw, campaign)
    c = _Collector()
    with transaction.atomic():
        basics = data["character"]
        form = CharacterBasicsForm(data=_fields(basics, ("name", "notes")))
        if not form.is_valid():
            for field, messages in form.errors.items():
                for message in messages:
                    c.error(f"character.{field}", message)
            raise CharacterImportError(c.errors)
        character = campaign.new_character(
            owner=owner,
            name=form.cleaned_data["name"],
            notes=form.cleaned_data["notes"],
            is_npc=is_npc,
        )
        importer = {
            System.COGENT: _import_cogent,
            System.DAD6: _import_dad6,
            System.COLD_STARS: _import_cold_stars,
        }[System(campaign.system)]
        importer(character, data["sheet"], c)
        if c.errors:
            # Raising inside atomic() rolls back the character and every row created so far.
            raise CharacterImportError(c.errors)
    return character


def _import_cogent(character: Character, data: dict[str, Any], c: _Collector) -> None:
    sheet = character.cogent
    fields = CogentSheetForm._meta.fields
    c.run(CogentSheetForm(data=_fields(data, fields, sheet), instance=sheet), "sheet")
    skills = {s.name.lower(): s for s in sheet.skills.all()}
    seen: set[str] = set()
    for i, item in enumerate(c.items(data, "skills", "sheet")):
        path = f"sheet.skills[{i}]"
        name = str(item.get("name", ""))
        skill = skills.get(name.lower())
        if skill is None:
            c.error(f"{path}.name", f"“{name}” is not one of the 15 Cogent core skills.")
        elif name.lower() in seen:
            c.error(f"{path}.name", f"“{name}” appears twice.")
        else:
            seen.add(name.lower())
            c.run(CogentSkillForm(data=_fields(item, ("rating",)), instance=skill), path)
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
            c.run(CogentSubSkillForm(data=sub_data, vocation=vocation), f"{path}.subskills[{j}]")


def _import_dad6(character: Character, data: dict[str, Any], c: _Collector) -> None:
    sheet = character.dad6
    c.run(
        Dad6SheetForm(data=_fields(data, ("class_name", "level"), sheet), instance=sheet), "sheet"
    )
    for i, item in enumerate(c.items(data, "skills", "sheet")):
        form = Dad6SkillForm(
            data=_fields(item, ("name", "is_class_skill", "competence")), sheet=sheet
        )
        c.run(form, f"sheet.skills[{i}]")


def _import_cold_stars(character: Character, data: dict[str, Any], c: _Collector) -> None:
    sheet = character.cold_stars
    fields = ColdStarsSheetForm._meta.fields
    form = ColdStarsSheetForm(data=_fields(data, fields, sheet), instance=sheet, gm=True)
    c.run(form, "sheet")
    skills = {s.name.lower(): s for s in sheet.skills.all()}
    for i, item in enumerate(c.items(data, "skills", "sheet")):
        path = f"sheet.skills[{i}]"
        name = str(item.get("name", ""))
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
            form = ColdStarsDomainForm(data={"name": str(domain)}, skill=skill)
            c.run(form, f"{path}.domains[{j}]")
        c.run(ColdStarsSkillForm(data=_fields(item, ("trained", "rating")), instance=skill), path)
