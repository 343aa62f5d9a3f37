"""The log's integrity: verify_log recomputes every chain and names the first broken entry, and on
PostgreSQL a trigger refuses UPDATE and DELETE of entries from any route."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, connection, transaction

from rolls.models import RollEntry
from tests.factories import CharacterFactory
from tests.rolls.helpers import tamper
from tests.rolls.test_log import append

pytestmark = pytest.mark.django_db

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="PostgreSQL only: run the suite with DATABASE_URL=postgres://… (.ci/run does)",
)


def run_verify(*args):
    from io import StringIO

    out, err = StringIO(), StringIO()
    try:
        call_command("verify_log", *map(str, args), stdout=out, stderr=err)
    except CommandError as error:
        return error.returncode, out.getvalue(), err.getvalue() + str(error)
    return 0, out.getvalue(), err.getvalue()


def test_intact_chains_verify():
    character = CharacterFactory()
    append(character, 3)
    other = CharacterFactory()
    append(other, 2)
    code, out, _ = run_verify()
    assert code == 0
    assert f"Campaign {character.campaign_id} " in out and "3 entries, chain intact" in out
    assert "2 entries, chain intact" in out


@pytest.mark.parametrize(
    ("sql", "reason"),
    [
        ("UPDATE rolls_rollentry SET outcome = 'success', detail = 'x' WHERE id = %s", "content"),
        ("UPDATE rolls_rollentry SET prev_hash = %s WHERE id = %s", "not chained"),
        ("DELETE FROM rolls_rollentry WHERE id = %s", "expected #3"),
    ],
)
def test_a_raw_sql_edit_is_caught_and_named(sql, reason):
    character = CharacterFactory()
    entries = append(character, 4)
    target = entries[2]
    params = [target.pk] if sql.count("%s") == 1 else ["f" * 64, target.pk]
    tamper(sql, params)
    code, _, err = run_verify(character.campaign_id)
    assert code == 1
    seq = 4 if reason.startswith("expected") else 3
    assert f"BROKEN at entry #{seq}" in err and reason in err
    assert "2 entries before it are intact" in err or "3 entries before it are intact" in err


def test_an_unknown_campaign_is_an_error():
    code, _, err = run_verify(999_999)
    assert code != 0 and "no campaign with id 999999" in err


@on_postgresql
def test_the_database_refuses_updates_and_deletes():
    character = CharacterFactory()
    (entry,) = append(character, 1)
    for sql in (
        "UPDATE rolls_rollentry SET outcome = 'failure' WHERE id = %s",
        "UPDATE rolls_rollentry SET character_id = NULL, label = 'x' WHERE id = %s",
        "DELETE FROM rolls_rollentry WHERE id = %s",
    ):
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql, [entry.pk])
    assert RollEntry.objects.get(pk=entry.pk).outcome == entry.outcome


@on_postgresql
def test_deleting_a_character_still_nulls_its_links_and_the_chain_holds():
    character = CharacterFactory()
    entries = append(character, 2)
    campaign_id = character.campaign_id
    character.delete()
    assert RollEntry.objects.filter(pk=entries[0].pk, character=None).exists()
    assert run_verify(campaign_id)[0] == 0


def test_a_campaign_with_a_log_cannot_be_deleted():
    from django.db.models import ProtectedError

    character = CharacterFactory()
    append(character, 1)
    with pytest.raises(ProtectedError):
        character.campaign.delete()
