"""The roll log: append-only entries, the hash chain as docs/roll-log.md defines it, keyset pages,
permalinks, and the read-only admin."""

import hashlib
import json
from datetime import UTC

import pytest
from django.db import connection
from django.urls import reverse

from rolls.models import GENESIS_HASH, AppendOnlyError, RollEntry
from sheets.models import Role, System
from tests.factories import CampaignFactory, CharacterFactory, UserFactory
from tests.rolls.helpers import tamper, token

pytestmark = pytest.mark.django_db


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


def verify_like_an_outside_script(campaign_id):
    """docs/roll-log.md, step by step, from raw rows: no model code."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT id, seq, prev_hash, hash, created_at, system, kind, follows_id, character_name,"
            " username, label, options, pool, breakdown, faces, outcome, outcome_label, detail,"
            " result, odds, resource_changes, campaign_id, visibility, reveals_id, odds_table,"
            " call_id, contest_id, salt, character_ref, user_ref, roller_ref, hidden_character, root_id"
            " FROM rolls_rollentry"
            " WHERE campaign_id = %s ORDER BY seq",
            [campaign_id],
        )
        rows = cursor.fetchall()
    seq_of = {row[0]: row[1] for row in rows}
    previous = "0" * 64
    for row in rows:
        (
            _pk,
            seq,
            prev_hash,
            stored,
            created,
            system,
            kind,
            follows,
            character,
            user,
            label,
            options,
            pool,
            breakdown,
            faces,
            outcome,
            outcome_label,
            detail,
            result,
            odds,
            changes,
            campaign,
            visibility,
            reveals,
            odds_table,
            call,
            contest,
            salt,
            character_ref,
            user_ref,
            roller_ref,
            hidden_character,
            root,
        ) = row

        def loads(v):
            return json.loads(v) if isinstance(v, str) else v

        if isinstance(created, str):  # SQLite hands back text
            from django.utils.dateparse import parse_datetime

            created = parse_datetime(created)
        if created.tzinfo is None:
            created = created.replace(tzinfo=UTC)
        content = {
            "v": 1,
            "campaign": campaign,
            "seq": seq,
            "prev_hash": prev_hash,
            "created_at": created.astimezone(UTC).isoformat(timespec="microseconds"),
            "system": system,
            "kind": kind,
            "follows": seq_of.get(follows),
            "visibility": visibility,
            "reveals": seq_of.get(reveals),
            "character": character,
            "user": user,
            "label": label,
            "options": loads(options),
            "pool": loads(pool),
            "breakdown": breakdown,
            "faces": loads(faces),
            "outcome": outcome,
            "outcome_label": outcome_label,
            "detail": detail,
            "result": loads(result),
            "odds": odds,
            "odds_table": loads(odds_table),
            "resource_changes": loads(changes),
        }
        if salt:  # version 3: salted, with the recorded ids and the hidden-NPC flag
            content |= {
                "v": 3,
                "call": call,
                "contest": contest,
                "salt": salt,
                "root": seq_of.get(root),
                "character_id": character_ref,
                "user_id": user_ref,
                "roller_id": roller_ref,
                "hidden_character": bool(hidden_character),  # SQLite hands back 0/1
            }
        elif call is not None or contest is not None:  # version 2: the GM table's links
            content |= {"v": 2, "call": call, "contest": contest}
        canonical = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        assert prev_hash == previous, f"#{seq} is not chained to #{seq - 1}"
        assert hashlib.sha256(canonical.encode("utf-8")).hexdigest() == stored, f"#{seq} altered"
        previous = stored
    return len(rows)


def test_entries_chain_per_campaign_and_verify_from_the_documented_form():
    character = CharacterFactory()
    other = CharacterFactory()
    first, second, third = append(character, 3)
    append(other, 2)
    assert (first.seq, first.prev_hash) == (1, GENESIS_HASH)
    assert second.prev_hash == first.hash and third.prev_hash == second.hash
    assert RollEntry.objects.get(campaign=other.campaign, seq=1).prev_hash == GENESIS_HASH
    follow = append(character, kind="destiny", follows=third)[0]
    assert follow.content()["follows"] == 3
    assert verify_like_an_outside_script(character.campaign_id) == 4
    assert verify_like_an_outside_script(other.campaign_id) == 2


def test_tampering_breaks_the_chain():
    character = CharacterFactory()
    entries = append(character, 2)
    tamper("UPDATE rolls_rollentry SET outcome = 'failure' WHERE id = %s", [entries[0].pk])
    with pytest.raises(AssertionError, match="#1 altered"):
        verify_like_an_outside_script(character.campaign_id)


def test_entries_cannot_be_changed_or_deleted():
    entry = append(CharacterFactory())[0]
    entry.outcome = "failure"
    with pytest.raises(AppendOnlyError):
        entry.save()
    with pytest.raises(AppendOnlyError):
        entry.delete()
    with pytest.raises(AppendOnlyError):
        RollEntry.objects.filter(pk=entry.pk).update(outcome="failure")
    with pytest.raises(AppendOnlyError):
        RollEntry.objects.all().delete()
    with pytest.raises(AppendOnlyError):
        RollEntry.objects.bulk_create([RollEntry()])
    with pytest.raises(AppendOnlyError):
        RollEntry.objects.bulk_update([entry], ["outcome"])
    assert RollEntry.objects.get(pk=entry.pk).outcome == "success"


def test_deleting_a_character_keeps_its_rolls_and_the_chain(client):
    character = CharacterFactory()
    append(character, 2)
    client.force_login(character.owner)
    assert client.post(reverse("character_delete", args=[character.pk])).status_code == 302
    assert RollEntry.objects.filter(character=None, character_name=character.name).count() == 2
    assert verify_like_an_outside_script(character.campaign_id) == 2


def test_admin_is_read_only(client):
    entry = append(CharacterFactory())[0]
    admin = UserFactory(is_staff=True, is_superuser=True)
    client.force_login(admin)
    assert client.get(reverse("admin:rolls_rollentry_changelist")).status_code == 200
    detail = client.get(reverse("admin:rolls_rollentry_change", args=[entry.pk]))
    assert detail.status_code == 200 and b'name="_save"' not in detail.content
    assert client.get(reverse("admin:rolls_rollentry_add")).status_code == 403
    assert (
        client.post(
            reverse("admin:rolls_rollentry_delete", args=[entry.pk]), {"post": "yes"}
        ).status_code
        == 403
    )
    assert RollEntry.objects.filter(pk=entry.pk).exists()


def test_log_page_newest_first_with_keyset_pages(client):
    character = CharacterFactory(campaign__system=System.COGENT)
    entries = append(character, 30)
    client.force_login(character.owner)
    url = reverse("campaign_log", args=[character.campaign_id])
    page = client.get(url).content.decode()
    assert page.index(f'id="entry-{token(entries[-1])}"') < page.index(
        f'id="entry-{token(entries[-2])}"'
    )
    assert f'id="entry-{token(entries[4])}"' not in page  # 25 per page
    older = f"{url}?before={token(entries[5])}"
    assert f'hx-get="{older}"' in page and 'hx-trigger="revealed"' in page and "Older rolls" in page
    rest = client.get(older, headers={"HX-Request": "true"}).content.decode()
    assert "<html" not in rest and rest.count('class="entry ') == 5 and "Older rolls" not in rest
    assert client.get(f"{url}?before=abc").status_code == 400


def test_permalink_links_the_chain(client):
    character = CharacterFactory()
    roll = append(character)[0]
    follow = append(character, kind="destiny", follows=roll)[0]
    client.force_login(character.owner)
    page = client.get(roll.get_absolute_url()).content.decode()
    # A player sees no chain numbers (their gaps would count hidden rolls): words, and the links.
    assert f'<a href="{follow.get_absolute_url()}">Followed by the next roll →</a>' in page
    page = client.get(follow.get_absolute_url()).content.decode()
    assert f'<a href="{roll.get_absolute_url()}">← Follows the roll before</a>' in page
    client.force_login(character.campaign.memberships.gm().get().user)
    assert f"Followed by #{follow.seq}" in client.get(roll.get_absolute_url()).content.decode()


def test_sheet_shows_the_characters_recent_rolls(client):
    character = CharacterFactory()
    other = CharacterFactory(campaign=character.campaign)
    append(character, 7)
    append(other, 1, label="Someone else's")
    client.force_login(character.owner)
    page = client.get(character.get_absolute_url()).content.decode()
    recent = page.split('id="recent-rolls"')[1].split("</section>")[0]
    assert (
        recent.count('class="entry ') == 5 and "Skill 6" in recent and "Someone else" not in recent
    )


def test_gm_of_another_campaign_sees_nothing(client):
    character = CharacterFactory()
    entry = append(character)[0]
    stranger = CampaignFactory().memberships.get(role=Role.GM).user
    client.force_login(stranger)
    assert client.get(entry.get_absolute_url()).status_code == 404
