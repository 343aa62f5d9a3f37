"""The roll log: append-only entries, the hash chain as docs/roll-log.md defines it, keyset pages,
permalinks, and the read-only admin."""

import json
import re

import pytest
from django.db import connection
from django.db.models.signals import pre_init
from django.urls import reverse
from pytest_django.asserts import assertNumQueries

from log.models import GENESIS_HASH, AppendOnlyError, RollEntry
from log.models.chain_sql import ChainSQL
from sheets.models import Role, System
from tests.factories import CampaignFactory, CharacterFactory, UserFactory
from tests.rolls.helpers import append, tamper, token, verify_like_an_outside_script

pytestmark = pytest.mark.django_db


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


@pytest.mark.parametrize("listened", [False, True])
def test_an_appended_entry_is_what_is_stored_and_knows_its_related_rows(listened):
    """``append`` makes the entry without ``Model.__init__`` (log/models/chain.py), or through it
    while anything listens to ``pre_init``: either way what it returns is what the database
    holds, field by field, and the related rows it was given are known without a query."""
    heard = []

    def listener(sender, **kwargs):
        heard.append(sender)

    if listened:
        pre_init.connect(listener, sender=RollEntry)
    try:
        character = CharacterFactory()
        first = append(character)[0]
        follow = append(character, kind="destiny", follows=first, hidden_character=False)[0]
    finally:
        pre_init.disconnect(listener, sender=RollEntry)
    assert bool(heard) is listened
    for made in (first, follow):
        stored = RollEntry.objects.get(pk=made.pk)
        for field in RollEntry._meta.concrete_fields:
            assert getattr(made, field.attname) == getattr(stored, field.attname), field.name
        assert (made._state.adding, made._state.db) == (False, stored._state.db)
    with assertNumQueries(0):
        assert (follow.character, follow.user, follow.follows) == (
            character,
            character.owner,
            first,
        )
        assert follow.campaign == character.campaign
    with pytest.raises(TypeError, match="flavour"):  # last: it fails the test's transaction
        append(character, flavour="tart")


def test_the_append_sends_each_column_as_its_field_would():
    """The append sends most columns without their fields' preparation (log/models/chain.py,
    ``sent_as``): for an entry's values, exactly what each field's ``get_db_prep_save`` sends
    (a JSON column the same JSON, in the same wrapper type)."""
    character = CharacterFactory()
    first = append(character)[0]
    entry = append(character, kind="destiny", follows=first, hidden_character=False)[0]
    entry.resource_changes = {"destiny": -1, "note": "ünïcode ✓"}
    sql = ChainSQL.of(connection, RollEntry)
    sent = sql._values(entry)
    for field, value in zip(sql.fields, sent, strict=True):
        expected = field.get_db_prep_save(field.pre_save(entry, True), connection)
        assert type(value) is type(expected), field.name
        if hasattr(expected, "obj"):  # a Jsonb wrapper: the same JSON
            assert json.loads(value.dumps(value.obj)) == json.loads(json.dumps(expected.obj))
        else:
            assert value == expected, field.name
    if connection.vendor == "postgresql":  # where the shortcuts are taken
        assert sum(how is not None for how in sql.sent_as) > 30


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
    assert client.get(reverse("admin:log_rollentry_changelist")).status_code == 200
    detail = client.get(reverse("admin:log_rollentry_change", args=[entry.pk]))
    assert detail.status_code == 200 and b'name="_save"' not in detail.content
    assert client.get(reverse("admin:log_rollentry_add")).status_code == 403
    assert (
        client.post(
            reverse("admin:log_rollentry_delete", args=[entry.pk]), {"post": "yes"}
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
    client.force_login(character.campaign.memberships.get(role=Role.GM).user)
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
    # The log's one-line rows, without the name every row shares; the rest is in the log.
    titles = re.findall(r'class="entry-title"[^>]*>(.*?)</h3>', recent)
    assert recent.count("entry-compact") == 5 and titles == [f"Skill {n}" for n in (6, 5, 4, 3, 2)]
    log = reverse("campaign_log", args=[character.campaign_id])
    assert f'<a href="{log}?character={character.pk}">All of {character.name}' in recent


def test_gm_of_another_campaign_sees_nothing(client):
    character = CharacterFactory()
    entry = append(character)[0]
    stranger = CampaignFactory().memberships.get(role=Role.GM).user
    client.force_login(stranger)
    assert client.get(entry.get_absolute_url()).status_code == 404


@pytest.mark.parametrize("hidden", [True, False])
def test_an_entry_given_only_its_characters_id_freezes_whether_it_was_a_hidden_npc(hidden):
    """``append`` takes a character by id as well as by row: a hidden NPC's roll is stored as
    hidden either way, and stays so when the NPC is shown later."""
    npc = CharacterFactory(is_npc=True, hidden_from_players=hidden)
    entry = RollEntry.objects.append(
        campaign=npc.campaign,
        character_id=npc.pk,
        user=npc.owner,
        character_name=npc.name,
        username=npc.owner.username,
        system=npc.campaign.system,
        kind="roll",
        label="Stealth",
        outcome="success",
        outcome_label="Success",
    )
    assert RollEntry.objects.get(pk=entry.pk).hidden_character is hidden
    type(npc).objects.filter(pk=npc.pk).update(hidden_from_players=not hidden)
    assert RollEntry.objects.get(pk=entry.pk).hidden_character is hidden


def test_what_a_member_may_read_is_only_their_own_campaigns():
    """``readable_by`` (exports, statistics) never reaches into another campaign, for the GM
    (who reads everything of theirs) or a player."""
    character = CharacterFactory()
    elsewhere = CharacterFactory()
    mine = append(character, 2)
    append(elsewhere, 3)
    memberships = list(character.campaign.memberships.all())
    assert {m.role for m in memberships} == {Role.GM, Role.PLAYER}
    for membership in memberships:
        assert {e.pk for e in RollEntry.objects.readable_by(membership)} == {e.pk for e in mine}
