"""The roll's row read (rolls/rolling/row_read.py): one statement per row kind, written from the
models' metadata, that must load what the ORM's ``select_related`` would — the same field values
(converted as Django converts them), every relation set so that reading it runs no query — with
the reader's membership and the panel's roll state."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from rolls.models import Assist, LogHead
from rolls.rolling.targets import _roll_rows
from sheets.models import Campaign, CogentDisability, CogentInjury, Membership, System
from sheets.registry import all_rule_systems
from tests.factories import (
    CharacterFactory,
    CogentSkillFactory,
    CogentSubSkillFactory,
    ColdStarsSkillFactory,
    Dad6SkillFactory,
    RollEntryFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

ROWS = {
    "cogent-skill": CogentSkillFactory,
    "cogent-vocation": lambda: CogentSubSkillFactory().vocation,
    "cogent-subskill": CogentSubSkillFactory,
    "dad6-skill": Dad6SkillFactory,
    "cold-stars-skill": ColdStarsSkillFactory,
}


def read(kind, row, user):
    _, load = _roll_rows(kind)
    return load(row.pk, row.owning_sheet.pk, user.pk)


def values(instance):
    return {field.attname: getattr(instance, field.attname) for field in instance._meta.fields}


def test_every_rollable_row_kind_has_a_case_here():
    # The test suite's own system (tests/d10pool) rolls through the same read in its own tests.
    systems = [system for system in all_rule_systems() if system.key in System.values]
    assert {row.kind for system in systems for row in system.rolling.rows} == set(ROWS)


@pytest.mark.parametrize("kind", ROWS)
def test_a_row_reads_as_the_orm_reads_it_with_every_relation_set(kind):
    row = ROWS[kind]()
    character = row.owning_sheet.character
    RollEntryFactory(character=character)  # the head moves past its genesis
    loaded = read(kind, row, character.owner)
    expected = type(row).objects.get(pk=row.pk)
    with CaptureQueriesContext(connection) as queries:
        sheet = loaded.owning_sheet
        campaign = sheet.character.campaign
        head = campaign.log_head
        skill = loaded.campaign_skill if kind == "cold-stars-skill" else None
    assert not queries.captured_queries
    assert values(loaded) == values(expected)
    assert values(sheet) == values(type(sheet).objects.get(pk=sheet.pk))
    assert values(sheet.character) == values(character)
    assert sheet.character.created_at.tzinfo is not None  # converted as Django converts it
    assert values(campaign) == values(Campaign.objects.get(pk=character.campaign_id))
    assert values(head) == values(LogHead.objects.get(campaign=campaign))
    if kind == "cold-stars-skill":
        assert values(skill) == values(expected.campaign_skill)
    assert values(loaded.viewer) == values(
        Membership.objects.get(campaign=campaign, user=character.owner)
    )
    assert loaded._state.adding is False and loaded._state.db == "default"


def test_a_non_member_reads_the_row_without_a_membership():
    row = CogentSkillFactory()
    assert read("cogent-skill", row, UserFactory()).viewer is None


def test_a_row_of_another_sheet_or_kind_is_not_found():
    row, other = CogentSkillFactory(), CogentSkillFactory()
    _, load = _roll_rows("cogent-skill")
    assert load(row.pk, other.sheet_id, row.sheet.character.owner_id) is None
    assert load(row.pk + 1000, row.sheet_id, row.sheet.character.owner_id) is None


def test_a_campaign_without_a_log_head_leaves_it_unread():
    row = Dad6SkillFactory()
    LogHead.objects.filter(campaign=row.sheet.character.campaign).delete()  # an older campaign
    loaded = read("dad6-skill", row, row.sheet.character.owner)
    assert not Campaign.log_head.is_cached(loaded.sheet.character.campaign)  # append reads it


def test_a_missing_optional_key_is_set_to_none_without_a_query():
    sheet = CharacterFactory(campaign__system=System.COLD_STARS).cold_stars
    row = sheet.skills.filter(campaign_skill=None).first()  # a skill of the book's catalogue
    loaded = read("cold-stars-skill", row, sheet.character.owner)
    with CaptureQueriesContext(connection) as queries:
        assert loaded.campaign_skill is None
    assert not queries.captured_queries


def test_a_cogent_row_carries_the_sheets_penalties_and_its_waiting_assist():
    row = CogentSubSkillFactory()
    sheet, owner = row.vocation.sheet, row.vocation.sheet.character.owner
    empty = read("cogent-subskill", row, owner)
    assert (empty.cogent_injury_levels, empty.cogent_disability_dice) == (None, None)
    assert empty.waiting_assist_pk is None
    CogentInjury.objects.create(sheet=sheet, level=2)
    CogentInjury.objects.create(sheet=sheet, level=3)
    CogentDisability.objects.create(sheet=sheet, name="Feeble", attribute="strength", dice=1)
    CogentDisability.objects.create(sheet=sheet, name="Phobia")
    entry = RollEntryFactory(character=sheet.character, kind="assist")
    assist = Assist.objects.create(
        campaign=sheet.character.campaign, entry=entry, assisted=sheet.character, wins=1
    )
    loaded = read("cogent-subskill", row, owner)
    assert sorted(loaded.cogent_injury_levels.split(",")) == ["2", "3"]
    assert sorted(loaded.cogent_disability_dice.split(",")) == [":0", "strength:1"]
    assert loaded.waiting_assist_pk == assist.pk
    loaded.owning_sheet.take_penalties(loaded)
    assert loaded.owning_sheet.injury_levels in ([2, 3], [3, 2])
    assert loaded.owning_sheet.disability_dice == {"strength": 1}
    Assist.objects.filter(pk=assist.pk).update(dropped_at=entry.created_at)
    assert read("cogent-subskill", row, owner).waiting_assist_pk is None
