"""Crafted POSTs to the roll panel and follow-ups, through the HTTP client: what the GM fixed for a
call (or a single-roll contest) stays fixed, every extra-dice option stays within the rules' range
with its message beside the field, destiny before the roll needs destiny, odd ids and missing
follow-up values are refused — each refusal a 4xx (or the HTMX panel with the message) that writes
nothing."""

import html

import pytest
from django.urls import reverse

from log.models import Kind, RollEntry
from rolls.table.calls import call_preset
from rules import cold_stars
from sheets.models import System
from tests.factories import CampaignFactory, CharacterFactory, ContestFactory, RollCallFactory
from tests.fuzz import UNICODE_DIGITS
from tests.rolls.helpers import dad6_opposed, follow_url, latest, panel_url, roll_url, seed_where

pytestmark = pytest.mark.django_db


@pytest.fixture
def system():
    """The log tools' party plays Cold Stars."""
    return System.COLD_STARS


HX = {"HX-Request": "true"}


def text(response):
    return html.unescape(response.content.decode())


def field_errors(response, name):
    return response.context["form"].errors.get(name, [])


# ---------------------------------------------------------------------------------------------
# Answers to a GM's call: the fixed values stay fixed
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def cogent_call():
    campaign = CampaignFactory(system=System.COGENT)
    rob = CharacterFactory(campaign=campaign, name="Rob")
    call = RollCallFactory(campaign=campaign, skill="Athletics", difficulty=4, targets=[rob])
    return rob, rob.cogent.skills.get(name="Athletics"), "cogent-skill", call


@pytest.fixture
def dad6_call():
    campaign = CampaignFactory(system=System.DAD6)
    kim = CharacterFactory(campaign=campaign, name="Kim")
    skill = kim.dad6.skills.create(name="Climb", competence="trained")
    call = RollCallFactory(campaign=campaign, skill="Climb", difficulty=3, targets=[kim])
    return kim, skill, "dad6-skill", call


@pytest.fixture
def stars_call():
    campaign = CampaignFactory(system=System.COLD_STARS)
    vera = CharacterFactory(campaign=campaign, name="Vera")
    call = RollCallFactory(
        campaign=campaign, skill="Stealth", difficulty=2, ability="perception", targets=[vera]
    )
    return vera, vera.cold_stars.skills.get(name="Stealth"), "cold-stars-skill", call


COGENT_OPTIONS = {"extra_penalty": 0}
DAD6_OPTIONS = {"task": "mundane", "tools": 0, "helpers": 0, "advantages": 0, "time": 0}
DAD6_OPTIONS |= {"traded_boons": 0}
STARS_OPTIONS = {"modification": "none"}

# (fixture, options a player chooses, the fixed field, a changed value, the fixed value)
CHANGES = [
    ("cogent_call", COGENT_OPTIONS, "challenge_level", 1, 4),
    ("cogent_call", COGENT_OPTIONS, "challenge_level", 8, 4),
    ("dad6_call", DAD6_OPTIONS, "difficulty", 1, 3),
    ("stars_call", STARS_OPTIONS | {"ability": "perception"}, "risk", 0, 2),
    ("stars_call", STARS_OPTIONS | {"risk": 2}, "ability", "agility", "perception"),
]


@pytest.mark.parametrize(
    ("fixture", "options", "name", "changed", "fixed"),
    CHANGES,
    ids=[f"{c[0]}-{c[2]}-{c[3]}" for c in CHANGES],
)
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_changing_what_the_call_fixed_is_refused(
    client, request, seeded, fixture, options, name, changed, fixed, htmx
):
    character, row, kind, call = request.getfixturevalue(fixture)
    client.force_login(character.owner)
    data = options | {name: changed, "call": call.pk}
    response = client.post(roll_url(character, kind, row), data, headers=HX if htmx else {})
    assert response.status_code == (200 if htmx else 400)
    errors = field_errors(response, name)
    assert errors and "The GM set" in errors[0] and "can't be changed" in errors[0]
    assert "The GM set" in text(response)
    assert not RollEntry.objects.exists()
    # Sending the fixed value itself (or leaving it out, as a browser does for a disabled field)
    # answers the call with it.
    response = client.post(roll_url(character, kind, row), data | {name: fixed})
    assert response.status_code == 302
    entry = latest()
    assert entry.call == call and entry.options[name] == fixed


@pytest.mark.parametrize("fixture", ["cogent_call", "dad6_call", "stars_call"])
def test_leaving_the_fixed_values_out_answers_with_them(client, request, seeded, fixture):
    character, row, kind, call = request.getfixturevalue(fixture)
    options = {"cogent_call": COGENT_OPTIONS, "dad6_call": DAD6_OPTIONS}.get(fixture, STARS_OPTIONS)
    client.force_login(character.owner)
    response = client.post(roll_url(character, kind, row), options | {"call": call.pk})
    assert response.status_code == 302
    values, _locked = call_preset(call)
    assert {key: latest().options[key] for key in values} == values


def test_the_panel_shows_every_fixed_value_locked(client, stars_call):
    character, row, kind, call = stars_call
    client.force_login(character.owner)
    form = client.get(panel_url(character, kind, row) + f"?call={call.pk}").context["form"]
    for name, value in (("risk", 2), ("ability", "perception")):
        assert form[name].value() == value and form.fields[name].disabled
        assert "disabled" in str(form[name])


def test_a_single_roll_contest_keeps_its_difficulty(client, seeded):
    _, kim, climb, contest = dad6_opposed(opposition=2)
    client.force_login(kim.owner)
    data = DAD6_OPTIONS | {"difficulty": 1, "contest": contest.pk}
    response = client.post(roll_url(kim, "dad6-skill", climb), data)
    assert response.status_code == 400 and field_errors(response, "difficulty")
    assert not RollEntry.objects.exists()
    assert (
        client.post(roll_url(kim, "dad6-skill", climb), data | {"difficulty": 3}).status_code == 302
    )


# ---------------------------------------------------------------------------------------------
# Extra dice and bonuses: each within its documented range, the message beside the field
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def cogent_row(client):
    character = CharacterFactory(campaign__system=System.COGENT)
    client.force_login(character.owner)
    return character, character.cogent.skills.get(name="Athletics"), "cogent-skill"


@pytest.fixture
def dad6_row(client):
    character = CharacterFactory(campaign__system=System.DAD6)
    character.dad6.level = 3
    character.dad6.save()
    client.force_login(character.owner)
    skill = character.dad6.skills.create(name="Cooking", competence="familiar")
    return character, skill, "dad6-skill"


@pytest.fixture
def stars_row(client):
    character = CharacterFactory(campaign__system=System.COLD_STARS)
    client.force_login(character.owner)
    return character, character.cold_stars.skills.get(name="Athletics"), "cold-stars-skill"


DAD6_VALID = DAD6_OPTIONS | {"difficulty": 1}
COGENT_VALID = COGENT_OPTIONS | {"challenge_level": 1}
STARS_VALID = STARS_OPTIONS | {"ability": "strength", "risk": 0}
OUT_OF_RANGE = [
    ("cogent_row", COGENT_VALID, {"extra_penalty": 21}, "extra_penalty"),
    ("cogent_row", COGENT_VALID, {"extra_penalty": -1}, "extra_penalty"),
    ("cogent_row", COGENT_VALID, {"extra_penalty": 10**30}, "extra_penalty"),
    ("cogent_row", COGENT_VALID, {"challenge_level": 9}, "challenge_level"),
    ("dad6_row", DAD6_VALID, {"tools": 31}, "tools"),
    ("dad6_row", DAD6_VALID, {"helpers": -1}, "helpers"),
    # Each reason within 0-30, but more than 30 extra dice in all.
    ("dad6_row", DAD6_VALID, {"tools": 10, "helpers": 10, "advantages": 10, "time": 5}, "time"),
    ("dad6_row", DAD6_VALID, {"tools": 30, "time": 1}, "time"),
    # 3 dice can't buy a boon; 8 can buy 1, not 2; a huge count is refused the same way.
    ("dad6_row", DAD6_VALID, {"traded_boons": 1}, "traded_boons"),
    ("dad6_row", DAD6_VALID, {"tools": 5, "traded_boons": 2}, "traded_boons"),
    ("dad6_row", DAD6_VALID, {"traded_boons": 10**30}, "traded_boons"),
    ("dad6_row", DAD6_VALID, {"difficulty": 11}, "difficulty"),
    ("stars_row", STARS_VALID, {"risk": 7}, "risk"),
    ("stars_row", STARS_VALID, {"modification": "willpower-9"}, "modification"),
]


@pytest.mark.parametrize(
    ("fixture", "valid", "change", "name"),
    OUT_OF_RANGE,
    ids=[f"{c[0]}-{'-'.join(f'{k}={v}' for k, v in c[2].items())}" for c in OUT_OF_RANGE],
)
def test_out_of_range_options_are_refused_beside_the_field(
    client, request, fixture, valid, change, name
):
    character, row, kind = request.getfixturevalue(fixture)
    response = client.post(roll_url(character, kind, row), valid | change)
    assert response.status_code == 400
    errors = field_errors(response, name)
    assert errors, response.context["form"].errors
    assert errors[0] in text(response)
    assert not response.context["form"].non_field_errors()
    assert not RollEntry.objects.exists()
    # The valid options roll.
    assert client.post(roll_url(character, kind, row), valid).status_code == 302


def test_the_most_extra_dice_and_boons_the_rules_allow_roll(client, dad6_row, seeded):
    character, row, kind = dad6_row
    data = DAD6_VALID | {"tools": 10, "helpers": 10, "advantages": 5, "time": 5}
    # Familiar, level 3 + 30 extra dice = 33: four boons traded for 32 dice, one die rolled.
    response = client.post(roll_url(character, kind, row), data | {"traded_boons": 4})
    assert response.status_code == 302
    assert latest().pool == {
        "dice": 33,
        "rolled": 1,
        "traded_boons": 4,
        "bonus_boons": 0,
        "competence": "familiar",
        "die_modifier": 0,
    }


def test_the_panel_states_each_range(client, dad6_row):
    character, row, kind = dad6_row
    form = client.get(panel_url(character, kind, row)).context["form"]
    assert (form.fields["tools"].min_value, form.fields["tools"].max_value) == (0, 30)
    assert form.fields["traded_boons"].max_value == 6
    assert "at most 30 in all" in form.fields["time"].help_text


# ---------------------------------------------------------------------------------------------
# Destiny before the roll with none left
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_destiny_before_with_none_left_is_refused(client, cogent_row, seeded, htmx):
    character, row, kind = cogent_row
    character.cogent.destiny_points = 0
    character.cogent.save()
    data = COGENT_VALID | {"destiny_before": "on"}
    response = client.post(roll_url(character, kind, row), data, headers=HX if htmx else {})
    # HTMX swaps only 2xx: it gets the panel with the message; a plain POST gets a 400 page.
    assert response.status_code == (200 if htmx else 400)
    message = "You have no destiny points left to spend before the roll."
    assert field_errors(response, "destiny_before") == [message]
    assert message in text(response)
    assert not RollEntry.objects.exists() and "HX-Trigger" not in response
    character.cogent.refresh_from_db()
    assert character.cogent.destiny_points == 0
    # Without destiny before, the roll goes through.
    assert client.post(roll_url(character, kind, row), COGENT_VALID).status_code == 302
    assert latest().options["destiny_before"] is False


def test_the_destiny_checkbox_shows_disabled_at_zero(client, cogent_row):
    character, row, kind = cogent_row
    character.cogent.destiny_points = 0
    character.cogent.save()
    form = client.get(panel_url(character, kind, row)).context["form"]
    assert "disabled" in str(form["destiny_before"])
    assert "You have no destiny points left." in str(form["destiny_before"].help_text)


# ---------------------------------------------------------------------------------------------
# Odd ids and missing values
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("param", ["call", "contest"])
@pytest.mark.parametrize("value", [*UNICODE_DIGITS, "9" * 30, "9" * 5000, "-1", " 1"])
@pytest.mark.parametrize("view", ["roll_panel", "roll_create"])
def test_odd_call_and_contest_ids_are_refused(client, cogent_row, param, value, view):
    character, row, kind = cogent_row
    url = (
        panel_url(character, kind, row) if view == "roll_panel" else roll_url(character, kind, row)
    )
    send = client.get if view == "roll_panel" else client.post
    response = send(url, COGENT_VALID | {param: value})
    body = text(response)
    assert response.status_code == (200 if view == "roll_panel" else 409)
    what = "call for a roll" if param == "call" else "contest"
    assert f"There is no such {what} for {character.name}." in body
    assert not RollEntry.objects.exists()


@pytest.fixture
def blank_roll(client, settings):
    """A Cold Stars roll that came up all blank: the player's choice."""
    character = CharacterFactory(campaign__system=System.COLD_STARS)
    client.force_login(character.owner)
    sheet = character.cold_stars
    sheet.strength = 2
    sheet.save()
    athletics = sheet.skills.get(name="Athletics")
    athletics.trained, athletics.rating = True, 2
    athletics.save()
    settings.ROLLS_RNG_SEED = seed_where(
        lambda f: cold_stars.resolve(f) == "choice",
        lambda rng: cold_stars.roll(cold_stars.Pool(2, 2, 0), rng),
    )
    client.post(roll_url(character, "cold-stars-skill", athletics), STARS_VALID)
    roll = latest()
    assert roll.outcome == "choice"
    return roll


@pytest.mark.parametrize(
    "body",
    [{}, {"value": ""}, {"value": "success"}, {"value": "choice"}, {"value": ["failure", "x"]}],
    ids=["missing", "empty", "not-offered", "choice", "several"],
)
@pytest.mark.parametrize("htmx", [False, True], ids=["plain", "htmx"])
def test_a_choice_without_an_offered_value_is_refused(client, blank_roll, body, htmx):
    response = client.post(follow_url(blank_roll, "choice"), body, headers=HX if htmx else {})
    assert response.status_code == (200 if htmx else 409)
    assert "Choose a Costly Success or a Failure." in text(response)
    assert RollEntry.objects.count() == 1
    # An offered value with extra fields beside it goes through.
    response = client.post(follow_url(blank_roll, "choice"), {"value": "failure", "x": "1"})
    assert response.status_code == 302 and latest().outcome == "failure"


def test_contest_side_rolls_offer_no_panel_follow_ups(client, seeded):
    """A Cogent conflict side roll has no Challenge Level; Cold Stars sides Correct on the contest
    prompt. The entry's own follow-ups are refused (they were a 500 and a bypass)."""
    campaign = CampaignFactory(system=System.COGENT)
    rob = CharacterFactory(campaign=campaign, name="Rob")
    ann = CharacterFactory(campaign=campaign, name="Ann")
    contest = ContestFactory(campaign=campaign, character_a=rob, character_b=ann)
    client.force_login(rob.owner)
    client.post(reverse("contest_side", args=[contest.pk, "a", "roll"]))
    side = RollEntry.objects.get(contest=contest, kind=Kind.ROLL)
    page = client.get(side.get_absolute_url()).content.decode()
    assert "Spend destiny" not in page
    response = client.post(follow_url(side, "destiny"))
    assert response.status_code == 409 and "contest" in text(response)
    assert RollEntry.objects.count() == 1
    rob.cogent.refresh_from_db()
    assert rob.cogent.destiny_points == 3


# ---------------------------------------------------------------------------------------------
# The log's date filters
# ---------------------------------------------------------------------------------------------

DATES = ["9999-12-31", "0001-01-01", "1899-12-31", "9999-01-01"]


@pytest.mark.parametrize("name", ["date_from", "date_to"])
@pytest.mark.parametrize("value", DATES)
@pytest.mark.parametrize("time_zone", ["UTC", "Pacific/Kiritimati", "Pacific/Pago_Pago"])
def test_dates_at_the_ends_of_the_calendar_are_refused_beside_the_field(
    client, party, settings, name, value, time_zone
):
    settings.TIME_ZONE = time_zone
    client.force_login(party.gm)
    campaign = party.campaign
    page = client.get(reverse("campaign_log", args=[campaign.pk]), {name: value})
    message = "Enter a date from 1 January 1900 to 31 December 9998."
    assert page.status_code == 200 and message in text(page)
    assert page.context["form"].errors[name] == [message]
    for export in ("campaign_log_csv", "campaign_log_json"):
        response = client.get(reverse(export, args=[campaign.pk]), {name: value})
        assert response.status_code == 400 and message in text(response)
    stats = client.get(reverse("campaign_stats", args=[campaign.pk]), {name: value})
    assert stats.status_code < 500


@pytest.mark.parametrize("value", ["0000-01-01", "99999-01-01", "2026-02-30", "2026-00-10"])
def test_dates_that_dont_exist_are_refused_beside_the_field(client, party, value):
    client.force_login(party.gm)
    page = client.get(reverse("campaign_log", args=[party.campaign.pk]), {"date_to": value})
    assert page.status_code == 200 and page.context["form"].errors["date_to"]


def test_the_first_and_last_dates_filter(client, party):
    client.force_login(party.gm)
    url = reverse("campaign_log", args=[party.campaign.pk])
    page = client.get(url, {"date_from": "1900-01-01", "date_to": "9998-12-31"})
    assert page.status_code == 200 and not page.context["form"].errors


def test_spending_the_last_destiny_before_leaves_a_clean_panel(client, cogent_row, seeded):
    """After the roll the panel is drawn again for the sheet as it now is: the checkbox is unset
    and disabled, the odds show, and no refusal sits under the result."""
    character, row, kind = cogent_row
    character.cogent.destiny_points = 1
    character.cogent.save()
    data = COGENT_VALID | {"destiny_before": "on"}
    response = client.post(roll_url(character, kind, row), data, headers=HX)
    assert response.status_code == 200 and latest().resource_changes == {"destiny": -1}
    form = response.context["form"]
    assert form.is_valid() and response.context["plan"] is not None
    assert "disabled" in str(form["destiny_before"]) and not form["destiny_before"].value()
