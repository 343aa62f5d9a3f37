"""The proof that the seam is open (issue 33): D10 Pool, a rule system that lives only in tests/,
played through HTTP like the app's own three — a campaign and a character, the sheet, the roll
panel's odds, a roll at every visibility, its follow-up, a GM's call and a contest to its verdict
— with nothing outside tests/ naming it."""

import subprocess
from functools import reduce
from pathlib import Path

import pytest
from django.urls import reverse

from log.models import Kind, RollEntry, Visibility
from rolls.models import Contest, ContestState, RollCall
from rolls.table.calls import difficulty_label
from sheets.models import Campaign, Role
from sheets.systems import rule_system, rule_system_of
from tests.d10pool.models import D10Sheet
from tests.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def test_nothing_outside_tests_names_the_test_system():
    """If a production file had to name it, the seam would not be open (pytest finds it through
    pyproject.toml's DJANGO_SETTINGS_MODULE, tests/settings.py; the docs may tell of it)."""
    found = subprocess.run(
        ["git", "grep", "-l", "-i", "-e", "d10pool", "-e", "d10_opposed", "-e", "d10-skill"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    ).stdout.split()
    code = [path for path in found if not path.startswith("tests/") and not path.endswith(".md")]
    assert code == []


@pytest.fixture
def table(client, settings):
    settings.ROLLS_RNG_SEED = 20261204
    gm, player, other = UserFactory(), UserFactory(), UserFactory()
    client.force_login(gm)
    response = client.post(reverse("campaign_create"), {"name": "Pool night", "system": "d10pool"})
    assert response.status_code == 302, response.content.decode()[:500]
    campaign = Campaign.objects.get(name="Pool night")
    MembershipFactory(campaign=campaign, user=player, role=Role.PLAYER)
    MembershipFactory(campaign=campaign, user=other, role=Role.PLAYER)
    characters = []
    for user, name in ((player, "Ada"), (other, "Bo")):
        client.force_login(user)
        response = client.post(
            reverse("character_create", args=[campaign.pk]), {"name": name, "grit": 2}
        )
        assert response.status_code == 302, response.content.decode()[:2000]
        characters.append(campaign.characters.get(name=name))
    return campaign, gm, player, other, *characters


def skill(character, name="Athletics"):
    return character.d10pool.skills.get(name=name)


def roll(client, character, *, need=1, visibility=Visibility.PUBLIC, **extra):
    url = reverse("roll_create", args=[character.pk, "d10-skill", skill(character).pk])
    response = client.post(url, {"need": need, "bonus": 0, "visibility": visibility, **extra})
    assert response.status_code == 302, response.content.decode()[:2000]
    return RollEntry.objects.order_by("-pk").first()


def test_the_campaign_and_the_character_are_the_systems(client, table):
    campaign, _, player, _, ada, _ = table
    assert rule_system_of(campaign) is rule_system("d10pool")
    assert isinstance(ada.sheet, D10Sheet) and ada.sheet.grit == 2
    client.force_login(player)
    page = client.get(ada.get_absolute_url())
    assert page.status_code == 200
    html = page.content.decode()
    assert "D10 Pool" in html and 'id="d10-grit"' in html and "3d10" in html


def test_the_panel_shows_the_engines_odds(client, table):
    _, _, player, _, ada, _ = table
    client.force_login(player)
    url = reverse("roll_panel", args=[ada.pk, "d10-skill", skill(ada).pk])
    html = client.get(url).content.decode()
    # 3d10, 7+ succeeds, one success needed: 1 - 0.6³ = 78.4 %
    assert "Successes needed" in html and "78" in html
    odds = client.get(
        reverse("roll_odds", args=[ada.pk, "d10-skill", skill(ada).pk]),
        {"need": 4, "bonus": 0},
        headers={"HX-Request": "true"},
    )
    assert odds.status_code == 200 and "Successes needed" not in odds.content.decode()


@pytest.mark.parametrize(
    ("visibility", "other_reads"),
    [
        (Visibility.PUBLIC, True),
        (Visibility.GM_ONLY, False),
        (Visibility.BLIND, False),
    ],
)
def test_a_roll_is_seen_by_its_audience(client, table, visibility, other_reads):
    campaign, gm, player, other, ada, _ = table
    client.force_login(player)
    entry = roll(client, ada, visibility=visibility)
    assert entry.system == "d10pool" and entry.visibility == visibility
    for user, reads in ((gm, True), (other, other_reads)):
        client.force_login(user)
        log = client.get(reverse("campaign_log", args=[campaign.pk])).content.decode()
        assert (entry.breakdown in log) == reads, (user, visibility)


def test_a_secret_roll_is_the_gms_alone(client, table):
    campaign, gm, player, _, ada, _ = table
    client.force_login(gm)
    entry = roll(client, ada, visibility=Visibility.SECRET)
    client.force_login(player)
    assert client.get(entry.get_absolute_url()).status_code == 404
    log = client.get(reverse("campaign_log", args=[campaign.pk])).content.decode()
    assert entry.breakdown not in log


def test_a_failed_roll_is_pushed_for_one_grit(client, table):
    _, _, player, _, ada, _ = table
    client.force_login(player)
    failed = roll(client, ada, need=5)  # 3 dice can't make 5 successes
    assert failed.outcome == "failure"
    page = client.get(failed.get_absolute_url()).content.decode()
    assert "Push: re-roll the failed dice" in page
    response = client.post(reverse("roll_follow_up", args=[failed.pk, "push"]))
    assert response.status_code == 302
    pushed = RollEntry.objects.get(follows=failed)
    assert pushed.kind == Kind.CORRECT and pushed.resource_changes == {"grit": -1}
    assert D10Sheet.objects.get(pk=ada.pk).grit == 1
    # Another system's follow-up on this roll is refused with the registry's words.
    response = client.post(reverse("roll_follow_up", args=[pushed.pk, "destiny"]))
    assert response.status_code == 409
    assert "Destiny after the roll applies to Cogent rolls." in response.content.decode()


def test_a_gm_call_is_answered_from_the_panel(client, table):
    campaign, gm, player, _, ada, _ = table
    client.force_login(gm)
    response = client.post(
        reverse("call_create", args=[campaign.pk]),
        {"call-characters": [ada.pk], "call-skill": "Athletics", "call-difficulty": 2},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    call = RollCall.objects.get(campaign=campaign)
    assert difficulty_label(call) == "Need 2"
    client.force_login(player)
    url = reverse("roll_panel", args=[ada.pk, "d10-skill", skill(ada).pk]) + f"?call={call.pk}"
    assert "Set by the GM." in client.get(url).content.decode()
    entry = roll(client, ada, need=2, call=call.pk)
    assert entry.options["need"] == 2
    assert entry.call_id == call.pk


def test_a_contest_runs_to_its_verdict(client, table, settings):
    campaign, gm, player, other, ada, bo = table
    client.force_login(gm)
    dashboard = client.get(reverse("campaign_dashboard", args=[campaign.pk])).content.decode()
    assert "Opposed pools: both roll, more successes wins" in dashboard
    data = {
        "contest-kind": "d10_opposed",
        "contest-character_a": ada.pk,
        "contest-character_b": bo.pk,
        "contest-skill_a": "Athletics",
        "contest-skill_b": "Lore",
    }
    response = client.post(reverse("contest_create", args=[campaign.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    contest = Contest.objects.get(campaign=campaign)
    client.force_login(player)
    card = client.get(ada.get_absolute_url()).content.decode()
    assert "Both roll their whole pool." in card  # the style's own options partial
    for round_ in range(20):
        settings.ROLLS_RNG_SEED = round_  # seeded dice, a new seed each round (a tie re-rolls)
        for side, user in (("a", player), ("b", other)):
            client.force_login(user)
            url = reverse("contest_side", args=[contest.pk, side, "roll"])
            response = client.post(url, {"visibility": Visibility.PUBLIC})
            assert response.status_code == 302, response.content.decode()[:2000]
        contest.refresh_from_db()
        if contest.state == ContestState.DECIDED:
            break
    assert contest.state == ContestState.DECIDED and contest.winner in ("a", "b")
    verdict = RollEntry.objects.get(contest=contest, kind=Kind.CONTEST)
    assert verdict.breakdown == "Opposed pools: both roll, more successes wins"
    assert verdict.visibility == Visibility.PUBLIC


def test_a_hidden_side_hides_the_verdict(client, table, settings):
    campaign, _gm, player, other, ada, bo = table
    contest = Contest.objects.create(
        campaign=campaign,
        kind="d10_opposed",
        character_a=ada,
        character_b=bo,
        name_a=ada.name,
        name_b=bo.name,
        skill_a="Athletics",
        skill_b="Lore",
    )
    for round_ in range(20):
        settings.ROLLS_RNG_SEED = round_
        for side, user, visibility in (
            ("a", player, Visibility.GM_ONLY),
            ("b", other, Visibility.PUBLIC),
        ):
            client.force_login(user)
            url = reverse("contest_side", args=[contest.pk, side, "roll"])
            response = client.post(url, {"visibility": visibility})
            assert response.status_code == 302, response.content.decode()[-3000:]
        contest.refresh_from_db()
        if contest.state == ContestState.DECIDED:
            break
    verdict = RollEntry.objects.get(contest=contest, kind=Kind.CONTEST)
    assert verdict.visibility == Visibility.GM_ONLY
    client.force_login(other)
    assert not verdict.is_readable_by(campaign.memberships.get(user=other))
    prompts = client.get(reverse("character_prompts", args=[bo.pk])).content.decode()
    assert contest.verdict not in prompts


def test_the_checklist_for_a_new_system_names_what_the_test_system_fills():
    """docs/architecture.md, "Adding a rule system": each dotted path the seam asks of a system
    is in the checklist, and the test system sets it to its own code under tests/."""
    doc = (ROOT / "docs" / "architecture.md").read_text()
    checklist = doc[doc.index("## Adding a rule system") :]
    system = rule_system("d10pool")
    # Each by where a caller finds it: on the system, or on one of its facets.
    paths = [
        "rolling.form_path",
        "table.resources_form_path",
        "results.headline_path",
        "results.follow_ups_path",
        "table.contest_style_paths",
    ]
    names = [path.rsplit(".", 1)[-1] for path in paths]
    for name in [*names, "Creation", "RULE_SYSTEMS", "SystemSheet", "ContestStyle"]:
        assert f"`{name}`" in checklist, name
    for name in paths:
        value = reduce(getattr, name.split("."), system)
        for path in value if isinstance(value, tuple) else (value,):
            assert path.startswith("tests.d10pool."), (name, path)
    assert type(system).__module__.startswith("tests.")
    assert system.sheet_model.__module__ == "tests.d10pool.models"
    assert system.creation.form.__module__ == "tests.d10pool.forms"


def test_the_gm_table_shows_key_rows_and_rolls_an_npc(client, table):
    """The GM table's cards read the seam's key rows (``table.key_rows``; D10 Pool's: its skills,
    most dice first) and roll an NPC's row through the roll service, like the app's own
    systems."""
    campaign, gm, *_ = table
    npc = campaign.new_character(owner=gm, name="Bouncer", is_npc=True)
    client.force_login(gm)
    response = client.get(reverse("campaign_dashboard", args=[campaign.pk]))
    cards = {row["character"].name: row for row in response.context["rows"]}
    keys = cards["Bouncer"]["key_rows"]
    assert keys and all(key["value"].startswith("d10-skill:") for key in keys)
    assert keys[0]["dice"].endswith("d10")
    response = client.post(
        reverse("table_roll", args=[npc.pk]),
        {"row": keys[0]["value"]},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    entry = RollEntry.objects.get(character=npc)
    assert entry.label == keys[0]["label"] and entry.roller == gm
