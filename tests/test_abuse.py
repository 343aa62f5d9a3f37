"""Abuse of the forms a stranger can post: signup and password reset are rate-limited per client
address (PROXY_COUNT honoured, as for logins) and per username or email, with a readable 429;
neither tells more about who has an account than it must (docs/permissions.md, "Authentication
and abuse")."""

import re
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack

import pytest
from django.core import mail
from django.db import connection
from django.test import override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import UserFactory
from tests.live_servers import LiveLogin, database_url, uvicorn

pytestmark = pytest.mark.django_db

SIGNUP_ADDRESS_LIMIT, SIGNUP_NAME_LIMIT = 20, 10
RESET_ADDRESS_LIMIT, RESET_EMAIL_LIMIT = 10, 5


def signup(client, username, password="a long enough passphrase", **extra):
    return client.post(
        reverse("signup"),
        {
            "username": username,
            "email": f"{username}@example.com",
            "password1": password,
            "password2": extra.pop("password2", password),
        },
        **extra,
    )


def reset(client, email, **extra):
    return client.post(reverse("password_reset"), {"email": email}, **extra)


def assert_readable_429(response, heading):
    assert response.status_code == 429
    body = response.content.decode()
    assert heading in body
    assert re.search(r"Try again in \d+ minutes?", body)
    assert int(response["Retry-After"]) > 0


# ---------------------------------------------------------------------------------------------
# Signup
# ---------------------------------------------------------------------------------------------


def test_signup_is_limited_per_address(client):
    # Taken names: each attempt fails at the form, the way someone enumerating names would see it.
    for i in range(SIGNUP_ADDRESS_LIMIT):
        UserFactory(username=f"user{i}")
    for i in range(SIGNUP_ADDRESS_LIMIT):
        assert signup(client, f"user{i}").status_code == 400
    refused = signup(client, "someone-new")
    assert_readable_429(refused, "Too many sign-up attempts")
    assert not UserFactory._meta.model.objects.filter(username="someone-new").exists()
    # The page itself still opens, and another address may sign up.
    assert client.get(reverse("signup")).status_code == 200
    assert signup(client, "someone-new", REMOTE_ADDR="203.0.113.5").status_code == 302


def test_signup_is_limited_per_username_across_addresses(client):
    UserFactory(username="alice")
    for i in range(SIGNUP_NAME_LIMIT):
        assert signup(client, "alice", REMOTE_ADDR=f"203.0.113.{i}").status_code == 400
    # Case and spaces don't make it another name.
    refused = signup(client, " ALICE ", REMOTE_ADDR="198.51.100.1")
    assert_readable_429(refused, "Too many sign-up attempts")
    assert signup(client, "bob", REMOTE_ADDR="198.51.100.1").status_code == 302


def test_forged_forwarded_for_does_not_escape_the_signup_limit(client):
    with override_settings(PROXY_COUNT=0):
        for i in range(SIGNUP_ADDRESS_LIMIT):
            signup(client, f"name{i}", password2="mismatch", HTTP_X_FORWARDED_FOR=f"6.6.6.{i}")
        assert signup(client, "late", HTTP_X_FORWARDED_FOR="6.6.7.1").status_code == 429
    # Behind one proxy the address the proxy appended counts, not what the client wrote.
    with override_settings(PROXY_COUNT=1):
        for i in range(SIGNUP_ADDRESS_LIMIT):
            xff = f"6.6.6.{i}, 198.51.100.7"
            signup(client, f"other{i}", password2="mismatch", HTTP_X_FORWARDED_FOR=xff)
        assert (
            signup(client, "late", HTTP_X_FORWARDED_FOR="1.1.1.1, 198.51.100.7").status_code == 429
        )
        assert signup(client, "late", HTTP_X_FORWARDED_FOR="198.51.100.8").status_code == 302


def test_a_taken_username_is_the_only_difference_at_signup(client):
    """A taken name and a free one, both with a bad password: the same status, the same queries
    (so no timing signal from the database) and the same errors but the one the form must give."""
    UserFactory(username="alice", email="alice@example.com")

    def attempt(username, address):
        with CaptureQueriesContext(connection) as queries:
            response = signup(client, username, password="alice", REMOTE_ADDR=address)
        errors = re.findall(r'<ul class="errorlist"[^>]*>(.*?)</ul>', response.content.decode())
        return response.status_code, len(queries), errors

    taken_status, taken_queries, taken_errors = attempt("alice", "203.0.113.1")
    free_status, free_queries, free_errors = attempt("alicia", "203.0.113.2")
    assert taken_status == free_status == 400
    assert taken_queries == free_queries
    taken_msg = "A user with that username already exists."
    assert any(taken_msg in e for e in taken_errors)
    assert [e for e in taken_errors if taken_msg not in e] == free_errors


def test_an_email_in_use_is_not_revealed_at_signup(client):
    UserFactory(username="alice", email="alice@example.com")
    response = client.post(
        reverse("signup"),
        {
            "username": "alice2",
            "email": "alice@example.com",
            "password1": "a long enough passphrase",
            "password2": "a long enough passphrase",
        },
    )
    assert response.status_code == 302


# ---------------------------------------------------------------------------------------------
# Password reset
# ---------------------------------------------------------------------------------------------


def test_password_reset_answers_the_same_whether_or_not_the_email_exists(client):
    UserFactory(username="alice", email="alice@example.com")
    known = reset(client, "alice@example.com", REMOTE_ADDR="203.0.113.1")
    unknown = reset(client, "nobody@example.com", REMOTE_ADDR="203.0.113.2")
    assert known.status_code == unknown.status_code == 302
    assert known["Location"] == unknown["Location"] == reverse("password_reset_done")
    assert [m.to for m in mail.outbox] == [["alice@example.com"]]
    assert "If an account uses that address" in client.get(known["Location"]).content.decode()


def test_password_reset_is_limited_per_address(client):
    for i in range(RESET_ADDRESS_LIMIT):
        assert reset(client, f"someone{i}@example.com").status_code == 302
    assert_readable_429(reset(client, "late@example.com"), "Too many password-reset requests")
    assert reset(client, "late@example.com", REMOTE_ADDR="203.0.113.9").status_code == 302


@pytest.mark.parametrize("exists", [True, False])
def test_password_reset_is_limited_per_email_whether_or_not_it_exists(client, exists):
    """The limit counts the email posted, known or not, so the 429 itself tells nothing; it also
    keeps anyone from flooding an inbox from many addresses."""
    if exists:
        UserFactory(username="alice", email="alice@example.com")
    for i in range(RESET_EMAIL_LIMIT):
        response = reset(client, "alice@example.com", REMOTE_ADDR=f"203.0.113.{i}")
        assert response.status_code == 302
    refused = reset(client, "Alice@Example.com", REMOTE_ADDR="198.51.100.1")
    assert_readable_429(refused, "Too many password-reset requests")
    assert len(mail.outbox) == (RESET_EMAIL_LIMIT if exists else 0)


def test_the_rate_limit_window_ends(client):
    from web.ratelimit import Rate, attempt

    rate = Rate(2, 60)
    assert attempt("t", "k", rate, now=600) == 0
    assert attempt("t", "k", rate, now=610) == 0
    assert attempt("t", "k", rate, now=620) == 40  # seconds until the window ends
    assert attempt("t", "other", rate, now=620) == 0
    assert attempt("t", "k", rate, now=660) == 0  # the next window


def test_a_name_taken_between_check_and_insert_is_a_form_error_not_a_500(client, monkeypatch):
    from django.contrib.auth.forms import UserCreationForm

    UserFactory(username="alice")
    # As if another signup committed "alice" after this form's lookup.
    monkeypatch.setattr(UserCreationForm, "clean_username", lambda f: f.cleaned_data["username"])
    response = signup(client, "alice")
    assert response.status_code == 400
    assert "A user with that username already exists." in response.content.decode()
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="Several server processes need PostgreSQL (README: with SQLite run one process): "
    "run with DATABASE_URL=postgres://…; .ci/run does.",
)
def test_two_server_processes_share_one_count_even_in_parallel():
    """The counts live in the database: two uvicorn processes on one database, twelve reset
    requests from one address fired at both at once, and exactly the limit goes through."""
    url = database_url()
    with ExitStack() as stack:
        clients = [LiveLogin(stack.enter_context(uvicorn(url))) for _ in range(2)]

        def post(i):
            client = clients[i % 2]
            form = f"email=someone{i}%40example.com&csrfmiddlewaretoken={client.token}"
            headers = {
                "Content-Type": "application/x-www-form-urlencoded",
                "Cookie": client.cookie,
            }
            return client.request("POST", "/accounts/password_reset/", form, headers)[0]

        with ThreadPoolExecutor(max_workers=12) as pool:
            statuses = list(pool.map(post, range(RESET_ADDRESS_LIMIT + 2)))
    assert sorted(statuses) == [302] * RESET_ADDRESS_LIMIT + [429, 429], statuses


def test_a_write_the_database_refuses_does_not_lock_anyone_out(client, monkeypatch):
    """DatabaseCache.add() answers False on a database error too: with slots still free that is
    no full window, so the attempt goes through (the form's own writes will fail loudly)."""
    from django.core.cache import caches

    from web.ratelimit import CACHE, Rate, attempt

    cache = caches[CACHE]
    assert attempt("t", "k", Rate(3, 60), now=0) == 0
    monkeypatch.setattr(type(cache), "add", lambda *args, **kwargs: False)
    assert attempt("t", "k", Rate(3, 60), now=1) == 0
    # A window really full is still refused.
    monkeypatch.undo()
    assert attempt("t", "k", Rate(3, 60), now=2) == 0
    assert attempt("t", "k", Rate(3, 60), now=3) == 0
    monkeypatch.setattr(type(cache), "add", lambda *args, **kwargs: False)
    assert attempt("t", "k", Rate(3, 60), now=4) == 56
