"""Cogent assists through HTTP (RULES.md §1 "Assist", §5 "Assists"): a character rolls an assist
for another, it waits on the assisted character's sheet, the next action's odds and result
include it, and every permission and visibility rule holds against crafted requests."""

import re
from fractions import Fraction

import pytest
from django.urls import reverse

from log.models import Kind, RollEntry
from rolls.models import Assist, AssistRequest
from rolls.rolling.display import percent
from rules import cogent
from sheets.models import System
from tests.factories import CharacterFactory, CogentVocationFactory
from tests.rolls.helpers import (
    ADA_POOL,
    latest,
    odds_url,
    panel_url,
    perception,
    roll_url,
    seed_where,
    token,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("ada_assists")]


def cy(party):
    return party.campaign.characters.get(name="Cy")


def _assist(client, party, *, for_character=None, **extra):
    data = {"challenge_level": 3, "extra_penalty": 0, "action": "assist"}
    data["assist_for"] = (for_character or party.other_pc).pk
    data |= extra
    return client.post(roll_url(party.pc, "cogent-skill", perception(party.pc)), data)


def test_an_assist_waits_and_the_next_action_takes_it(client, party, helpful):
    client.force_login(party.pc.owner)
    response = _assist(client, party)
    entry = latest()
    assert response.status_code == 302 and entry.kind == Kind.ASSIST
    assert entry.result["assist"] == helpful
    assert entry.options["assist_for"] == "Bo" and "for Bo's next action" in entry.detail
    waiting = Assist.objects.get()
    assert (waiting.assisted, waiting.wins, waiting.used_by) == (party.other_pc, helpful, None)

    client.force_login(party.other_pc.owner)
    sheet = client.get(party.other_pc.get_absolute_url()).content.decode()
    assert "An assist waits" in sheet and f"Ada's assist: {helpful:+d} win" in sheet
    page = client.get(
        panel_url(party.other_pc, "cogent-skill", perception(party.other_pc))
    ).content.decode()
    assert "Take Ada&#x27;s assist" in page or "Take Ada's assist" in page
    shown = client.get(
        odds_url(party.other_pc, "cogent-skill", perception(party.other_pc)),
        {"challenge_level": 2, "extra_penalty": 0, "use_assist": "on"},
    ).content.decode()
    bo_pool = int(re.search(r"= (\d+)d6", shown).group(1))
    expected = cogent.odds(bo_pool, challenge_level=2, assist=helpful)["success"]
    assert expected != cogent.odds(bo_pool, challenge_level=2)["success"]
    assert percent(expected) in shown
    assert f"{helpful:+d} win" in shown and "from Ada" in shown

    response = client.post(
        roll_url(party.other_pc, "cogent-skill", perception(party.other_pc)),
        {"challenge_level": 2, "extra_penalty": 0, "use_assist": "on"},
    )
    main = latest()
    assert response.status_code == 302 and main.kind == Kind.ROLL
    assert main.options["assist"] == {"by": "Ada", "wins": helpful, "entry_hash": entry.hash}
    assert main.result["wins"] == max(0, main.result["rolled_wins"] + helpful)
    assert f"{helpful:+d} from Ada's assist" in main.detail
    assert Assist.objects.get().used_by == main
    # Used: the sheet no longer shows it and the panel no longer offers it.
    assert "An assist waits" not in client.get(party.other_pc.get_absolute_url()).content.decode()
    page = client.get(
        panel_url(party.other_pc, "cogent-skill", perception(party.other_pc))
    ).content.decode()
    assert "Take Ada" not in page


def test_a_vocation_assists_with_its_rating_and_governing_attribute(client, party, seeded):
    vocation = CogentVocationFactory(sheet=party.pc.cogent, name="Tracker", rating=2)
    client.force_login(party.pc.owner)
    response = client.post(
        roll_url(party.pc, "cogent-vocation", vocation),
        {
            "challenge_level": 4,
            "extra_penalty": 0,
            "action": "assist",
            "assist_for": party.other_pc.pk,
        },
    )
    entry = latest()
    assert response.status_code == 302 and entry.kind == Kind.ASSIST
    assert entry.options["challenge_level"] == 4 and Assist.objects.get().entry == entry


def test_unticking_keeps_the_assist_for_later(client, party, helpful):
    client.force_login(party.pc.owner)
    _assist(client, party)
    client.force_login(party.other_pc.owner)
    client.post(
        roll_url(party.other_pc, "cogent-skill", perception(party.other_pc)),
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
    client.force_login(party.pc.owner)
    response = _assist(client, party, **extra)
    assert response.status_code == 400 and not RollEntry.objects.exists()
    if field_message:
        assert field_message in response.content.decode()


def test_one_assist_waits_at_a_time(client, party, seeded):
    client.force_login(party.gm)
    _assist(client, party)
    response = client.post(
        roll_url(party.npc, "cogent-skill", party.npc.cogent.skills.first()),
        {
            "challenge_level": 3,
            "extra_penalty": 0,
            "action": "assist",
            "assist_for": party.other_pc.pk,
        },
    )
    assert response.status_code == 400 and "already waits for Bo" in response.content.decode()
    assert RollEntry.objects.count() == 1


def test_only_who_may_roll_the_assisting_character_rolls_the_assist(client, party):
    client.force_login(cy(party).owner)
    assert _assist(client, party).status_code == 403
    assert not RollEntry.objects.exists()


def test_crafted_targets_are_refused(client, party):
    other = CharacterFactory(campaign__system=System.COGENT, name="Stranger")
    client.force_login(party.pc.owner)
    for character in (other, party.hidden_npc):  # another campaign's; a hidden NPC
        response = _assist(client, party, for_character=character)
        assert response.status_code == 400
    assert not RollEntry.objects.exists()
    assert (
        "Spy"
        not in client.get(
            panel_url(party.pc, "cogent-skill", perception(party.pc))
        ).content.decode()
    )


def test_a_hidden_npc_neither_gives_nor_takes_an_assist(client, party):
    client.force_login(party.gm)
    response = _assist(client, party, for_character=party.hidden_npc)
    assert response.status_code == 400 and "hidden NPC" in response.content.decode()
    response = client.post(
        roll_url(party.hidden_npc, "cogent-skill", party.hidden_npc.cogent.skills.first()),
        {
            "challenge_level": 3,
            "extra_penalty": 0,
            "action": "assist",
            "assist_for": party.other_pc.pk,
        },
    )
    assert response.status_code == 400 and "hidden NPC" in response.content.decode()
    assert not RollEntry.objects.exists()


def test_the_waiting_assist_shows_only_to_the_assisted_characters_rollers(client, party, seeded):
    client.force_login(party.pc.owner)
    _assist(client, party)
    assert "An assist waits" not in client.get(party.other_pc.get_absolute_url()).content.decode()
    client.force_login(cy(party).owner)
    assert "An assist waits" not in client.get(party.other_pc.get_absolute_url()).content.decode()
    client.force_login(party.gm)
    page = client.get(party.other_pc.get_absolute_url()).content.decode()
    entry = latest()
    assert "An assist waits" in page and f"/rolls/{token(entry)}/drop-assist/" in page
    assert f"/rolls/{entry.pk}/" not in page


def test_dropping_an_assist(client, party, seeded):
    client.force_login(party.pc.owner)
    _assist(client, party)
    entry = latest()
    url = reverse("assist_drop", args=[entry.pk])
    for user in (cy(party).owner, party.pc.owner):  # the assister may not either
        client.force_login(user)
        assert client.post(url).status_code == 403
    outsider = CharacterFactory(campaign__system=System.COGENT).owner
    client.force_login(outsider)
    assert client.post(url).status_code == 404
    client.force_login(party.other_pc.owner)
    assert client.post(url).status_code == 302
    assert Assist.objects.get().dropped_at is not None and not Assist.objects.waiting().exists()
    assert RollEntry.objects.count() == 1  # the assist roll stays in the log


def test_a_dropped_assist_is_not_silently_rolled_without(client, party, seeded):
    client.force_login(party.pc.owner)
    _assist(client, party)
    client.force_login(party.other_pc.owner)
    # Dropped (say, in another tab) after Bo's panel was drawn with the assist ticked.
    client.post(reverse("assist_drop", args=[latest().pk]))
    assert not Assist.objects.waiting().exists()
    response = client.post(
        roll_url(party.other_pc, "cogent-skill", perception(party.other_pc)),
        {"challenge_level": 2, "extra_penalty": 0, "use_assist": "on"},
    )
    assert response.status_code == 400 and "used or dropped" in response.content.decode()
    assert RollEntry.objects.count() == 1


def test_a_contested_roll_takes_no_assist(client, party, seeded):
    client.force_login(party.pc.owner)
    _assist(client, party)
    client.force_login(party.other_pc.owner)
    response = client.post(
        roll_url(party.other_pc, "cogent-skill", perception(party.other_pc)),
        {"challenge_level": 2, "extra_penalty": 0, "use_assist": "on", "contested": "on"},
    )
    assert response.status_code == 400 and "not to a contested roll" in response.content.decode()
    assert Assist.objects.waiting().count() == 1


def _gm_assist(client, party, **data):
    url = reverse("assist_start", args=[party.pc.campaign_id])
    fields = {"assisting": party.npc.pk, "skill": "Perception", "assisted": party.other_pc.pk}
    fields |= {"challenge_level": 4} | data
    return client.post(url, {f"assist-{k}": v for k, v in fields.items()})


def test_the_gm_table_opens_an_npcs_assist_panel_and_the_gm_rolls_it(client, party, seeded):
    client.force_login(party.gm)
    page = client.get(reverse("campaign_dashboard", args=[party.pc.campaign_id]))
    assert "Have a character assist" in page.content.decode()
    response = _gm_assist(client, party)
    assert response.status_code == 302
    panel = client.get(response["Location"]).content.decode()
    assert "Roll" in panel and "to assist Bo" in panel and "vs CL 4" in panel
    guard_perception = party.npc.cogent.skills.get(name="Perception")
    client.post(
        roll_url(party.npc, "cogent-skill", guard_perception),
        {
            "challenge_level": 4,
            "extra_penalty": 0,
            "action": "assist",
            "assist_for": party.other_pc.pk,
        },
    )
    waiting = Assist.objects.get()
    assert (waiting.entry.character, waiting.assisted) == (party.npc, party.other_pc)


def test_the_gm_table_assist_form_refuses_bad_input(client, party):
    client.force_login(party.gm)
    for data, message in [
        ({"assisted": party.npc.pk}, "assists someone else"),
        ({"skill": "Tracker"}, "Select a valid choice"),
        ({"challenge_level": 2}, "Select a valid choice"),
        ({"assisted": CharacterFactory(campaign__system=System.COGENT).pk}, "valid choice"),
    ]:
        response = _gm_assist(client, party, **data)
        assert response.status_code == 400 and message in response.content.decode()
    client.force_login(party.pc.owner)
    assert _gm_assist(client, party).status_code in (403, 404)


def test_ask_for_an_assist_prompts_the_table_and_an_assist_answers_it(client, party, seeded):
    client.force_login(party.other_pc.owner)
    panel = client.get(
        panel_url(party.other_pc, "cogent-skill", perception(party.other_pc))
    ).content.decode()
    ask_url = reverse("assist_ask", args=[party.other_pc.pk])
    assert "Ask for an assist" in panel and ask_url in panel
    assert client.post(ask_url).status_code == 302
    client.post(ask_url)  # asking twice keeps one request
    assert AssistRequest.objects.open().count() == 1
    assert (
        "You asked for an assist" in client.get(party.other_pc.get_absolute_url()).content.decode()
    )

    client.force_login(party.pc.owner)
    sheet = client.get(party.pc.get_absolute_url()).content.decode()
    request = AssistRequest.objects.get()
    offer = reverse("assist_offer", args=[party.pc.pk, request.pk])
    assert "Bo asks for an assist." in sheet and offer in sheet
    response = client.get(offer, {"skill": "Perception"})
    assert response.status_code == 302
    panel = client.get(response["Location"]).content.decode()
    assert "to assist Bo" in panel and "vs CL 3" in panel
    assert client.get(offer, {"skill": "No such skill"}).status_code == 400
    _assist(client, party)
    assert not AssistRequest.objects.open().exists()  # answered
    assert Assist.objects.waiting_for(party.other_pc).exists()
    assert client.get(offer, {"skill": "Perception"}).status_code == 404


def test_ask_for_an_assist_permissions(client, party):
    ask_url = reverse("assist_ask", args=[party.other_pc.pk])
    client.force_login(party.pc.owner)
    assert client.post(ask_url).status_code == 403  # only Bo's roller asks for Bo
    client.force_login(party.gm)
    spy_url = reverse("assist_ask", args=[party.hidden_npc.pk])
    response = client.post(spy_url)
    assert response.status_code == 400 and "hidden NPC" in response.content.decode()
    assert not AssistRequest.objects.exists()
    client.force_login(party.other_pc.owner)
    client.post(ask_url)
    request = AssistRequest.objects.get()
    # Another campaign's player can't answer it; Cy can't answer it with Ada.
    outsider = CharacterFactory(campaign__system=System.COGENT)
    client.force_login(outsider.owner)
    offer = reverse("assist_offer", args=[outsider.pk, request.pk])
    assert client.get(offer, {"skill": "Perception"}).status_code == 404
    client.force_login(cy(party).owner)
    offer = reverse("assist_offer", args=[party.pc.pk, request.pk])
    assert client.get(offer, {"skill": "Perception"}).status_code == 403
    # Bo withdraws it; the prompt goes away.
    client.force_login(party.other_pc.owner)
    client.post(ask_url, {"withdraw": "1"})
    assert not AssistRequest.objects.open().exists()
    client.force_login(cy(party).owner)
    assert "Bo asks for an assist." not in client.get(cy(party).get_absolute_url()).content.decode()


def test_the_assisted_sheet_hears_of_a_new_assist_live(client, party, seeded, monkeypatch):
    import live

    heard, publish = [], live.publish

    def recording(campaign, kind, id, **kwargs):
        heard.append((kind, id))
        return publish(campaign, kind, id, **kwargs)

    monkeypatch.setattr(live, "publish", recording)
    client.force_login(party.pc.owner)
    _assist(client, party)
    # Bo's sheet stream hears only Bo's own entries and sheet events: the assist names Bo's sheet;
    # every sheet's prompt area listens for "call" (an answered request goes away).
    assert ("sheet", party.other_pc.pk) in heard and ("call", 0) in heard
    client.force_login(party.other_pc.owner)
    partial = client.get(
        reverse("character_prompts", args=[party.other_pc.pk]), headers={"HX-Request": "true"}
    ).content.decode()
    assert "sse:sheet" in partial and "An assist waits" in partial


def test_destiny_after_keeps_the_assist_the_roll_took(client, party, helpful):
    client.force_login(party.pc.owner)
    _assist(client, party)
    client.force_login(party.other_pc.owner)
    client.post(
        roll_url(party.other_pc, "cogent-skill", perception(party.other_pc)),
        {"challenge_level": 8, "extra_penalty": 0, "use_assist": "on"},
    )
    main = latest()
    client.post(reverse("roll_follow_up", args=[main.pk, "destiny"]))
    follow = latest()
    assert follow.kind == Kind.DESTINY and follow.follows == main
    assert follow.result["wins"] == max(0, main.result["rolled_wins"] + helpful + 1)
    assert f"{helpful:+d} from Ada's assist" in follow.detail


def test_a_vocation_assists_its_own_characters_next_action(client, party, seeded):
    # Book, assists.tex: the Martial Artist vocation assists the same character's Acrobatics.
    vocation = CogentVocationFactory(sheet=party.pc.cogent, name="Martial Artist", rating=2)
    client.force_login(party.pc.owner)
    client.post(
        roll_url(party.pc, "cogent-vocation", vocation),
        {
            "challenge_level": 3,
            "extra_penalty": 0,
            "action": "assist",
            "assist_for": party.pc.pk,
        },
    )
    waiting = Assist.objects.get()
    assert waiting.assisted == waiting.entry.character == party.pc
    acrobatics = party.pc.cogent.skills.get(name="Acrobatics")
    page = client.get(panel_url(party.pc, "cogent-skill", acrobatics)).content.decode()
    assert "Take Ada" in page
    client.post(
        roll_url(party.pc, "cogent-skill", acrobatics),
        {"challenge_level": 4, "extra_penalty": 0, "use_assist": "on"},
    )
    assert Assist.objects.get().used_by == latest()


def test_a_hidden_roll_takes_no_assist(client, party, seeded):
    # Its wait ending would tell the assister that a hidden roll was made.
    client.force_login(party.pc.owner)
    _assist(client, party)
    client.force_login(party.other_pc.owner)
    response = client.post(
        roll_url(party.other_pc, "cogent-skill", perception(party.other_pc)),
        {"challenge_level": 2, "extra_penalty": 0, "use_assist": "on", "visibility": "blind"},
    )
    assert response.status_code == 400 and "is public, like the assist" in response.content.decode()
    assert Assist.objects.waiting().count() == 1 and RollEntry.objects.count() == 1


def test_a_negative_assist_never_makes_a_critical_failure_of_a_roll_with_wins(
    client, party, settings
):
    """RULES §6: a critical failure is "no wins on the dice". A shortfall lowers the wins counted
    against the CL; −2 on 7 dice vs CL 1 showed "Critical failure 29/128" instead of 1/128."""
    settings.ROLLS_RNG_SEED = seed_where(
        lambda faces: cogent.assist(faces) < 0, lambda rng: cogent.roll(ADA_POOL, rng)
    )
    client.force_login(party.pc.owner)
    assert _assist(client, party).status_code == 302
    shortfall = latest().result["assist"]
    assert shortfall < 0
    client.force_login(party.other_pc.owner)
    target = perception(party.other_pc)
    data = {"challenge_level": 1, "extra_penalty": 0, "use_assist": "on"}
    form = client.get(odds_url(party.other_pc, "cogent-skill", target), data).context["form"]
    pool = form.plan.pool["dice"]
    bands = dict((b.code, b.chance) for b in form.plan.bands)
    assert bands["critical_failure"] == Fraction(1, 2**pool)  # every die a loss
    # A roll with a win on the dice that the shortfall takes to 0 is a failure, not critical.
    settings.ROLLS_RNG_SEED = seed_where(
        lambda faces: 0 < cogent.resolve(faces).rolled_wins <= -shortfall,
        lambda rng: cogent.roll(pool, rng),
    )
    assert client.post(roll_url(party.other_pc, "cogent-skill", target), data).status_code == 302
    main = latest()
    assert main.options["assist"]["wins"] == shortfall
    assert (main.result["wins"], main.outcome) == (0, "failure")
