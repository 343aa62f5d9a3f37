"""A member's signed view of the log (docs/verifiable-dice.md#your-view-of-the-log): what each
member was shown, in order, signed; it only grows, a reveal doesn't rewrite it, it leaks nothing
of what the member wasn't shown, and a history changed after they saw it fails their check."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from django.test import Client
from django.urls import reverse

from log.models import RollEntry, SeenHead, Visibility
from log.models.keys import keys_by_id, server_key
from proofs.protocol import view_message, view_start, view_step
from rolls.seen import chain
from sheets.models import ApiToken, Scope
from tests.rolls.helpers import roll_athletics, tamper

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rulebook_athletics")]


def view(client: Client, party, user: str, **params) -> dict:
    client.force_login(getattr(party, user))
    response = client.get(reverse("seen_head", args=[party.campaign.pk]), params)
    assert response.status_code == 200, response.content
    return response.json()


def fold(client: Client, party, user: str, saved: dict | None) -> tuple[str, dict]:
    """What the log page's script does (static/js/view-check.js): fold the answer's items from
    its start, pass through the saved head, end at the signed one. ("", head) or (problem, head)."""
    params = {} if saved is None else {"since": saved["length"]}
    page = view(client, party, user, **params)
    head, running, position = page["head"], page["start"]["hash"], page["start"]["length"]
    if saved is not None and saved["length"] > head["length"]:
        return "shorter", head
    passed = saved is None or (position == saved["length"] and running == saved["hash"])
    while True:
        for each in page["items"]:
            running, position = view_step(running, each), position + 1
            if saved is not None and position == saved["length"]:
                passed = running == saved["hash"]
        if page["next"] is None:
            break
        page = view(client, party, user, **params, start=page["next"])
    if not passed:
        return "changed", head
    if (position, running) != (head["length"], head["hash"]):
        return "not the signed head", head
    key = keys_by_id()[head["key"]]
    from log.models.keys import signature_valid

    message = view_message(
        party.campaign.pk, getattr(party, user).pk, page["role"], head["length"], head["hash"]
    )
    assert signature_valid(key["signing_key"], message, head["signature"])
    return "", head


def test_each_member_s_view_is_what_they_were_shown(client, party):
    public = roll_athletics(client, party, Visibility.PUBLIC)
    blind = roll_athletics(client, party, Visibility.BLIND)
    gm_only = roll_athletics(client, party, Visibility.GM_ONLY)
    secret = roll_athletics(client, party, Visibility.SECRET, as_user="gm")
    items = {user: view(client, party, user)["items"] for user in ("gm", "player", "other_player")}
    ids = {user: [each["id"] for each in found] for user, found in items.items()}
    from log.tokens import entry_token

    every = [entry_token(e.pk) for e in (public, blind, gm_only, secret)]
    assert ids["gm"] == every
    assert ids["player"] == every[:3]
    assert ids["other_player"] == every[:1]
    assert items["player"][1]["placeholder"] is True and "faces" not in items["player"][1]
    assert items["gm"][1]["placeholder"] is False and items["gm"][1]["proof"]
    for user in ("gm", "player", "other_player"):
        assert fold(client, party, user, None)[0] == ""


def test_a_member_learns_nothing_of_what_they_were_not_shown(client, party):
    roll_athletics(client, party, Visibility.PUBLIC)
    client.force_login(party.other_player)
    url = reverse("seen_head", args=[party.campaign.pk])
    before = [client.get(url, params).content for params in ({}, {"since": 1}, {"since": 0})]
    roll_athletics(client, party, Visibility.GM_ONLY)
    roll_athletics(client, party, Visibility.BLIND)
    roll_athletics(client, party, Visibility.SECRET, as_user="gm")
    client.force_login(party.other_player)
    after = [client.get(url, params).content for params in ({}, {"since": 1}, {"since": 0})]
    assert after == before  # byte for byte: no count, no hash, no signature moved


def test_the_view_only_grows_and_a_reveal_rewrites_nothing(client, party):
    roll_athletics(client, party, Visibility.PUBLIC)
    blind = roll_athletics(client, party, Visibility.BLIND)
    _, saved = fold(client, party, "player", None)
    _, saved_other = fold(client, party, "other_player", None)
    client.force_login(party.gm)
    assert client.post(reverse("roll_reveal", args=[blind.pk])).status_code == 302
    roll_athletics(client, party, Visibility.PUBLIC)
    problem, head = fold(client, party, "player", saved)
    assert problem == "" and head["length"] == saved["length"] + 2  # the reveal, the new roll
    problem, head = fold(client, party, "other_player", saved_other)
    assert problem == "" and head["length"] == saved_other["length"] + 2


def test_history_a_member_saw_changed_or_removed_fails_their_check(client, party):
    entries = [roll_athletics(client, party, Visibility.PUBLIC) for _ in range(3)]
    _, saved = fold(client, party, "player", None)
    tamper(
        "UPDATE rolls_rollentry SET outcome = 'success', detail = 'x' WHERE id = %s",
        [entries[1].pk],
    )
    assert fold(client, party, "player", saved)[0] == "changed"
    tamper("DELETE FROM rolls_rollentry WHERE id = %s", [entries[1].pk])
    assert fold(client, party, "player", saved)[0] in ("changed", "not the signed head")


def test_a_log_cut_below_what_a_member_saw_is_shorter(client, party):
    entries = [roll_athletics(client, party, Visibility.PUBLIC) for _ in range(3)]
    _, saved = fold(client, party, "player", None)
    tamper("DELETE FROM rolls_rollentry WHERE id = %s", [entries[2].pk])
    # The server forgets the member's view too, as a rewrite of the database would.
    tamper("DELETE FROM rolls_seencheckpoint", [])
    tamper("DELETE FROM rolls_seenhead", [])
    assert fold(client, party, "player", saved)[0] == "shorter"


def test_catching_up_from_far_behind_comes_in_pieces_with_the_same_head(client, party, monkeypatch):
    for _ in range(7):
        roll_athletics(client, party, Visibility.PUBLIC)
    _, whole = fold(client, party, "gm", None)
    SeenHead.objects.all().delete()
    monkeypatch.setattr(chain, "BUDGET", 3)
    monkeypatch.setattr(chain, "STEP", 2)
    heads = [view(client, party, "gm")["head"] for _ in range(3)]
    assert [head["complete"] for head in heads] == [False, False, True]
    assert [head["length"] for head in heads] == [3, 6, 7]
    assert heads[-1]["hash"] == whole["hash"]


def test_only_members_get_a_view_paged_and_bad_input_refused(client, party, monkeypatch):
    for _ in range(5):
        roll_athletics(client, party, Visibility.PUBLIC)
    monkeypatch.setattr(chain, "PAGE", 2)
    assert fold(client, party, "player", None)[0] == ""
    client.force_login(party.player)
    url = reverse("seen_head", args=[party.campaign.pk])
    bad = client.get(url, {"since": "many"})
    assert bad.status_code == 400 and "since" in bad.content.decode()
    client.force_login(party.nonmember)
    assert client.get(url).status_code == 404
    assert client.get(reverse("seen_export", args=[party.campaign.pk])).status_code == 404
    client.logout()
    assert client.get(url).status_code == 302  # to the login page


def test_a_new_role_starts_a_new_view(client, party):
    roll_athletics(client, party, Visibility.PUBLIC)
    roll_athletics(client, party, Visibility.SECRET, as_user="gm")
    assert view(client, party, "player")["head"]["length"] == 1
    # The GM hands the role over (one GM a campaign): the old GM first, then the new one.
    old = party.campaign.memberships.get(user=party.gm)
    new = party.campaign.memberships.get(user=party.player)
    old.role, new.role = new.role, "gm"
    old.save()
    new.save()
    answer = view(client, party, "player")
    assert answer["role"] == "gm" and answer["head"]["length"] == 2


def test_the_api_gives_the_same_answer(client, party):
    roll_athletics(client, party, Visibility.PUBLIC)
    _, raw = ApiToken.issue(party.player, name="t", scope=Scope.READ)
    api = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    url = reverse("api:view", args=[party.campaign.pk])
    assert api.get(url).json() == view(client, party, "player")
    assert api.get(url, {"since": -1}).status_code == 422
    _, raw = ApiToken.issue(party.nonmember, name="t", scope=Scope.READ)
    assert Client(HTTP_AUTHORIZATION=f"Bearer {raw}").get(url).status_code == 404


def test_the_standalone_verifier_holds_a_view_file_to_a_saved_head(client, party, tmp_path):
    entries = [roll_athletics(client, party, Visibility.PUBLIC) for _ in range(3)]
    roll_athletics(client, party, Visibility.BLIND)
    _, saved = fold(client, party, "player", None)
    (tmp_path / "head.json").write_text(json.dumps(saved))
    script = tmp_path / "poolside_verify.py"
    script.write_bytes(Client().get(reverse("verifier")).getvalue())

    def verify() -> subprocess.CompletedProcess[str]:
        client.force_login(party.player)
        response = client.get(reverse("seen_export", args=[party.campaign.pk]))
        (tmp_path / "view.json").write_bytes(b"".join(response.streaming_content))
        return subprocess.run(
            [sys.executable, "-I", str(script), "view.json", "--saved-head", "head.json"],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            check=False,
        )

    run = verify()
    assert run.returncode == 0 and "OK: 4 items" in run.stdout, run.stdout + run.stderr
    tamper("DELETE FROM rolls_rollentry WHERE id = %s", [entries[0].pk])
    run = verify()
    assert run.returncode == 1 and "history" in run.stdout, run.stdout


def test_the_view_starts_from_the_member_s_own_empty_head(client, party):
    answer = view(client, party, "player")
    assert answer["head"]["length"] == 0 and answer["items"] == []
    assert answer["head"]["hash"] == view_start(party.campaign.pk, party.player.pk)
    assert answer["head"]["key"] == server_key().id
    assert not RollEntry.objects.exists()
