"""Prepared queries (config/prepared.py) return what their queryset returns, compiled once; the
session store and user backend built on them decide as Django's do (config/sessions.py)."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import connection
from django.db.models import Count, Q
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config.prepared import Prepared
from config.sessions import ModelBackend, SessionStore
from sheets.access import with_viewer
from sheets.models import Character, Membership, Role
from tests.factories import CampaignFactory, CharacterFactory, UserFactory

pytestmark = pytest.mark.django_db


def characters(pk: int, user: int):
    """Joins, a filtered relation, an annotation: what the roll path's query is made of."""
    rows = Character.objects.select_related("campaign", "owner").annotate(
        members=Count("campaign__memberships", distinct=True)
    )
    return with_viewer(rows, "campaign", user).filter(pk=pk)


def test_a_prepared_query_returns_what_its_queryset_returns():
    campaign = CampaignFactory()
    first, second = CharacterFactory(campaign=campaign), CharacterFactory(campaign=campaign)
    outsider = UserFactory()
    prepared = Prepared(characters, pk=int, user=int)
    for character, user in [(first, first.owner), (second, first.owner), (first, outsider)]:
        expected = list(characters(character.pk, user.pk))
        with CaptureQueriesContext(connection) as ctx:
            got = prepared.fetch(pk=character.pk, user=user.pk)
        assert len(ctx.captured_queries) == 1
        assert got == expected == [character]
        assert got[0].campaign == campaign and got[0].owner == character.owner
        assert got[0].members == expected[0].members == 3  # the GM and two players
        viewer = getattr(got[0], "viewer", None)
        assert viewer == getattr(expected[0], "viewer", None)
        if user == outsider:
            assert viewer is None
        else:
            assert isinstance(viewer, Membership) and viewer.role == Role.PLAYER
    assert prepared.fetch(pk=10**9, user=outsider.pk) == []


def test_a_prepared_query_is_compiled_once_per_database():
    prepared = Prepared(characters, pk=int, user=int)
    character = CharacterFactory()
    prepared.fetch(pk=character.pk, user=character.owner.pk)
    compiled = prepared._compiled["default"]
    prepared.fetch(pk=character.pk + 1, user=character.owner.pk)
    assert prepared._compiled["default"] is compiled


def test_values_that_are_not_parameters_are_refused():
    # A list changes the SQL's shape (one placeholder per item): not a preparable value.
    with pytest.raises(TypeError):
        Prepared(lambda pks: Character.objects.filter(pk__in=pks), pks=list)
    # A value the query never uses can't be swapped in.
    unused = Prepared(lambda pk, user: Character.objects.filter(pk=pk), pk=int, user=int)
    with pytest.raises(ValueError, match="user: not a parameter"):
        unused.fetch(pk=1, user=2)
    typed = Prepared(lambda pk: Character.objects.filter(Q(pk=pk)), pk=int)
    with pytest.raises(TypeError, match="pk: expected int"):
        typed.fetch(pk="1")


def test_the_session_store_reads_live_sessions_only():
    store = SessionStore()
    store["answer"] = 42
    store.create()
    assert SessionStore(store.session_key).load() == {"answer": 42}
    Session.objects.filter(pk=store.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    expired = SessionStore(store.session_key)
    assert expired.load() == {}
    assert expired.session_key is None  # as Django's store: a new key is made on save
    assert SessionStore("no-such-session-key").load() == {}


def test_the_backend_returns_active_users_only():
    user = UserFactory()
    backend = ModelBackend()
    assert backend.get_user(user.pk) == user
    assert backend.get_user(str(user.pk)) == user  # as the session stores it
    get_user_model().objects.filter(pk=user.pk).update(is_active=False)
    assert backend.get_user(user.pk) is None
    assert backend.get_user(10**9) is None
