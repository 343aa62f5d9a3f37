"""The logged-out home page (the landing page) and its one-click demo logins."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.urls import reverse

from sheets.management.commands.demo import PASSWORD as DEMO_PASSWORD

User = get_user_model()
TRY = re.compile(r"Try it as (the GM|alice|bob)")


@pytest.fixture
def demo(db):
    """The demo data of `make run` (manage.py demo): gm, alice and bob with the demo password."""
    cache.clear()  # the landing page caches whether each stored hash is the demo password's
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115 — the command prints logins


@pytest.fixture
def demo_on(settings, demo):
    settings.DEMO_LOGINS = True


def logged_in_as(client) -> str | None:
    response = client.get(reverse("home"))
    user = response.wsgi_request.user
    return user.username if user.is_authenticated else None


@pytest.mark.django_db
def test_landing_page_shows_what_poolside_does(client, settings):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    html = response.content.decode()
    for words in (
        "Cogent Roleplay",
        "DAD6 Skills",
        "Cold Stars",
        "Exact odds before every roll",
        "Rolls nobody can fake",
        "leak nothing",
        "One live log",
        "without JavaScript",
    ):
        assert words in html, words
    # The picture of a sheet and a roll, with a text alternative, in both themes.
    for picture in ("sheet", "roll"):
        img = re.search(rf'<img src="([^"]*img/landing-{picture}\.png)"[^>]*\salt="([^"]+)"', html)
        assert img and len(img[2]) > 40, picture
        assert f'img/landing-{picture}-dark.png" media="(prefers-color-scheme: dark)"' in html
        for png in (f"landing-{picture}.png", f"landing-{picture}-dark.png"):
            assert (settings.BASE_DIR / "static" / "img" / png).is_file(), png
    assert f'href="{reverse("signup")}"' in html and f'href="{reverse("login")}"' in html


def test_demo_logins_are_off_by_default(client, demo):
    html = client.get(reverse("home")).content.decode()
    assert not TRY.search(html) and reverse("demo_login") not in html
    response = client.post(reverse("demo_login"), {"username": "alice"})
    assert response.status_code == 404
    assert logged_in_as(client) is None


def test_with_demo_logins_on_one_click_logs_in_as_each_demo_user(client, demo_on):
    html = client.get(reverse("home")).content.decode()
    assert TRY.findall(html) == ["the GM", "alice", "bob"]
    # Each button is a real POST form with its CSRF token, so it works without JavaScript.
    forms = re.findall(r'<form method="post" action="([^"]+)">(.*?)</form>', html, re.S)
    demo_forms = [body for action, body in forms if action == reverse("demo_login")]
    assert len(demo_forms) == 3
    assert all("csrfmiddlewaretoken" in body for body in demo_forms)
    for username in ("gm", "alice", "bob"):
        client.logout()
        response = client.post(reverse("demo_login"), {"username": username})
        assert response.status_code == 302 and response["Location"] == reverse("home")
        assert logged_in_as(client) == username
    # Logged in, the home page is the campaign list: the demo campaigns are there.
    assert b"Cold Stars demo" in client.get(reverse("home")).content


def test_the_demo_login_form_is_protected_by_csrf(demo_on):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("demo_login"), {"username": "alice"})
    assert response.status_code == 403
    assert logged_in_as(client) is None


def test_a_demo_user_whose_password_changed_is_refused(client, demo_on):
    alice = User.objects.get(username="alice")
    alice.set_password("not the demo password any more")
    alice.save()
    html = client.get(reverse("home")).content.decode()
    assert TRY.findall(html) == ["the GM", "bob"]
    response = client.post(reverse("demo_login"), {"username": "alice"})
    assert response.status_code == 404
    assert logged_in_as(client) is None


def test_only_the_demo_users_can_be_logged_in_as(client, demo_on):
    # Another account with the demo password is still not a demo login.
    User.objects.create_user("carol", password=DEMO_PASSWORD)
    for username in ("carol", "", "GM", "admin"):
        assert client.post(reverse("demo_login"), {"username": username}).status_code == 404
    assert logged_in_as(client) is None
    assert client.get(reverse("demo_login")).status_code == 405


def test_without_the_demo_data_there_are_no_buttons(client, settings, db):
    settings.DEMO_LOGINS = True
    assert not TRY.search(client.get(reverse("home")).content.decode())
    assert client.post(reverse("demo_login"), {"username": "gm"}).status_code == 404


def test_demo_logins_do_not_bypass_a_login_lockout(client, demo_on, settings):
    # Wrong passwords for alice from this address lock the pair out (django-axes); the demo
    # button goes through the same authentication, so it is locked out too.
    for _ in range(settings.AXES_FAILURE_LIMIT):
        client.post(reverse("login"), {"username": "alice", "password": "wrong"})
    response = client.post(reverse("demo_login"), {"username": "alice"})
    assert response.status_code == 429
    assert b"Too many login attempts" in response.content
    assert logged_in_as(client) is None
    # bob, from the same address, is not locked out.
    assert client.post(reverse("demo_login"), {"username": "bob"}).status_code == 302
