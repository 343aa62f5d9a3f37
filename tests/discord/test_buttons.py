"""Follow-ups as buttons under a roll: the roller (or the GM) presses them, anyone else is
refused privately, and what the button makes goes through the same follow-up as the pages."""

import pytest

from log.models import RollEntry, Visibility
from rules import cogent, cold_stars
from sheets.models import System
from tests.discord.helpers import (
    buttons,
    interaction,
    is_private,
    post,
    press,
    roll,
    target_value,
)
from tests.rolls.helpers import seed_where, token

pytestmark = pytest.mark.django_db


@pytest.fixture
def destiny(table):
    sheet = table.party.pc.cogent
    sheet.destiny_points = 3
    sheet.save()
    return table


def _destiny_button(answer):
    found = [b for b in buttons(answer) if ":destiny:" in b["custom_id"]]
    assert found, buttons(answer)
    return found[0]


def test_the_roller_presses_a_follow_up(client, key, destiny):
    answer = roll(client, key, destiny, challenge_level="6")
    entry = RollEntry.objects.get()
    button = _destiny_button(answer)
    assert button["custom_id"] == f"f:{token(entry)}:destiny:"
    assert len(button["custom_id"]) <= 100 and len(button["label"]) <= 80
    followed = post(client, key, press(destiny.id("player"), button["custom_id"])).json()
    assert followed["type"] == 4 and not is_private(followed)
    new = RollEntry.objects.exclude(pk=entry.pk).get()
    assert new.follows == entry or new.root == entry
    destiny.party.pc.cogent.refresh_from_db()
    assert destiny.party.pc.cogent.destiny_points == 3 - cogent.DESTINY_COST  # as on the page
    # Pressed again: the one follow-up is taken, privately said, nothing written.
    again = post(client, key, press(destiny.id("player"), button["custom_id"])).json()
    assert is_private(again) and "already has a follow-up" in again["data"]["content"]
    assert RollEntry.objects.count() == 2


@pytest.mark.parametrize("system", [System.COLD_STARS])
def test_a_follow_up_s_dice_nonce_is_the_press_s_id(client, key, table):
    """A re-roll from a button (Cold Stars' correct) takes the press's interaction id as its
    nonce, as /roll takes the command's."""
    sheet = table.party.pc.cold_stars
    sheet.strength, sheet.momentum_max, sheet.momentum = 2, 3, 3
    sheet.save()
    athletics = sheet.skills.get(name="Athletics")
    athletics.trained, athletics.rating = True, 2
    athletics.save()
    answer = roll(
        client, key, table, target=target_value(table.party.pc, "cold-stars-skill", athletics)
    )
    [correct] = [b for b in buttons(answer) if ":correct:" in b["custom_id"]]
    pressed = press(table.id("player"), correct["custom_id"])
    followed = post(client, key, pressed).json()
    new = RollEntry.objects.latest("pk")
    assert new.faces and new.proof["alpha"]["nonce"] == pressed["id"]
    fields = {f["name"]: f["value"] for f in followed["data"]["embeds"][0]["fields"]}
    assert fields["Dice nonce"].startswith(f"interaction {pressed['id']} ")


def test_the_gm_may_not_spend_a_player_characters_destiny(client, key, destiny):
    """Destiny after a player character's roll is its player's spend (RULES.md §8, Seed 002):
    the GM's press is refused privately, with whom it waits for, and nothing is written."""
    answer = roll(client, key, destiny, challenge_level="6")
    refused = post(client, key, press(destiny.id("gm"), _destiny_button(answer)["custom_id"]))
    assert is_private(refused.json())
    assert "Waiting for Ada's player" in refused.json()["data"]["content"]
    assert RollEntry.objects.count() == 1
    destiny.party.pc.cogent.refresh_from_db()
    assert destiny.party.pc.cogent.destiny_points == 3


@pytest.mark.parametrize("who", ["other_player", "observer", "nonmember"])
def test_anyone_else_gets_a_private_refusal(client, key, destiny, who):
    answer = roll(client, key, destiny, challenge_level="6")
    refused = post(client, key, press(destiny.id(who), _destiny_button(answer)["custom_id"])).json()
    assert is_private(refused) and refused["data"]["content"]
    assert RollEntry.objects.count() == 1
    destiny.party.pc.cogent.refresh_from_db()
    assert destiny.party.pc.cogent.destiny_points == 3


def test_an_unlinked_user_or_a_forged_button_does_nothing(client, key, destiny):
    answer = roll(client, key, destiny, challenge_level="6")
    custom_id = _destiny_button(answer)["custom_id"]
    unlinked = post(client, key, press("919999999999999999", custom_id)).json()
    assert is_private(unlinked) and "/poolside link" in unlinked["data"]["content"]
    for forged in ("f:0000000000000000:destiny:", "x:y", custom_id.replace("destiny", "teleport")):
        refused = post(client, key, press(destiny.id("player"), forged)).json()
        assert is_private(refused)
    assert RollEntry.objects.count() == 1


def test_a_blind_roll_offers_no_buttons_and_its_follow_ups_stay_hidden(client, key, destiny):
    blind = roll(client, key, destiny, challenge_level="6", visibility=Visibility.BLIND)
    assert buttons(blind) == []
    gm_only = roll(client, key, destiny, challenge_level="6", visibility=Visibility.GM_ONLY)
    button = _destiny_button(gm_only)
    followed = post(client, key, press(destiny.id("player"), button["custom_id"])).json()
    # The follow-up of a GM-only roll is GM-only too: answered to the roller alone.
    assert is_private(followed)


@pytest.mark.parametrize("system", [System.COLD_STARS])
def test_cold_stars_correct_and_the_costly_success_choice_as_buttons(client, key, table, settings):
    sheet = table.party.pc.cold_stars
    sheet.strength, sheet.momentum = 2, 0
    sheet.save()
    athletics = sheet.skills.get(name="Athletics")
    athletics.trained, athletics.rating = True, 2
    athletics.save()
    value = target_value(table.party.pc, "cold-stars-skill", athletics)
    broke = roll(client, key, table, target=value)
    [correct] = [b for b in buttons(broke) if ":correct:" in b["custom_id"]]
    assert correct["disabled"]  # no Momentum: shown, as the card shows it, but not pressable
    refused = post(client, key, press(table.id("player"), correct["custom_id"])).json()
    assert is_private(refused) and "Momentum" in refused["data"]["content"]
    # A roll whose dice are all blank leaves the choice (repeatable: ROLLS_RNG_SEED).
    pool = cold_stars.Pool(2, 2, 0)
    settings.ROLLS_RNG_SEED = seed_where(
        lambda f: cold_stars.resolve(f) == "choice", lambda rng: cold_stars.roll(pool, rng)
    )
    answer = roll(client, key, table, target=value)
    assert RollEntry.objects.latest("pk").outcome == "choice"
    picks = {b["label"]: b["custom_id"] for b in buttons(answer) if ":choice:" in b["custom_id"]}
    assert set(picks) == {"Take a Costly Success", "Take a Failure"}
    ben = post(client, key, press(table.id("other_player"), picks["Take a Failure"])).json()
    assert is_private(ben) and RollEntry.objects.latest("pk").outcome == "choice"
    chosen = post(client, key, press(table.id("player"), picks["Take a Costly Success"])).json()
    assert chosen["type"] == 4
    assert RollEntry.objects.latest("pk").outcome == "costly_success"


def _modal_submit(discord_user, modal, typed):
    text_input = modal["data"]["components"][0]["components"][0]
    data = {
        "custom_id": modal["data"]["custom_id"],
        "components": [
            {
                "type": 1,
                "components": [{"type": 4, "custom_id": text_input["custom_id"], "value": typed}],
            }
        ],
    }
    return interaction(5, discord_user, data)


@pytest.mark.parametrize("system", [System.DAD6])
def test_dad6_buying_a_boon_asks_for_the_bane_in_a_form(client, key, table, settings):
    # The first seed whose roll fails within reach: a boon can be bought (repeatable dice).
    for seed in range(300):
        settings.ROLLS_RNG_SEED = seed
        answer = roll(client, key, table, tools=2, difficulty=2)
        buy = [b for b in buttons(answer) if ":buy_boon:" in b["custom_id"]]
        if buy:
            break
    else:  # pragma: no cover
        pytest.fail("no seed gave a failure a boon can be bought for")
    failed = RollEntry.objects.latest("pk")
    assert buy[0]["custom_id"].startswith("a:")  # opens a form: the bane is the player's words
    refused = post(client, key, press(table.id("other_player"), buy[0]["custom_id"])).json()
    assert is_private(refused)
    modal = post(client, key, press(table.id("player"), buy[0]["custom_id"])).json()
    assert modal["type"] == 9 and len(modal["data"]["title"]) <= 45
    assert RollEntry.objects.latest("pk") == failed  # the form is not the purchase
    # Submitted by someone else (a forged submission): refused, nothing bought.
    forged = post(client, key, _modal_submit(table.id("other_player"), modal, "Nope")).json()
    assert is_private(forged) and RollEntry.objects.latest("pk") == failed
    bought = post(client, key, _modal_submit(table.id("player"), modal, "Owes the ferryman"))
    assert bought.json()["type"] == 4
    new = RollEntry.objects.latest("pk")
    assert new.kind == "buy_boon" and new.root_id == failed.pk
    assert table.party.pc.dad6.banes.filter(description="Owes the ferryman").exists()
