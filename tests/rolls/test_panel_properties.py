"""One pool, one set of odds, whatever the options: for every system and every legal option set of
the roll panel, on a randomly generated sheet, through the HTTP client —

- the pool the panel shows (the breakdown and the roll button), the pool rolled (the dice in the
  stored entry's faces) and the pool stored (``entry.pool``) are the same;
- the odds the panel shows (each band's exact fraction, as rendered) equal the engine's ``odds``
  for the options the entry stores, and are the odds the entry records.

Each system is one :class:`Panel`: a sheet strategy, an option strategy and the engine's reading
of a stored entry. A new panel option (bonus dice, a rolled-forward boon, an assist …) is one
more draw in that system's option strategy plus, when it changes the odds, one more argument in
its ``engine_odds``; the checks themselves stay as they are.
"""

import hashlib
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rolls.rolling.forms.cold_stars import OUTSIDE_DOMAINS
from rules import cogent, cold_stars, dad6
from sheets import ranges
from sheets.models import ColdStarsAbility, System
from tests.factories import CharacterFactory, CogentSubSkillFactory, CogentVocationFactory
from tests.rolls.helpers import SEED, latest, odds_url, roll_url

pytestmark = pytest.mark.django_db

EXAMPLES = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
BAND = re.compile(
    r'<span class="swatch band-(\w+)" aria-hidden="true"></span>[^<]*</dt>'
    r'<dd>[^<]*<span class="exact" title="exact chance">\((\d+)/(\d+)\)</span>'
)
BUTTON = re.compile(r'<button type="submit" name="action" value="(\w+)"[^>]*>([^<]*)</button>')


@dataclass(frozen=True)
class Case:
    """One generated sheet row and one legal option set for its panel."""

    character: Any
    kind: str  # the roll_panel URL's kind
    row: Any
    data: dict[str, Any]  # what the panel form submits
    action: str = "roll"


@dataclass(frozen=True)
class Panel:
    cases: Callable[[], st.SearchStrategy[Case]]
    # The pool as the panel shows it: from the rendered breakdown and buttons.
    shown_pool: Callable[[str, dict[str, str]], Any]
    # The pool as rolled: from the stored entry's faces.
    rolled_pool: Callable[[list[dict[str, Any]]], Any]
    # The pool as stored (entry.pool), in the same terms.
    stored_pool: Callable[[dict[str, Any]], Any]
    # The engine's odds for a stored entry's pool and options.
    engine_odds: Callable[[dict[str, Any], dict[str, Any]], dict[str, Fraction]]


# ---- Cogent -------------------------------------------------------------------------------------


def _cogent_row(draw):
    """A Cogent sheet and one of its rows to roll: a core skill, a combat or a vocational skill."""
    kind_of_row = draw(st.sampled_from(["core", "combat", "vocational"]))
    combat = kind_of_row == "combat"
    if kind_of_row == "vocational":
        vocation = CogentVocationFactory(rating=4)
        row = CogentSubSkillFactory(
            vocation=vocation,
            kind="vocational",
            name="Surgery",
            attribute=draw(st.sampled_from(["strength", "reflex", "intelligence"])),
            rating=draw(st.integers(ranges.COGENT_SUBSKILL_MIN, ranges.COGENT_SUBSKILL_MAX)),
        )
        sheet, kind = vocation.sheet, "cogent-subskill"
    elif combat:
        vocation = CogentVocationFactory(rating=4)
        row = CogentSubSkillFactory(
            vocation=vocation,
            kind="combat",
            name=draw(st.sampled_from(cogent.COMBAT_SKILLS)),
            attribute="",
            rating=draw(st.integers(ranges.COGENT_SUBSKILL_MIN, ranges.COGENT_SUBSKILL_MAX)),
        )
        sheet, kind = vocation.sheet, "cogent-subskill"
    else:
        sheet = CharacterFactory(campaign__system=System.COGENT).cogent
        row = sheet.skills.get(name=draw(st.sampled_from(sorted(cogent.CORE_SKILLS))))
        row.rating = draw(st.integers(ranges.COGENT_SKILL_MIN, ranges.COGENT_SKILL_MAX))
        row.save()
        kind = "cogent-skill"
    return sheet, kind, row, combat


@st.composite
def cogent_cases(draw) -> Case:
    attribute = st.integers(ranges.COGENT_ATTRIBUTE_MIN, ranges.COGENT_ATTRIBUTE_MAX)
    penalty = st.integers(0, 6)
    sheet, kind, row, combat = _cogent_row(draw)
    sheet.strength, sheet.reflex, sheet.intelligence = (draw(attribute) for _ in range(3))
    sheet.penalty_dice = draw(penalty)
    sheet.destiny_points = draw(st.integers(0, cogent.DESTINY_MAX))
    sheet.save()
    for level in draw(st.lists(st.sampled_from(sorted(cogent.INJURY_LEVELS)), max_size=2)):
        sheet.injuries.create(level=level)
    if draw(st.booleans()):
        attribute = draw(st.sampled_from(["strength", "reflex", "intelligence"]))
        sheet.disabilities.create(name="Feeble", attribute=attribute, dice=draw(st.integers(1, 2)))
    data = {
        "challenge_level": draw(st.sampled_from(sorted(cogent.CHALLENGE_LEVELS))),
        "extra_penalty": draw(st.integers(0, 4)),
    }
    if combat:
        weapon = draw(st.sampled_from([*cogent.WEAPON_BONUSES, "custom"]))
        data["weapon"] = weapon
        if weapon == "custom":
            data["weapon_bonus"] = draw(st.integers(-3, 5))
        data["circumstances"] = draw(
            st.lists(st.sampled_from(sorted(cogent.COMBAT_CIRCUMSTANCES)), unique=True, max_size=3)
        )
    equipment = draw(st.integers(cogent.EQUIPMENT_MIN, cogent.EQUIPMENT_MAX))
    if equipment:
        data["equipment"] = equipment
    for flag in ("duress", "contested", "reflexive"):
        if draw(st.booleans()):
            data[flag] = "on"
    if sheet.destiny_points >= cogent.DESTINY_COST and draw(st.booleans()):
        data["destiny_before"] = "on"
    return Case(sheet.character, kind, row, data)


def _cogent_shown(html: str, buttons: dict[str, str]) -> int:
    dice = int(re.search(r"= (\d+)d6", html).group(1))
    if "roll" in buttons and "auto_pass" not in buttons:
        assert buttons["roll"] == f"Roll {dice}d6"
    return dice


COGENT = Panel(
    cases=cogent_cases,
    shown_pool=_cogent_shown,
    rolled_pool=len,
    stored_pool=lambda pool: pool["dice"],
    engine_odds=lambda pool, options: cogent.odds(
        pool["dice"],
        challenge_level=options["challenge_level"],
        destiny_before=options["destiny_before"],
        assist=options.get("assist", {}).get("wins", 0),
    ),
)


# ---- DAD6 ---------------------------------------------------------------------------------------

EXTRA_DICE = ("tools", "helpers", "advantages", "time")


@st.composite
def dad6_cases(draw) -> Case:
    character = CharacterFactory(campaign__system=System.DAD6)
    sheet = character.dad6
    sheet.level = draw(st.integers(ranges.DAD6_LEVEL_MIN, ranges.DAD6_LEVEL_MAX))
    sheet.forward_boons = draw(st.integers(0, 2))  # rolled forward: automatic boons of this roll
    sheet.save()
    if draw(st.booleans()):
        row = sheet.skills.create(name="Climb", is_class_skill=True, competence="")
    else:
        row = sheet.skills.create(name="Climb", competence=draw(st.sampled_from(dad6.COMPETENCES)))
    extra = draw(st.lists(st.integers(0, dad6.EXTRA_DICE_MAX // 4), min_size=4, max_size=4))
    data = dict(zip(EXTRA_DICE, extra, strict=True)) | {
        "difficulty": draw(st.integers(dad6.DIFFICULTY_MIN, dad6.DIFFICULTY_MAX)),
        "task": draw(st.sampled_from(dad6.TASKS)),
    }
    pool = dad6.pool_size(
        level=sheet.level, competence=row.effective_competence, extra_dice=sum(extra)
    )
    data["traded_boons"] = draw(st.integers(0, dad6.max_traded_boons(pool)))
    return Case(character, "dad6-skill", row, data)


def _dad6_shown(html: str, buttons: dict[str, str]) -> tuple[int, int]:
    dice = int(re.search(r"= (\d+)d6", html).group(1))
    rolled = re.search(r"(\d+)d6 rolled", html)
    assert buttons["roll"] == f"Roll {rolled.group(1) if rolled else dice}d6"
    return dice, int(rolled.group(1)) if rolled else dice


DAD6 = Panel(
    cases=dad6_cases,
    shown_pool=_dad6_shown,
    # Traded dice are not rolled: the rolled dice plus 8 per traded boon make the pool.
    rolled_pool=len,
    stored_pool=lambda pool: (pool["dice"], pool["rolled"]),
    engine_odds=lambda pool, options: dad6.odds(
        pool["dice"],
        competence=options["competence"],
        task=options["task"],
        difficulty=options["difficulty"],
        traded_boons=options["traded_boons"],
        bonus_boons=options.get("forward_boons", 0),
    ),
)


# ---- Cold Stars ---------------------------------------------------------------------------------


@st.composite
def cold_stars_cases(draw) -> Case:
    character = CharacterFactory(campaign__system=System.COLD_STARS)
    sheet = character.cold_stars
    rating = st.integers(ranges.COLD_STARS_ABILITY_MIN, ranges.COLD_STARS_ABILITY_MAX)
    for ability in ColdStarsAbility:
        setattr(sheet, ability.value, draw(rating))
    sheet.momentum_max = sheet.willpower_max = 5
    sheet.momentum, sheet.willpower = draw(st.integers(0, 5)), draw(st.integers(0, 5))
    sheet.save()
    # Athletics, or Piloting: a domain skill (Seed), inside or outside its domain from rank 3.
    row = sheet.skills.get(name=draw(st.sampled_from(["Athletics", "Piloting"])))
    row.trained = draw(st.booleans())
    top = cold_stars.SKILL_MAX if row.is_domain else cold_stars.DOMAIN_FROM_RANK - 1
    row.rating = draw(st.integers(0, top)) if row.trained else 0
    row.save()
    domain = ""
    if row.is_domain and row.rating >= cold_stars.DOMAIN_FROM_RANK:
        row.domains.create(name="Small Craft")
        domain = draw(st.sampled_from(["Small Craft", OUTSIDE_DOMAINS]))
    ability = draw(st.sampled_from([a.value for a in ColdStarsAbility]))
    risk = draw(st.integers(cold_stars.RISK_MIN, cold_stars.RISK_MAX))
    built = cold_stars.build_pool(
        ability=sheet.ability_value(ability),
        skill=row.rating,
        risk=risk,
        trained=row.trained,
        domain_skill=row.is_domain,
        in_domain=domain != OUTSIDE_DOMAINS,
    )
    legal = []  # the step-4 choices the rules and the sheet's resources allow
    for value in ("none", "press", "brace", *(f"willpower-{n}" for n in range(1, 6))):
        kwargs = _modification(value)
        try:
            cold_stars.modify(built, **kwargs)
        except ValueError:
            continue
        cost = cold_stars.modification_cost(**kwargs)
        if sheet.momentum >= -cost.momentum and sheet.willpower >= -cost.willpower:
            legal.append(value)
    modification = draw(st.sampled_from(legal))
    skippable = cold_stars.can_skip(built, modified=modification != "none")
    action = draw(st.sampled_from(["roll", "skip"] if skippable else ["roll"]))
    data = {"ability": ability, "risk": risk, "modification": modification}
    if domain:
        data["domain"] = domain
    return Case(character, "cold-stars-skill", row, data, action)


def _modification(value: str) -> dict[str, Any]:
    if value in ("press", "brace"):
        return {value: True}
    if value.startswith("willpower-"):
        return {"willpower": int(value.removeprefix("willpower-"))}
    return {}


def _cold_stars_shown(html: str, buttons: dict[str, str]) -> str:
    shown = buttons["roll"].removeprefix("Roll ")
    assert re.search(rf"(=|:) {re.escape(shown)}</p>", html)  # the breakdown ends with it
    return shown


def _cold_stars_rolled(faces: list[dict[str, Any]]) -> str:
    count = {
        kind: sum(face["kind"] == kind for face in faces) for kind in ("ability", "skill", "risk")
    }
    return cold_stars.Pool(**count).describe()


COLD_STARS = Panel(
    cases=cold_stars_cases,
    shown_pool=_cold_stars_shown,
    rolled_pool=_cold_stars_rolled,
    stored_pool=lambda pool: cold_stars.Pool(
        pool["ability"], pool["skill"], pool["risk"]
    ).describe(),
    engine_odds=lambda pool, options: cold_stars.odds(
        cold_stars.Pool(pool["ability"], pool["skill"], pool["risk"])
    ),
)


# ---- The checks ---------------------------------------------------------------------------------


def check_panel(client, panel: Panel, case: Case) -> None:
    client.force_login(case.character.owner)
    page = client.get(odds_url(case.character, case.kind, case.row), case.data)
    assert page.status_code == 200
    # What the panel shows for the chosen options: the breakdown, the odds and the buttons (a
    # Cold Stars panel shows every step-4 choice's odds above them).
    html = page.content.decode().split('<p class="breakdown">', 1)[1]
    shown_odds = {code: Fraction(int(n), int(d)) for code, n, d in BAND.findall(html)}
    buttons = {value: label.strip() for value, label in BUTTON.findall(html)}
    shown = panel.shown_pool(html, buttons)
    assert case.action in buttons

    before = latest()
    response = client.post(
        roll_url(case.character, case.kind, case.row), case.data | {"action": case.action}
    )
    assert response.status_code == 302, response.content.decode()
    entry = latest()
    assert entry != before
    stored = panel.stored_pool(entry.pool)
    if isinstance(stored, tuple):  # DAD6: (pool, dice rolled once traded dice are set aside)
        assert stored == shown
        stored = stored[1]
        shown = shown[1]
    assert stored == shown
    if entry.faces or case.action == "roll":
        assert panel.rolled_pool(entry.faces) == shown
    engine = {code: p for code, p in panel.engine_odds(entry.pool, entry.options).items() if p}
    assert shown_odds == engine
    if entry.faces:  # a rolled entry records the odds it was rolled at: the ones shown
        assert {k: Fraction(v) for k, v in entry.odds_table.items()} == shown_odds
    for name, value in case.data.items():  # every number chosen is stored as chosen
        if isinstance(value, int):
            assert entry.options[name] == value, name
    # What is hashed, as read back, holds no float (docs/roll-log.md), and its hash is the one an
    # outside verifier takes with the standard library (the entry's JSON is written by orjson).
    content = entry.content()
    assert not any(isinstance(value, float) for value in _leaves(content))
    canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert entry.hash == hashlib.sha256(canonical.encode()).hexdigest()


def _leaves(value: Any) -> list[Any]:
    if isinstance(value, dict):
        return [leaf for inner in value.values() for leaf in _leaves(inner)]
    if isinstance(value, list):
        return [leaf for inner in value for leaf in _leaves(inner)]
    return [value]


PANELS = {"cogent": COGENT, "dad6": DAD6, "cold_stars": COLD_STARS}


@pytest.fixture(autouse=True)
def _seeded(settings):
    settings.ROLLS_RNG_SEED = SEED


@EXAMPLES
@given(data=st.data())
def test_cogent_panel_shows_rolls_and_stores_one_pool(client, data):
    check_panel(client, COGENT, data.draw(COGENT.cases()))


@EXAMPLES
@given(data=st.data())
def test_dad6_panel_shows_rolls_and_stores_one_pool(client, data):
    check_panel(client, DAD6, data.draw(DAD6.cases()))


@EXAMPLES
@given(data=st.data())
def test_cold_stars_panel_shows_rolls_and_stores_one_pool(client, data):
    check_panel(client, COLD_STARS, data.draw(COLD_STARS.cases()))
