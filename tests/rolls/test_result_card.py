"""The moment of the roll through the HTTP client: the result card's headline (the outcome, its
figure and what it means in play, worded when shown and never stored), the dice drawn as dice with
a text alternative for every die, and how the Cogent panel words what its options change."""

import html as html_lib
import random
import re

import pytest

from log.models import RollEntry, canonical_json
from rules import cogent, cold_stars, dad6
from sheets.models import System
from tests.factories import CharacterFactory
from tests.rolls.helpers import follow_url, latest, odds_url, panel_url, roll_url, seed_where

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}

# One drawn die: its classes, the aria-hidden SVG, a DAD6 modified value, and its text alternative.
DIE = re.compile(
    r'<li class="die die-(?P<kind>\w+) reading-(?P<reading>\w+)(?P<scores> scores)?">'
    r'<svg class="die-face"[^>]*aria-hidden="true"[^>]*>(?P<svg>.*?)</svg>'
    r'(?:<span class="die-value" aria-hidden="true">=(?P<value>\d+)</span>)?'
    r'<span class="visually-hidden">(?P<label>[^<]+)</span></li>'
)
HEADLINE = re.compile(
    r'<div class="result-headline outcome-(?P<outcome>\w+)">\s*<p class="headline">'
    r'<strong class="headline-title">(?P<title>[^<]*)</strong>'
    r'(?: <span class="headline-figure">(?P<figure>[^<]*)</span>)?</p>\s*'
    r'(?:<p class="headline-meaning">(?P<meaning>[^<]*)</p>)?'
)


def headline(page: str) -> dict[str, str]:
    found = HEADLINE.search(page)
    assert found, "no headline on the result"
    return {k: html_lib.unescape(v or "") for k, v in found.groupdict().items()}


def drawn(page: str) -> list[dict[str, str]]:
    return [m.groupdict() for m in DIE.finditer(page)]


def stored_text(entry: RollEntry) -> str:
    """Everything the log stored and hashed for the entry."""
    return canonical_json(entry.content()).decode()


def assert_every_die_drawn_and_described(page: str, entry: RollEntry) -> None:
    dice = drawn(page)
    # The card's dice (the page shows the entry once: the result partial or the permalink).
    assert len(dice) == len(entry.faces) > 0
    for die, stored, shown in zip(dice, entry.faces, entry.dice, strict=True):
        assert (die["kind"], die["reading"]) == (stored["kind"], stored["reading"])
        assert (
            html_lib.unescape(die["label"]) == shown.label and str(stored["face"]) in die["label"]
        )
        scoring = stored["reading"] in ("win", "boon", "success", "critical_success")
        assert bool(die["scores"]) == scoring
        if stored["kind"] == "d6":
            assert die["svg"].count('class="pip"') == stored["face"]
        else:  # a d10 shows its symbol, a blank face none
            marked = 'class="mark' in die["svg"]
            assert marked == (stored["reading"] != "blank")
            assert ('class="mark-ring"' in die["svg"]) == stored["reading"].startswith("critical")


# --- Cogent ---------------------------------------------------------------------------------------


def cogent_seed(wins: int, pool: int = 6) -> int:
    return seed_where(
        lambda faces: cogent.resolve(faces).rolled_wins == wins,
        lambda rng: cogent.roll(pool, rng),
    )


def roll_rob(client, rob, settings, wins, **options):
    character, skill = rob
    settings.ROLLS_RNG_SEED = cogent_seed(wins)
    response = client.post(
        roll_url(character, "cogent-skill", skill),
        {"extra_penalty": 0, "action": "roll"} | options,
        headers=HTMX,
    )
    assert response.status_code == 200
    return response.content.decode(), latest()


def test_a_cogent_failure_says_how_far_short_it_fell(client, rob, settings):
    page, entry = roll_rob(client, rob, settings, 2, challenge_level=4)
    shown = headline(page)
    assert shown == {
        "outcome": "failure",
        "title": "Failure",
        "figure": "2 wins vs CL 4",
        "meaning": "You fall short by 2 wins.",
    }
    assert_every_die_drawn_and_described(page, entry)
    # Computed when shown: the log stored and hashed none of it.
    assert shown["meaning"] not in stored_text(entry)
    assert entry.hash == entry.compute_hash()
    # The screen reader hears the outcome and its meaning too.
    announce = re.search(r'<p id="roll-announce" hx-swap-oob="innerHTML">([^<]*)</p>', page)
    assert announce and "Athletics: Failure." in announce[1]
    assert "You fall short by 2 wins." in html_lib.unescape(announce[1])


def test_a_cogent_reflexive_failure_names_the_injury(client, rob, settings):
    page, _ = roll_rob(client, rob, settings, 1, challenge_level=4, reflexive="on")
    shown = headline(page)
    assert (shown["title"], shown["figure"]) == ("Failure", "1 win vs CL 4")
    assert shown["meaning"] == (
        "You fall short by 3 wins. Reflexive: you take a level-3 injury (serious), "
        "3 dice off your physical checks."
    )


def test_a_cogent_success_counts_the_wins_to_spare(client, rob, settings):
    page, entry = roll_rob(client, rob, settings, 4, challenge_level=2)
    shown = headline(page)
    assert (shown["outcome"], shown["figure"]) == ("success", "4 wins vs CL 2")
    assert shown["meaning"] == "You do it with 2 wins to spare: a scaling check rewards each one."
    # The permalink page shows the same result card, dice and all.
    permalink = client.get(entry.get_absolute_url()).content.decode()
    assert headline(permalink) == shown
    assert_every_die_drawn_and_described(permalink, entry)


def test_a_blind_roll_shows_its_roller_no_headline(client, rob, settings):
    page, _ = roll_rob(client, rob, settings, 4, challenge_level=2, visibility="blind")
    assert "result-headline" not in page and "to spare" not in page
    assert not drawn(page)
    assert "only the GM sees the result" in page


def test_destiny_after_a_success_says_it_raises_the_margin(client, rob, settings):
    page, _ = roll_rob(client, rob, settings, 3, challenge_level=2)
    # After a success it only raises the margin: a secondary button (issue 34, item 7).
    assert 'id="follow-up-destiny" class="secondary">Spend destiny: +1 win: margin 1 → 2' in page


def test_destiny_after_a_failure_says_what_it_rescues(client, rob, settings):
    page, entry = roll_rob(client, rob, settings, 2, challenge_level=3)
    assert 'id="follow-up-destiny">Spend destiny: +1 win: turns it into a success' in page
    followed = client.post(follow_url(entry, "destiny"), headers=HTMX).content.decode()
    assert headline(followed)["figure"] == "3 wins vs CL 3"
    assert "Spend destiny: +1 win: margin 0 → 1" in followed


def test_duress_says_when_it_changes_nothing_and_the_odds_stay(client, rob):
    character, skill = rob
    url = odds_url(character, "cogent-skill", skill)
    plain = client.get(url, {"challenge_level": 1, "extra_penalty": 0}).content.decode()
    duress = client.get(
        url, {"challenge_level": 1, "extra_penalty": 0, "duress": "on"}
    ).content.decode()
    assert "Under duress: no change to these odds — 6 dice against CL 1 have no automatic" in duress

    def bars(page):
        return re.findall(r'class="odds-item">.*?</div>', page, re.S)

    assert bars(plain) == bars(duress)
    help_text = client.get(panel_url(character, "cogent-skill", skill)).content.decode()
    assert "No automatic pass (8+ dice against CL 3 or less)" in help_text


def test_duress_and_reflexive_cancel_a_big_pools_automatic_pass(client, rob):
    character, skill = rob
    skill.rating = 4
    skill.save()  # 3 + 4 + 1 = 8 dice
    url = odds_url(character, "cogent-skill", skill)
    passes = client.get(url, {"challenge_level": 2, "extra_penalty": 0}).content.decode()
    assert 'id="roll-action-auto_pass"' in passes
    rolled = client.get(
        url, {"challenge_level": 2, "extra_penalty": 0, "duress": "on", "reflexive": "on"}
    ).content.decode()
    assert 'id="roll-action-auto_pass"' not in rolled
    assert "Under duress and reflexive: no automatic pass, so the dice are rolled" in rolled
    assert "Reflexive: a failure injures you, level 1 to 2 here" in rolled


# --- DAD6 -----------------------------------------------------------------------------------------

DAD6_OPTIONS = {
    "difficulty": 1,
    "task": "mundane",
    "tools": 0,
    "helpers": 0,
    "advantages": 0,
    "time": 0,
    "traded_boons": 0,
    "action": "roll",
}


@pytest.fixture
def cook(client):
    character = CharacterFactory(campaign__system=System.DAD6)
    character.dad6.level = 3
    character.dad6.save()
    skill = character.dad6.skills.create(name="Cooking", competence="familiar")
    client.force_login(character.owner)
    return character, skill


def roll_cook(client, cook, settings, predicate, competence="familiar", **options):
    character, skill = cook
    skill.competence = competence
    skill.save()
    settings.ROLLS_RNG_SEED = seed_where(
        lambda faces: predicate(dad6.resolve(faces, competence=competence, **options)),
        lambda rng: dad6.roll(3, rng),
    )
    response = client.post(
        roll_url(character, "dad6-skill", skill), DAD6_OPTIONS | options, headers=HTMX
    )
    assert response.status_code == 200
    return response.content.decode(), latest()


def test_a_dad6_failure_explains_its_scope(client, cook, settings):
    page, entry = roll_cook(client, cook, settings, lambda r: r.margin_of_failure == 4)
    shown = headline(page)
    assert (shown["title"], shown["figure"]) == ("Failure", "0 boons vs Difficulty 1")
    assert shown["meaning"].startswith("Lookout! You missed by 4. The failure's scope runs from ")
    assert "Almost! (missed by 1) to DUCK! (missed by 5 or more)" in shown["meaning"]
    assert_every_die_drawn_and_described(page, entry)


def test_a_dad6_success_names_the_extra_boons_to_spend(client, cook, settings):
    page, _ = roll_cook(
        client, cook, settings, lambda r: r.boons == 3, competence="expert", difficulty=2
    )
    shown = headline(page)
    assert (shown["outcome"], shown["figure"]) == ("success", "3 boons vs Difficulty 2")
    assert shown["meaning"].startswith("You do it. 1 extra boon to spend: pay down a bane")
    dice = drawn(page)
    # An Expert's +2 shows as the modified result beside each die; its label says it too.
    assert all(die["value"] == str(int(die["label"].split(": ")[1].split()[0]) + 2) for die in dice)
    assert all("(modified" in die["label"] for die in dice)


# --- Cold Stars -----------------------------------------------------------------------------------


@pytest.fixture
def runner(client):
    """Strength 2, Athletics trained 2."""
    character = CharacterFactory(campaign__system=System.COLD_STARS)
    sheet = character.cold_stars
    sheet.strength = 2
    sheet.save()
    athletics = sheet.skills.get(name="Athletics")
    athletics.trained, athletics.rating = True, 2
    athletics.save()
    client.force_login(character.owner)
    return character, athletics


def roll_runner(client, runner, settings, pool, outcome, risk):
    character, athletics = runner
    settings.ROLLS_RNG_SEED = seed_where(
        lambda faces: cold_stars.resolve(faces) == outcome, lambda rng: cold_stars.roll(pool, rng)
    )
    response = client.post(
        roll_url(character, "cold-stars-skill", athletics),
        {"ability": "strength", "risk": risk, "modification": "none", "action": "roll"},
        headers=HTMX,
    )
    assert response.status_code == 200
    return response.content.decode(), latest()


def test_a_cold_stars_costly_success_says_the_gm_adds_a_cost(client, runner, settings):
    # Risk 3 against Skill 2 leaves 2 Ability + 1 Risk.
    page, entry = roll_runner(
        client, runner, settings, cold_stars.Pool(2, 0, 1), "costly_success", 3
    )
    shown = headline(page)
    assert (shown["title"], shown["figure"]) == ("Costly success", "")
    assert shown["meaning"] == (
        "You succeed, but the GM adds a cost: a complication, consequence or price. "
        "Risk dice were rolled, so the cost is not optional."
    )
    assert_every_die_drawn_and_described(page, entry)
    assert shown["meaning"] not in stored_text(entry)


@pytest.mark.parametrize(
    ("outcome", "meaning"),
    [
        ("critical_success", "You succeed and gain a boon"),
        ("success", "You succeed cleanly: you achieve your immediate goal."),
        ("choice", "All blanks and no Risk dice: choose a Costly success"),
    ],
)
def test_every_cold_stars_band_says_what_it_means(client, runner, settings, outcome, meaning):
    page, entry = roll_runner(client, runner, settings, cold_stars.Pool(2, 2, 0), outcome, 0)
    assert meaning in headline(page)["meaning"]
    assert_every_die_drawn_and_described(page, entry)


def test_a_seeded_roll_draws_the_engines_faces(client, runner, settings):
    """The drawing follows the faces the engine rolled with the same seed."""
    page, _ = roll_runner(client, runner, settings, cold_stars.Pool(2, 2, 0), "success", 0)
    faces = cold_stars.roll(cold_stars.Pool(2, 2, 0), random.Random(settings.ROLLS_RNG_SEED))
    symbols = faces.symbols()
    assert [d["reading"] for d in drawn(page)] == [
        *symbols["ability"],
        *symbols["skill"],
        *symbols["risk"],
    ]


def test_a_rolled_forward_boon_spent_reads_as_words(client, cook, settings):
    character, _ = cook
    character.dad6.forward_boons = 1
    character.dad6.save()
    page, entry = roll_cook(client, cook, settings, lambda r: True)
    assert entry.resource_changes == {"forward_boons": -1}
    assert "−1 rolled-forward boon" in page and "forward_boons" not in page
