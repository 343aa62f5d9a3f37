"""Contests per system, with seeded dice: each side's roll, ties and evens, verdicts from the
engine, one linked card in the log, and who may start, roll and call off a contest."""

import random

import pytest
from django.urls import reverse

from log.models import Kind, RollEntry
from rolls.models import Contest, ContestState
from rules import cogent, cold_stars
from sheets.models import Role, System
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    ContestFactory,
    MembershipFactory,
    UserFactory,
)
from tests.rolls.helpers import (
    dad6_opposed,
    gm_of,
    panel_url,
    roll_url,
    start_contest,
    verify_like_an_outside_script,
)

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def side_url(contest, side, action="roll"):
    return reverse("contest_side", args=[contest.pk, side, action])


start = start_contest


def verdict_of(contest):
    return RollEntry.objects.get(contest=contest, kind=Kind.CONTEST)


def _seeds_that_dont_tie(pool):
    """Two seeds whose dice the engine says don't tie, and the conflict they make."""
    seed_a, seed_b = next(
        (a, a + 1)
        for a in range(100)
        if not cogent.conflict(
            cogent.roll(pool, random.Random(a)), cogent.roll(pool, random.Random(a + 1))
        ).tie
    )
    rolled = (cogent.roll(pool, random.Random(seed)) for seed in (seed_a, seed_b))
    return seed_a, seed_b, cogent.conflict(*rolled)


def test_cogent_conflict_tie_rerolls_then_the_engine_decides(client, settings):
    campaign = CampaignFactory(system=System.COGENT)
    rob = CharacterFactory(campaign=campaign, name="Rob")
    ann = CharacterFactory(campaign=campaign, name="Ann")
    contest = start(
        client,
        campaign,
        kind="cogent_conflict",
        character_a=rob.pk,
        skill_a="Athletics",
        character_b=ann.pk,
        skill_b="Athletics",
    )
    # Equal pools and the same seed: the same dice, a tie, a new round.
    settings.ROLLS_RNG_SEED = 7
    for character, side in ((rob, "a"), (ann, "b")):
        client.force_login(character.owner)
        assert client.post(side_url(contest, side)).status_code == 302
    contest.refresh_from_db()
    assert (contest.round, contest.state) == (2, ContestState.OPEN)
    assert not RollEntry.objects.filter(kind=Kind.CONTEST).exists()
    # Round 2 with different dice per side: find seeds the engine says don't tie.
    seed_a, seed_b, expected = _seeds_that_dont_tie(rob.cogent.skills.get(name="Athletics").pool)
    settings.ROLLS_RNG_SEED = seed_a
    client.force_login(rob.owner)
    client.post(side_url(contest, "a"), headers=HX)
    settings.ROLLS_RNG_SEED = seed_b
    client.force_login(ann.owner)
    # Rolled on Ann's sheet: the response brings the sheet's recent rolls along (out of band),
    # not the prompts the card it answers with is swapped into.
    on_sheet = HX | {"HX-Current-URL": f"http://testserver{ann.get_absolute_url()}"}
    response = client.post(side_url(contest, "b"), headers=on_sheet)
    html = response.content.decode()
    assert response.status_code == 200 and "HX-Trigger" not in response
    assert '<section id="recent-rolls"' in html and 'id="gm-prompts"' not in html
    contest.refresh_from_db()
    assert contest.state == ContestState.DECIDED and contest.winner == expected.winner
    verdict = verdict_of(contest)
    # Athletics is no combat skill: the margin in wins, no victory levels (rules at the table).
    assert verdict.result["margin"] == expected.victory_levels
    assert "victory_levels" not in verdict.result
    assert len(verdict.result["sides"]) == 4  # both rounds, both sides
    assert f"wins by {expected.victory_levels} win" in verdict.outcome_label
    assert verify_like_an_outside_script(campaign.pk) == 5
    # The log shows the contest as one card linking each side's roll.
    body = client.get(reverse("campaign_log", args=[campaign.pk])).content.decode()
    for side in verdict.result["sides"]:
        assert reverse("roll_entry", args=[side["entry"]]) in body
    # A finished contest takes no more rolls.
    response = client.post(side_url(contest, "b"))
    assert response.status_code == 409


def test_cogent_deathblow_is_named(client, settings):
    campaign = CampaignFactory(system=System.COGENT)
    strong = CharacterFactory(campaign=campaign)
    weak = CharacterFactory(campaign=campaign)
    strong.cogent.strength = 4
    strong.cogent.save()
    weak.cogent.penalty_dice = 20
    weak.cogent.save()
    for character in (strong, weak):
        vocation = character.cogent.vocations.create(name="Soldier", attribute="strength", rating=4)
        vocation.subskills.create(slot=1, kind="combat", name="Large", rating=4, weapon="Large")
    contest = ContestFactory(
        campaign=campaign, character_a=strong, character_b=weak, skill_a="Large", skill_b="Large"
    )
    pool = strong.cogent.vocations.get().subskills.get().pool  # 13 dice against 0
    seed = next(
        s for s in range(200) if cogent.conflict(cogent.roll(pool, random.Random(s)), ()).deathblow
    )
    settings.ROLLS_RNG_SEED = seed
    client.force_login(gm_of(campaign))
    client.post(side_url(contest, "a"))
    client.post(side_url(contest, "b"))
    assert "deathblow" in verdict_of(contest).outcome_label


@pytest.fixture
def stars():
    campaign = CampaignFactory(system=System.COLD_STARS)
    vera = CharacterFactory(campaign=campaign, name="Vera")
    npc = CharacterFactory(campaign=campaign, owner=gm_of(campaign), is_npc=True, name="Guard")
    for character in (vera, npc):
        sheet = character.cold_stars
        sheet.momentum_max = sheet.momentum = 2
        sheet.willpower_max = sheet.willpower = 2
        sheet.agility = 3
        sheet.save()
    return campaign, vera, npc


def test_cold_stars_active_even_lets_the_initiator_choose(client, settings, stars):
    campaign, vera, npc = stars
    contest = start(
        client,
        campaign,
        kind="cold_stars_active",
        character_a=vera.pk,
        skill_a="Stealth",
        ability_a="agility",
        character_b=npc.pk,
        skill_b="Stealth",
        ability_b="agility",
    )
    settings.ROLLS_RNG_SEED = 11
    client.force_login(vera.owner)
    client.post(side_url(contest, "a"))
    client.force_login(gm_of(campaign))
    client.post(side_url(contest, "b"))
    client.post(side_url(contest, "b", "keep"))
    contest.refresh_from_db()
    assert contest.state == ContestState.OPEN  # Vera may still Correct
    client.force_login(vera.owner)
    client.post(side_url(contest, "a", "keep"))
    contest.refresh_from_db()
    assert contest.state == ContestState.CHOOSING  # same pools, same dice: exactly even
    # Only the initiator's side chooses.
    other = CharacterFactory(campaign=campaign)
    client.force_login(other.owner)
    choose = reverse("contest_choose", args=[contest.pk])
    assert client.post(choose, {"choice": "failure"}).status_code == 403
    client.force_login(vera.owner)
    assert client.post(choose, {"choice": "nonsense"}).status_code == 409
    assert client.post(choose, {"choice": "costly_success"}).status_code == 302
    verdict = verdict_of(contest)
    assert verdict.outcome == "costly_success" and "Even" in verdict.outcome_label


def test_cold_stars_active_willpower_and_correct(client, settings, stars):
    campaign, vera, npc = stars
    contest = ContestFactory(
        campaign=campaign,
        kind="cold_stars_active",
        character_a=vera,
        character_b=npc,
        skill_a="Stealth",
        skill_b="Athletics",
    )
    settings.ROLLS_RNG_SEED = 3
    client.force_login(vera.owner)
    # Willpower upgrades 2 Ability dice (step 4), spending 2 Willpower.
    client.post(side_url(contest, "a"), {"willpower": 2})
    roll = RollEntry.objects.get(contest=contest, options__contest_side="a")
    assert roll.pool == {"ability": 1, "skill": 2, "risk": 0}
    assert roll.resource_changes == {"willpower": -2}
    # More upgrades than Ability dice are refused, nothing written.
    assert client.post(side_url(contest, "a"), {"willpower": 1}).status_code == 409
    # Correct re-rolls the pool for 1 Momentum and settles the side.
    settings.ROLLS_RNG_SEED = 4
    client.post(side_url(contest, "a", "correct"))
    correct = RollEntry.objects.get(contest=contest, kind=Kind.CORRECT)
    assert correct.follows == roll and correct.resource_changes == {"momentum": -1}
    assert client.post(side_url(contest, "a", "correct")).status_code == 409
    client.force_login(gm_of(campaign))
    client.post(side_url(contest, "b"))
    client.post(side_url(contest, "b", "keep"))
    contest.refresh_from_db()
    faces = {
        side: cold_stars.Faces(
            **{
                kind: tuple(d["face"] for d in entry.faces if d["kind"] == kind)
                for kind in ("ability", "skill", "risk")
            }
        )
        for side, entry in (
            ("a", correct),
            ("b", RollEntry.objects.get(contest=contest, options__contest_side="b")),
        )
    }
    expected = cold_stars.contest(faces["a"], faces["b"])
    if expected.winner is None:
        assert contest.state == ContestState.CHOOSING
    else:
        assert contest.winner == expected.winner
        assert verdict_of(contest).result["margin"] == expected.margin
    vera.cold_stars.refresh_from_db()
    assert (vera.cold_stars.willpower, vera.cold_stars.momentum) == (0, 1)


def test_cold_stars_passive_sets_the_risk_from_the_engine(client, seeded, stars):
    campaign, vera, npc = stars
    npc.cold_stars.perception = 4
    npc.cold_stars.save()
    contest = start(
        client,
        campaign,
        kind="cold_stars_passive",
        character_a=vera.pk,
        skill_a="Stealth",
        ability_a="agility",
        character_b=npc.pk,
        skill_b="Awareness",
        ability_b="perception",
    )
    stealth = vera.cold_stars.skills.get(name="Stealth")
    url = panel_url(vera, "cold-stars-skill", stealth) + f"?contest={contest.pk}"
    client.force_login(vera.owner)
    form = client.get(url).context["form"]
    risk = cold_stars.passive_risk(ability=4, skill=0)
    assert form["risk"].value() == risk and form.fields["risk"].disabled
    data = {"ability": "agility", "risk": risk, "modification": "none", "contest": contest.pk}
    assert client.post(roll_url(vera, "cold-stars-skill", stealth), data).status_code == 302
    roll = RollEntry.objects.get(contest=contest, kind=Kind.ROLL)
    assert roll.options["risk"] == risk
    # The verdict waits for side A to keep its roll (or Correct it).
    assert not RollEntry.objects.filter(contest=contest, kind=Kind.CONTEST).exists()
    assert client.post(side_url(contest, "a", "keep")).status_code == 302
    verdict = verdict_of(contest)
    assert verdict.outcome == roll.outcome and verdict.result["sides"][0]["entry"] == roll.pk
    contest.refresh_from_db()
    assert contest.state == ContestState.DECIDED
    # The passive side never rolls.
    client.force_login(gm_of(campaign))
    assert client.post(side_url(contest, "b")).status_code == 409


def test_dad6_opposition_adds_difficulty(client, seeded):
    campaign = CampaignFactory(system=System.DAD6)
    kim = CharacterFactory(campaign=campaign, name="Kim")
    lee = CharacterFactory(campaign=campaign, name="Lee")
    climb = kim.dad6.skills.create(name="Climb", competence="expert")
    lee.dad6.skills.create(name="Climb", competence="familiar")
    client.force_login(gm_of(campaign))
    data = {
        "contest-kind": "dad6_opposed",
        "contest-character_a": kim.pk,
        "contest-skill_a": "Climb",
        "contest-character_b": lee.pk,
        "contest-difficulty": 5,
        "contest-opposition": 6,
    }
    response = client.post(reverse("contest_create", args=[campaign.pk]), data)
    assert response.status_code == 400 and "the most is 10" in response.content.decode()
    contest = start(
        client,
        campaign,
        kind="dad6_opposed",
        character_a=kim.pk,
        skill_a="Climb",
        character_b=lee.pk,
        difficulty=1,
        opposition=2,
    )
    client.force_login(kim.owner)
    prompt = client.get(kim.get_absolute_url()).content.decode()
    assert f"contest={contest.pk}" in prompt
    data = {"task": "mundane", "traded_boons": 0, "contest": contest.pk}
    data |= {"tools": 0, "helpers": 0, "advantages": 0, "time": 0}
    assert client.post(roll_url(kim, "dad6-skill", climb), data).status_code == 302
    roll = RollEntry.objects.get(contest=contest, kind=Kind.ROLL)
    assert roll.options["difficulty"] == 3
    assert verdict_of(contest).outcome == roll.outcome
    assert verify_like_an_outside_script(campaign.pk) == 2


def test_a_blind_acting_roll_makes_a_blind_verdict(client, seeded):
    campaign, kim, climb, contest = dad6_opposed(opposition=1)
    client.force_login(kim.owner)
    data = {"task": "mundane", "traded_boons": 0, "contest": contest.pk}
    data |= {"tools": 0, "helpers": 0, "advantages": 0, "time": 0, "visibility": "blind"}
    assert client.post(roll_url(kim, "dad6-skill", climb), data).status_code == 302
    verdict = verdict_of(contest)
    assert verdict.visibility == "blind" and verdict.roller == kim.owner
    client.force_login(contest.character_b.owner)  # Lee
    body = client.get(reverse("campaign_log", args=[campaign.pk])).content.decode()
    assert "Climb" not in body  # neither the roll nor its verdict reaches another player


def test_contest_permissions(client):
    campaign = CampaignFactory(system=System.COGENT)
    rob = CharacterFactory(campaign=campaign)
    ann = CharacterFactory(campaign=campaign)
    contest = ContestFactory(campaign=campaign, character_a=rob, character_b=ann)
    create = reverse("contest_create", args=[campaign.pk])
    cancel = reverse("contest_cancel", args=[contest.pk])
    observer = MembershipFactory(campaign=campaign, role=Role.OBSERVER).user
    client.force_login(UserFactory())
    assert client.post(side_url(contest, "a")).status_code == 404
    assert client.post(create, {}).status_code == 404
    assert client.post(cancel).status_code == 404
    client.force_login(observer)
    assert client.post(side_url(contest, "a")).status_code == 403
    assert client.post(create, {}).status_code == 403
    client.force_login(ann.owner)
    assert client.post(side_url(contest, "a")).status_code == 403  # not her side
    assert client.post(cancel).status_code == 403
    assert client.post(side_url(contest, "c")).status_code == 404
    client.force_login(gm_of(campaign))
    assert client.post(cancel).status_code == 302
    contest.refresh_from_db()
    assert contest.state == ContestState.CANCELLED
    assert not RollEntry.objects.exists()


def test_hidden_npcs_and_same_character_are_refused(client):
    campaign = CampaignFactory(system=System.COGENT)
    rob = CharacterFactory(campaign=campaign)
    spy = CharacterFactory(
        campaign=campaign, owner=gm_of(campaign), is_npc=True, hidden_from_players=True
    )
    client.force_login(gm_of(campaign))
    url = reverse("contest_create", args=[campaign.pk])
    base = {"contest-kind": "cogent_conflict", "contest-skill_a": "Athletics"}
    base["contest-skill_b"] = "Athletics"
    response = client.post(
        url, base | {"contest-character_a": rob.pk, "contest-character_b": spy.pk}
    )
    assert response.status_code == 400 and "hidden from players" in response.content.decode()
    response = client.post(
        url, base | {"contest-character_a": rob.pk, "contest-character_b": rob.pk}
    )
    assert response.status_code == 400 and "two different characters" in response.content.decode()
    assert not Contest.objects.exists()


@pytest.mark.parametrize("nxt", ["-9223372036854775808", "home", "https://evil.example/", "//x"])
def test_a_next_that_is_not_a_path_here_falls_back_to_the_dashboard(client, nxt):
    # Found by tests/test_bad_input_rolls.py: redirect() took "-92…" for a view name (a 500).
    campaign = CampaignFactory(system=System.COGENT)
    contest = ContestFactory(
        campaign=campaign,
        character_a=CharacterFactory(campaign=campaign),
        character_b=CharacterFactory(campaign=campaign),
    )
    client.force_login(gm_of(campaign))
    response = client.post(reverse("contest_cancel", args=[contest.pk]), {"next": nxt})
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign_dashboard", args=[campaign.pk]) + "#contests"


def test_a_next_path_on_this_site_is_followed(client):
    campaign = CampaignFactory(system=System.COGENT)
    rob = CharacterFactory(campaign=campaign)
    contest = ContestFactory(
        campaign=campaign, character_a=rob, character_b=CharacterFactory(campaign=campaign)
    )
    client.force_login(gm_of(campaign))
    back = rob.get_absolute_url()
    response = client.post(reverse("contest_cancel", args=[contest.pk]), {"next": back})
    assert response.status_code == 302 and response["Location"] == back


def untrained(character, name):
    skill = character.cold_stars.skills.get(name=name)
    skill.trained, skill.rating = False, 0
    skill.save()
    return skill


def test_cold_stars_an_untrained_side_of_an_active_contest_rolls_its_ability_dice_only(
    client, settings, stars
):
    """RULES §6 (Seed: "pure Ability + Skill dice" at Risk 0): the untrained +1 Risk doesn't apply."""
    campaign, vera, npc = stars
    untrained(vera, "Stealth")
    contest = ContestFactory(
        campaign=campaign,
        kind="cold_stars_active",
        character_a=vera,
        character_b=npc,
        skill_a="Stealth",
        skill_b="Stealth",
    )
    settings.ROLLS_RNG_SEED = 3
    client.force_login(vera.owner)
    assert client.post(side_url(contest, "a")).status_code == 302
    roll = RollEntry.objects.get(contest=contest, options__contest_side="a")
    assert roll.pool == {"ability": 3, "skill": 0, "risk": 0}


def test_cold_stars_an_untrained_acting_side_of_a_passive_contest_takes_the_untrained_risk(
    client, seeded, stars
):
    """Active vs passive is a normal action for side A: untrained adds its +1 Risk die."""
    campaign, vera, npc = stars
    stealth = untrained(vera, "Stealth")
    npc.cold_stars.perception = 2
    npc.cold_stars.save()
    contest = ContestFactory(
        campaign=campaign,
        kind="cold_stars_passive",
        character_a=vera,
        character_b=npc,
        skill_a="Stealth",
        ability_a="agility",
        skill_b="Awareness",
        ability_b="perception",
    )
    risk = cold_stars.passive_risk(ability=2, skill=0)
    data = {"ability": "agility", "risk": risk, "modification": "none", "contest": contest.pk}
    client.force_login(vera.owner)
    assert client.post(roll_url(vera, "cold-stars-skill", stealth), data).status_code == 302
    roll = RollEntry.objects.get(contest=contest, kind=Kind.ROLL)
    built = {"ability": 3, "skill": 0, "risk": risk + cold_stars.UNTRAINED_RISK}
    assert roll.pool["built"] == built
