"""web/database.py: a statement prepared before a migration changed its column's type still
runs (PostgreSQL with prepared statements, the default there)."""

import psycopg
import pytest
from django.db import connection

from tests.live_servers import database_url

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="PostgreSQL's prepared statements: run with DATABASE_URL=postgres://…",
    ),
    pytest.mark.skipif(
        not connection.settings_dict["OPTIONS"].get("prepare_threshold"),
        reason="prepared statements are switched off (DATABASE_PREPARED_STATEMENTS)",
    ),
]

SELECT = "SELECT name FROM poolside_scratch WHERE name = %s"


@pytest.fixture
def scratch():
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE poolside_scratch (name varchar(10))")
        cursor.execute("INSERT INTO poolside_scratch VALUES ('Runner')")
    yield
    with connection.cursor() as cursor:
        cursor.execute("DROP TABLE poolside_scratch")


def prepared_statements():
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements WHERE NOT from_sql")
        return [statement for (statement,) in cursor.fetchall()]


def migrate_elsewhere():
    """As `manage.py migrate` would, from another process, while this one serves."""
    with psycopg.connect(database_url(), autocommit=True) as other:
        other.execute("ALTER TABLE poolside_scratch ALTER COLUMN name TYPE varchar(40)")


def test_a_statement_prepared_before_its_column_changed_type_runs_again(scratch):
    with connection.cursor() as cursor:
        for _ in range(6):
            cursor.execute(SELECT, ["Runner"])
        assert any("poolside_scratch" in statement for statement in prepared_statements())
        migrate_elsewhere()
        cursor.execute(SELECT, ["Runner"])
        assert cursor.fetchall() == [("Runner",)]
        cursor.execute(SELECT, ["Runner"])
        assert cursor.fetchall() == [("Runner",)]


def test_in_a_transaction_it_fails_once_and_the_rollback_heals_it(scratch):
    from django.db import NotSupportedError, transaction

    with connection.cursor() as cursor:
        for _ in range(6):
            cursor.execute(SELECT, ["Runner"])
    migrate_elsewhere()
    # Inside a transaction the failed statement has aborted it: nothing may run again there.
    with pytest.raises(NotSupportedError), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(SELECT, ["Runner"])
    with connection.cursor() as cursor:
        cursor.execute(SELECT, ["Runner"])
        assert cursor.fetchall() == [("Runner",)]
