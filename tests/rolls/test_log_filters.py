"""The log's filters and search: each filter, combinations, search semantics, bad parameters,
keyset pages that keep the filters, visibility (no figure filter matches a placeholder), HTMX
partials and pinned query counts."""

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import resolve, reverse

from log.models import RollEntry, Visibility
from sheets.models import Role, System
from tests.factories import MembershipFactory, RollEntryFactory
from tests.rolls.helpers import tamper

pytestmark = pytest.mark.django_db


@pytest.fixture
def system():
    """The log tools' party plays Cold Stars."""
    return System.COLD_STARS


def entry(character, **fields):
    return RollEntryFactory(character=character, **fields)


def log(client, campaign, **params):
    return client.get(reverse("campaign_log", args=[campaign.pk]), params)


def seqs(response):
    """The chain numbers of the cards listed, found through their permalinks (players see no
    numbers on the cards)."""
    links = re.findall(r'class="permalink" href="([^"]+)"', response.content.decode())
    pks = [resolve(link).kwargs["pk"] for link in links]
    by_pk = dict(RollEntry.objects.filter(pk__in=pks).values_list("pk", "seq"))
    return [by_pk[pk] for pk in pks]


def test_each_filter(client, party):
    ada, bo = party.pc, party.other_pc
    e1 = entry(ada, label="Stealth", outcome="success")
    e2 = entry(ada, label="Shooting", outcome="failure", detail="The guard hears you")
    e3 = entry(bo, label="Stealth", outcome="critical_success")
    client.force_login(party.gm)
    c = party.campaign
    assert seqs(log(client, c)) == [e3.seq, e2.seq, e1.seq]
    assert seqs(log(client, c, character=ada.pk)) == [e2.seq, e1.seq]
    assert seqs(log(client, c, player=bo.owner_id)) == [e3.seq]
    assert seqs(log(client, c, skill="Stealth")) == [e3.seq, e1.seq]
    assert seqs(log(client, c, outcome="failure")) == [e2.seq]
    assert seqs(log(client, c, outcome="any_success")) == [e3.seq, e1.seq]
    assert seqs(log(client, c, outcome="any_failure")) == [e2.seq]
    # Combined: AND.
    assert seqs(log(client, c, skill="Stealth", character=ada.pk)) == [e1.seq]
    assert seqs(log(client, c, skill="Stealth", outcome="failure")) == []
    assert (
        "Nothing matches these filters." in log(client, c, skill="Stealth", outcome="failure").text
    )


def test_date_range_is_inclusive(client, party):
    old = entry(party.pc)
    new = entry(party.pc)
    # created_at is set by append; move the first one back two days through raw SQL (the model
    # refuses updates, as the log is append-only; the hash is not checked here).
    two_days_ago = old.created_at - dt.timedelta(days=2)
    tamper("UPDATE rolls_rollentry SET created_at = %s WHERE id = %s", [two_days_ago, old.pk])
    client.force_login(party.gm)
    c = party.campaign
    today = new.created_at.date().isoformat()
    then = two_days_ago.date().isoformat()
    assert seqs(log(client, c, date_from=today)) == [new.seq]
    assert seqs(log(client, c, date_to=then)) == [old.seq]
    assert seqs(log(client, c, date_from=then, date_to=today)) == [new.seq, old.seq]
    assert seqs(log(client, c, date_from=today, date_to=today)) == [new.seq]


def test_search_words_fields_and_case(client, party):
    ada, bo = party.pc, party.other_pc
    e1 = entry(ada, label="Stealth", breakdown="Agility 3 + Stealth 2", detail="Quiet as a cat")
    e2 = entry(bo, label="Shooting", outcome="critical_failure", detail="The gun jams")
    client.force_login(party.gm)
    c = party.campaign
    assert seqs(log(client, c, q="ADA")) == [e1.seq]  # character name, any case
    assert seqs(log(client, c, q="ben")) == [e2.seq]  # username
    assert seqs(log(client, c, q="shoot")) == [e2.seq]  # label
    assert seqs(log(client, c, q="agility")) == [e1.seq]  # breakdown
    assert seqs(log(client, c, q="CAT")) == [e1.seq]  # detail
    assert seqs(log(client, c, q="critical")) == [e2.seq]  # outcome label
    assert seqs(log(client, c, q="ada stealth")) == [e1.seq]  # every word, anywhere
    assert seqs(log(client, c, q="ada jams")) == []
    assert seqs(log(client, c, q="100%_")) == []  # LIKE wildcards are literal


def test_bad_parameters_show_a_message_and_never_fail(client, party):
    e1 = entry(party.pc, label="Stealth")
    client.force_login(party.pc.owner)
    c = party.campaign
    cases = [
        ({"character": "999999"}, "id_character_error"),
        ({"character": "abc"}, "id_character_error"),
        ({"player": "-1"}, "id_player_error"),
        ({"skill": "Nonexistent"}, "id_skill_error"),
        ({"outcome": "jackpot"}, "id_outcome_error"),
        ({"date_from": "2026-13-45"}, "id_date_from_error"),
        ({"date_to": "yesterday"}, "id_date_to_error"),
        ({"date_from": "2026-05-02", "date_to": "2026-05-01"}, "id_date_to_error"),
    ]
    for params, error_id in cases:
        response = log(client, c, **params)
        assert response.status_code == 200, params
        assert f'id="{error_id}"' in response.text, params
        # The bad filter is left out: the list is the unfiltered one.
        assert seqs(response) == [e1.seq], params
    assert (
        "“To” is before “From”" in log(client, c, date_from="2026-05-02", date_to="2026-05-01").text
    )
    # A good filter still applies beside a bad one.
    assert seqs(log(client, c, character="999999", skill="Stealth")) == [e1.seq]
    assert log(client, c, before="x").status_code == 400


def test_pages_keep_the_filters(client, party, monkeypatch):
    monkeypatch.setattr("rolls.log.page.LOG_PAGE_SIZE", 3)
    ada, bo = party.pc, party.other_pc
    mine = []
    for i in range(8):
        mine.append(entry(ada, label="Stealth").seq)
        entry(bo, label="Stealth")
        entry(ada, label=f"Other {i}")
    client.force_login(party.gm)
    c = party.campaign
    url = reverse("campaign_log", args=[c.pk])
    response = client.get(url, {"character": ada.pk, "skill": "Stealth"})
    collected = seqs(response)
    while older := re.search(r'<li class="older" hx-get="([^"]+)"', response.text):
        next_url = older.group(1).replace("&amp;", "&")
        assert f"character={ada.pk}" in next_url and "skill=Stealth" in next_url
        assert "before=" in next_url
        response = client.get(next_url, headers={"HX-Request": "true"})
        assert "<html" not in response.text  # the entries partial
        collected += seqs(response)
    assert collected == sorted(mine, reverse=True)


def test_choices_only_offer_what_the_member_may_know(client, party):
    entry(party.hidden_npc, user=party.gm, label="Poison", visibility=Visibility.SECRET)
    entry(party.pc, label="Stealth")
    c = party.campaign
    client.force_login(party.pc.owner)
    page = log(client, c).text
    character_select = re.search(r'<select name="character".*?</select>', page, re.S).group(0)
    assert "Ada" in character_select and "Warden" in character_select
    assert "Spy" not in character_select
    assert "Poison" not in page  # the secret roll's skill isn't offered
    # Asking for the hidden NPC anyway is an unknown choice, not a leak.
    response = log(client, c, character=party.hidden_npc.pk)
    assert 'id="id_character_error"' in response.text
    client.force_login(party.gm)
    page = log(client, c).text
    assert "Spy" in page and "Poison" in page


def test_skill_choices_are_distinct_in_order_and_only_what_the_member_may_know(party):
    from log.models import RollEntry

    ada, bo, gm, spy = party.pc, party.other_pc, party.gm, party.hidden_npc
    for label in ("Stealth", "Athletics", "Stealth"):
        entry(ada, label=label)
    entry(ada, label="Lore", visibility=Visibility.BLIND)  # ana's own blind roll: she knows of it
    entry(bo, label="Zeal", visibility=Visibility.GM_ONLY)  # ben's GM-only roll: hidden from ana
    entry(spy, user=gm, label="Poison", visibility=Visibility.SECRET)
    hidden = entry(bo, label="Medicine", visibility=Visibility.BLIND)
    entry(hidden.character, kind="reveal", reveals=hidden, user=gm, label="Medicine")
    entry(spy, user=gm, label="Ambush")  # public, but a hidden NPC's

    def labels(membership):
        return RollEntry.objects.visible_to(membership).labels()

    ana = ada.campaign.memberships.get(user=ada.owner)
    assert labels(ana) == ["Athletics", "Lore", "Medicine", "Stealth"]
    every = ["Ambush", "Athletics", "Lore", "Medicine", "Poison", "Stealth", "Zeal"]
    assert labels(ada.campaign.memberships.get(user=gm)) == every
    assert RollEntry.objects.none().labels() == []


def test_character_and_player_choices_in_order(client, party):
    client.force_login(party.gm)
    page = log(client, party.campaign).text
    character_select = re.search(r'<select name="character".*?</select>', page, re.S).group(0)
    player_select = re.search(r'<select name="player".*?</select>', page, re.S).group(0)
    assert re.findall(r'<option value="(\d+)"', character_select) == [
        str(getattr(party, k).pk) for k in ("pc", "other_pc", "hidden_npc", "npc")
    ]
    members = [party.player, party.other_player, party.gm, party.observer]
    users = sorted(members, key=lambda u: u.username)
    assert re.findall(r'<option value="(\d+)"', player_select) == [str(u.pk) for u in users]


def test_figure_filters_never_match_a_placeholder(client, party):
    """ana's blind roll shows her a placeholder; filtering or searching by its hidden outcome,
    breakdown or detail must not single it out."""
    blind = entry(
        party.pc,
        label="Stealth",
        visibility=Visibility.BLIND,
        outcome="critical_failure",
        breakdown="Agility 3 secretbreakdown",
        detail="secretdetail",
    )
    public = entry(party.pc, label="Stealth", outcome="success")
    c = party.campaign
    client.force_login(party.pc.owner)
    assert seqs(log(client, c)) == [public.seq, blind.seq]  # the placeholder is listed
    assert seqs(log(client, c, outcome="critical_failure")) == []
    assert seqs(log(client, c, outcome="any_failure")) == []
    assert seqs(log(client, c, outcome="any_success")) == [public.seq]
    for word in ("secretbreakdown", "secretdetail", "Critical"):
        assert seqs(log(client, c, q=word)) == [], word
    # What the placeholder does show (who, which skill) is searchable.
    assert seqs(log(client, c, q="stealth")) == [public.seq, blind.seq]
    # Another player doesn't learn the blind roll exists at all.
    client.force_login(party.other_pc.owner)
    assert seqs(log(client, c, q="stealth")) == [public.seq]
    # The GM reads it.
    client.force_login(party.gm)
    assert seqs(log(client, c, outcome="critical_failure")) == [blind.seq]


def test_htmx_filter_change_returns_results_with_field_errors(client, party):
    entry(party.pc)
    client.force_login(party.gm)
    response = client.get(
        reverse("campaign_log", args=[party.campaign.pk]),
        {"date_from": "2026-05-02", "date_to": "2026-05-01", "q": "ada"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    text = response.text
    assert "<html" not in text and 'id="log-entries"' in text
    assert 'id="id_date_to_errors" hx-swap-oob="true"' in text
    assert 'id="id_q_errors" hx-swap-oob="true"' in text  # cleared slots are swapped too
    assert "HX-Request" in response["Vary"]
    assert "export.csv?q=ada" in text  # the export links carry the valid filters


def test_full_page_form_and_export_links(client, party):
    entry(party.pc)
    client.force_login(party.pc.owner)
    page = log(client, party.campaign, skill="Athletics").text
    assert '<form class="log-filters panel" method="get"' in page
    assert 'hx-push-url="true"' in page
    assert "export.csv?skill=Athletics" in page and "export.json?skill=Athletics" in page
    assert 'value="Athletics" selected' in page


def count_queries(client, url, params):
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url, params).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize(
    "params",
    [
        {},
        {"q": "ada stealth", "outcome": "any_success", "skill": "Stealth"},
        {"character": "CHAR", "player": "USER", "date_from": "2020-01-01", "date_to": "2100-01-01"},
    ],
)
def test_query_count_is_fixed_with_filters(client, party, params):
    ada = party.pc
    params = {k: {"CHAR": ada.pk, "USER": ada.owner_id}.get(v, v) for k, v in params.items()}
    url = reverse("campaign_log", args=[party.campaign.pk])
    client.force_login(ada.owner)
    first = RollEntryFactory(character=ada, label="Stealth")
    one = count_queries(client, url, params)
    for i in range(30):
        RollEntryFactory(
            character=ada,
            label="Stealth",
            follows=first if i == 0 else None,
            kind="destiny" if i == 0 else "roll",
        )
    # session, its user, membership+campaign, characters and players (one UNION), skills,
    # entries; a search also counts itself (one UPDATE, web/ratelimit.py)
    assert count_queries(client, url, params) == one == 6 + ("q" in params)


def test_observer_filters_too(client, party):
    observer = MembershipFactory(campaign=party.campaign, role=Role.OBSERVER).user
    e = entry(party.other_pc, label="Stealth")
    client.force_login(observer)
    assert seqs(log(client, party.campaign, player=party.other_pc.owner_id)) == [e.seq]


def test_non_member_gets_404(client, party):
    stranger = MembershipFactory(role=Role.PLAYER).user
    client.force_login(stranger)
    assert log(client, party.campaign, q="x").status_code == 404


def test_search_takes_like_wildcards_literally_on_either_database(client, party):
    """On PostgreSQL the search asks the trigram index first (rolls/log/filters.py): its pattern
    escapes LIKE's wildcards as icontains does, so both conditions agree on every word."""
    ada = party.pc
    client.force_login(ada.owner)
    percent = entry(ada, detail="50% chance")
    under = entry(ada, label="snake_case")
    slash = entry(ada, breakdown="a\\b")
    entry(ada, detail="500 chance", label="snakeXcase", breakdown="ab")
    for word, found in (("50%", percent), ("e_c", under), ("a\\b", slash), ("50% chance", percent)):
        assert seqs(log(client, party.campaign, q=word)) == [found.seq], word
    # Across two columns is no match: a word never spans the space between them.
    assert seqs(log(client, party.campaign, q="Athletics2")) == []
    assert seqs(log(client, party.campaign, q="ATHLETICS")) != []


def test_words_of_one_or_two_letters_follow_the_search_rule(client, party):
    """Words too short for a trigram: on PostgreSQL the pieces index (migration 0021) narrows
    them first, and the rule stays the same — inside a word, in any column, any case; a blind
    roll's figures never match for its roller; a word no entry holds finds nothing."""
    ada = party.pc
    qz = entry(ada, label="Athletics", breakdown="QZ pool", detail="")
    wq = entry(ada, label="Athletics", breakdown="", detail="a WQ x")
    blind = entry(ada, label="Lore", breakdown="qz too", visibility=Visibility.BLIND)
    ab = entry(ada, label="Ab", breakdown="", detail="")
    client.force_login(party.gm)
    c = party.campaign
    assert seqs(log(client, c, q="qz")) == [blind.seq, qz.seq]  # breakdown, any case
    assert seqs(log(client, c, q="Z")) == [blind.seq, qz.seq]  # one letter
    assert seqs(log(client, c, q="wq x")) == [wq.seq]  # detail, both words
    assert seqs(log(client, c, q="zw")) == []  # no entry holds it
    assert seqs(log(client, c, q="q%")) == []  # a wildcard is a letter like another
    assert seqs(log(client, c, q="ab")) == [ab.seq]  # label
    client.force_login(ada.owner)
    # ana knows her blind roll exists (label, name) but not its figures (its breakdown).
    assert seqs(log(client, c, q="qz")) == [qz.seq]
    assert seqs(log(client, c, q="lo")) == [blind.seq]


postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the pieces index is PostgreSQL's (migration 0021)"
)


def python_pieces(text: str) -> set[str]:
    """The pieces migration 0021 names: every distinct one- and two-character piece, none with
    a space."""
    pieces = {text[i : i + n] for n in (1, 2) for i in range(len(text) - n + 1)}
    return {piece for piece in pieces if " " not in piece}


@postgresql_only
@pytest.mark.parametrize("text", ["", "a", "AB C", "ÄÖ  ü", "ROLL 3 WINS VS CL 2", "x" * 50])
def test_the_pieces_are_every_one_and_two_letter_piece_without_a_space(text):
    with connection.cursor() as cursor:
        cursor.execute("SELECT rolls_search_grams(%s)", [text])
        assert set(cursor.fetchone()[0]) == python_pieces(text)


@postgresql_only
def test_a_long_entry_is_written_and_found_well_within_the_statement_timeout(client, party):
    """Its pieces take time in proportion to its length (0021's took the square: a 15,000-letter
    entry outlasted the 5 s timeout its insert runs under)."""
    ada = party.pc
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL statement_timeout = 1000")
    long = entry(ada, detail="D" * 20_000 + " qz", breakdown="B" * 5000)
    client.force_login(party.gm)
    assert seqs(log(client, party.campaign, q="qz")) == [long.seq]
