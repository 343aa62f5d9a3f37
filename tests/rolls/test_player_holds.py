"""What a player can check, and how (docs/verifiable-dice.md): the downloaded verifier catches a
server that holds its key and still cheats — one that ignores the player's nonce, proves fewer
dice than the entry's pool, swaps its key, or rewrites a signed entry of the GM's export. Each
test serves the dishonest variant from the real app (the server monkeypatched), exports the log
and runs ``poolside_verify.py`` as a player does, in an isolated Python."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from log.models import KeyRotation, LogHead, Visibility
from log.models.keys import published_keys, server_key
from proofs.dice import VrfDice, new_nonce
from proofs.keys import ServerKey
from rolls.rolling import dice as rolling_dice
from tests.rolls.helpers import roll_athletics

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rulebook_athletics")]

NONCE = "8e13a0c2d1f4b5e6"


def _save(tmp_path: Path, name: str, response) -> Path:
    path = tmp_path / name
    body = b"".join(response.streaming_content) if response.streaming else response.content
    path.write_bytes(body)
    return path


def _export(client: Client, party, tmp_path: Path, user: str = "player") -> Path:
    client.force_login(getattr(party, user))
    response = client.get(reverse("campaign_log_json", args=[party.campaign.pk]))
    return _save(tmp_path, f"{user}.json", response)


def _keys(tmp_path: Path, name: str = "saved-keys.json") -> Path:
    return _save(tmp_path, name, Client().get(reverse("keys_json")))


def _verify(tmp_path: Path, export: Path, *args: str) -> subprocess.CompletedProcess[str]:
    script = _save(tmp_path, "poolside_verify.py", Client().get(reverse("verifier")))
    return subprocess.run(
        [sys.executable, "-I", str(script), str(export), *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )


def _nonces(tmp_path: Path, kept: dict[str, str]) -> Path:
    path = tmp_path / "nonces.json"
    path.write_text(json.dumps(kept))
    return path


def test_the_nonces_a_player_kept_hold_an_honest_server(client, party, tmp_path):
    entry = roll_athletics(client, party, Visibility.PUBLIC, nonce=NONCE)
    export = _export(client, party, tmp_path)
    run = _verify(tmp_path, export, "--nonces", str(_nonces(tmp_path, {entry.hash: NONCE})))
    assert run.returncode == 0, run.stdout + run.stderr
    assert "1 with your nonce" in run.stdout


def test_a_server_that_ignores_the_players_nonce_is_caught(client, party, tmp_path, monkeypatch):
    # The dishonest server: the same code, but the dice's nonce is always its own.
    monkeypatch.setattr(rolling_dice, "nonce_from", lambda sent: new_nonce())
    entry = roll_athletics(client, party, Visibility.PUBLIC, nonce=NONCE)
    export = _export(client, party, tmp_path)
    plain = _verify(tmp_path, export)
    assert plain.returncode == 0  # the proof itself is sound: only the nonce kept tells
    run = _verify(tmp_path, export, "--nonces", str(_nonces(tmp_path, {entry.hash: NONCE})))
    assert run.returncode == 1, run.stdout
    used = entry.proof["alpha"]["nonce"]
    assert (
        f"entry {entry.hash[:12]}… ('Athletics'): you sent nonce {NONCE[:8]}…, the proof uses "
        f"{used[:8]}…: the server did not use your part"
    ) in run.stdout.splitlines()


def test_a_server_that_proves_fewer_dice_than_the_pool_is_caught(
    client, party, tmp_path, monkeypatch
):
    honest_draw = rolling_dice.LogDice.draw

    def two_dice_fewer(self, groups):
        (kind, count, sides), *rest = groups
        return honest_draw(self, ((kind, max(count - 2, 0), sides), *rest))

    monkeypatch.setattr(rolling_dice.LogDice, "draw", two_dice_fewer)
    entry = roll_athletics(client, party, Visibility.PUBLIC)
    dice = entry.pool["dice"]
    assert len(entry.faces) == dice - 2  # the entry says its pool, the proof has fewer dice
    for user in ("player", "gm"):
        run = _verify(tmp_path, _export(client, party, tmp_path, user))
        assert run.returncode == 1, (user, run.stdout)
        assert f"the proof rolls {dice - 2} dice, but the entry's pool is {dice}d6" in run.stdout


def test_a_rotation_signed_by_the_saved_key_is_accepted_and_a_swapped_key_is_not(
    client, party, tmp_path, settings
):
    roll_athletics(client, party, Visibility.PUBLIC)
    saved = _keys(tmp_path)  # what the player keeps
    new_key = tmp_path / "rotated.key"
    call_command("rotate_key", str(new_key), "--create", stdout=StringIO())
    settings.SIGNING_KEY_FILE = new_key
    roll_athletics(client, party, Visibility.PUBLIC)
    run = _verify(tmp_path, _export(client, party, tmp_path), "--keys", str(saved))
    assert run.returncode == 0, run.stdout + run.stderr
    # Now a key the server made for itself, with no word from the key before it.
    swapped = tmp_path / "swapped.key"
    swapped.write_text(secrets.token_hex(32) + "\n")
    settings.SIGNING_KEY_FILE = swapped
    roll_athletics(client, party, Visibility.PUBLIC)
    run = _verify(tmp_path, _export(client, party, tmp_path), "--keys", str(saved))
    assert run.returncode == 1, run.stdout
    swapped_id, rotated_id = server_key().id, ServerKey.from_file(new_key).id
    assert (
        f"keys: key {swapped_id} is not pinned: it is not a rotation signed by {rotated_id}, "
        "the newest key you saved"
    ) in run.stdout.splitlines()
    assert f"proof names unknown or unpublished key '{swapped_id}'" in run.stdout


def test_a_signed_entry_rewritten_in_the_gms_export_is_caught_by_its_hash(client, party, tmp_path):
    # The review's attack on an export kept offline: another valid proof (the server's own
    # nonce, the entry's own place) and its dice in place of the roll's, hash and signature kept.
    entry = roll_athletics(client, party, Visibility.PUBLIC)
    export = _export(client, party, tmp_path, "gm")
    data = json.loads(export.read_text())
    (record,) = [r for r in data["entries"] if r["hash"] == entry.hash]
    secret = LogHead.objects.get(campaign=party.campaign).position_secret
    dice = VrfDice(
        server_key(), party.campaign.pk, entry.label, "the-servers-own",
        lambda: (entry.seq, entry.prev_hash, secret, 1), entry.user_id,
    )  # fmt: skip
    (faces,) = dice.draw((("d6", len(entry.faces), 6),))
    record["faces"] = [
        die | {"face": face} for die, face in zip(record["faces"], faces, strict=True)
    ]
    record["proof"] = dice.record()
    export.write_text(json.dumps(data))
    run = _verify(tmp_path, export)
    assert run.returncode == 1, run.stdout
    assert any(
        line.endswith(
            "its fields do not hash to its hash: the entry was changed after it was signed"
        )
        for line in run.stdout.splitlines()
    )


def test_rotate_key_refuses_the_current_key_and_a_missing_file(settings, tmp_path):
    with pytest.raises(CommandError, match="the new key is the key the server signs with now"):
        call_command("rotate_key", str(settings.SIGNING_KEY_FILE), stdout=StringIO())
    with pytest.raises(CommandError, match="does not exist"):
        call_command("rotate_key", str(tmp_path / "none.key"), stdout=StringIO())
    assert not KeyRotation.objects.exists()
    # A statement is published only once its key is, and only from the key just before.
    assert [key["rotation"] for key in published_keys()] == [None]
