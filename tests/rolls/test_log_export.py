"""CSV and JSON exports: they parse back, follow the filters, escape formulas, stream in keyset
chunks (also under ASGI), and respect visibility: a player's export never carries a hidden roll's
dice, outcome, odds or pool."""

import asyncio
import csv
import hashlib
import io
import json
import threading

import pytest
from asgiref.sync import sync_to_async
from django.db import connections
from django.test import AsyncClient
from django.urls import reverse

from log.models import LogHead, Visibility
from sheets.models import System
from tests.factories import MembershipFactory, RollEntryFactory
from tests.rolls.message_helpers import said

pytestmark = pytest.mark.django_db


@pytest.fixture
def system():
    """The log tools' party plays Cold Stars."""
    return System.COLD_STARS


COLD_FACES = [
    {"kind": "ability", "face": 7, "reading": "success"},
    {"kind": "skill", "face": 10, "reading": "critical_success"},
    {"kind": "risk", "face": 1, "reading": "critical_failure"},
]


def export(client, campaign, fmt, **params):
    name = "campaign_log_csv" if fmt == "csv" else "campaign_log_json"
    return client.get(reverse(name, args=[campaign.pk]), params)


def body(response):
    return b"".join(response.streaming_content).decode("utf-8")


def csv_rows(response):
    return list(csv.DictReader(io.StringIO(body(response))))


def test_csv_parses_back_with_documented_columns(client, party):
    roll = RollEntryFactory(
        character=party.pc,
        label="Stealth",
        faces=COLD_FACES,
        outcome="success",
        odds="441/1000",
        breakdown="Agility 3 + Stealth 2, Risk 1",
        detail="2 successes",
        resource_changes={"momentum": 1},
    )
    correct = RollEntryFactory(
        character=party.pc, kind="correct", follows=roll, label="Stealth", odds="1/3"
    )
    client.force_login(party.pc.owner)
    response = export(client, party.campaign, "csv")
    assert response.status_code == 200
    assert response.streaming
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"].startswith(
        f'attachment; filename="poolside-campaign-{party.campaign.pk}-log-'
    )
    assert response["Content-Disposition"].endswith('.csv"')
    rows = csv_rows(response)
    # A player's export: no seq, no prev_hash, no salt (docs/roll-log.md).
    assert list(rows[0]) == [
        "time", "character", "player", "system", "kind", "visibility", "label",
        "breakdown", "faces", "outcome", "outcome_label", "detail", "odds", "odds_percent",
        "follows", "resources", "placeholder", "hash",
    ]  # fmt: skip
    first, second = rows
    assert first["hash"] == roll.hash and second["hash"] == correct.hash  # oldest first
    assert first["time"] == roll.created_at.isoformat(timespec="microseconds")
    assert first["time"].endswith("+00:00")
    assert first["character"] == "Ada" and first["player"] == "ana"
    assert first["faces"] == "A7 S10 R1"
    assert first["odds"] == "441/1000" and first["odds_percent"] == "44.10"
    assert first["resources"] == '{"momentum": 1}'
    assert first["placeholder"] == "no"
    assert second["follows"] == roll.hash
    client.force_login(party.gm)
    gm_rows = csv_rows(export(client, party.campaign, "csv"))
    columns = list(gm_rows[0])
    assert columns[0] == "seq" and columns[-2:] == ["prev_hash", "salt"]
    assert [r["seq"] for r in gm_rows] == [str(roll.seq), str(correct.seq)]
    assert gm_rows[1]["prev_hash"] == roll.hash and gm_rows[1]["salt"] == correct.salt


def test_dad6_faces_show_modified_values():
    from rolls.log.exports import compact_faces

    faces = [
        {"kind": "d6", "face": 5, "value": 4, "reading": "boon"},
        {"kind": "d6", "face": 6, "value": 6, "reading": "boon"},
    ]
    assert compact_faces(faces) == "5>4 6"


def test_csv_formula_injection_is_defused(client, party):
    dangerous = party.pc
    dangerous.name = '=HYPERLINK("http://evil")'
    dangerous.save()
    RollEntryFactory(
        character=dangerous,
        label="+SUM(A1)",
        breakdown="-2+3",
        detail="@cmd",
        outcome_label="\tTabbed",
    )
    client.force_login(party.gm)
    (row,) = csv_rows(export(client, party.campaign, "csv"))
    assert row["character"] == '\'=HYPERLINK("http://evil")'
    assert row["label"] == "'+SUM(A1)"
    assert row["breakdown"] == "'-2+3"
    assert row["detail"] == "'@cmd"
    assert row["outcome_label"] == "'\tTabbed"
    assert row["seq"] == "1"  # numbers are left alone


def test_json_is_versioned_and_parses_back(client, party):
    roll = RollEntryFactory(character=party.pc, label="Stealth", faces=COLD_FACES)
    client.force_login(party.gm)
    response = export(client, party.campaign, "json", skill="Stealth")
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].endswith('.json"')
    data = json.loads(body(response))
    assert data["format"] == "poolside-roll-log" and data["version"] == 4
    assert data["campaign"] == {
        "id": party.campaign.pk,
        "name": party.campaign.name,
        "system": "cold_stars",
    }
    assert data["filters"] == {"skill": "Stealth"}
    assert data["exported_by"] == party.gm.username
    head = LogHead.objects.get(campaign=party.campaign)
    assert data["chain_head"] == {
        "length": roll.seq,
        "hash": roll.hash,
        "signature": head.signature,
        "key": head.signed_by,
    }
    assert data["position_secret"] == head.position_secret
    (record,) = data["entries"]
    assert record["seq"] == roll.seq and record["placeholder"] is False
    assert record["faces"] == COLD_FACES
    assert record["odds_table"] == roll.odds_table
    assert record["pool"] == roll.pool and record["hash"] == roll.hash
    assert record["follows"] is None


def test_empty_and_filtered_exports(client, party):
    client.force_login(party.gm)
    assert json.loads(body(export(client, party.campaign, "json")))["entries"] == []
    assert len(csv_rows(export(client, party.campaign, "csv"))) == 0
    RollEntryFactory(character=party.pc)
    RollEntryFactory(character=party.other_pc)
    rows = csv_rows(export(client, party.campaign, "csv", character=party.other_pc.pk))
    assert [row["character"] for row in rows] == ["Bo"]
    bad = export(client, party.campaign, "csv", date_from="nonsense")
    assert bad.status_code == 400 and "Enter a valid date" in bad.text


def test_visibility_in_a_players_export(client, party):
    ada, bo = party.pc, party.other_pc
    public = RollEntryFactory(character=ada, label="Stealth")
    blind = RollEntryFactory(
        character=ada, label="Perception", visibility=Visibility.BLIND, faces=COLD_FACES,
        breakdown="SECRETPOOL", detail="SECRETDETAIL", outcome="critical_failure",
        pool={"ability": 3, "skill": 9, "risk": 2}, odds="7/919",
    )  # fmt: skip
    gm_only = RollEntryFactory(
        character=bo, label="Lockpicking", visibility=Visibility.GM_ONLY, detail="BOSECRET"
    )
    after_blind = RollEntryFactory(character=ada, label="Stealth")
    secret = RollEntryFactory(
        character=ada, user=party.gm, label="Ambush", visibility=Visibility.SECRET
    )
    client.force_login(ada.owner)
    text = body(export(client, party.campaign, "csv"))
    for leak in ("SECRETPOOL", "SECRETDETAIL", "Critical failure", "7/919", "BOSECRET", "Ambush",
                 "Lockpicking", blind.hash, gm_only.hash, secret.hash):  # fmt: skip
        assert leak not in text, leak
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["label"] for r in rows] == ["Stealth", "Perception", "Stealth"]
    placeholder = rows[1]
    assert placeholder["placeholder"] == "yes" and placeholder["label"] == "Perception"
    assert placeholder["visibility"] == "blind"
    for column in ("breakdown", "faces", "outcome", "outcome_label", "detail", "odds",
                   "odds_percent", "hash"):  # fmt: skip
        assert placeholder[column] == "", column
    # Nothing numbers or links the entries: a gap or a broken link would give the hidden ones away.
    assert rows[2]["hash"] == after_blind.hash
    assert not {"seq", "prev_hash", "salt"} & set(rows[0])
    assert public.salt not in text and after_blind.salt not in text

    data = json.loads(body(export(client, party.campaign, "json")))
    hidden = data["entries"][1]
    assert "chain_head" not in data  # its length would count the rolls a player can't see
    assert all("seq" not in e and "prev_hash" not in e and "salt" not in e for e in data["entries"])
    assert hidden == {
        "time": blind.created_at.isoformat(timespec="microseconds"),
        "character": "Ada",
        "player": "ana",
        "system": "cold_stars",
        "kind": "roll",
        "visibility": "blind",
        "label": "Perception",
        "placeholder": True,
    }
    assert "SECRETPOOL" not in json.dumps(data)

    # bo sees the public rolls only; the GM everything in full.
    client.force_login(bo.owner)
    rows = csv_rows(export(client, party.campaign, "csv"))
    assert [r["hash"] for r in rows] == [public.hash, gm_only.hash, after_blind.hash]
    client.force_login(party.gm)
    rows = csv_rows(export(client, party.campaign, "csv"))
    assert all(r["placeholder"] == "no" for r in rows) and len(rows) == 5
    assert all(r["prev_hash"] and r["salt"] for r in rows)


def test_the_gms_json_export_is_enough_to_verify_the_chain(client, party):
    """docs/roll-log.md: from the GM's export alone, rebuild each entry's hashed form, check every
    hash and link, and compare the end with the chain head the export carries."""
    from log.models import canonical_json

    roll = RollEntryFactory(character=party.pc, label="Stealth", visibility=Visibility.BLIND)
    RollEntryFactory(character=party.pc, kind="correct", follows=roll, label="Stealth")
    RollEntryFactory(character=party.other_pc, label="Climb")
    said(client, party, "player", "We climb.")
    client.force_login(party.gm)
    data = json.loads(body(export(client, party.campaign, "json")))
    assert data["entries"][-1]["detail"] == "We climb."
    previous = "0" * 64
    for record in data["entries"]:
        content = {
            "v": record["hash_version"],
            "odds_display": record["odds_display"],
            "campaign": data["campaign"]["id"],
            "seq": record["seq"],
            "prev_hash": record["prev_hash"],
            "created_at": record["time"],
            "follows": record["follows_seq"],
            "reveals": record["reveals_seq"],
            "root": record["root_seq"],
            "user": record["player"],
            "resource_changes": record["resources"],
        } | {
            key: record[key]
            for key in ("system", "kind", "visibility", "character", "label", "options", "pool",
                        "breakdown", "faces", "outcome", "outcome_label", "detail", "result",
                        "odds", "odds_table", "call", "contest", "salt", "character_id",
                        "user_id", "roller_id", "hidden_character", "proof")
        }  # fmt: skip
        if record["hash_version"] >= 6:  # version 6: commitments, hashed in the texts' place
            content["commitments"] = record["commitments"]
            content |= dict.fromkeys(record["commitments"], "")
        assert record["prev_hash"] == previous
        assert hashlib.sha256(canonical_json(content)).hexdigest() == record["hash"]
        previous = record["hash"]
    head = data["chain_head"]
    assert (head["length"], head["hash"]) == (len(data["entries"]), previous)


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_non_members_get_404(client, party, fmt):
    RollEntryFactory(character=party.pc)
    client.force_login(MembershipFactory().user)
    assert export(client, party.campaign, fmt).status_code == 404
    client.logout()
    assert export(client, party.campaign, fmt).status_code == 302  # to the log-in page


def test_export_reads_keyset_chunks(client, party, monkeypatch, django_assert_num_queries):
    monkeypatch.setattr("rolls.log.exports.EXPORT_CHUNK", 4)
    for _ in range(10):
        RollEntryFactory(character=party.pc)
    client.force_login(party.gm)
    response = export(client, party.campaign, "csv")
    # Nothing is read before the body is consumed; then one query per chunk of 4: 4 + 4 + 2.
    with django_assert_num_queries(3) as ctx:
        rows = list(csv.DictReader(io.StringIO(body(response))))
    assert [int(r["seq"]) for r in rows] == list(range(1, 11))
    sql = " ".join(q["sql"] for q in ctx.captured_queries)
    assert "OFFSET" not in sql.upper()


def test_a_csv_reads_only_the_columns_it_writes(client, party, django_assert_num_queries):
    """The JSON export's extra fields (options, pool, result, odds table, the ids and the linked
    entries' numbers) aren't read for a CSV: fewer joins, no JSON made text for nothing."""
    first = RollEntryFactory(character=party.pc)
    RollEntryFactory(character=party.pc, kind="destiny", follows=first)
    client.force_login(party.gm)
    chunk_sql = {}
    for fmt in ("csv", "json"):
        response = export(client, party.campaign, fmt)
        with django_assert_num_queries(1) as ctx:
            body(response)
        chunk_sql[fmt] = ctx.captured_queries[0]["sql"]
    assert chunk_sql["csv"].count("JOIN") < chunk_sql["json"].count("JOIN")
    for column in ("odds_table", "options", "hash_version", "odds_display"):
        assert f'."{column}"' in chunk_sql["json"]
        assert f'."{column}"' not in chunk_sql["csv"]
    rows = csv_rows(export(client, party.campaign, "csv"))
    assert rows[1]["follows"] == first.hash  # the one linked value the CSV shows


def test_query_count_fixed_for_one_and_many(client, party, django_assert_num_queries):
    client.force_login(party.pc.owner)

    def queries():
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as ctx:
            body(export(client, party.campaign, "json", skill="Athletics", q="ana"))
        return len(ctx.captured_queries)

    RollEntryFactory(character=party.pc)
    one = queries()
    for _ in range(20):
        RollEntryFactory(character=party.pc)
    # session, its user, the heavy-read count (one UPDATE), membership+campaign, the filter
    # form's choices (characters and players in one UNION, skills), the log's head (the
    # exporter's counter secret), the published keys, one entry chunk
    assert queries() == one == 9


@pytest.mark.django_db(transaction=True)
def test_streams_as_an_async_iterator_under_asgi(party):
    """Under ASGI Django would read a sync iterator to the end first; ours is async."""
    RollEntryFactory(character=party.pc, label="Stealth")
    RollEntryFactory(character=party.pc, label="Stealth")

    async def fetch():
        client = AsyncClient()
        await client.aforce_login(party.gm)
        response = await client.get(reverse("campaign_log_json", args=[party.campaign.pk]))
        content = b"".join([part async for part in response.streaming_content])
        # The chunks were read on asgiref's sync thread: close its connection like a request end.
        await sync_to_async(connections.close_all)()
        return response, content

    response, content = asyncio.run(fetch())
    assert response.status_code == 200
    assert response.is_async
    data = json.loads(content)
    assert [e["label"] for e in data["entries"]] == ["Stealth", "Stealth"]


def test_a_players_export_numbers_nothing_and_names_no_hidden_kind(client, party):
    """A placeholder says "roll" whatever it was (an automatic pass would tell it succeeded), and a
    contest verdict's sides come without their chain numbers and database ids."""
    ada = party.pc
    RollEntryFactory(character=ada, kind="auto_pass", label="Stealth", visibility=Visibility.BLIND)
    sides = [
        {"side": "a", "name": "Ada", "entry": 1, "seq": 1, "label": "Stealth", "faces": []},
        {"side": "b", "name": "Bo", "entry": 2, "seq": 2, "label": "Notice", "faces": []},
    ]
    verdict = RollEntryFactory(
        character=ada, kind="contest", label="Stealth", result={"winner": "a", "sides": sides}
    )
    client.force_login(ada.owner)
    placeholder, record = json.loads(body(export(client, party.campaign, "json")))["entries"]
    assert placeholder["placeholder"] is True and placeholder["kind"] == "roll"
    assert record["result"]["winner"] == "a"
    assert [set(side) for side in record["result"]["sides"]] == [
        {"side", "name", "label", "faces"}
    ] * 2
    # The GM's export keeps the verdict's result exactly as hashed.
    client.force_login(party.gm)
    gm_entries = json.loads(body(export(client, party.campaign, "json")))["entries"]
    assert gm_entries[0]["kind"] == "auto_pass"
    assert gm_entries[1]["result"] == verdict.result


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_the_next_chunk_is_read_on_a_second_connection(client, party, monkeypatch, fmt):
    """Outside a transaction the export reads chunk n + 1 on its prefetch thread while chunk n is
    written: every entry once, in order, and the thread (with its connection) gone at the end."""
    monkeypatch.setattr("rolls.log.exports.EXPORT_CHUNK", 3)
    threads = []
    real_init = threading.Thread.__init__

    def spy(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        if self.name == "export-prefetch":
            threads.append(self)

    monkeypatch.setattr(threading.Thread, "__init__", spy)
    for _ in range(10):
        RollEntryFactory(character=party.pc)
    client.force_login(party.gm)
    text = body(export(client, party.campaign, fmt))
    if fmt == "csv":
        seqs = [int(row["seq"]) for row in csv.DictReader(io.StringIO(text))]
    else:
        seqs = [entry["seq"] for entry in json.loads(text)["entries"]]
    assert seqs == list(range(1, 11))
    assert len(threads) == 1
    threads[0].join(timeout=30)
    assert not threads[0].is_alive()
