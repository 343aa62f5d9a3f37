"""Pinned query counts: the roll request, the log page (the same for 1 entry and for many) and the
sheet with its recent rolls. A new query per entry or per die fails here."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from log.models import RollEntry
from log.models.chain import webhook_entry_committed
from log.tokens import entry_token
from rolls.models import WebhookDelivery
from sheets.models import System
from sheets.systems import rule_system_of
from tests.factories import CharacterFactory, ContestFactory, RollCallFactory, WebhookFactory
from tests.rolls.helpers import gm_of, roll_url

pytestmark = pytest.mark.django_db

ROLLS = {
    System.COGENT: ("cogent-skill", {"challenge_level": 2, "extra_penalty": 0}),
    System.DAD6: (
        "dad6-skill",
        {
            "difficulty": 1,
            "task": "mundane",
            "tools": 1,
            "helpers": 0,
            "advantages": 0,
            "time": 0,
            "traded_boons": 0,
        },
    ),
    System.COLD_STARS: (
        "cold-stars-skill",
        {"ability": "agility", "risk": 1, "modification": "none"},
    ),
}


def target(character):
    if character.campaign.system == System.DAD6:
        return character.dad6.skills.create(name="Cooking", competence="trained")
    sheet = character.sheet
    return (
        sheet.skills.get(name="Athletics")
        if character.campaign.system == System.COGENT
        else sheet.skills.get(name="Stealth")
    )


ONE_STATEMENT = connection.vendor == "postgresql"


# A plain roll that spends nothing (docs/performance.md), as the tests here see it — inside a
# test's transaction, so its append takes the head's lock: the session, its user (Django's reads),
# the row with its sheet, character, campaign (and its log head), the roller's membership and the
# panel's state (Cogent: penalty dice, a waiting assist) in one statement, then the head locked,
# then on PostgreSQL one statement that inserts the entry, moves the head and NOTIFYs live streams
# (5). SQLite has no data-modifying WITH: there the insert and the move are two (6). In
# production, outside any transaction, PostgreSQL needs no lock: 4 (the test below). A plain roll opens no
# transaction of its own; a roll that spends or takes part in an assist does, and its two
# statements (BEGIN and COMMIT; a savepoint and its release inside a test's transaction) come on
# top.
ROLL_STATEMENTS = 5 if ONE_STATEMENT else 6
TRANSACTION = 2


@pytest.mark.parametrize("system", list(ROLLS))
def test_roll_post(client, seeded, django_assert_num_queries, system):
    character = CharacterFactory(campaign__system=system)
    row = target(character)
    kind, data = ROLLS[system]
    client.force_login(character.owner)
    client.post(roll_url(character, kind, row), data)  # warm up: the first entry has no head
    assert ROLL_STATEMENTS <= 7
    with django_assert_num_queries(ROLL_STATEMENTS):
        response = client.post(roll_url(character, kind, row), data)
    assert response.status_code == 302


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not ONE_STATEMENT, reason="PostgreSQL's one-statement append")
def test_a_plain_roll_outside_any_transaction_is_four_statements(client, django_assert_num_queries):
    """As in production, where no test wraps the request in a transaction: the session, its user
    and the row with the log's head, then one statement that moves the head from there (or does
    nothing), inserts and announces. Nothing opens a transaction: no BEGIN, no savepoint, no
    COMMIT, no lock held across Python."""
    character = CharacterFactory(campaign__system=System.COGENT)
    row = target(character)
    kind, data = ROLLS[System.COGENT]
    client.force_login(character.owner)
    client.post(roll_url(character, kind, row), data)
    with django_assert_num_queries(4) as ctx:
        response = client.post(roll_url(character, kind, row), data)
    assert response.status_code == 302
    session, _, read, write = (q["sql"] for q in ctx.captured_queries)
    assert '"sheets_session"' in session
    assert '"rolls_loghead"' in read and "FOR UPDATE" not in read
    assert write.startswith('WITH moved AS (UPDATE "rolls_loghead"')
    assert '"length" = 1 RETURNING 1' in write and "pg_notify(" in write
    assert not any("SAVEPOINT" in q["sql"] for q in ctx.captured_queries)
    assert not connection.in_atomic_block
    assert RollEntry.objects.verify_chain(character.campaign_id).intact


@pytest.mark.skipif(not ONE_STATEMENT, reason="PostgreSQL's prepared statements")
@pytest.mark.skipif(
    not connection.settings_dict["OPTIONS"].get("prepare_threshold"),
    reason="prepared statements are switched off (DATABASE_PREPARED_STATEMENTS)",
)
def test_a_rolls_statements_are_prepared_on_postgresql(client):
    """PostgreSQL plans a statement every time it runs it unless it is prepared, and planning was
    most of a roll's database time (docs/performance.md): psycopg prepares a statement once a
    connection has run it five times (config/settings.py), parameters bound on the server."""
    character = CharacterFactory(campaign__system=System.COGENT)
    row = target(character)
    kind, data = ROLLS[System.COGENT]
    client.force_login(character.owner)
    for _ in range(6):
        assert client.post(roll_url(character, kind, row), data).status_code == 302
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements WHERE NOT from_sql")
        prepared = [statement for (statement,) in cursor.fetchall()]
    assert any('FROM "sheets_session"' in statement for statement in prepared)
    assert any(
        'FROM "sheets_cogentskill"' in statement and '"rolls_loghead"' in statement
        for statement in prepared
    )
    assert any(
        statement.startswith('WITH moved AS (UPDATE "rolls_loghead"') for statement in prepared
    )
    assert RollEntry.objects.verify_chain(character.campaign_id).intact


def test_roll_post_with_penalties_and_an_assist_waiting(client, seeded, django_assert_num_queries):
    """Injuries and disabling characteristics are read with the row; a waiting assist is then
    read in full (the form offers it) and, taken, re-checked under its lock and marked used."""
    character = CharacterFactory(campaign__system=System.COGENT)
    row = target(character)
    character.cogent.injuries.create(level=2)
    character.cogent.disabilities.create(name="Feeble", attribute="strength", dice=1)
    client.force_login(character.owner)
    kind, data = ROLLS[System.COGENT]
    # The character assists its own next action (Book: "whether their own or another's").
    assist = data | {"challenge_level": 3, "action": "assist", "assist_for": character.pk}
    assert client.post(roll_url(character, kind, row), assist).status_code == 302
    with django_assert_num_queries(ROLL_STATEMENTS + TRANSACTION + 3):
        response = client.post(roll_url(character, kind, row), data | {"use_assist": "on"})
    assert response.status_code == 302


def test_roll_post_that_spends_locks_the_sheet(client, seeded, django_assert_num_queries):
    """Spending a destiny point adds the sheet's row lock and its update, nothing else."""
    character = CharacterFactory(campaign__system=System.COGENT)
    row = target(character)
    client.force_login(character.owner)
    kind, data = ROLLS[System.COGENT]
    with django_assert_num_queries(ROLL_STATEMENTS + TRANSACTION + 2) as ctx:
        response = client.post(roll_url(character, kind, row), data | {"destiny_before": "on"})
    assert response.status_code == 302
    sheet = ('FROM "sheets_cogentsheet" WHERE', 'UPDATE "sheets_cogentsheet"')
    locked = [q["sql"] for q in ctx.captured_queries if any(s in q["sql"] for s in sheet)]
    assert len(locked) == 2  # the locked read and the update
    if connection.features.has_select_for_update:
        assert "FOR UPDATE" in locked[0]


def test_roll_post_htmx(client, seeded, django_assert_num_queries):
    character = CharacterFactory(campaign__system=System.COGENT)
    row = target(character)
    client.force_login(character.owner)
    # … plus the characters an assist may be for (the panel's choices). A roll that spent
    # nothing, answered nothing and gave or took no assist keeps its form: nothing on the sheet
    # changed, so nothing is read again for the next roll's panel.
    kind, data = ROLLS[System.COGENT]
    with django_assert_num_queries(ROLL_STATEMENTS + 1):
        response = client.post(roll_url(character, kind, row), data, headers={"HX-Request": "true"})
    assert response.status_code == 200
    # The panel's own Roll (its target the panel) keeps even the form: the result alone.
    headers = {"HX-Request": "true", "HX-Target": "roll-panel"}
    with django_assert_num_queries(ROLL_STATEMENTS):
        response = client.post(roll_url(character, kind, row), data, headers=headers)
    assert response.status_code == 200 and response["HX-Retarget"] == "#roll-result"


def count(client, url):
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_log_page_same_for_one_and_many(client, seeded):
    character = CharacterFactory(campaign__system=System.COGENT)
    row = target(character)
    client.force_login(character.owner)
    client.post(roll_url(character, "cogent-skill", row), ROLLS[System.COGENT][1])
    url = reverse("campaign_log", args=[character.campaign_id])
    one = count(client, url)
    for _ in range(30):
        entry_url = roll_url(character, "cogent-skill", row)
        client.post(entry_url, ROLLS[System.COGENT][1])
    # session, its user, membership+campaign, the filter form's characters and players (one
    # UNION) and skills, entries (with what they follow); with filters on:
    # tests/rolls/test_log_filters.py
    assert count(client, url) == one == 6


def test_log_page_same_for_one_session_and_many(client, seeded):
    """Titles committed beside the chain (hash version 6) are read in the page's own queries —
    the headings, the markers' cards, the filter's choices — never one per marker."""
    from log.models import EntryText
    from rolls.sessions import actions

    character = CharacterFactory(campaign__system=System.COGENT)
    campaign, gm = character.campaign, gm_of(character.campaign)
    row = target(character)
    client.force_login(character.owner)

    def evening(n):
        actions.start_session(gm, campaign, f"Night {n}")
        actions.mark_scene(gm, campaign, f"Scene of night {n}")
        client.post(roll_url(character, "cogent-skill", row), ROLLS[System.COGENT][1])

    evening(1)
    url = reverse("campaign_log", args=[campaign.pk])
    one = count(client, url), count(client, url + "?session=1")
    for n in range(2, 12):
        evening(n)
    EntryText.objects.filter(entry__campaign=campaign, text__startswith="Session 3").delete()
    page = client.get(url).content.decode()
    assert "Session 11: Night 11" in page and "Scene 1: Scene of night 11" in page
    assert (count(client, url), count(client, url + "?session=1")) == one


@pytest.mark.parametrize(
    # Cogent: + injuries and characteristics, the assist waiting for the character and the open
    # assist requests (its prompts)
    ("system", "expected"),
    [(System.COGENT, 13), (System.DAD6, 9), (System.COLD_STARS, 9)],
)
def test_sheet_with_recent_rolls(client, seeded, system, expected):
    character = CharacterFactory(campaign__system=system)
    row = target(character)
    kind, data = ROLLS[system]
    client.force_login(character.owner)
    client.post(roll_url(character, kind, row), data)
    one = count(client, character.get_absolute_url())
    for _ in range(6):
        client.post(roll_url(character, kind, row), data)
    # session, its user, character with its membership, sheet reload, recent rolls, the GM's
    # prompts (open calls, contests), one per row table (DAD6: skills and banes)
    assert count(client, character.get_absolute_url()) == one == expected


@pytest.mark.parametrize("system", list(ROLLS))
def test_sheet_with_open_calls_costs_the_same_for_one_and_five(client, seeded, system):
    """The GM's prompts read the sheet's rows once by name, not once per open call."""
    character = CharacterFactory(campaign__system=system)
    row = target(character)
    client.force_login(character.owner)
    none = count(client, character.get_absolute_url())
    RollCallFactory(campaign=character.campaign, skill=row.name, targets=[character])
    one = count(client, character.get_absolute_url())
    for _ in range(4):
        RollCallFactory(campaign=character.campaign, skill=row.name, targets=[character])
    five = count(client, character.get_absolute_url())
    # the open calls, then (with any) the sheet's rows by name: one read per kind of row
    rows = len(rule_system_of(character.campaign).rolling.rows) - (
        system == System.COGENT
    )  # no vocations
    assert (none, one, five) == (none, none + rows, none + rows)


@pytest.mark.parametrize(
    # A card that only links to the panel reads nothing of its own: its entries come with the
    # contests (one prefetch), side A's row from the rows read once by name. A side that rolls
    # from the card itself (active vs active) shows its Willpower choices: its row (found by name,
    # then read; its domains only when it needs one) and its sheet, per contest — a sheet has one or two at a time.
    ("kind", "per_contest"),
    [("cold_stars_passive", 0), ("cold_stars_active", 4)],
)
def test_sheet_with_open_contests(client, seeded, kind, per_contest):
    character = CharacterFactory(campaign__system=System.COLD_STARS)
    client.force_login(character.owner)
    before = count(client, character.get_absolute_url())
    contest = {
        "campaign": character.campaign,
        "kind": kind,
        "character_a": character,
        "skill_a": "Stealth",
        "skill_b": "Perception",
    }
    ContestFactory(**contest)
    one = count(client, character.get_absolute_url())
    ContestFactory(**contest)
    two = count(client, character.get_absolute_url())
    # + the contests' entries (prefetched) and the sheet's rows by name
    assert (one, two) == (before + 2 + per_contest, before + 2 + 2 * per_contest)


# In a campaign with an active webhook the request makes the same statements (the campaign's
# has_webhooks flag comes with the row it already loads); after the commit, one callback reads
# whether every member may read the entry, the campaign's active webhooks, inserts the deliveries
# (one statement for all of them) and enqueues the task of each webhook (one insert each).
AFTER_COMMIT_PER_WEBHOOK = 1


@pytest.mark.parametrize("webhooks", [1, 3])
def test_roll_post_in_a_campaign_with_webhooks(
    client, seeded, django_assert_num_queries, django_capture_on_commit_callbacks, webhooks
):
    character = CharacterFactory(campaign__system=System.COGENT)
    for _ in range(webhooks):
        WebhookFactory(campaign=character.campaign)
    row = target(character)
    kind, data = ROLLS[System.COGENT]
    client.force_login(character.owner)
    client.post(roll_url(character, kind, row), data)
    with (
        django_capture_on_commit_callbacks() as callbacks,
        django_assert_num_queries(ROLL_STATEMENTS),
    ):
        response = client.post(roll_url(character, kind, row), data)
    assert response.status_code == 302
    [queue] = [c for c in callbacks if getattr(c, "func", None) == webhook_entry_committed.send]
    with django_assert_num_queries(3 + AFTER_COMMIT_PER_WEBHOOK * webhooks):
        queue()
    assert WebhookDelivery.objects.count() == webhooks


def test_roll_post_htmx_on_the_sheet(client, seeded, django_assert_num_queries):
    """From the sheet, the roll's response also carries the sheet's rolled parts (docs/live.md):
    what the sheet's re-fetch used to cost, in the same request."""
    character = CharacterFactory(campaign__system=System.COGENT)
    row = target(character)
    client.force_login(character.owner)
    kind, data = ROLLS[System.COGENT]
    sheet_url = f"http://testserver{character.get_absolute_url()}"
    headers = {"HX-Request": "true", "HX-Current-URL": sheet_url, "HX-Target": "roll-panel"}
    # Nothing more: the roll spent nothing and answered nothing, so only the recent rolls
    # changed on the sheet, and the new card goes on top of them — nothing of the sheet, its
    # other rolls or the panel's form is read (where the sheet's and the prompts' re-fetches
    # once cost 15 statements and two requests; a roll that spends reads its rolled sections).
    with django_assert_num_queries(ROLL_STATEMENTS):
        response = client.post(roll_url(character, kind, row), data, headers=headers)
    html = response.content.decode()
    assert response.status_code == 200 and 'hx-swap-oob="afterbegin:#recent-rolls-list"' in html


@pytest.mark.parametrize(
    # session, its user, character with its membership, the character with its sheet, the
    # recent rolls, the prompts (open calls, contests); Cogent: the injuries, the waiting
    # assist and the open assist requests; DAD6: the banes
    ("system", "expected"),
    [(System.COGENT, 10), (System.DAD6, 8), (System.COLD_STARS, 7)],
)
def test_rolled_parts_same_for_one_and_many(client, seeded, system, expected):
    """What another open sheet fetches after a roll: the same for one recent roll and many."""
    character = CharacterFactory(campaign__system=system)
    row = target(character)
    kind, data = ROLLS[system]
    client.force_login(character.owner)
    client.post(roll_url(character, kind, row), data)
    url = character.get_absolute_url() + "?part=rolled"

    def parts():
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url, headers={"HX-Request": "true"}).status_code == 200
        return len(ctx.captured_queries)

    one = parts()
    for _ in range(6):
        client.post(roll_url(character, kind, row), data)
    assert parts() == one == expected


def test_table_card_same_for_one_and_many(client, seeded):
    """One character's card of the GM table costs the same for one roll and many, and whatever
    the number of characters at the table."""
    character = CharacterFactory(campaign__system=System.COGENT)
    row = target(character)
    kind, data = ROLLS[System.COGENT]
    client.force_login(character.owner)
    client.post(roll_url(character, kind, row), data)
    gm = gm_of(character.campaign)
    client.force_login(gm)
    url = reverse("table_character", args=[character.pk])

    def card():
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url, headers={"HX-Request": "true"}).status_code == 200
        return len(ctx.captured_queries)

    one = card()
    CharacterFactory.create_batch(5, campaign=character.campaign)
    client.force_login(character.owner)
    for _ in range(6):
        client.post(roll_url(character, kind, row), data)
    client.force_login(gm)
    # session, its user, the character with its campaign, the GM's membership, its last rolls,
    # the character with its sheet, what its summary and key rows read (Cogent: injuries,
    # disabling characteristics, skills, vocations with their sub-skills, and the assist waiting
    # for the character, which its key rows' odds take: issue 48)
    assert card() == one == 11
    # A roll's news (?entry=): the one roll instead of the last ones, the same count.
    newest = RollEntry.objects.filter(character=character).latest("pk")
    url += f"?entry={entry_token(newest.pk)}"
    assert card() == 11
