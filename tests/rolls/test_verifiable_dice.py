"""Verifiable dice and the signed log (docs/verifiable-dice.md), through the app: every roll's
dice come with a proof that checks under the published key; the proof goes only where the dice go;
the roller's nonce is in the input; verify_log holds entries and the head to the server's key."""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from log.models import LogHead, RollEntry, Visibility
from log.models.keys import keys_by_id, published_keys, server_key
from proofs import protocol as poolside_verify
from proofs.dice import valid_nonce
from proofs.keys import ServerKey
from sheets.models import ApiToken, Scope
from tests.rolls.helpers import athletics, latest, roll_athletics, tamper, token
from tests.rolls.helpers import verify_log as verify

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("rulebook_athletics")]


def api(user) -> Client:
    _, raw = ApiToken.issue(user, name="test", scope=Scope.ROLL)
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


def check(entry: RollEntry) -> None:
    """The entry's proof checks as a player's verifier checks it, and sits where the entry is."""
    record = {"label": entry.label, "faces": entry.faces, "proof": entry.proof}
    poolside_verify.check_proof(record, keys_by_id())
    head = LogHead.objects.get(campaign_id=entry.campaign_id)
    alpha = entry.proof["alpha"]
    assert alpha["campaign"] == entry.campaign_id and alpha["v"] == 2
    mine = poolside_verify.roller_secret(head.position_secret, entry.campaign_id, entry.user_ref)
    assert poolside_verify.counter_n(alpha, entry.user_ref, mine, 100) is not None


def test_a_roll_s_dice_come_with_a_proof_that_checks(client, party):
    entry = roll_athletics(client, party, Visibility.PUBLIC, nonce="browser-nonce-1234")
    assert entry.proof["key"] == server_key().id
    assert entry.proof["alpha"]["nonce"] == "browser-nonce-1234"
    assert entry.proof["alpha"]["target"] == "Athletics"
    assert entry.proof["alpha"]["pool"] == [["d6", 6, 6]]
    check(entry)
    code, out = verify(party.campaign.pk)
    assert code == 0 and "1 entries, chain intact and signed" in out


def test_without_a_nonce_the_server_makes_one_and_a_bad_one_is_refused(client, party):
    entry = roll_athletics(client, party, Visibility.PUBLIC)
    assert valid_nonce(entry.proof["alpha"]["nonce"])
    url = reverse("api:roll", args=[party.pc.pk, "cogent-skill", athletics(party.pc).pk])
    for bad in ("short", "x" * 65, "not a nonce!"):
        response = api(party.player).post(
            url, {"challenge_level": 2, "nonce": bad}, content_type="application/json"
        )
        assert response.status_code in (400, 409, 422), (bad, response.content)
        assert "nonce" in response.content.decode()
    assert RollEntry.objects.count() == 1
    good = api(party.player).post(
        url, {"challenge_level": 2, "nonce": "Script_nonce-42"}, content_type="application/json"
    )
    assert good.status_code == 201
    assert good.json()["proof"]["alpha"]["nonce"] == "Script_nonce-42"
    check(latest())


def _proof_seen(client: Client, party, user: str, entry: RollEntry) -> bool:
    """Does ``user`` get the entry's proof (its pi) anywhere: the API, the export, the permalink?"""
    client.force_login(getattr(party, user))
    pi = entry.proof["pi"]
    texts = [
        client.get(reverse("roll_entry", args=[entry.pk])).content.decode(),
        b"".join(
            client.get(reverse("campaign_log_json", args=[party.campaign.pk])).streaming_content
        ).decode(),
        api(getattr(party, user)).get(reverse("api:entry", args=[token(entry)])).content.decode(),
    ]
    return any(pi in text for text in texts)


def test_a_blind_roll_s_proof_reaches_nobody_but_the_gm_until_revealed(client, party):
    blind = roll_athletics(client, party, Visibility.BLIND)
    assert blind.proof
    seen = {user: _proof_seen(client, party, user, blind) for user in ("gm", "player", "observer")}
    assert seen == {"gm": True, "player": False, "observer": False}
    client.force_login(party.gm)
    assert client.post(reverse("roll_reveal", args=[blind.pk])).status_code == 302
    seen = {user: _proof_seen(client, party, user, blind) for user in ("gm", "player", "observer")}
    assert seen == {"gm": True, "player": True, "observer": True}


def test_a_gm_only_roll_s_proof_goes_to_its_roller_and_the_gm(client, party):
    entry = roll_athletics(client, party, Visibility.GM_ONLY)
    seen = {
        user: _proof_seen(client, party, user, entry)
        for user in ("gm", "player", "other_player", "observer")
    }
    assert seen == {"gm": True, "player": True, "other_player": False, "observer": False}


# --- verify_log and the key ----------------------------------------------------------------------


def test_an_entry_appended_without_the_key_is_caught(client, party, monkeypatch):
    roll_athletics(client, party, Visibility.PUBLIC)
    # A database client can write a row that chains perfectly and move the head; it can't sign.
    monkeypatch.setattr(ServerKey, "sign", lambda self, message: "")
    roll_athletics(client, party, Visibility.PUBLIC)
    monkeypatch.undo()
    code, err = verify(party.campaign.pk)
    assert code == 1 and "BROKEN at entry #2" in err and "not signed" in err


def test_an_entry_signed_with_an_unpublished_key_is_caught(client, party, settings, tmp_path):
    roll_athletics(client, party, Visibility.PUBLIC)
    forger = tmp_path / "forger.key"
    forger.write_text(secrets.token_hex(32) + "\n")
    ours, settings.SIGNING_KEY_FILE = settings.SIGNING_KEY_FILE, forger
    roll_athletics(client, party, Visibility.PUBLIC)
    settings.SIGNING_KEY_FILE = ours
    forged = ServerKey.from_file(forger)
    tamper("DELETE FROM rolls_signingkey WHERE id = %s", [forged.id])
    code, err = verify(party.campaign.pk)
    assert code == 1 and "BROKEN at entry #2" in err
    assert "signature does not verify" in err


def test_an_emptied_log_is_caught(client, party):
    for _ in range(3):
        roll_athletics(client, party, Visibility.PUBLIC)
    tamper("DELETE FROM rolls_rollentry WHERE campaign_id = %s", [party.campaign.pk])
    code, err = verify(party.campaign.pk)
    assert code == 1 and "newest 3 entries are missing" in err
    # …and with the head set back to an empty log, as it was before the first roll.
    tamper(
        "UPDATE rolls_loghead SET length = 0, hash = %s, signature = '' WHERE campaign_id = %s",
        ["0" * 64, party.campaign.pk],
    )
    code, err = verify(party.campaign.pk)
    assert code == 1 and "not signed by the server's key" in err


def test_a_log_cut_back_to_an_earlier_head_is_caught(client, party):
    entries = [roll_athletics(client, party, Visibility.PUBLIC) for _ in range(3)]
    second = entries[1]
    tamper("DELETE FROM rolls_rollentry WHERE id = %s", [entries[2].pk])
    # The cut log's head, signed with the second entry's own signature: another message.
    tamper(
        "UPDATE rolls_loghead SET length = 2, hash = %s, signature = %s WHERE campaign_id = %s",
        [second.hash, second.signature, party.campaign.pk],
    )
    code, err = verify(party.campaign.pk)
    assert code == 1 and "not signed by the server's key" in err


def test_a_proof_moved_to_another_place_is_caught(client, party):
    first = roll_athletics(client, party, Visibility.PUBLIC)
    second = roll_athletics(client, party, Visibility.PUBLIC)
    assert first.proof["alpha"]["counter"] != second.proof["alpha"]["counter"]
    # The copy repeats the first roll's nonce, which the database refuses; a hostile host
    # drops the index that refuses it first.
    tamper("DROP INDEX roll_entry_unique_nonce", [])
    tamper(
        "UPDATE rolls_rollentry SET proof = %s, faces = %s WHERE id = %s",
        [json.dumps(first.proof), json.dumps(first.faces), second.pk],
    )
    code, err = verify(party.campaign.pk)
    assert code == 1 and "BROKEN at entry #2" in err  # its hash no longer matches, first


def test_a_rotated_key_stays_published_with_its_span(client, party, settings, tmp_path):
    old = roll_athletics(client, party, Visibility.PUBLIC)
    new_key = tmp_path / "new.key"
    new_key.write_text(secrets.token_hex(32) + "\n")
    settings.SIGNING_KEY_FILE = new_key
    new = roll_athletics(client, party, Visibility.PUBLIC)
    assert old.signed_by != new.signed_by and new.proof["key"] == new.signed_by
    keys = published_keys()
    assert [key["id"] for key in keys] == [old.signed_by, new.signed_by]
    assert keys[0]["until"] is not None and keys[1]["until"] is None
    assert verify(party.campaign.pk)[0] == 0
    page = Client().get(reverse("keys"))
    assert page.status_code == 200
    for key in keys:
        assert key["vrf_key"] in page.content.decode()
    listed = Client().get(reverse("api:keys")).json()["keys"]
    assert [key["id"] for key in listed] == [old.signed_by, new.signed_by]
    assert Client().get(reverse("keys_json")).json()["keys"] == listed


# --- the standalone verifier on real exports -----------------------------------------------------


def _export(client: Client, party, user: str, path: Path) -> Path:
    client.force_login(getattr(party, user))
    response = client.get(reverse("campaign_log_json", args=[party.campaign.pk]))
    path.write_bytes(b"".join(response.streaming_content))
    return path


def _run_verifier(tmp_path: Path, export: Path) -> subprocess.CompletedProcess[str]:
    script = tmp_path / "poolside_verify.py"
    script.write_bytes(Client().get(reverse("verifier")).getvalue())
    keys = tmp_path / "keys.json"
    keys.write_bytes(Client().get(reverse("keys_json")).content)
    return subprocess.run(
        [sys.executable, "-I", str(script), str(export), "--keys", str(keys)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )


def test_the_downloaded_verifier_is_the_protocol_module_itself():
    """What players run is what the server checks itself with: the download is proofs/protocol.py
    with the modules it imports (proofs/holding.py, proofs/texts.py) written in, line for line,
    under the name the docs give it."""
    response = Client().get(reverse("verifier"))
    assert response["Content-Disposition"].endswith('filename="poolside_verify.py"')
    served = response.getvalue().decode("utf-8")
    here = Path(poolside_verify.__file__).parent
    protocol = (here / "protocol.py").read_text()
    kept = [line for line in protocol.splitlines() if not line.startswith("from .")]
    assert set(kept) <= set(served.splitlines())
    for module in ("holding.py", "texts.py"):
        body = (here / module).read_text().split('"""\n', 2)[2]
        assert body.replace("from __future__ import annotations\n", "") in served, module


def test_the_standalone_verifier_checks_real_exports(client, party, tmp_path):
    roll_athletics(client, party, Visibility.PUBLIC)
    roll_athletics(client, party, Visibility.BLIND)
    roll_athletics(client, party, Visibility.SECRET, as_user="gm")
    for user in ("gm", "player"):
        run = _run_verifier(tmp_path, _export(client, party, user, tmp_path / f"{user}.json"))
        assert run.returncode == 0, (user, run.stdout, run.stderr)
        assert "OK" in run.stdout
    export = tmp_path / "player.json"
    data = json.loads(export.read_text())
    readable = next(e for e in data["entries"] if e.get("proof"))
    readable["faces"][0]["face"] = readable["faces"][0]["face"] % 6 + 1
    export.write_text(json.dumps(data))
    run = _run_verifier(tmp_path, export)
    assert run.returncode == 1 and "face" in (run.stdout + run.stderr).lower()


def test_the_keys_and_the_verifier_are_for_anyone(party):
    """What a player checks the server against needs no login: the page, the file, the API."""
    for user in (None, party.nonmember, party.player):
        client = Client()
        if user is not None:
            client.force_login(user)
        assert client.get(reverse("keys")).status_code == 200
        keys = client.get(reverse("keys_json"))
        assert keys.status_code == 200 and keys.json()["keys"][0]["id"] == server_key().id
        verifier = client.get(reverse("verifier"))
        assert verifier.status_code == 200
        assert b"def verify_export" in verifier.getvalue()
    # The API's, without a token.
    listed = Client().get(reverse("api:keys"))
    assert listed.status_code == 200 and listed.json() == keys.json()
    assert Client().post(reverse("keys_json")).status_code == 405
