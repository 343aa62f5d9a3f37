"""The Cold Stars default skill catalog, shipped as data (sheets/data/cold_stars_catalog.json).

The seed names groups and (D) domain skills but prints no list; RULES.md §3 makes the catalog a
project decision kept in a data file, so changing it never means touching code.
"""

import json
from dataclasses import dataclass
from functools import cache
from pathlib import Path

CATALOG_PATH = Path(__file__).with_name("data") / "cold_stars_catalog.json"


@dataclass(frozen=True)
class CatalogSkill:
    key: str
    name: str
    group: str
    ability: str
    domain: bool
    example_domains: tuple[str, ...]


@cache
def cold_stars_catalog() -> tuple[CatalogSkill, ...]:
    data = json.loads(CATALOG_PATH.read_text(encoding="utf-8"))
    return tuple(
        CatalogSkill(
            key=skill["key"],
            name=skill["name"],
            group=group["name"],
            ability=skill["ability"],
            domain=bool(skill.get("domain", False)),
            example_domains=tuple(skill.get("example_domains", ())),
        )
        for group in data["groups"]
        for skill in group["skills"]
    )


@cache
def cold_stars_catalog_by_key() -> dict[str, CatalogSkill]:
    return {skill.key: skill for skill in cold_stars_catalog()}


def cold_stars_groups() -> tuple[str, ...]:
    return tuple(dict.fromkeys(skill.group for skill in cold_stars_catalog()))
