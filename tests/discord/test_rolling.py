"""``/roll``, ``/odds`` and ``/sheet`` through the real endpoint: every system, every visibility,
the options as the panel takes them, the GM's calls, and what never reaches the channel."""

import pytest

from discord.answers import BLIND_WORDS
from log.models import RollEntry, Visibility
from rolls.rolling.targets import sheet_targets
from sheets.models import System
from tests.discord.helpers import (
    a_row,
    autocomplete,
    command,
    is_private,
    post,
    roll,
    target_value,
)
from tests.factories import (
    CampaignFactory,
    CharacterFactory,
    MembershipFactory,
    RollCallFactory,
)
from tests.rolls.helpers import athletics

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("system", System.values)
def test_each_system_rolls_through_the_panel_and_posts_an_embed(client, key, table, system):
    answer = roll(client, key, table)
    entry = RollEntry.objects.get()
    assert (entry.character, entry.roller) == (table.party.pc, table.party.player)
    assert answer["type"] == 4 and not is_private(answer)  # public: into the channel
    [embed] = answer["data"]["embeds"]
    assert embed["title"].startswith("Ada")
    assert embed["url"] == "https://poolside.example" + entry.get_absolute_url()
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    assert fields["Odds of this outcome"] and fields["Dice"]
    assert entry.outcome_label in embed["description"]
    assert answer["data"]["allowed_mentions"] == {"parse": []}


@pytest.mark.parametrize("system", System.values)
def test_the_dice_nonce_is_the_interaction_s_id_and_the_embed_says_so(client, key, table):
    """A /roll has no input of the player's: its nonce is the id Discord gave the interaction,
    not one the server drew (docs/discord.md, "Verifiable dice from Discord")."""
    kind, row = a_row(table.party)
    asked = command(table.id("player"), "roll", target=target_value(table.party.pc, kind, row))
    answer = post(client, key, asked).json()
    entry = RollEntry.objects.get()
    assert entry.proof["alpha"]["nonce"] == asked["id"]
    fields = {f["name"]: f["value"] for f in answer["data"]["embeds"][0]["fields"]}
    assert fields["Dice nonce"] == f"interaction {asked['id']} (Discord chose it, not Poolside)"


@pytest.mark.parametrize(
    ("system", "options", "stored"),
    [
        (System.COGENT, {"challenge_level": "6", "extra_penalty": 1}, {"challenge_level": 6}),
        (System.DAD6, {"difficulty": 3, "task": "expert"}, {"difficulty": 3, "task": "expert"}),
        (System.COLD_STARS, {"risk": 2, "ability": "intellect"}, {"risk": 2}),
    ],
)
def test_the_options_are_the_panel_s(client, key, table, system, options, stored):
    answer = roll(client, key, table, **options)
    assert answer["type"] == 4, answer
    entry = RollEntry.objects.get()
    assert stored.items() <= entry.options.items()


@pytest.mark.parametrize(
    ("who", "visibility"),
    [("player", Visibility.GM_ONLY), ("player", Visibility.BLIND), ("gm", Visibility.SECRET)],
)
def test_hidden_rolls_answer_only_the_roller(client, key, table, who, visibility):
    answer = roll(client, key, table, who=who, visibility=visibility)
    entry = RollEntry.objects.get()
    assert entry.visibility == visibility
    assert is_private(answer)
    if visibility == Visibility.BLIND:
        # Only that a roll was made: no embed, no dice, no outcome, no buttons.
        assert answer["data"]["content"] == BLIND_WORDS
        assert set(answer["data"]) == {"content", "flags", "allowed_mentions"}
    else:
        assert answer["data"]["embeds"][0]["url"].endswith(entry.get_absolute_url())


def test_a_hidden_npc_s_roll_never_reaches_the_channel(client, key, table):
    party = table.party
    spy = athletics(party.hidden_npc)
    answer = roll(
        client, key, table, who="gm", target=target_value(party.hidden_npc, "cogent-skill", spy)
    )
    assert RollEntry.objects.get().visibility == Visibility.PUBLIC
    assert is_private(answer)


def test_a_campaign_that_forces_public_rolls_posts_them(client, key, table):
    table.party.campaign.force_public_rolls = True
    table.party.campaign.save()
    answer = roll(client, key, table, visibility=Visibility.GM_ONLY)
    assert RollEntry.objects.get().visibility == Visibility.PUBLIC
    assert not is_private(answer)


def test_bad_options_and_other_people_s_rows_are_refused_privately(client, key, table):
    party = table.party
    refusals = [
        roll(client, key, table, challenge_level="99"),
        roll(client, key, table, extra_penalty=-5),
        roll(client, key, table, target="not-a-target"),
        roll(client, key, table, target="1.cogent-skill.999999"),
        roll(client, key, table, action="teleport"),
        # Bo is ben's: ana may read him, not roll him (the panel's 403, in words).
        roll(
            client,
            key,
            table,
            target=target_value(party.other_pc, "cogent-skill", athletics(party.other_pc)),
        ),
        # Spy is hidden from players: answered like a row that doesn't exist.
        roll(
            client,
            key,
            table,
            target=target_value(party.hidden_npc, "cogent-skill", athletics(party.hidden_npc)),
        ),
        roll(client, key, table, who="observer"),
    ]
    for answer in refusals:
        assert is_private(answer) and answer["data"]["content"], answer
    assert "Challenge Level" in refusals[0]["data"]["content"]
    assert "player or the GM" in refusals[5]["data"]["content"]
    assert refusals[6]["data"]["content"] == refusals[3]["data"]["content"]
    assert not RollEntry.objects.exists()


def test_a_character_of_another_campaign_is_not_rolled_here(client, key, table):
    elsewhere = CampaignFactory(gm=table.party.player)  # ana runs another campaign
    theirs = CharacterFactory(campaign=elsewhere, owner=table.party.player, name="Elsewhere")
    answer = roll(
        client, key, table, target=target_value(theirs, "cogent-skill", athletics(theirs))
    )
    assert is_private(answer) and not RollEntry.objects.exists()


def test_autocomplete_offers_the_member_s_own_rows_with_pool_and_odds(client, key, table):
    party = table.party
    hints = post(client, key, autocomplete(table.id("player"), "roll", "target", target="ath"))
    [choice] = hints.json()["data"]["choices"]
    assert choice["value"] == target_value(party.pc, "cogent-skill", athletics(party.pc))
    ada = next(row for row in sheet_targets(party.pc) if row.target.label == "Athletics")
    assert choice["name"].startswith("Ada · Athletics: dice ")
    assert f"{ada.bands[0].percent}" in choice["name"]
    everything = post(client, key, autocomplete(table.id("player"), "roll", "target", target=""))
    choices = everything.json()["data"]["choices"]
    assert 0 < len(choices) <= 25
    assert all(c["name"].startswith("Ada · ") and len(c["name"]) <= 100 for c in choices)
    gm = post(client, key, autocomplete(table.id("gm"), "roll", "target", target="spy"))
    assert gm.json()["data"]["choices"]  # the GM rolls the hidden NPC too
    observer = post(client, key, autocomplete(table.id("observer"), "roll", "target", target=""))
    assert observer.json()["data"]["choices"] == []


@pytest.mark.parametrize("system", [System.COLD_STARS])
def test_an_option_s_choices_come_from_the_row_s_panel(client, key, table, system):
    kind, row = a_row(table.party)
    value = target_value(table.party.pc, kind, row)
    hints = post(
        client,
        key,
        autocomplete(table.id("player"), "roll", "ability", target=value, ability=""),
    )
    abilities = {c["value"] for c in hints.json()["data"]["choices"]}
    assert {"intellect", "will", "agility"} <= abilities
    actions = post(
        client, key, autocomplete(table.id("player"), "roll", "action", target=value, action="")
    )
    assert "roll" in {c["value"] for c in actions.json()["data"]["choices"]}


def test_odds_are_exact_private_and_roll_nothing(client, key, table):
    party = table.party
    value = target_value(party.pc, "cogent-skill", athletics(party.pc))
    answer = post(client, key, command(table.id("player"), "odds", target=value)).json()
    assert is_private(answer)
    ada = next(row for row in sheet_targets(party.pc) if row.target.label == "Athletics")
    description = answer["data"]["embeds"][0]["description"]
    for band in ada.bands:
        assert f"{band.exact} ({band.percent})" in description
    assert not RollEntry.objects.exists()


def test_the_gm_s_call_is_answered_from_discord_with_its_locked_values(client, key, table):
    party = table.party
    call = RollCallFactory(
        campaign=party.campaign, skill="Athletics", difficulty=4, targets=[party.pc]
    )
    value = target_value(party.pc, "cogent-skill", athletics(party.pc))
    hints = post(
        client, key, autocomplete(table.id("player"), "roll", "call", target=value, call="")
    )
    assert [c["value"] for c in hints.json()["data"]["choices"]] == [str(call.pk)]
    changed = roll(client, key, table, call=str(call.pk), challenge_level="2")
    assert is_private(changed) and "The GM set" in changed["data"]["content"]
    assert not RollEntry.objects.exists()
    answered = roll(client, key, table, call=str(call.pk))
    entry = RollEntry.objects.get()
    assert entry.call == call and entry.options["challenge_level"] == 4
    assert answered["type"] == 4
    again = roll(client, key, table, call=str(call.pk))
    assert is_private(again) and "already answered" in again["data"]["content"]
    # Bo isn't called: ben can't answer it.
    bo = target_value(party.other_pc, "cogent-skill", athletics(party.other_pc))
    other = roll(client, key, table, who="other_player", target=bo, call=str(call.pk))
    assert is_private(other) and RollEntry.objects.count() == 1


def test_sheet_is_a_private_summary_of_a_readable_character(client, key, table):
    party = table.party
    answer = post(client, key, command(table.id("player"), "sheet", character=party.pc.pk)).json()
    assert is_private(answer)
    embed = answer["data"]["embeds"][0]
    assert embed["title"] == "Ada" and "Athletics" in embed["description"]
    # Bo is readable; Spy is hidden from players, and answers like nothing.
    bo = post(client, key, command(table.id("player"), "sheet", character=party.other_pc.pk))
    assert bo.json()["data"]["embeds"][0]["title"] == "Bo"
    spy = post(client, key, command(table.id("player"), "sheet", character=party.hidden_npc.pk))
    assert "Choose a character" in spy.json()["data"]["content"]
    hints = post(client, key, autocomplete(table.id("player"), "sheet", "character", character=""))
    names = {c["name"] for c in hints.json()["data"]["choices"]}
    assert "Ada" in names and "Spy" not in names
    gm_hints = post(client, key, autocomplete(table.id("gm"), "sheet", "character", character="sp"))
    assert [c["name"] for c in gm_hints.json()["data"]["choices"]] == ["Spy"]


def test_a_member_of_another_campaign_only(client, key, table):
    other = CampaignFactory()
    MembershipFactory(campaign=other, user=table.party.nonmember)
    answer = roll(client, key, table, who="nonmember")
    assert is_private(answer) and "not a member" in answer["data"]["content"]
