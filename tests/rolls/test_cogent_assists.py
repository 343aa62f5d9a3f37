"""Cogent assists through HTTP (RULES.md §1 "Assist", §5 "Assists"): a character rolls an assist
for another, it waits on the assisted character's sheet, the next action's odds and result
include it, and every permission and visibility rule holds against crafted requests."""

import random
import re

import pytest
from django.urls import reverse

from rolls.models import Assist, AssistRequest, Kind, RollEntry
from rolls.rolling.display import percent
from rolls.rules import cogent
from sheets.models import Role, System
from tests.factories import CharacterFactory, CogentVocationFactory
from tests.rolls.helpers import latest, odds_url, panel_url, roll_url, seed_where, token

pytestmark = pytest.mark.django_db

ANN_POOL = 9  # 3 base + 4 Perception + 2 Reflex


@pytest.fixture
def party():
    """Ann (player ann) assists Bo (player bo); Cy (player cy) is at the table too; the GM has a
    visible NPC (Guard) and a hidden one (Spy)."""
    ann = CharacterFactory(campaign__system=System.COGENT, name="Ann", owner__username="ann")
    campaign = ann.campaign
    ann.cogent.reflex = 2
    ann.cogent.save()
    ann.cogent.skills.filter(name="Perception").update(rating=4)
    bo = CharacterFactory(campaign=campaign, name="Bo", owner__username="bo")
    cy = CharacterFactory(campaign=campaign, name="Cy", owner__username="cy")
    gm = campaign.memberships.get(role=Role.GM).user
    guard = CharacterFactory(campaign=campaign, name="Guard", owner=gm, is_npc=True)
    spy = CharacterFactory(
        campaign=campaign, name="Spy", owner=gm, is_npc=True, hidden_from_players=True
    )
    return {
        "ann": ann,
        "bo": bo,
        "cy": cy,
        "gm": gm,
        "guard": guard,
        "spy": spy,
        "perception": ann.cogent.skills.get(name="Perception"),
        "bo_search": bo.cogent.skills.get(name="Perception"),
    }


@pytest.fixture
def helpful(settings):
    """Dice for which Ann's 9d6 assist against CL 3 changes the next roll."""
    settings.ROLLS_RNG_SEED = seed_where(
        lambda faces: cogent.assist(faces) != 0, lambda rng: cogent.roll(ANN_POOL, rng)
    )
    return cogent.assist(cogent.roll(ANN_POOL, random.Random(settings.ROLLS_RNG_SEED)))


def _assist(client, party, *, for_character=None, **extra):
    data = {"challenge_level": 3, "extra_penalty": 0, "action": "assist"}
    data["assist_for"] = (for_character or party["bo"]).pk
    data |= extra
    return client.post(roll_url(party["ann"], "cogent-skill", party["perception"]), data)


def test_an_assist_waits_and_the_next_action_takes_it(client, party, helpful):
    client.force_login(party["ann"].owner)
    response = _assist(client, party)
    entry = latest()
    assert response.status_code == 302 and entry.kind == Kind.ASSIST
    assert entry.result["assist"] == helpful
    assert entry.options["assist_for"] == "Bo" and "for Bo's next action" in entry.detail
    waiting = Assist.objects.get()
    assert (waiting.assisted, waiting.wins, waiting.used_by) == (party["bo"], helpful, None)

    client.force_login(party["bo"].owner)
    sheet = client.get(party["bo"].get_absolute_url()).content.decode()
    assert "An assist waits" in sheet and f"Ann's assist: {helpful:+d} win" in sheet
    page = client.get(panel_url(party["bo"], "cogent-skill", party["bo_search"])).content.decode()
    assert "Take Ann&#x27;s assist" in page or "Take Ann's assist" in page
    shown = client.get(
        odds_url(party["bo"], "cogent-skill", party["bo_search"]),
        {"challenge_level": 2, "extra_penalty": 0, "use_assist": "on"},
    ).content.decode()
    bo_pool = int(re.search(r"= (\d+)d6", shown).group(1))
    expected = cogent.odds(bo_pool, challenge_level=2, assist=helpful)["success"]
    assert expected != cogent.odds(bo_pool, challenge_level=2)["success"]
    assert percent(expected) in shown
    assert f"{helpful:+d} win" in shown and "from Ann" in shown

    response = client.post(
        roll_url(party["bo"], "cogent-skill", party["bo_search"]),
        {"challenge_level": 2, "extra_penalty": 0, "use_assist": "on"},
    )
    main = latest()
    assert response.status_code == 302 and main.kind == Kind.ROLL
    assert main.options["assist"] == {"by": "Ann", "wins": helpful, "entry_hash": entry.hash}
    assert main.result["wins"] == max(0, main.result["rolled_wins"] + helpful)
    assert f"{helpful:+d} from Ann's assist" in main.detail
    assert Assist.objects.get().used_by == main
    # Used: the sheet no longer shows it and the panel no longer offers it.
    assert "An assist waits" not in client.get(party["bo"].get_absolute_url()).content.decode()
    page = client.get(panel_url(party["bo"], "cogent-skill", party["bo_search"])).content.decode()
    assert "Take Ann" not in page


def test_a_vocation_assists_with_its_rating_and_governing_attribute(client, party, seeded):
    vocation = CogentVocationFactory(sheet=party["ann"].cogent, name="Tracker", rating=2)
    client.force_login(party["ann"].owner)
    response = client.post(
        roll_url(party["ann"], "cogent-vocation", vocation),
        {
            "challenge_level": 4,
            "extra_penalty": 0,
            "action": "assist",
            "assist_for": party["bo"].pk,
        },
    )
    entry = latest()
    assert response.status_code == 302 and entry.kind == Kind.ASSIST
    assert entry.options["challenge_level"] == 4 and Assist.objects.get().entry == entry


def test_unticking_keeps_the_assist_for_later(client, party, helpful):
    client.force_login(party["ann"].owner)
    _assist(client, party)
    client.force_login(party["bo"].owner)
    client.post(
        roll_url(party["bo"], "cogent-skill", party["bo_search"]),
        {"challenge_level": 2, "extra_penalty": 0},
    )
    assert "assist" not in latest().options and Assist.objects.waiting().count() == 1


@pytest.mark.parametrize(
    ("extra", "field_message"),
    [
        ({"challenge_level": 2}, "CL 3 or higher"),
        ({"visibility": "blind"}, "An assist is rolled in public"),
        ({"use_assist": "on"}, None),
    ],
)
def test_refused_assists_write_nothing(client, party, extra, field_message):
    client.force_login(party["ann"].owner)
    response = _assist(client, party, **extra)
    assert response.status_code == 400 and not RollEntry.objects.exists()
    if field_message:
        assert field_message in response.content.decode()


def test_one_assist_waits_at_a_time(client, party, seeded):
    client.force_login(party["gm"])
    _assist(client, party)
    response = client.post(
        roll_url(party["guard"], "cogent-skill", party["guard"].cogent.skills.first()),
        {
            "challenge_level": 3,
            "extra_penalty": 0,
            "action": "assist",
            "assist_for": party["bo"].pk,
        },
    )
    assert response.status_code == 400 and "already waits for Bo" in response.content.decode()
    assert RollEntry.objects.count() == 1


def test_only_who_may_roll_the_assisting_character_rolls_the_assist(client, party):
    client.force_login(party["cy"].owner)
    assert _assist(client, party).status_code == 403
    assert not RollEntry.objects.exists()


def test_crafted_targets_are_refused(client, party):
    other = CharacterFactory(campaign__system=System.COGENT, name="Stranger")
    client.force_login(party["ann"].owner)
    for character in (other, party["spy"]):  # another campaign's; a hidden NPC
        response = _assist(client, party, for_character=character)
        assert response.status_code == 400
    assert not RollEntry.objects.exists()
    assert (
        "Spy"
        not in client.get(
            panel_url(party["ann"], "cogent-skill", party["perception"])
        ).content.decode()
    )


def test_a_hidden_npc_neither_gives_nor_takes_an_assist(client, party):
    client.force_login(party["gm"])
    response = _assist(client, party, for_character=party["spy"])
    assert response.status_code == 400 and "hidden NPC" in response.content.decode()
    response = client.post(
        roll_url(party["spy"], "cogent-skill", party["spy"].cogent.skills.first()),
        {
            "challenge_level": 3,
            "extra_penalty": 0,
            "action": "assist",
            "assist_for": party["bo"].pk,
        },
    )
    assert response.status_code == 400 and "hidden NPC" in response.content.decode()
    assert not RollEntry.objects.exists()


def test_the_waiting_assist_shows_only_to_the_assisted_characters_rollers(client, party, seeded):
    client.force_login(party["ann"].owner)
    _assist(client, party)
    assert "An assist waits" not in client.get(party["bo"].get_absolute_url()).content.decode()
    client.force_login(party["cy"].owner)
    assert "An assist waits" not in client.get(party["bo"].get_absolute_url()).content.decode()
    client.force_login(party["gm"])
    page = client.get(party["bo"].get_absolute_url()).content.decode()
    entry = latest()
    assert "An assist waits" in page and f"/rolls/{token(entry)}/drop-assist/" in page
    assert f"/rolls/{entry.pk}/" not in page


def test_dropping_an_assist(client, party, seeded):
    client.force_login(party["ann"].owner)
    _assist(client, party)
    entry = latest()
    url = reverse("assist_drop", args=[entry.pk])
    for user in (party["cy"].owner, party["ann"].owner):  # the assister may not either
        client.force_login(user)
        assert client.post(url).status_code == 403
    outsider = CharacterFactory(campaign__system=System.COGENT).owner
    client.force_login(outsider)
    assert client.post(url).status_code == 404
    client.force_login(party["bo"].owner)
    assert client.post(url).status_code == 302
    assert Assist.objects.get().dropped_at is not None and not Assist.objects.waiting().exists()
    assert RollEntry.objects.count() == 1  # the assist roll stays in the log


def test_a_dropped_assist_is_not_silently_rolled_without(client, party, seeded):
    client.force_login(party["ann"].owner)
    _assist(client, party)
    client.force_login(party["bo"].owner)
    # Dropped (say, in another tab) after Bo's panel was drawn with the assist ticked.
    client.post(reverse("assist_drop", args=[latest().pk]))
    assert not Assist.objects.waiting().exists()
    response = client.post(
        roll_url(party["bo"], "cogent-skill", party["bo_search"]),
        {"challenge_level": 2, "extra_penalty": 0, "use_assist": "on"},
    )
    assert response.status_code == 400 and "used or dropped" in response.content.decode()
    assert RollEntry.objects.count() == 1


def test_a_contested_roll_takes_no_assist(client, party, seeded):
    client.force_login(party["ann"].owner)
    _assist(client, party)
    client.force_login(party["bo"].owner)
    response = client.post(
        roll_url(party["bo"], "cogent-skill", party["bo_search"]),
        {"challenge_level": 2, "extra_penalty": 0, "use_assist": "on", "contested": "on"},
    )
    assert response.status_code == 400 and "not to a contested roll" in response.content.decode()
    assert Assist.objects.waiting().count() == 1


def _gm_assist(client, party, **data):
    url = reverse("assist_start", args=[party["ann"].campaign_id])
    fields = {"assisting": party["guard"].pk, "skill": "Perception", "assisted": party["bo"].pk}
    fields |= {"challenge_level": 4} | data
    return client.post(url, {f"assist-{k}": v for k, v in fields.items()})


def test_the_gm_table_opens_an_npcs_assist_panel_and_the_gm_rolls_it(client, party, seeded):
    client.force_login(party["gm"])
    page = client.get(reverse("campaign_dashboard", args=[party["ann"].campaign_id]))
    assert "Have a character assist" in page.content.decode()
    response = _gm_assist(client, party)
    assert response.status_code == 302
    panel = client.get(response["Location"]).content.decode()
    assert "Roll" in panel and "to assist Bo" in panel and "vs CL 4" in panel
    guard_perception = party["guard"].cogent.skills.get(name="Perception")
    client.post(
        roll_url(party["guard"], "cogent-skill", guard_perception),
        {
            "challenge_level": 4,
            "extra_penalty": 0,
            "action": "assist",
            "assist_for": party["bo"].pk,
        },
    )
    waiting = Assist.objects.get()
    assert (waiting.entry.character, waiting.assisted) == (party["guard"], party["bo"])


def test_the_gm_table_assist_form_refuses_bad_input(client, party):
    client.force_login(party["gm"])
    for data, message in [
        ({"assisted": party["guard"].pk}, "assists someone else"),
        ({"skill": "Tracker"}, "Select a valid choice"),
        ({"challenge_level": 2}, "Select a valid choice"),
        ({"assisted": CharacterFactory(campaign__system=System.COGENT).pk}, "valid choice"),
    ]:
        response = _gm_assist(client, party, **data)
        assert response.status_code == 400 and message in response.content.decode()
    client.force_login(party["ann"].owner)
    assert _gm_assist(client, party).status_code in (403, 404)


def test_ask_for_an_assist_prompts_the_table_and_an_assist_answers_it(client, party, seeded):
    client.force_login(party["bo"].owner)
    panel = client.get(panel_url(party["bo"], "cogent-skill", party["bo_search"])).content.decode()
    ask_url = reverse("assist_ask", args=[party["bo"].pk])
    assert "Ask for an assist" in panel and ask_url in panel
    assert client.post(ask_url).status_code == 302
    client.post(ask_url)  # asking twice keeps one request
    assert AssistRequest.objects.open().count() == 1
    assert "You asked for an assist" in client.get(party["bo"].get_absolute_url()).content.decode()

    client.force_login(party["ann"].owner)
    sheet = client.get(party["ann"].get_absolute_url()).content.decode()
    request = AssistRequest.objects.get()
    offer = reverse("assist_offer", args=[party["ann"].pk, request.pk])
    assert "Bo asks for an assist." in sheet and offer in sheet
    response = client.get(offer, {"skill": "Perception"})
    assert response.status_code == 302
    panel = client.get(response["Location"]).content.decode()
    assert "to assist Bo" in panel and "vs CL 3" in panel
    assert client.get(offer, {"skill": "No such skill"}).status_code == 400
    _assist(client, party)
    assert not AssistRequest.objects.open().exists()  # answered
    assert Assist.objects.waiting_for(party["bo"]).exists()
    assert client.get(offer, {"skill": "Perception"}).status_code == 404


def test_ask_for_an_assist_permissions(client, party):
    ask_url = reverse("assist_ask", args=[party["bo"].pk])
    client.force_login(party["ann"].owner)
    assert client.post(ask_url).status_code == 403  # only Bo's roller asks for Bo
    client.force_login(party["gm"])
    spy_url = reverse("assist_ask", args=[party["spy"].pk])
    response = client.post(spy_url)
    assert response.status_code == 400 and "hidden NPC" in response.content.decode()
    assert not AssistRequest.objects.exists()
    client.force_login(party["bo"].owner)
    client.post(ask_url)
    request = AssistRequest.objects.get()
    # Another campaign's player can't answer it; Cy can't answer it with Ann.
    outsider = CharacterFactory(campaign__system=System.COGENT)
    client.force_login(outsider.owner)
    offer = reverse("assist_offer", args=[outsider.pk, request.pk])
    assert client.get(offer, {"skill": "Perception"}).status_code == 404
    client.force_login(party["cy"].owner)
    offer = reverse("assist_offer", args=[party["ann"].pk, request.pk])
    assert client.get(offer, {"skill": "Perception"}).status_code == 403
    # Bo withdraws it; the prompt goes away.
    client.force_login(party["bo"].owner)
    client.post(ask_url, {"withdraw": "1"})
    assert not AssistRequest.objects.open().exists()
    client.force_login(party["cy"].owner)
    assert (
        "Bo asks for an assist." not in client.get(party["cy"].get_absolute_url()).content.decode()
    )


def test_the_assisted_sheet_hears_of_a_new_assist_live(client, party, seeded, monkeypatch):
    from rolls import live

    heard, publish = [], live.publish

    def recording(campaign, kind, id, **kwargs):
        heard.append((kind, id))
        return publish(campaign, kind, id, **kwargs)

    monkeypatch.setattr(live, "publish", recording)
    client.force_login(party["ann"].owner)
    _assist(client, party)
    # Bo's sheet stream hears only Bo's own entries and sheet events: the assist names Bo's sheet;
    # every sheet's prompt area listens for "call" (an answered request goes away).
    assert ("sheet", party["bo"].pk) in heard and ("call", 0) in heard
    client.force_login(party["bo"].owner)
    partial = client.get(
        reverse("character_prompts", args=[party["bo"].pk]), headers={"HX-Request": "true"}
    ).content.decode()
    assert "sse:sheet" in partial and "An assist waits" in partial


def test_destiny_after_keeps_the_assist_the_roll_took(client, party, helpful):
    client.force_login(party["ann"].owner)
    _assist(client, party)
    client.force_login(party["bo"].owner)
    client.post(
        roll_url(party["bo"], "cogent-skill", party["bo_search"]),
        {"challenge_level": 8, "extra_penalty": 0, "use_assist": "on"},
    )
    main = latest()
    client.post(reverse("roll_follow_up", args=[main.pk, "destiny"]))
    follow = latest()
    assert follow.kind == Kind.DESTINY and follow.follows == main
    assert follow.result["wins"] == max(0, main.result["rolled_wins"] + helpful + 1)
    assert f"{helpful:+d} from Ann's assist" in follow.detail


def test_a_vocation_assists_its_own_characters_next_action(client, party, seeded):
    # Book, assists.tex: the Martial Artist vocation assists the same character's Acrobatics.
    vocation = CogentVocationFactory(sheet=party["ann"].cogent, name="Martial Artist", rating=2)
    client.force_login(party["ann"].owner)
    client.post(
        roll_url(party["ann"], "cogent-vocation", vocation),
        {
            "challenge_level": 3,
            "extra_penalty": 0,
            "action": "assist",
            "assist_for": party["ann"].pk,
        },
    )
    waiting = Assist.objects.get()
    assert waiting.assisted == waiting.entry.character == party["ann"]
    acrobatics = party["ann"].cogent.skills.get(name="Acrobatics")
    page = client.get(panel_url(party["ann"], "cogent-skill", acrobatics)).content.decode()
    assert "Take Ann" in page
    client.post(
        roll_url(party["ann"], "cogent-skill", acrobatics),
        {"challenge_level": 4, "extra_penalty": 0, "use_assist": "on"},
    )
    assert Assist.objects.get().used_by == latest()


def test_a_hidden_roll_takes_no_assist(client, party, seeded):
    # Its wait ending would tell the assister that a hidden roll was made.
    client.force_login(party["ann"].owner)
    _assist(client, party)
    client.force_login(party["bo"].owner)
    response = client.post(
        roll_url(party["bo"], "cogent-skill", party["bo_search"]),
        {"challenge_level": 2, "extra_penalty": 0, "use_assist": "on", "visibility": "blind"},
    )
    assert response.status_code == 400 and "is public, like the assist" in response.content.decode()
    assert Assist.objects.waiting().count() == 1 and RollEntry.objects.count() == 1
