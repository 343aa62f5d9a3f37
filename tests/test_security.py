"""Deployment settings and login throttling."""

import secrets

import pytest
from django.conf import settings
from django.contrib.auth.hashers import PBKDF2PasswordHasher, make_password
from django.test import RequestFactory, override_settings

from tests.deploy import PRODUCTION_ENV, deploy_check
from tests.factories import PASSWORD, UserFactory
from tests.live_servers import LiveLogin, database_url, server_args, uvicorn
from web.security import client_ip


def test_deploy_check_is_clean_under_the_documented_production_settings():
    result = deploy_check(PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr


def test_deploy_check_fails_without_them():
    # The same check on development defaults must complain, or the test above proves nothing.
    result = deploy_check({"SECRET_KEY": secrets.token_urlsafe(50)})
    assert result.returncode != 0
    assert "SECURE_HSTS_SECONDS" in result.stdout + result.stderr


@pytest.mark.django_db
class TestLoginThrottling:
    def login(self, client, username, password):
        return client.post("/accounts/login/", {"username": username, "password": password})

    def test_repeated_wrong_passwords_lock_the_pair_out_with_a_readable_429(self, client):
        user = UserFactory(username="alice")
        for _ in range(4):
            response = self.login(client, "alice", "wrong")
            assert response.status_code == 200  # the form again, with its error
        locked = self.login(client, "alice", "wrong")
        assert locked.status_code == 429
        assert "Too many login attempts" in locked.content.decode()
        # Even the right password is refused while locked out.
        again = self.login(client, "alice", PASSWORD)
        assert again.status_code == 429
        assert "_auth_user_id" not in client.session
        assert user.is_active

    def test_another_username_and_another_address_are_not_locked(self, client):
        UserFactory(username="alice")
        UserFactory(username="bob")
        for _ in range(5):
            self.login(client, "alice", "wrong")
        assert self.login(client, "bob", PASSWORD).status_code == 302
        client.logout()
        elsewhere = client.post(
            "/accounts/login/",
            {"username": "alice", "password": PASSWORD},
            REMOTE_ADDR="203.0.113.9",
        )
        assert elsewhere.status_code == 302

    def test_a_success_resets_the_count(self, client):
        UserFactory(username="alice")
        for _ in range(4):
            self.login(client, "alice", "wrong")
        assert self.login(client, "alice", PASSWORD).status_code == 302
        client.logout()
        for _ in range(4):
            assert self.login(client, "alice", "wrong").status_code == 200


def test_client_ip_trusts_only_the_configured_proxies():
    request = RequestFactory().get(
        "/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="6.6.6.6, 198.51.100.7"
    )
    with override_settings(PROXY_COUNT=0):
        assert client_ip(request) == "10.0.0.1"
    with override_settings(PROXY_COUNT=1):
        assert client_ip(request) == "198.51.100.7"  # the client can't forge the proxy's hop
    with override_settings(PROXY_COUNT=3):
        assert client_ip(request) == "10.0.0.1"  # fewer hops than proxies: fall back


# ---------------------------------------------------------------------------------------------
# Through the real server: forged X-Forwarded-For must not escape the lockout
# ---------------------------------------------------------------------------------------------


def live_user(username):
    # The server process has Django's default hashers, not the suite's fast MD5 one.
    user = UserFactory(username=username)
    user.password = make_password(PASSWORD, hasher=PBKDF2PasswordHasher())
    user.save()
    return user


@pytest.mark.django_db(transaction=True)
def test_the_real_server_ignores_forged_forwarded_for_headers():
    """`make run`'s uvicorn (tests.live_servers reads its options from the Makefile): a client
    that rotates X-Forwarded-For is still one address, so five wrong passwords lock it out."""
    live_user("alice")
    with uvicorn(database_url()) as base:
        client = LiveLogin(base)
        answers = [client.login("alice", "wrong", f"203.0.113.{i}") for i in range(1, 6)]
        assert answers == [200, 200, 200, 200, 429]
        # The right password, from yet another forged address, is refused too.
        assert client.login("alice", PASSWORD, "198.51.100.99") == 429
        assert client.login("alice", PASSWORD) == 429


@pytest.mark.django_db(transaction=True)
def test_behind_one_proxy_the_real_server_takes_the_address_the_proxy_wrote():
    """PROXY_COUNT=1: the test plays the proxy, appending the real client's address. Whatever the
    client wrote to the left is ignored; another real client is not locked out."""
    live_user("alice")
    with uvicorn(database_url(), env={"PROXY_COUNT": "1"}) as base:
        client = LiveLogin(base)
        answers = [
            client.login("alice", "wrong", f"203.0.113.{i}, 198.51.100.7") for i in range(1, 6)
        ]
        assert answers == [200, 200, 200, 200, 429]
        assert client.login("alice", PASSWORD, "10.9.9.9, 198.51.100.7") == 429
        # Another client behind the same proxy logs in.
        assert client.login("alice", PASSWORD, "198.51.100.8") == 302


def test_the_documented_commands_turn_uvicorns_proxy_headers_off():
    """uvicorn trusts X-Forwarded-For/-Proto from 127.0.0.1 by default; Poolside reads them itself
    (PROXY_COUNT, BEHIND_HTTPS_PROXY), so every documented server command must turn that off."""
    assert "--no-proxy-headers" in server_args()  # the Makefile's `run`
    docs = [settings.BASE_DIR / "README.md", *sorted((settings.BASE_DIR / "docs").glob("*.md"))]
    commands = [
        (path.name, line)
        for path in docs
        for line in path.read_text().splitlines()
        if "uvicorn config.asgi:application --" in line
    ]
    assert any(name == "README.md" for name, _ in commands), "README.md has no server command"
    for name, command in commands:
        assert "--no-proxy-headers" in command, f"{name}: {command}"
