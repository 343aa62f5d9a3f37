"""A player must not learn that a hidden roll happened — not from gaps in numbering, placeholder
kinds, or refusals (docs/roll-log.md, "What a hidden roll leaves visible"). The live stream's side
of it is in test_live_traces.py."""

import html
import re

import pytest
from django.urls import reverse

from log.models import Kind, RollEntry, Visibility
from sheets.models import Character
from tests.factories import ContestFactory, RollCallFactory, RollEntryFactory
from tests.rolls.helpers import follow_url, roll_athletics, roll_url

# The visibility tests' party: ana's Ada rolls Athletics at 6d6 (tests/rolls/conftest.py).
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rulebook_athletics")]

# A chain number as text ("#3"), not an anchor or an id ("#roll-result", "entry-3").
CHAIN_NUMBER = re.compile(r"#\d+\b")


def numbers_in(html: str) -> list[str]:
    return CHAIN_NUMBER.findall(html)


def pages_of(client, party, user, entry):
    """Every page a member reads ``entry`` on: the log, Ada's sheet and the permalink."""
    client.force_login(getattr(party, user))
    return {
        "log": client.get(f"/campaigns/{party.campaign.pk}/log/").content.decode(),
        "sheet": client.get(party.pc.get_absolute_url()).content.decode(),
        "permalink": client.get(entry.get_absolute_url()).content.decode(),
    }


# --- numbering ---------------------------------------------------------------------------------


def test_players_see_no_chain_numbers_whose_gaps_count_hidden_rolls(client, party):
    first = roll_athletics(client, party, Visibility.PUBLIC)
    roll_athletics(
        client, party, Visibility.SECRET, as_user="gm"
    )  # #2: nobody but the GM knows of it
    client.force_login(party.player)
    client.post(follow_url(first, "destiny"))  # #3, follows #1
    follow_up = RollEntry.objects.get(follows=first)
    blind = roll_athletics(client, party, Visibility.BLIND)  # #4: ana's placeholder
    assert [follow_up.seq, blind.seq] == [3, 4]
    for user in ("player", "other_player", "observer"):
        for entry in (first, follow_up):
            pages = pages_of(client, party, user, entry)
            assert {name: numbers_in(html) for name, html in pages.items()} == {
                "log": [],
                "sheet": [],
                "permalink": [],
            }, (user, entry.kind)
    client.force_login(party.player)
    assert numbers_in(client.get(blind.get_absolute_url()).content.decode()) == []
    # The GM keeps the numbers (they check the chain with them).
    pages = pages_of(client, party, "gm", follow_up)
    assert "#3" in pages["log"] and "#2" in pages["log"] and "#3" in pages["sheet"]
    assert "Roll #3" in pages["permalink"] and "Follows #1" in pages["permalink"]


def test_the_permalink_names_the_roll_without_a_number(client, party):
    entry = roll_athletics(client, party, Visibility.PUBLIC)
    client.force_login(party.other_player)
    html = client.get(entry.get_absolute_url()).content.decode()
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    assert "Ada: Athletics" in title and "#" not in title
    assert re.search(r"<h1>Ada: Athletics", html)


def test_a_reveal_tells_players_which_roll_without_its_number(client, party):
    blind = roll_athletics(client, party, Visibility.BLIND)
    client.force_login(party.gm)
    client.post(reverse("roll_reveal", args=[blind.pk]))
    reveal = RollEntry.objects.get(kind=Kind.REVEAL)
    assert f"#{blind.seq}" not in reveal.detail  # new reveals record no number at all
    for user in ("player", "other_player"):
        html = pages_of(client, party, user, reveal)["permalink"]
        assert "The GM revealed a blind roll." in html and numbers_in(html) == []


# --- placeholder kinds -------------------------------------------------------------------------


def test_the_blind_roller_knows_of_the_roll_not_of_its_follow_ups(client, party):
    blind = roll_athletics(client, party, Visibility.BLIND)
    client.force_login(party.gm)
    assert client.post(follow_url(blind, "destiny")).status_code == 302  # the GM follows it up
    follow_up = RollEntry.objects.get(follows=blind)
    ana = party.campaign.memberships.get(user=party.player)
    # Both spellings of the rule agree: the roll is known, its follow-up is not.
    known = RollEntry.objects.visible_to(ana)
    assert list(known.values_list("pk", flat=True)) == [blind.pk]
    assert blind.is_known_to(ana) and not follow_up.is_known_to(ana)
    client.force_login(party.player)
    log = client.get(f"/campaigns/{party.campaign.pk}/log/").content.decode()
    sheet = client.get(party.pc.get_absolute_url()).content.decode()
    assert log.count("A blind roll was made.") == sheet.count("A blind roll was made.") == 1
    assert "kind-destiny" not in log + sheet and "Destiny" not in log
    assert client.get(follow_up.get_absolute_url()).status_code == 404
    assert "Followed by" not in client.get(blind.get_absolute_url()).content.decode()


def test_a_placeholder_shows_no_kind_beyond_roll(client, party):
    blind = RollEntry.objects.append(
        campaign=party.campaign,
        character=party.pc,
        user=party.player,
        character_name="Ada",
        username=party.player.username,
        system=party.campaign.system,
        kind=Kind.AUTO_PASS,  # an automatic pass is a success: its kind would tell
        visibility=Visibility.BLIND,
        label="Athletics",
        breakdown="6 dice",
        outcome="success",
        outcome_label="Success",
        odds="1/1",
        odds_display="100%",
    )
    ana = party.campaign.memberships.get(user=party.player)
    assert blind.card_for(ana).kind == Kind.ROLL
    client.force_login(party.player)
    for url in (f"/campaigns/{party.campaign.pk}/log/", blind.get_absolute_url()):
        html = client.get(url).content.decode()
        assert "A blind roll was made." in html and "auto_pass" not in html, url
        assert "kind-roll" in html and "Automatic pass" not in html, url


# --- refusals ----------------------------------------------------------------------------------


def refusal(response) -> str:
    assert response.status_code == 409, response.status_code
    found = re.search(r'<div class="form-errors" role="alert">(.*?)</div>', response.text, re.S)
    return html.unescape(found.group(1))


def answer(client, user, character, **data):
    client.force_login(user)
    skill = character.cogent.skills.get(name="Athletics")
    # A call fixes the Challenge Level (a different one is refused): leave it to the call.
    fixed = {} if "call" in data else {"challenge_level": 1}
    return client.post(
        roll_url(character, "cogent-skill", skill), {"extra_penalty": 0, **fixed, **data}
    )


def test_a_call_answered_by_the_gms_hidden_roll_is_refused_like_a_closed_one(client, party):
    ada, gm = party.pc, party.gm
    answered = RollCallFactory(campaign=party.campaign, targets=[ada], skill="Athletics")
    closed = RollCallFactory(campaign=party.campaign, targets=[ada], skill="Athletics")
    closed.close()
    # The GM answers for Ada with a secret roll: Ada's player may not learn that it exists.
    assert answer(client, gm, ada, call=answered.pk, visibility="secret").status_code == 302
    after_hidden = refusal(answer(client, party.player, ada, call=answered.pk))
    assert after_hidden == refusal(answer(client, party.player, ada, call=closed.pk))
    assert RollEntry.objects.count() == 1


def test_calls_and_contests_of_other_characters_are_refused_like_missing_ones(client, party):
    ada, ben = party.pc, party.other_player
    bo = Character.objects.get(name="Bo")
    npc = party.campaign.new_character(owner=party.gm, name="Zed", is_npc=True)
    call = RollCallFactory(campaign=party.campaign, targets=[ada], skill="Athletics")
    contest = ContestFactory(campaign=party.campaign, character_a=ada, character_b=npc)
    missing = max(call.pk, contest.pk) + 100
    for param, pk in (("call", call.pk), ("contest", contest.pk)):
        theirs = refusal(answer(client, ben, bo, **{param: pk}))
        assert theirs == refusal(answer(client, ben, bo, **{param: missing})), param
        assert "Ada" not in theirs and "Zed" not in theirs, theirs
    assert not RollEntry.objects.exists()


# --- database ids ------------------------------------------------------------------------------


def test_no_page_shows_an_entrys_database_id(client, party):
    """The ids count every roll on the server: gaps between two a player sees would count the
    hidden ones. Links, the log's cursor, the stream's resume point and DOM ids use tokens."""
    entries = [RollEntryFactory(character=party.pc) for _ in range(27)]
    client.force_login(party.other_player)
    log_url = f"/campaigns/{party.campaign.pk}/log/"
    first = client.get(log_url).text
    older = html.unescape(re.search(r'<a href="([^"]*before=[^"]*)">Older rolls', first).group(1))
    pages = [
        first,
        client.get(older).text,
        client.get(entries[-1].get_absolute_url()).text,
        client.get(party.pc.get_absolute_url()).text,
    ]
    text = "\n".join(pages)
    assert text.count("Link<span") >= 27 + 5  # every card was there to give its id away
    for entry in entries:
        for trace in (f"/rolls/{entry.pk}/", f'entry-{entry.pk}"', f"entry-{entry.pk}-"):
            assert trace not in text, trace
        assert not re.search(rf"(before|last_id)={entry.pk}\b", text), entry.pk
