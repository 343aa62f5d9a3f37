"""Shared helpers for the roll tests: URLs, seeded dice, and finding a seed for a wanted outcome."""

import hashlib
import json
import random
from datetime import UTC

from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from log.models import RollEntry
from log.tokens import entry_token
from proofs import protocol as poolside_verify

SEED = 20261129
SEED = 20261129


def panel_url(character, kind, obj):
    return reverse("roll_panel", args=[character.pk, kind, obj.pk])


def odds_url(character, kind, obj):
    return reverse("roll_odds", args=[character.pk, kind, obj.pk])


def roll_url(character, kind, obj):
    return reverse("roll_create", args=[character.pk, kind, obj.pk])


def follow_url(entry, action):
    return reverse("roll_follow_up", args=[entry.pk, action])


def seed_where(predicate, roll_athletics):
    """The first seed whose dice satisfy ``predicate``; ``roll(rng)`` rolls them with the engine."""
    for seed in range(10_000):
        if predicate(roll_athletics(random.Random(seed))):
            return seed
    raise AssertionError("no seed found")  # pragma: no cover


def token(entry) -> str:
    """What pages, links and the stream call an entry (log/tokens.py), never its pk."""
    return entry_token(entry.pk)


def latest():
    return RollEntry.objects.order_by("-pk").first()


def tamper(sql, params):
    """Change rolls_rollentry behind the app's back, as someone with database access could —
    around PostgreSQL's append-only trigger (triggers off for this transaction)."""
    with transaction.atomic(), connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL session_replication_role = replica")
        cursor.execute(sql, params)


def dad6_opposed(opposition):
    """A DAD6 campaign in which Kim (Climb, expert) acts against Lee's opposition: returns
    ``(campaign, kim, climb, contest)``."""
    from tests.factories import CampaignFactory, CharacterFactory, ContestFactory

    campaign = CampaignFactory(system="dad6")
    kim = CharacterFactory(campaign=campaign, name="Kim")
    lee = CharacterFactory(campaign=campaign, name="Lee")
    climb = kim.dad6.skills.create(name="Climb", competence="expert")
    contest = ContestFactory(
        campaign=campaign,
        kind="dad6_opposed",
        character_a=kim,
        character_b=lee,
        skill_a="Climb",
        skill_b="",
        opposition=opposition,
    )
    return campaign, kim, climb, contest


def gm_of(campaign):
    from sheets.models import Role

    return campaign.memberships.get(role=Role.GM).user


def start_contest(client, campaign, **fields):
    """The GM starts a contest through the dashboard's form (``fields`` without the prefix)."""
    from rolls.models import Contest

    client.force_login(gm_of(campaign))
    data = {f"contest-{key}": value for key, value in fields.items()}
    response = client.post(reverse("contest_create", args=[campaign.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Contest.objects.latest("pk")


def append(character, n=1, **extra):
    entries = []
    for i in range(n):
        fields = {
            "character": character,
            "user": character.owner,
            "character_name": character.name,
            "username": character.owner.username,
            "system": character.campaign.system,
            "kind": "roll",
            "label": f"Skill {i}",
            "options": {"challenge_level": 1, "note": "ünïcode ✓"},
            "pool": {"dice": 3},
            "breakdown": "3 base = 3d6 vs CL 1 (Common)",
            "faces": [{"kind": "d6", "face": 4, "reading": "win"}],
            "outcome": "success",
            "outcome_label": "Success",
            "detail": "1 win vs CL 1: success, margin 0",
            "result": {"wins": 1},
            "odds": "7/8",
            "odds_display": "87.5%",
            "resource_changes": {},
        } | extra
        entries.append(RollEntry.objects.append(campaign=character.campaign, **fields))
    return entries


_OUTSIDE_COLUMNS = (
    "id, seq, prev_hash, hash, created_at, system, kind, follows_id, character_name, username,"
    " label, options, pool, breakdown, faces, outcome, outcome_label, detail, result, odds,"
    " resource_changes, campaign_id, visibility, reveals_id, odds_table, call_id, contest_id, salt,"
    " character_ref, user_ref, roller_ref, hidden_character, root_id, hash_version, odds_display,"
    " proof, commitments"
)


def verify_like_an_outside_script(campaign_id):
    """docs/roll-log.md, step by step, from raw rows: no model code."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {_OUTSIDE_COLUMNS} FROM rolls_rollentry WHERE campaign_id = %s ORDER BY seq",
            [campaign_id],
        )
        names = [column[0] for column in cursor.description]
        rows = [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
    seq_of = {row["id"]: row["seq"] for row in rows}
    previous = "0" * 64
    for row in rows:
        content = _outside_content(row, seq_of)
        canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        seq = row["seq"]
        assert row["prev_hash"] == previous, f"#{seq} is not chained to #{seq - 1}"
        digest = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
        assert digest == row["hash"], f"#{seq} altered"
        previous = row["hash"]
    return len(rows)


def _outside_content(row, seq_of):
    """The canonical content of one raw row, by the version its columns show (docs/roll-log.md)."""

    def loads(v):
        return json.loads(v) if isinstance(v, str) else v

    created = row["created_at"]
    if isinstance(created, str):  # SQLite hands back text
        from django.utils.dateparse import parse_datetime

        created = parse_datetime(created)
    if created.tzinfo is None:
        created = created.replace(tzinfo=UTC)
    content = {
        "v": 1,
        "campaign": row["campaign_id"],
        "seq": row["seq"],
        "prev_hash": row["prev_hash"],
        "created_at": created.astimezone(UTC).isoformat(timespec="microseconds"),
        "follows": seq_of.get(row["follows_id"]),
        "reveals": seq_of.get(row["reveals_id"]),
        "character": row["character_name"],
        "user": row["username"],
        "resource_changes": loads(row["resource_changes"]),
    }
    for name in ("system", "kind", "visibility", "label", "breakdown", "outcome", "odds"):
        content[name] = row[name]
    content |= {"outcome_label": row["outcome_label"], "detail": row["detail"]}
    for name in ("options", "pool", "faces", "result", "odds_table"):
        content[name] = loads(row[name])
    if row["salt"]:  # version 3: salted, with the recorded ids and the hidden-NPC flag
        content |= {
            "v": 3,
            "call": row["call_id"],
            "contest": row["contest_id"],
            "salt": row["salt"],
            "root": seq_of.get(row["root_id"]),
            "character_id": row["character_ref"],
            "user_id": row["user_ref"],
            "roller_id": row["roller_ref"],
            "hidden_character": bool(row["hidden_character"]),  # SQLite hands back 0/1
        }
    elif (
        row["call_id"] is not None or row["contest_id"] is not None
    ):  # version 2: the table's links
        content |= {"v": 2, "call": row["call_id"], "contest": row["contest_id"]}
    if row["hash_version"] is not None:  # version 4 on: the odds as shown, the declared version
        content |= {"v": row["hash_version"], "odds_display": row["odds_display"]}
    if row["hash_version"] is not None and row["hash_version"] >= 5:  # version 5: the dice proof
        content["proof"] = loads(row["proof"])
    if row["hash_version"] is not None and row["hash_version"] >= 6:  # version 6: commitments
        content["commitments"] = loads(row["commitments"])
    return content


def roll_athletics(client, party, visibility, *, as_user="player", **extra):
    """``as_user`` (a Party attribute) rolls the pc's Athletics against CL 2 through the real POST;
    returns the new entry."""
    client.force_login(getattr(party, as_user))
    response = client.post(
        roll_url(party.pc, "cogent-skill", athletics(party.pc)),
        {"challenge_level": 2, "extra_penalty": 0, "visibility": visibility, **extra},
    )
    assert response.status_code == 302, response.content.decode()
    return latest()


def athletics(character):
    """A Cogent character's Athletics row."""
    return character.cogent.skills.get(name="Athletics")


ADA_POOL = 9  # Ada's Perception in the assist tests: 3 base + 4 Perception + 2 Reflex


def perception(character):
    return character.cogent.skills.get(name="Perception")


# What a member gets of an entry across the log, the permalink and the sheet (test_visibility.py,
# test_api.py).
FULL, PLACEHOLDER, NOTHING = "full", "placeholder", "nothing"


def secrets_of(entry):
    """Text only a reader of the entry may see: pool in words, outcome in words, a die's label."""
    return [entry.breakdown, entry.detail, entry.dice[0].label]


def seen_by(client, party, user, entry):
    """What ``user`` gets of ``entry`` on the log, the permalink and Ada's sheet."""
    client.force_login(getattr(party, user))
    pages = {
        "log": client.get(f"/campaigns/{party.campaign.pk}/log/"),
        "sheet": client.get(party.pc.get_absolute_url()),
        "permalink": client.get(entry.get_absolute_url()),
    }
    for name, response in pages.items():
        if name == "permalink" and response.status_code == 404:
            continue
        assert response.status_code == 200, (name, response.status_code)
    html = {name: r.content.decode() for name, r in pages.items()}
    leaked = [s for s in secrets_of(entry) for page in html.values() if s in page]
    shown = f'id="entry-{token(entry)}"' in html["log"]
    if pages["permalink"].status_code == 404:
        assert not shown and not leaked, (user, leaked)
        return NOTHING
    if leaked:
        assert shown and all(s in html["permalink"] for s in secrets_of(entry))
        return FULL
    assert shown and "roll was made" in html["log"] and "roll was made" in html["permalink"]
    return PLACEHOLDER


def verify_log(*args):
    """``manage.py verify_log`` with ``args``: (exit status, what it printed, or its errors)."""
    from io import StringIO

    from django.core.management import call_command
    from django.core.management.base import CommandError

    out, err = StringIO(), StringIO()
    try:
        call_command("verify_log", *map(str, args), stdout=out, stderr=err)
    except CommandError as error:
        return error.returncode, err.getvalue() + str(error)
    return 0, out.getvalue()


# Members' signed views and the GM's export, read as a script would (test_committed_*.py).
def view_answer(client: Client, party, user: str) -> dict:
    """The member's whole view from its start, as the log page's script asks for it."""
    client.force_login(getattr(party, user))
    answer = client.get(reverse("seen_head", args=[party.campaign.pk]), {"since": 0}).json()
    assert answer["start"]["length"] == 0 and answer["next"] is None
    return answer


def folds(answer: dict) -> bool:
    """Do the items chain (as static/js/view-check.js folds them) to the signed head?"""
    running = answer["start"]["hash"]
    for item in answer["items"]:
        running = poolside_verify.view_step(running, item)
    return (len(answer["items"]), running) == (answer["head"]["length"], answer["head"]["hash"])


def gm_export(client: Client, party) -> dict:
    client.force_login(party.gm)
    response = client.get(reverse("campaign_log_json", args=[party.campaign.pk]))
    return json.loads(b"".join(response.streaming_content))
