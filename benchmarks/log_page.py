"""The campaign log page with 1,000,000 entries against 1,000: time and query count.

Two campaigns of the benchmark database are filled once (and reused by later runs) with a
million and a thousand entries: one real roll made through the roll view, copied with
``INSERT … SELECT generate_series`` — a throwaway database, so the hash chain is not kept (the
append-only trigger only refuses UPDATE and DELETE). Every tenth entry is blind, every tenth
GM-only, every tenth a secret GM roll, the rest public, spread over two players' characters and
twelve skills, so a player's page really filters on visibility. Every tenth entry is a message: half of them
to everyone, the rest by turns a whisper to the player and a message to the GM.

Every 250 entries are a game session (a start marker, a scene marker, an end marker: the markers
the GM's session bar writes, docs/sessions.md), so the headings, the filter's sessions and each
entry's session are read as a long-running table would have them.

The first page, a deep page (``?before=<the middle entry>``) and the page of an old session
(``?session=<the middle session>``) are fetched as the GM and as a player, REPEATS times each,
in-process with Django's test client (DEBUG off), counting queries.
Targets: the 1M page within 1.5× the 1K page's median, at most 6 queries per page.
Run with ``make bench-log``.
"""

from __future__ import annotations

import statistics
import sys
import time

if __package__ in (None, ""):
    sys.path.insert(0, __import__("os").path.dirname(__import__("os").path.dirname(__file__)))

from benchmarks import common

SIZES = (1_000, 1_000_000)
REPEATS = 30
MAX_QUERIES = 6
MAX_RATIO = 1.5
SKILLS = [
    "Athletics",
    "Endurance",
    "Stealth",
    "Perception",
    "Persuasion",
    "Lore",
    "Medicine",
    "Survival",
    "Tactics",
    "Piloting",
    "Engineering",
    "Deception",
]


# Every SESSION entries a game session (docs/sessions.md): its start marker, a scene marker
# halfway, its end marker — as a table that rolls 250 times an evening would leave them.
SESSION = 250

# Every MESSAGES entries two messages (docs/messages.md), as Rook's player says them: one to
# everyone, and one private — by turns a whisper to Scout's player (a recipients' row: the
# player's page reads it through the visibility rule's probe) and a message to the GM (the
# player's page passes over it). Never on a marker's place, nor on a hidden roll's (g % 10 > 2).
MESSAGES, PUBLIC_MESSAGE, PRIVATE_MESSAGE = 20, 13, 17

# Copies the one real entry into entries 2..size: two characters, three visibilities besides
# public, twelve skill labels ({labels}: a Postgres array literal of SKILLS); and the session
# markers ({marker}: is entry g one), public, of no character, with the state they carry.
# Every NOT NULL column is named, the verifiable dice's too (``proof``, ``signature``,
# ``signed_by``): a column left out is NULL, and the fill failed on a fresh database. The copies
# keep the first entry's proof (with a nonce of their own: a roller's nonce is unique, the roll's
# idempotency key) and signature (markers and messages have no dice: no proof), so a page reads
# rows of a real entry's size; neither is valid at the copy's place, like the hashes.
COPY_ENTRY_SQL = """
    INSERT INTO rolls_rollentry (
        seq, character_name, username, system, kind, label, options, pool, breakdown,
        faces, outcome, outcome_label, detail, result, odds, odds_display,
        resource_changes, created_at, prev_hash, hash, campaign_id, character_id,
        follows_id, user_id, odds_table, reveals_id, roller_id, root_id, visibility,
        contest_id, call_id, character_ref, user_ref, roller_ref, hidden_character, salt,
        hash_version, proof, signature, signed_by, commitments)
    SELECT
        g,
        CASE WHEN {marker} THEN ''
             WHEN g %% 2 = 0 THEN %(hero_name)s ELSE %(other_name)s END,
        CASE WHEN {marker} OR g %% 10 = 2 THEN %(gm_name)s
             WHEN g %% 2 = 0 THEN %(hero_user)s ELSE %(other_user)s END,
        t.system,
        CASE g %% {session} WHEN 1 THEN 'session' WHEN {scene} THEN 'scene'
             WHEN 0 THEN 'session_end' ELSE CASE WHEN {msg} THEN 'message' ELSE t.kind END END,
        CASE WHEN {marker} OR {msg} THEN '' ELSE ({labels})[1 + g %% 12] END,
        CASE WHEN {whisper} THEN jsonb_build_object(
                 'voice', 'in_character', 'audience', 'whisper',
                 'to', jsonb_build_array(%(hero_owner)s), 'to_names', jsonb_build_array(%(hero_user)s))
             WHEN {to_gm} THEN '{{"voice": "in_character", "audience": "gm"}}'::jsonb
             WHEN {msg} THEN '{{"voice": "in_character", "audience": "everyone"}}'::jsonb
             ELSE t.options END,
        t.pool, t.breakdown,
        CASE WHEN {marker} OR {msg} THEN '[]'::jsonb ELSE t.faces END,
        CASE WHEN {marker} OR {msg} THEN '' ELSE t.outcome END,
        CASE WHEN {marker} OR {msg} THEN '' ELSE t.outcome_label END,
        CASE g %% {session} WHEN 1 THEN 'Session ' || (g / {session} + 1)
             WHEN {scene} THEN 'Scene 1' WHEN 0 THEN 'Session ' || (g / {session})
             ELSE CASE WHEN {msg} THEN 'We *go* in through the skylight, quietly.'
                       ELSE t.detail END END,
        CASE WHEN {marker} THEN jsonb_build_object(
                 'session', (g - 1) / {session} + 1, 'title', '',
                 'scene', CASE WHEN g %% {session} IN (0, 1) THEN NULL ELSE 1 END,
                 'scene_title', '', 'open', g %% {session} <> 0)
             WHEN {msg} THEN '{{}}'::jsonb
             ELSE t.result END,
        CASE WHEN {msg} THEN '1/1' ELSE t.odds END,
        CASE WHEN {msg} THEN '' ELSE t.odds_display END,
        t.resource_changes,
        t.created_at - make_interval(secs => %(size)s - g),
        md5(t.campaign_id || ':' || (g - 1)) || md5((g - 1) || ':' || t.campaign_id),
        md5(t.campaign_id || ':' || g) || md5(g || ':' || t.campaign_id),
        t.campaign_id,
        CASE WHEN {marker} THEN NULL WHEN g %% 2 = 0 THEN %(hero)s ELSE %(other)s END,
        NULL,
        CASE WHEN {marker} OR g %% 10 = 2 THEN %(gm)s WHEN g %% 2 = 0 THEN %(hero_owner)s
             ELSE %(other_owner)s END,
        t.odds_table, NULL,
        CASE WHEN {marker} OR g %% 10 = 2 THEN %(gm)s WHEN g %% 2 = 0 THEN %(hero_owner)s
             ELSE %(other_owner)s END,
        NULL,
        CASE WHEN {marker} THEN 'public' WHEN {whisper} THEN 'whisper'
             WHEN {to_gm} THEN 'gm_only' ELSE
             CASE g %% 10 WHEN 0 THEN 'blind' WHEN 1 THEN 'gm_only' WHEN 2 THEN 'secret'
             ELSE 'public' END END,
        NULL, NULL,
        CASE WHEN {marker} THEN NULL WHEN g %% 2 = 0 THEN %(hero)s ELSE %(other)s END,
        CASE WHEN {marker} OR g %% 10 = 2 THEN %(gm)s WHEN g %% 2 = 0 THEN %(hero_owner)s
             ELSE %(other_owner)s END,
        CASE WHEN {marker} OR g %% 10 = 2 THEN %(gm)s WHEN g %% 2 = 0 THEN %(hero_owner)s
             ELSE %(other_owner)s END,
        FALSE, md5(g || ':salt'),
        t.hash_version,
        CASE WHEN {marker} OR {msg} THEN '{{}}'::jsonb
             ELSE jsonb_set(t.proof, '{{alpha,nonce}}', to_jsonb('bench-' || g)) END,
        t.signature, t.signed_by, t.commitments
    FROM rolls_rollentry t, generate_series(2, %(size)s) g
    WHERE t.id = %(first)s
"""


def _copy_first_entry(cursor, size: int, first_pk: int, hero, other, gm) -> None:
    """Entries 2..size as copies of the first, spread over the two characters and the GM."""
    labels = "ARRAY[" + ",".join(f"'{s}'" for s in SKILLS) + "]"
    scene = SESSION // 2
    marker = f"(g %% {SESSION} IN (0, 1, {scene}))"
    cursor.execute(
        COPY_ENTRY_SQL.format(
            labels=labels,
            marker=marker,
            session=SESSION,
            scene=scene,
            msg=f"(g %% {MESSAGES} IN ({PUBLIC_MESSAGE}, {PRIVATE_MESSAGE}))",
            whisper=f"(g %% {2 * MESSAGES} = {PRIVATE_MESSAGE})",
            to_gm=f"(g %% {2 * MESSAGES} = {MESSAGES + PRIVATE_MESSAGE})",
        ),
        {
            "size": size,
            "first": first_pk,
            "hero": hero.pk,
            "other": other.pk,
            "hero_owner": hero.owner_id,
            "other_owner": other.owner_id,
            "gm": gm.pk,
            "hero_name": hero.name,
            "other_name": other.name,
            "hero_user": hero.owner.username,
            "other_user": other.owner.username,
            "gm_name": gm.username,
        },
    )


def fill(size: int):
    """The campaign with ``size`` entries, made once and reused."""
    from django.db import connection, transaction
    from django.test import Client
    from django.urls import reverse

    from log.models import RollEntry
    from sheets.models import Campaign

    # "bench-log-<size>": the fill before session markers; "-sessions": markers named by label;
    # "-markers": before messages.
    name = f"bench-log-{size}-messages"
    found = Campaign.objects.filter(name=name).first()
    if found is not None and RollEntry.objects.filter(campaign=found).count() == size:
        return found
    print(f"  filling {name} with {size:,} entries (once; later runs reuse it)…", flush=True)
    started = time.monotonic()
    campaign = common.campaign(name)
    hero = common.character(campaign, "bench-log-player", "Scout")
    other = common.character(campaign, "bench-log-other", "Rook")
    gm = campaign.memberships.get(role="gm").user
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(hero.owner)
    skill = hero.cogent.skills.first()
    url = reverse("roll_create", args=[hero.pk, "cogent-skill", skill.pk])
    assert client.post(url, {"challenge_level": 3, "extra_penalty": 0}).status_code == 302
    first = RollEntry.objects.get(campaign=campaign)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET LOCAL synchronous_commit = off")
        # The per-row triggers (a trial row, its tally and day tally per entry) queue a million
        # events to the statement's end and ran for hours on a loaded machine; the rows they
        # would write are written afterwards in three set-based statements instead.
        # The trial rows' own triggers too (each would update the same few tally rows a million
        # times over, one row version each: quadratic): off until the tallies are derived.
        cursor.execute("SET LOCAL session_replication_role = replica")
        _copy_first_entry(cursor, size, first.pk, hero, other, gm)
        cursor.execute(
            "INSERT INTO rolls_entryrecipient (entry_id, user_ref) SELECT id, %s"
            " FROM rolls_rollentry WHERE campaign_id = %s AND visibility = 'whisper'",
            [hero.owner_id, campaign.pk],
        )
        derive_statistics(cursor, campaign.pk)
        cursor.execute("SET LOCAL session_replication_role = DEFAULT")
    # VACUUM, not only ANALYZE: a freshly filled table has no visibility map, so its pages read
    # the heap instead of scanning indexes only, and the first timing on a new database missed.
    with connection.cursor() as cursor:
        for table in (
            "rolls_rollentry",
            "rolls_entryrecipient",
            "rolls_trial",
            "rolls_trial_tally",
            "rolls_trial_day_tally",
        ):
            cursor.execute(f"VACUUM (ANALYZE) {table}")
    print(f"  … done in {time.monotonic() - started:.0f} s", flush=True)
    return campaign


def derive_statistics(cursor, campaign_id: int) -> None:
    """The campaign's trial rows, tallies and day tallies, written in bulk with the very SQL of
    the migrations that fill them for existing entries (0015, 0018, 0020)."""
    from importlib import import_module

    trials = import_module("rolls.migrations.0015_trial_triggers")
    tallies = import_module("rolls.migrations.0018_trial_tally_triggers")
    days = import_module("rolls.migrations.0020_trial_day_tallies")
    kinds = ", ".join(f"'{kind}'" for kind in trials.TRIAL_KINDS)
    mine = f"t.campaign_id = {int(campaign_id)}"
    cursor.execute(f"DELETE FROM rolls_trial WHERE campaign_id = {int(campaign_id)}")
    cursor.execute(
        trials._insert(
            "postgresql", f"e0.campaign_id = {int(campaign_id)} AND e0.kind IN ({kinds})"
        )
    )
    for table, backfill in (
        ("rolls_trial_tally", tallies.BACKFILL),
        ("rolls_trial_day_tally", days._backfill("postgresql")),
    ):
        cursor.execute(f"DELETE FROM {table} WHERE campaign_id = {int(campaign_id)}")
        cursor.execute(
            backfill.replace(
                "FROM rolls_trial t GROUP BY", f"FROM rolls_trial t WHERE {mine} GROUP BY"
            )
        )


def measure(client, url: str) -> tuple[float, float, int]:
    """(median ms, p95 ms, queries) of REPEATS fetches after one warm-up."""
    assert client.get(url).status_code == 200
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        response = client.get(url)
        times.append((time.perf_counter() - start) * 1000)
        assert response.status_code == 200
    with common.QueryCounter() as counter:
        client.get(url)
    return statistics.median(times), common.percentile(times, 95), counter.count


def main() -> int:
    if not common.setup("Log page benchmark"):
        return common.SKIPPED
    from django.test import Client
    from django.urls import reverse

    from log.models import RollEntry
    from log.tokens import entry_token

    print("Poolside log page benchmark (25 entries a page; in-process, DEBUG off)")
    print(common.machine())
    results: dict[tuple[str, str, int], tuple[float, float, int]] = {}
    for size in SIZES:
        campaign = fill(size)
        ids = (
            RollEntry.objects.filter(campaign=campaign).order_by("pk").values_list("pk", flat=True)
        )
        middle = entry_token(ids[size // 2])  # the cursor is a token, not a pk
        base = reverse("campaign_log", args=[campaign.pk])
        for role in ("gm", "player"):
            member = campaign.memberships.filter(role=role).order_by("pk").first()
            client = Client(HTTP_HOST="127.0.0.1")
            client.force_login(member.user)
            session = f"{base}?session={max(size // SESSION // 2, 2)}"  # an old one, at 1M
            for page, url in (
                ("first", base),
                ("deep", f"{base}?before={middle}"),
                ("session", session),
            ):
                results[role, page, size] = measure(client, url)
    rows, met = [], True
    small, large = SIZES
    for role in ("gm", "player"):
        for page in ("first", "deep", "session"):
            a, b = results[role, page, small], results[role, page, large]
            ratio = b[0] / a[0]
            ok = ratio <= MAX_RATIO and max(a[2], b[2]) <= MAX_QUERIES
            met &= ok
            rows.append(
                (
                    role,
                    page,
                    f"{a[0]:.1f}",
                    f"{a[1]:.1f}",
                    f"{b[0]:.1f}",
                    f"{b[1]:.1f}",
                    f"{ratio:.2f}×",
                    f"{a[2]} / {b[2]}",
                    common.verdict(ok),
                )
            )
    common.table(
        ("as", "page", "1K med ms", "1K p95", "1M med ms", "1M p95", "1M/1K", "queries", "target"),
        rows,
    )
    print(
        f"target: 1M within {MAX_RATIO}× of 1K, at most {MAX_QUERIES} queries a page — "
        f"{common.verdict(met)}"
    )
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
