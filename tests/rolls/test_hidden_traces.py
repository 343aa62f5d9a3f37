"""A player must not learn that a hidden roll happened — not from gaps in numbering, placeholder
kinds, or refusals (docs/roll-log.md, "What a hidden roll leaves visible"). The live stream's side
of it is in test_live_traces.py."""

import html
import re

import pytest
from django.urls import reverse

from rolls.models import Kind, RollEntry, Visibility
from sheets.models import Character
from tests.factories import ContestFactory, RollCallFactory, RollEntryFactory
from tests.rolls.helpers import follow_url, roll_url
from tests.rolls.test_visibility import roll
from tests.rolls.test_visibility import table as visibility_table  # noqa: F401

pytestmark = pytest.mark.django_db

# A chain number as text ("#3"), not an anchor or an id ("#roll-result", "entry-3").
CHAIN_NUMBER = re.compile(r"#\d+\b")


@pytest.fixture
def table(request):
    return request.getfixturevalue("visibility_table")


def numbers_in(html: str) -> list[str]:
    return CHAIN_NUMBER.findall(html)


def pages_of(client, table, user, entry):
    """Every page a member reads ``entry`` on: the log, Rob's sheet and the permalink."""
    client.force_login(table[user])
    return {
        "log": client.get(f"/campaigns/{table['campaign'].pk}/log/").content.decode(),
        "sheet": client.get(table["rob"].get_absolute_url()).content.decode(),
        "permalink": client.get(entry.get_absolute_url()).content.decode(),
    }


# --- numbering ---------------------------------------------------------------------------------


def test_players_see_no_chain_numbers_whose_gaps_count_hidden_rolls(client, table):
    first = roll(client, table, Visibility.PUBLIC)
    roll(client, table, Visibility.SECRET, as_user="gm")  # #2: nobody but the GM knows of it
    client.force_login(table["alice"])
    client.post(follow_url(first, "destiny"))  # #3, follows #1
    follow_up = RollEntry.objects.get(follows=first)
    blind = roll(client, table, Visibility.BLIND)  # #4: alice's placeholder
    assert [follow_up.seq, blind.seq] == [3, 4]
    for user in ("alice", "bob", "observer"):
        for entry in (first, follow_up):
            pages = pages_of(client, table, user, entry)
            assert {name: numbers_in(html) for name, html in pages.items()} == {
                "log": [],
                "sheet": [],
                "permalink": [],
            }, (user, entry.kind)
    client.force_login(table["alice"])
    assert numbers_in(client.get(blind.get_absolute_url()).content.decode()) == []
    # The GM keeps the numbers (they check the chain with them).
    pages = pages_of(client, table, "gm", follow_up)
    assert "#3" in pages["log"] and "#2" in pages["log"] and "#3" in pages["sheet"]
    assert "Roll #3" in pages["permalink"] and "Follows #1" in pages["permalink"]


def test_the_permalink_names_the_roll_without_a_number(client, table):
    entry = roll(client, table, Visibility.PUBLIC)
    client.force_login(table["bob"])
    html = client.get(entry.get_absolute_url()).content.decode()
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    assert "Rob: Athletics" in title and "#" not in title
    assert re.search(r"<h1>Rob: Athletics", html)


def test_a_reveal_tells_players_which_roll_without_its_number(client, table):
    blind = roll(client, table, Visibility.BLIND)
    client.force_login(table["gm"])
    client.post(reverse("roll_reveal", args=[blind.pk]))
    reveal = RollEntry.objects.get(kind=Kind.REVEAL)
    assert f"#{blind.seq}" not in reveal.detail  # new reveals record no number at all
    for user in ("alice", "bob"):
        html = pages_of(client, table, user, reveal)["permalink"]
        assert "The GM revealed a blind roll." in html and numbers_in(html) == []


# --- placeholder kinds -------------------------------------------------------------------------


def test_the_blind_roller_knows_of_the_roll_not_of_its_follow_ups(client, table):
    blind = roll(client, table, Visibility.BLIND)
    client.force_login(table["gm"])
    assert client.post(follow_url(blind, "destiny")).status_code == 302  # the GM follows it up
    follow_up = RollEntry.objects.get(follows=blind)
    alice = table["campaign"].memberships.get(user=table["alice"])
    # Both spellings of the rule agree: the roll is known, its follow-up is not.
    known = RollEntry.objects.visible_to(alice)
    assert list(known.values_list("pk", flat=True)) == [blind.pk]
    assert blind.is_known_to(alice) and not follow_up.is_known_to(alice)
    client.force_login(table["alice"])
    log = client.get(f"/campaigns/{table['campaign'].pk}/log/").content.decode()
    sheet = client.get(table["rob"].get_absolute_url()).content.decode()
    assert log.count("A blind roll was made.") == sheet.count("A blind roll was made.") == 1
    assert "kind-destiny" not in log + sheet and "Destiny" not in log
    assert client.get(follow_up.get_absolute_url()).status_code == 404
    assert "Followed by" not in client.get(blind.get_absolute_url()).content.decode()


def test_a_placeholder_shows_no_kind_beyond_roll(client, table):
    blind = RollEntry.objects.append(
        campaign=table["campaign"],
        character=table["rob"],
        user=table["alice"],
        character_name="Rob",
        username=table["alice"].username,
        system=table["campaign"].system,
        kind=Kind.AUTO_PASS,  # an automatic pass is a success: its kind would tell
        visibility=Visibility.BLIND,
        label="Athletics",
        breakdown="6 dice",
        outcome="success",
        outcome_label="Success",
        odds="1/1",
        odds_display="100%",
    )
    alice = table["campaign"].memberships.get(user=table["alice"])
    assert blind.card_for(alice).kind == Kind.ROLL
    client.force_login(table["alice"])
    for url in (f"/campaigns/{table['campaign'].pk}/log/", blind.get_absolute_url()):
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


def test_a_call_answered_by_the_gms_hidden_roll_is_refused_like_a_closed_one(client, table):
    rob, gm = table["rob"], table["gm"]
    answered = RollCallFactory(campaign=table["campaign"], targets=[rob], skill="Athletics")
    closed = RollCallFactory(campaign=table["campaign"], targets=[rob], skill="Athletics")
    closed.close()
    # The GM answers for Rob with a secret roll: Rob's player may not learn that it exists.
    assert answer(client, gm, rob, call=answered.pk, visibility="secret").status_code == 302
    after_hidden = refusal(answer(client, table["alice"], rob, call=answered.pk))
    assert after_hidden == refusal(answer(client, table["alice"], rob, call=closed.pk))
    assert RollEntry.objects.count() == 1


def test_calls_and_contests_of_other_characters_are_refused_like_missing_ones(client, table):
    rob, bob = table["rob"], table["bob"]
    jack = Character.objects.get(name="Jack")
    npc = table["campaign"].new_character(owner=table["gm"], name="Zed", is_npc=True)
    call = RollCallFactory(campaign=table["campaign"], targets=[rob], skill="Athletics")
    contest = ContestFactory(campaign=table["campaign"], character_a=rob, character_b=npc)
    missing = max(call.pk, contest.pk) + 100
    for param, pk in (("call", call.pk), ("contest", contest.pk)):
        theirs = refusal(answer(client, bob, jack, **{param: pk}))
        assert theirs == refusal(answer(client, bob, jack, **{param: missing})), param
        assert "Rob" not in theirs and "Zed" not in theirs, theirs
    assert not RollEntry.objects.exists()


# --- database ids ------------------------------------------------------------------------------


def test_no_page_shows_an_entrys_database_id(client, table):
    """The ids count every roll on the server: gaps between two a player sees would count the
    hidden ones. Links, the log's cursor, the stream's resume point and DOM ids use tokens."""
    entries = [RollEntryFactory(character=table["rob"]) for _ in range(27)]
    client.force_login(table["bob"])
    log_url = f"/campaigns/{table['campaign'].pk}/log/"
    first = client.get(log_url).text
    older = html.unescape(re.search(r'<a href="([^"]*before=[^"]*)">Older rolls', first).group(1))
    pages = [
        first,
        client.get(older).text,
        client.get(entries[-1].get_absolute_url()).text,
        client.get(table["rob"].get_absolute_url()).text,
    ]
    text = "\n".join(pages)
    assert text.count("Link<span") >= 27 + 5  # every card was there to give its id away
    for entry in entries:
        for trace in (f"/rolls/{entry.pk}/", f'entry-{entry.pk}"', f"entry-{entry.pk}-"):
            assert trace not in text, trace
        assert not re.search(rf"(before|last_id)={entry.pk}\b", text), entry.pk
