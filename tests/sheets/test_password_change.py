"""The password change asks whether the user's API tokens are revoked, revokes them unless told
not to, and says what became of them (sheets/views/accounts.py, docs/api.md)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from sheets.models import ApiToken, Scope
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

NEW = "n3w-passw0rd!"


def change(client, **extra):
    data = {"old_password": PASSWORD, "new_password1": NEW, "new_password2": NEW} | extra
    return client.post(reverse("password_change"), data, follow=True)


def works(raw) -> bool:
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}").get("/api/v1/me").status_code == 200


@pytest.fixture
def user_with_tokens(client):
    user = UserFactory()
    raws = [ApiToken.issue(user, name=f"t{n}", scope=Scope.READ)[1] for n in range(2)]
    client.force_login(user)
    return user, raws


def test_the_page_asks_with_the_box_ticked(client, user_with_tokens):
    html = client.get(reverse("password_change")).content.decode()
    assert "Also revoke my 2 active API tokens" in html
    box = (
        html.split('name="revoke_tokens"')[0].rsplit("<input", 1)[1]
        + html.split('name="revoke_tokens"')[1].split(">", 1)[0]
    )
    assert "checked" in box and 'type="checkbox"' in box


def test_the_tokens_are_revoked_by_default_and_the_page_says_so(client, user_with_tokens):
    user, raws = user_with_tokens
    done = change(client, revoke_tokens="on", tokens_asked="True")
    assert done.redirect_chain[-1][0] == reverse("password_change_done")
    assert "2 API tokens were revoked" in done.content.decode()
    assert not any(works(raw) for raw in raws)
    user.refresh_from_db()
    assert user.check_password(NEW)
    assert client.get(reverse("account")).status_code == 200  # still logged in here


def test_a_post_that_never_showed_the_question_revokes(client, user_with_tokens):
    _, raws = user_with_tokens
    assert "were revoked" in change(client).content.decode()
    assert not any(works(raw) for raw in raws)


def test_unticked_keeps_them_and_says_so(client, user_with_tokens):
    _, raws = user_with_tokens
    done = change(client, tokens_asked="True")
    assert "Your API tokens were kept: 2 still work." in done.content.decode()
    assert all(works(raw) for raw in raws)


def test_a_wrong_old_password_changes_and_revokes_nothing(client, user_with_tokens):
    _, raws = user_with_tokens
    refused = change(client, old_password="wrong", revoke_tokens="on", tokens_asked="True")
    assert refused.status_code == 400 and "incorrectly" in refused.content.decode()
    assert all(works(raw) for raw in raws)


def test_no_tokens_no_question(client):
    client.force_login(UserFactory())
    assert "revoke_tokens" not in client.get(reverse("password_change")).content.decode()
    assert "Your password was changed." in change(client).content.decode()
