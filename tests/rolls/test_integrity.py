"""The log's integrity: verify_log recomputes every chain, names the first broken entry and checks
the recorded head; salted hashes are no oracle; on PostgreSQL triggers refuse UPDATE, DELETE and
TRUNCATE of entries from any route."""

import hashlib
import os

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.utils import timezone

from log.models import GENESIS_HASH, LogHead, RollEntry, canonical_json
from tests.factories import CharacterFactory
from tests.rolls.helpers import append, tamper

pytestmark = pytest.mark.django_db

on_postgresql = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="PostgreSQL only: run the suite with DATABASE_URL=postgres://… (.ci/run does)",
)


def signed_head(campaign_id, length, hash_):
    """Set the campaign's head as the server would sign it (what migration 0027 did for the
    heads of logs written before signatures)."""
    head = LogHead.objects.get(pk=campaign_id)
    head.length, head.hash = length, hash_
    head.sign()
    head.save()


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


# --- the salt: a hash a player can see is no oracle for a hidden roll's dice -------------------


def _guesses(entry):
    """Every 2d6 face pair a roller could try, with everything else as the entry has it."""
    for first in range(1, 7):
        for second in range(1, 7):
            yield [
                {"kind": "d6", "face": first, "reading": "win" if first >= 4 else "loss"},
                {"kind": "d6", "face": second, "reading": "win" if second >= 4 else "loss"},
            ]


def test_guessing_a_blind_rolls_dice_cannot_be_checked_against_its_hash():
    """Someone who knows all of a blind roll but its dice (its roller) tries every outcome. Without
    the salt, the one that hashes to the entry's hash is the roll; with it, none ever does."""
    character = CharacterFactory()
    faces = [
        {"kind": "d6", "face": 5, "reading": "win"},
        {"kind": "d6", "face": 2, "reading": "loss"},
    ]
    (entry,) = append(character, 1, visibility="blind", faces=faces, pool={"dice": 2})
    assert len(entry.salt) == 32 and int(entry.salt, 16) >= 0  # 128 bits, hex
    content = entry.content()
    known = {key: value for key, value in content.items() if key != "salt"}
    hits = []
    for guess in _guesses(entry):
        for attempt in (known, known | {"salt": ""}):
            candidate = canonical_json(attempt | {"faces": guess})
            if hashlib.sha256(candidate).hexdigest() == entry.hash:
                hits.append(guess)
    assert hits == []
    # The salt is what the hash needs: with it, the right guess (and only it) matches.
    assert [
        guess
        for guess in _guesses(entry)
        if hashlib.sha256(canonical_json(content | {"faces": guess})).hexdigest() == entry.hash
    ] == [faces]


def test_two_identical_rolls_get_different_salts_and_hashes():
    character = CharacterFactory()
    first, second = append(character, 2, label="Same")
    assert first.salt != second.salt
    assert first.content()["v"] == second.content()["v"] == 6


def test_an_entry_from_before_the_salt_still_verifies_in_its_own_form():
    """Chains written before version 3 keep verifying: an empty salt means the older form."""
    character = CharacterFactory()
    legacy = RollEntry(
        campaign=character.campaign,
        seq=1,
        prev_hash=GENESIS_HASH,
        character_name="Old",
        username="old",
        system=character.campaign.system,
        kind="roll",
        label="Old skill",
        breakdown="2d6",
        outcome="failure",
        outcome_label="Failure",
        odds="1/2",
        odds_display="50%",
        created_at=timezone.now(),
    )
    assert legacy.content()["v"] == 1 and "salt" not in legacy.content()
    legacy.hash = legacy.compute_hash()
    legacy.save()
    # As migration 0027 found such a log: entries unsigned, the head signed as it stood.
    signed_head(character.campaign_id, 1, legacy.hash)
    report = RollEntry.objects.verify_chain(character.campaign_id)
    assert report.intact and report.legacy == 1
    # Entries appended since are signed, and chain on from it.
    append(character, 1)
    report = RollEntry.objects.verify_chain(character.campaign_id)
    assert report.intact and report.verified == 2 and report.legacy == 1


# --- the chain head: deleting the newest entries is caught --------------------------------------


def test_deleting_the_newest_entries_is_caught_by_the_head():
    character = CharacterFactory()
    entries = append(character, 4)
    head = LogHead.objects.get(pk=character.campaign_id)
    assert (head.length, head.hash) == (4, entries[-1].hash)
    tamper("DELETE FROM rolls_rollentry WHERE id IN (%s, %s)", [entries[3].pk, entries[2].pk])
    # What is left is a perfect chain of two; only the head knows there were four.
    code, _, err = run_verify(character.campaign_id)
    assert code == 1
    assert "BROKEN at the head" in err and "newest 2 entries are missing" in err
    assert "head records #4" in err


def test_a_forged_entry_at_the_end_without_the_head_is_caught():
    character = CharacterFactory()
    append(character, 2)
    LogHead.objects.filter(pk=character.campaign_id).update(length=1)
    code, _, err = run_verify(character.campaign_id)
    assert code == 1 and "the chain ends at #2, but the head records #1" in err


def test_verify_log_prints_the_head_digest_a_gm_can_write_down():
    character = CharacterFactory()
    entries = append(character, 3)
    code, out, _ = run_verify(character.campaign_id)
    assert code == 0 and f"head #3:{entries[-1].hash}" in out


def test_the_head_moves_in_the_appending_transaction():
    character = CharacterFactory()
    (first,) = append(character, 1)

    def roll_that_fails_after_the_append():
        with transaction.atomic():
            append(character, 1)
            raise RuntimeError("the roll's transaction fails after the append")

    with pytest.raises(RuntimeError):
        roll_that_fails_after_the_append()
    head = LogHead.objects.get(pk=character.campaign_id)
    assert (head.length, head.hash) == (1, first.hash)
    assert RollEntry.objects.verify_chain(character.campaign_id).intact


# --- who an entry is about and by whom is covered ------------------------------------------------


@pytest.mark.parametrize("link", ["character", "user", "roller"])
def test_re_pointing_a_link_is_refused_or_caught(link):
    """Moving a roll to another character, user or roller would change who may read it or whom
    it is credited to: the database refuses it, and verify_log catches it where that was forced."""
    character = CharacterFactory()
    other = CharacterFactory(campaign=character.campaign)
    (entry,) = append(character, 1, visibility="gm_only")
    target = other.pk if link == "character" else other.owner_id
    for also in ("", f", {link}_ref = NULL"):  # a NULL ref must not slip through the CHECK
        with transaction.atomic(), connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute("SET LOCAL session_replication_role = replica")
            sql = f"UPDATE rolls_rollentry SET {link}_id = %s{also} WHERE id = %s"
            with pytest.raises(IntegrityError), transaction.atomic():
                cursor.execute(sql, [target, entry.pk])
    # With the constraint out of the way too (ids and refs moved together), the hash catches it.
    tamper(
        f"UPDATE rolls_rollentry SET {link}_id = %s, {link}_ref = %s WHERE id = %s",
        [target, target, entry.pk],
    )
    code, _, err = run_verify(character.campaign_id)
    assert code == 1 and "its content no longer matches its hash" in err


def test_nulling_a_link_alone_still_verifies():
    """Deleting a user or character nulls the link (Django's SET NULL): the recorded id stays."""
    character = CharacterFactory()
    (entry,) = append(character, 1)
    owner = character.owner
    character.delete()
    owner.delete()
    stored = RollEntry.objects.get(pk=entry.pk)
    assert (stored.character_id, stored.user_id, stored.roller_id) == (None, None, None)
    assert (stored.character_ref, stored.user_ref) == (entry.character_id, entry.user_id)
    assert RollEntry.objects.verify_chain(character.campaign_id).intact


@on_postgresql
def test_the_database_refuses_truncate():
    character = CharacterFactory()
    append(character, 2)
    for table in ("rolls_rollentry", "rolls_loghead"):
        with transaction.atomic(), connection.cursor() as cursor:
            # The test database has the maintenance switch on (tests/conftest.py); production
            # databases never do.
            cursor.execute("SET LOCAL poolside.log_maintenance = 'off'")
            with pytest.raises(DatabaseError, match="TRUNCATE"), transaction.atomic():
                cursor.execute(f"TRUNCATE {table} CASCADE")
    assert RollEntry.objects.filter(campaign=character.campaign).count() == 2


@on_postgresql
def test_the_maintenance_switch_needs_the_tables_owner():
    character = CharacterFactory()
    append(character, 1)
    # Roles are the whole server's, not the test database's: a name of this process's own, so
    # that runs side by side (pytest-xdist workers, other runs on the server) never meet.
    intruder = f"poolside_intruder_{os.getpid()}"
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"CREATE ROLE {intruder}")
        cursor.execute(f"GRANT TRUNCATE ON rolls_rollentry, rolls_loghead TO {intruder}")
        cursor.execute(f"SET LOCAL ROLE {intruder}")
        cursor.execute("SET LOCAL poolside.log_maintenance = 'on'")
        with pytest.raises(DatabaseError, match="TRUNCATE"), transaction.atomic():
            cursor.execute("TRUNCATE rolls_rollentry")
        cursor.execute("RESET ROLE")
        cursor.execute(f"REVOKE ALL ON rolls_rollentry, rolls_loghead FROM {intruder}")
        cursor.execute(f"DROP ROLE {intruder}")
    assert RollEntry.objects.filter(campaign=character.campaign).count() == 1


def test_re_pointing_a_follow_ups_root_is_caught():
    """A follow-up is readable when its root is revealed: moving it under a revealed (or public)
    root would open it, so the root is hashed too."""
    character = CharacterFactory()
    hidden, public = append(character, 2)
    follow_up = RollEntry.objects.append(
        campaign=character.campaign,
        **{
            field: getattr(hidden, field)
            for field in ("character", "user", "character_name", "username", "system", "label")
        },
        kind="correct",
        follows=hidden,
        breakdown="",
        outcome="success",
        outcome_label="Success",
        odds="1/1",
        odds_display="100%",
    )
    assert run_verify(character.campaign_id)[0] == 0
    tamper("UPDATE rolls_rollentry SET root_id = %s WHERE id = %s", [public.pk, follow_up.pk])
    code, _, err = run_verify(character.campaign_id)
    assert code == 1 and f"BROKEN at entry #{follow_up.seq}" in err


@pytest.mark.parametrize("link", ["roller", "user", "character"])
def test_verify_log_reports_a_link_cut_while_its_row_exists(link, capsys):
    """Any database client could set roller_id to NULL (the trigger allows it, as a deletion's SET
    NULL does): the roller lost their GM-only roll and nothing noticed. A deletion removes the
    row too; a cut leaves it, and verify_log says which link."""
    character = CharacterFactory()
    (entry,) = append(character, 1)
    tamper(f"UPDATE rolls_rollentry SET {link}_id = NULL WHERE id = %s", [entry.pk])
    report = RollEntry.objects.verify_chain(character.campaign_id)
    assert not report.intact
    assert report.reason == f"its {link} link was removed, but the row it recorded exists"
    with pytest.raises(CommandError):
        call_command("verify_log", character.campaign_id)


def test_verify_log_reports_changed_odds_as_shown():
    """odds_display, the odds the card showed, was outside the hash: version 4 covers it."""
    character = CharacterFactory()
    (entry,) = append(character, 1)
    assert entry.content()["v"] == 6 and entry.content()["odds_display"] == entry.odds_display
    tamper("UPDATE rolls_rollentry SET odds_display = %s WHERE id = %s", ["99.9%", entry.pk])
    report = RollEntry.objects.verify_chain(character.campaign_id)
    assert report.reason == "its content no longer matches its hash"
    # Claiming an older form to leave the odds out breaks the hash as well.
    tamper("UPDATE rolls_rollentry SET hash_version = NULL WHERE id = %s", [entry.pk])
    assert not RollEntry.objects.verify_chain(character.campaign_id).intact


def test_a_version_3_entry_still_verifies():
    """Entries written before version 4 carry no hash_version; their hash never covered the
    odds as shown, and they verify as they always did."""
    character = CharacterFactory()
    (entry,) = append(character, 1)
    entry.hash_version = None
    old = entry.compute_hash()
    assert entry.content()["v"] == 3 and "odds_display" not in entry.content()
    tamper(
        "UPDATE rolls_rollentry SET hash_version = NULL, hash = %s, signature = '' WHERE id = %s",
        [old, entry.pk],
    )
    signed_head(character.campaign_id, 1, old)  # as migration 0027 signed such a head
    assert RollEntry.objects.verify_chain(character.campaign_id).intact
