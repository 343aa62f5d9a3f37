"""Prepared queries (config/prepared.py) return what their queryset returns, compiled once; the
session store and user backend built on them decide as Django's do (config/sessions.py)."""

import gc
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from django.conf import settings
from django.contrib.auth import SESSION_KEY, get_user_model
from django.db import connection
from django.db.models import Count, Q
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from config.prepared import Along, Prepared
from config.sessions import ModelBackend, SessionStore
from sheets.access import with_viewer
from sheets.models import Character, Membership, Role, Session
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


def _state(obj):
    """An instance's fields and state, and its related objects' at every depth."""
    state = obj._state
    related = {name: _state(rel) for name, rel in state.fields_cache.items() if rel is not None}
    fields = {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}
    extra = {  # annotations, a FilteredRelation's row
        k: _state(v) if hasattr(v, "_state") else v
        for k, v in obj.__dict__.items()
        if k != "_state" and k not in fields
    }
    return (type(obj), fields, state.adding, state.db, state.fetch_mode, related, extra)


@pytest.mark.parametrize("listened", [False, True])
def test_prepared_rows_are_the_instances_the_orm_makes(listened):
    """Rows become instances without ``Model.__init__`` (config/prepared.py ``_from_db``), or
    through it while anything listens to ``pre_init``: either way the same as the ORM's, their
    related rows at every depth included."""
    from django.db.models.signals import pre_init

    heard = []

    def listener(sender, **kwargs):
        heard.append(sender)

    character = CharacterFactory()
    prepared = Prepared(characters, pk=int, user=int)
    prepared.fetch(pk=character.pk, user=character.owner.pk)  # compiled before listening
    if listened:
        pre_init.connect(listener)
    try:
        got = prepared.fetch(pk=character.pk, user=character.owner.pk)
    finally:
        pre_init.disconnect(listener)
    assert bool(heard) is listened
    expected = list(characters(character.pk, character.owner.pk))
    assert [_state(obj) for obj in got] == [_state(obj) for obj in expected]
    assert _state(got[0])[5].keys() >= {"campaign", "owner"}
    assert _state(got[0])[6]["viewer"][1]["user_id"] == character.owner.pk


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


def test_prefetches_and_rows_of_other_shapes_are_djangos():
    """A prepared query reads its model rows itself (config/prepared.py); what comes after the
    rows (prefetches) and rows of other shapes (``values()``) are still Django's doing."""
    character = CharacterFactory()
    prefetching = Prepared(
        lambda pk: Character.objects.prefetch_related("campaign__memberships").filter(pk=pk),
        pk=int,
    )
    (got,) = prefetching.fetch(pk=character.pk)
    with CaptureQueriesContext(connection) as ctx:
        members = {m.user_id for m in got.campaign.memberships.all()}
    assert not ctx.captured_queries
    assert character.owner_id in members and len(members) == 2
    names = Prepared(lambda pk: Character.objects.filter(pk=pk).values("name"), pk=int)
    assert names.fetch(pk=character.pk) == [{"name": character.name}]


def test_a_related_managers_query_is_not_prepared():
    """A related manager's queryset sets the objects it already knows on each row, which a
    prepared query's rows don't do: refused rather than quietly different."""
    character = CharacterFactory()
    campaign = character.campaign
    related = Prepared(lambda pk: campaign.characters.filter(pk=pk), pk=int)
    with pytest.raises(ValueError, match="default fetch mode"):
        related.fetch(pk=character.pk)


def _sessions(key: str):
    return Session.objects.select_related("user").filter(session_key=key)


def _logged_in(user) -> SessionStore:
    store = SessionStore()
    if user is not None:
        store["_auth_user_id"] = str(user.pk)
    store.create()
    return store


def test_two_prepared_queries_along_return_what_each_returns_in_one_statement():
    """``Along``: the session and the characters read for the session's user, in one statement,
    are what the two queries return one after the other: for a member, an outsider, a session
    of nobody (the link is NULL: no viewer), no such character, no such session. The second's
    prefetches follow, as its own fetch makes them."""
    campaign = CampaignFactory()
    character = CharacterFactory(campaign=campaign)
    along = Along(
        Prepared(_sessions, key=str), Prepared(characters, pk=int, user=int), ("user", "user_id")
    )
    for user in [character.owner, UserFactory(), None]:
        store = _logged_in(user)
        for pk in [character.pk, 10**9]:
            with CaptureQueriesContext(connection) as ctx:
                sessions, got = along.fetch(key=store.session_key, pk=pk)
            assert len(ctx.captured_queries) == 1
            expected = list(_sessions(store.session_key))
            assert [_state(s) for s in sessions] == [_state(s) for s in expected]
            assert sessions[0].user == user
            rows = list(characters(pk, 0 if user is None else user.pk))
            assert [_state(c) for c in got] == [_state(c) for c in rows]
            assert got == ([character] if pk == character.pk else [])
        assert along.fetch(key="no-such-session-key", pk=character.pk) == ([], [])
    prefetching = Prepared(
        lambda pk, user: characters(pk, user).prefetch_related("campaign__memberships"),
        pk=int,
        user=int,
    )
    store = _logged_in(character.owner)
    with CaptureQueriesContext(connection) as ctx:
        _, (got,) = Along(Prepared(_sessions, key=str), prefetching, ("user", "user_id")).fetch(
            key=store.session_key, pk=character.pk
        )
        assert len(got.campaign.memberships.all()) == 2
    assert len(ctx.captured_queries) == 2  # the statement, the prefetch


def test_along_refuses_what_it_cannot_join():
    sessions = Prepared(_sessions, key=str)
    by_pk = Prepared(characters, pk=int, user=int)
    with pytest.raises(ValueError, match="owner: not a value"):
        Along(sessions, by_pk, ("owner", "user_id"))
    with pytest.raises(ValueError, match="names of their own"):
        Along(
            Prepared(lambda pk: Session.objects.filter(user_id=pk), pk=int),
            by_pk,
            ("user", "user_id"),
        )
    with pytest.raises(ValueError, match="owner_id: not a column of the first"):
        Along(sessions, by_pk, ("user", "owner_id")).fetch(key="k", pk=1)
    with pytest.raises(TypeError, match="pk: expected int"):
        Along(sessions, by_pk, ("user", "user_id")).fetch(key="k", pk="1")
    # The first query is read by a unique key: two rows are refused, not joined twice.
    first, second = CharacterFactory(name="Twin"), CharacterFactory(name="Twin")
    named = Prepared(lambda name: Character.objects.filter(name=name), name=str)
    by_owner = Prepared(lambda owner: Membership.objects.filter(user_id=owner), owner=int)
    with pytest.raises(ValueError, match="more than one row"):
        Along(named, by_owner, ("owner", "owner_id")).fetch(name="Twin")
    assert first.owner_id != second.owner_id


def test_a_session_read_along_is_loaded_without_reading_it_again():
    """``SessionStore.read_along`` reads the session's row with the other query's, for the
    session's user; the load that follows takes that row and decides as ever: an expired one is
    no session."""
    user = UserFactory()
    store = _logged_in(user)
    by_pk = Prepared(characters, pk=int, user=int)
    character = CharacterFactory(owner=user)
    reading = SessionStore(store.session_key)
    assert reading.read_along(by_pk, "user", pk=character.pk) == (user.pk, [character])
    with CaptureQueriesContext(connection) as ctx:
        assert dict(reading.items()) == {"_auth_user_id": str(user.pk)}
    assert not ctx.captured_queries
    assert reading.read_along(by_pk, "user", pk=character.pk) is None  # loaded already
    assert SessionStore().read_along(by_pk, "user", pk=character.pk) is None  # no key
    nobodys = SessionStore(_logged_in(None).session_key)
    assert nobodys.read_along(by_pk, "user", pk=character.pk) == (None, [character])
    Session.objects.filter(pk=store.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    expired = SessionStore(store.session_key)
    assert expired.read_along(by_pk, "user", pk=character.pk) == (user.pk, [character])
    assert dict(expired.items()) == {} and expired.session_key is None


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


def test_session_data_is_checked_as_django_checks_it_however_often_it_is_read(caplog):
    """The signature check is remembered per signed string and keys (``_verified``); what each
    read returns is its own dict, a tampered string is still refused, and a key taken out of
    SECRET_KEY and its fallbacks no longer opens what it signed."""
    store = SessionStore()
    store["dice"] = {"kept": [6, 5]}
    store.create()
    data = Session.objects.get(pk=store.session_key).session_data
    first = SessionStore(store.session_key).load()
    first["dice"]["kept"].append(1)  # a request changing its own copy in place
    assert SessionStore(store.session_key).load() == {"dice": {"kept": [6, 5]}}
    tampered = data[:-1] + ("A" if data[-1] != "A" else "B")
    assert SessionStore().decode(tampered) == {}
    assert "Session data corrupted" in caplog.text
    assert SessionStore().decode("not even signed") == {}
    with override_settings(SECRET_KEY="a new key " * 5, SECRET_KEY_FALLBACKS=[settings.SECRET_KEY]):
        assert SessionStore().decode(data) == {"dice": {"kept": [6, 5]}}
    with override_settings(SECRET_KEY="a new key " * 5, SECRET_KEY_FALLBACKS=[]):
        assert SessionStore().decode(data) == {}


def test_the_backend_returns_active_users_only():
    user = UserFactory()
    backend = ModelBackend()
    assert backend.get_user(user.pk) == user
    assert backend.get_user(str(user.pk)) == user  # as the session stores it
    get_user_model().objects.filter(pk=user.pk).update(is_active=False)
    assert backend.get_user(user.pk) is None
    assert backend.get_user(10**9) is None


def test_a_logged_in_page_reads_the_session_and_its_user_in_one_query(client):
    user = UserFactory()
    client.force_login(user)
    session = Session.objects.get(pk=client.session.session_key)
    assert session.user_id == user.pk  # written when logging in saved the session
    with CaptureQueriesContext(connection) as ctx:
        assert client.get("/").status_code == 200
    first = ctx.captured_queries[0]["sql"]
    assert "sheets_session" in first and "auth_user" in first
    user_table = get_user_model()._meta.db_table
    assert not any(
        f'FROM "{user_table}"' in q["sql"] and "sheets_session" not in q["sql"]
        for q in ctx.captured_queries
    )


def test_the_user_read_with_the_session_is_still_checked_as_django_checks_it(client):
    """Deactivated, or a password changed elsewhere (the session's hash no longer matches):
    logged out, as with Django's own store and backend."""
    user = UserFactory()
    client.force_login(user)
    get_user_model().objects.filter(pk=user.pk).update(is_active=False)
    assert client.get("/account/").status_code == 302  # to the login page
    get_user_model().objects.filter(pk=user.pk).update(is_active=True)
    client.force_login(user)
    assert client.get("/account/").status_code == 200
    user.set_password("an entirely new one 42")
    user.save()
    assert client.get("/account/").status_code == 302


def test_a_user_read_with_another_session_is_never_taken():
    """The backend takes the user read with the session only for the id asked for, once."""
    ada, bob = UserFactory(), UserFactory()
    store = SessionStore()
    store["_auth_user_id"] = str(ada.pk)
    store.create()
    SessionStore(store.session_key).load()  # reads ada with the session
    backend = ModelBackend()
    with CaptureQueriesContext(connection) as ctx:
        assert backend.get_user(bob.pk) == bob  # not ada: bob is read
    assert len(ctx.captured_queries) == 1
    SessionStore(store.session_key).load()
    with CaptureQueriesContext(connection) as ctx:
        assert backend.get_user(ada.pk) == ada
        assert backend.get_user(ada.pk) == ada  # taken once: the second asks the database
    assert len(ctx.captured_queries) == 1


def test_deleting_a_user_ends_their_sessions(client):
    user = UserFactory()
    client.force_login(user)
    key = client.session.session_key
    user.delete()
    assert not Session.objects.filter(pk=key).exists()
    assert client.get("/account/").status_code == 302


def test_the_move_keeps_live_sessions_logged_in():
    """sheets/0008 copies Django's live sessions, each with whose it is."""
    from importlib import import_module

    from django.apps import apps
    from django.contrib.sessions.backends.db import SessionStore as DjangoStore
    from django.contrib.sessions.models import Session as DjangoSession

    user = UserFactory()
    live, gone, anonymous = DjangoStore(), DjangoStore(), DjangoStore()
    for store in (live, gone):
        store["_auth_user_id"] = str(user.pk)
    anonymous["cart"] = 1
    for store in (live, gone, anonymous):
        store.create()
    DjangoSession.objects.filter(pk=gone.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    migration = import_module("sheets.migrations.0008_sessions_with_their_user")
    migration.copy_live_sessions(apps, type("Editor", (), {"connection": connection})())
    moved = {s.session_key: s for s in Session.objects.all()}
    assert moved[live.session_key].user_id == user.pk
    assert moved[anonymous.session_key].user_id is None
    assert gone.session_key not in moved
    assert SessionStore(live.session_key).load()["_auth_user_id"] == str(user.pk)


def test_clearsessions_clears_the_expired_ones():
    from django.core.management import call_command

    live, expired = SessionStore(), SessionStore()
    for store in (live, expired):
        store.create()
    Session.objects.filter(pk=expired.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    call_command("clearsessions")
    assert set(Session.objects.values_list("pk", flat=True)) == {live.session_key}


@pytest.mark.django_db
def test_a_session_read_from_async_code_leaves_no_garbage_cycle():
    """Django loads the session inside an ``except AttributeError`` block, and asgiref re-raises
    that exception on the thread that runs the load: its traceback held the request's frames in a
    cycle (config/sessions.py). Live streams read the session so, thousands at a time."""
    user = UserFactory()
    store = SessionStore(_logged_in(user).session_key)
    gc.collect()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        assert async_to_sync(store.aget)(SESSION_KEY) == str(user.pk)
        gc.collect()
        exceptions = [o for o in gc.garbage if isinstance(o, BaseException)]
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    assert exceptions == []
