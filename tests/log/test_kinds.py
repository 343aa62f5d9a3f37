"""The log's kinds described once (log/models/kinds.py): what the migrations froze of them
stays equal to what each KindInfo says, and a registered kind can't claim what the database
only knows of the app's own kinds."""

import importlib
from dataclasses import replace

import pytest

from log.models import KINDS, Kind, KindInfo, kind_info, kinds_where
from log.models.kinds import THE_APPS_OWN_KINDS, register_kind

# The newest migration that froze the app's own kinds (0002 opened them, 0006 added "punch" and
# "refresh").
open_kinds = importlib.import_module("log.migrations.0006_refresh_and_punch_kinds")
trial_triggers = importlib.import_module("rolls.migrations.0015_trial_triggers")


def test_every_kind_of_the_app_has_its_info():
    assert sorted(THE_APPS_OWN_KINDS) == sorted(Kind.values)
    assert all(kind_info(kind).label == Kind(kind).label for kind in Kind.values)


def test_the_migrations_froze_what_the_infos_say():
    own = {key: KINDS[key] for key in THE_APPS_OWN_KINDS}
    assert sorted(own) == open_kinds.THE_APPS_OWN
    assert sorted(k for k, info in own.items() if info.starts_chain) == (
        open_kinds.THE_APPS_OWN_ROOTS
    )
    assert set(kinds_where(lambda info: info.counts_as_roll)) == set(trial_triggers.TRIAL_KINDS)


@pytest.mark.parametrize(
    "answers", [{"marks_session": True}, {"counts_as_roll": True}, {"key": "x" * 17}]
)
def test_a_registered_kind_may_not_claim_what_the_migrations_fixed(answers):
    info = replace(KindInfo(key="made_up", label="Made up"), **answers)
    with pytest.raises(ValueError, match=r"made_up|x{17}"):
        register_kind(info)
    assert info.key not in KINDS
