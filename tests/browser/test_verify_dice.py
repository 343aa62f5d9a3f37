"""The browser's dice verifier (static/js/verify-dice.js, docs/verifiable-dice.md) run in Chromium:
the ECVRF against RFC 9381's own examples, and the outcome reader against the Python engine."""

import json
from pathlib import Path

import pytest

from tests.browser.dice_cases import cases, proven_cogent_roll, proven_cold_stars_roll

VECTORS = json.loads(
    (Path(__file__).parent / "data" / "rfc9381-ecvrf-edwards25519-sha512-tai.json").read_text()
)["vectors"]

# The JS modules, loaded into a page of the app as the permalink loads them (same origin, CSP on).
LOAD = """async () => {
  window.vd = await import("/static/js/verify-dice.js");
  window.dr = await import("/static/js/dice-readings.js");
}"""

VERIFY = """([pk, pi, alpha]) => {
  const bytes = Uint8Array.from((alpha.match(/../g) || []).map((h) => parseInt(h, 16)));
  try {
    const beta = vd.ecvrfVerify(pk, pi, bytes);
    return { beta: Array.from(beta, (b) => b.toString(16).padStart(2, "0")).join("") };
  } catch (error) {
    return { reason: error.message };
  }
}"""


@pytest.fixture
def verifier(page, violations):
    page.goto("/accounts/login/")
    page.evaluate(LOAD)
    yield page
    assert violations == []


@pytest.mark.parametrize("vector", VECTORS, ids=["example-16", "example-17"])
def test_the_rfc_examples_verify_to_their_beta(verifier, vector):
    got = verifier.evaluate(VERIFY, [vector["pk"], vector["pi"], vector["alpha"]])
    assert got == {"beta": vector["beta"]}


def _flip(hex_text: str, at: int) -> str:
    """One bit changed at nibble ``at``."""
    return hex_text[:at] + format(int(hex_text[at], 16) ^ 1, "x") + hex_text[at + 1 :]


@pytest.mark.parametrize("vector", VECTORS, ids=["example-16", "example-17"])
def test_a_changed_proof_input_or_key_is_refused_with_its_reason(verifier, vector):
    pk, pi, alpha = vector["pk"], vector["pi"], vector["alpha"]
    refused = f"The proof does not verify under key {pk[:8]}…"
    # c and s altered: the challenge no longer matches.
    assert verifier.evaluate(VERIFY, [pk, _flip(pi, 70), alpha]) == {"reason": refused}
    assert verifier.evaluate(VERIFY, [pk, _flip(pi, 100), alpha]) == {"reason": refused}
    assert verifier.evaluate(VERIFY, [pk, pi, alpha + "00"]) == {"reason": refused}
    other = VECTORS[1 - VECTORS.index(vector)]["pk"]
    assert verifier.evaluate(VERIFY, [other, pi, alpha]) == {
        "reason": f"The proof does not verify under key {other[:8]}…"
    }


def test_malformed_proofs_and_keys_are_refused_before_any_arithmetic(verifier):
    pk, pi = VECTORS[0]["pk"], VECTORS[0]["pi"]
    high_s = pi[:96] + "ff" * 32  # s far above the group order: a second encoding of a proof
    assert verifier.evaluate(VERIFY, [pk, high_s, ""]) == {
        "reason": "The proof's s is not below the group order."
    }
    identity = "01" + "00" * 31  # the neutral point: small order, it would let a prover pick beta
    assert verifier.evaluate(VERIFY, [identity, pi, ""]) == {
        "reason": "Key 01000000… is of small order."
    }
    assert verifier.evaluate(VERIFY, [pk, pi[:-2], ""]) == {
        "reason": "The proof is not 80 bytes of hex."
    }


def test_canonical_json_is_pythons(verifier):
    value = {"b": [1, True, None], "a": 'é "q"\n\u0001', "é": {}, "\U0001f3b2": 0, "\uff5e": 1}
    js = verifier.evaluate("(v) => vd.canonicalJson(v)", value)
    assert js == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def test_faces_from_beta_follow_the_rejection_sampling(verifier):
    """Bytes 250–255 are discarded for a d10 and 252–255 for a d6; the stream goes on into
    SHA-512(beta ‖ 1) when beta runs out."""
    beta = "fa" + "09" * 62 + "05"  # 250 (discarded for d10), 9 → 10, … , 5 → 6
    pool = [["ability", 1, 10], ["d6", 62, 6], ["risk", 2, 10]]
    got = verifier.evaluate(
        """([beta, pool]) => vd.facesFromBeta(
             Uint8Array.from(beta.match(/../g).map((h) => parseInt(h, 16))), pool)""",
        [beta, pool],
    )
    assert got[0] == {"kind": "ability", "face": 10}
    assert [d["face"] for d in got[1:62]] == [4] * 61  # 9 mod 6 + 1
    assert got[62] == {"kind": "d6", "face": 6}  # the last byte of beta
    assert len(got) == 65 and all(1 <= d["face"] <= 10 for d in got[63:])


def test_the_outcome_reader_reads_every_system_as_the_engine(verifier):
    """Many generated rolls of every system and kind with dice: the browser's readings, figures
    and band equal the engine's, and a changed band or figure is named."""
    made = cases(seed=37, per_system=300)
    read = verifier.evaluate("(all) => all.map((c) => dr.readEntry(c))", made)
    for case, got in zip(made, read, strict=True):
        assert "unchecked" not in got, case
        assert got["faces"] == case["faces"], case
        assert got["outcome"] == case["outcome"], case
        assert got["result"] == case["result"], case
    checked = verifier.evaluate("(all) => all.map((c) => vd.checkOutcome(c))", made)
    assert all(c == {"ok": True, "checked": True, "reason": ""} for c in checked)


def test_a_changed_outcome_is_named(verifier):
    made = [c for c in cases(seed=1, per_system=40) if c["outcome"] == "failure"]
    cogent = next(c for c in made if c["system"] == "cogent" and c["kind"] == "roll")
    claimed = cogent | {"outcome": "success"}
    wins, cl = cogent["result"]["wins"], cogent["options"]["challenge_level"]
    assert verifier.evaluate("(c) => vd.checkOutcome(c)", claimed) == {
        "ok": False,
        "checked": True,
        "reason": f"The dice give {wins} win{'' if wins == 1 else 's'} against CL {cl}: "
        "Failure, but the entry says Success.",
    }
    dad6 = next(c for c in made if c["system"] == "dad6")
    boons = dad6["result"]["boons"] + 1
    changed = dad6 | {"result": dad6["result"] | {"boons": boons}}
    reason = verifier.evaluate("(c) => vd.checkOutcome(c).reason", changed)
    assert reason == f"The dice give boons {boons - 1}, but the entry says {boons}."


def test_an_entry_it_cannot_read_says_so(verifier):
    case = {"system": "cogent", "kind": "auto_pass", "faces": [], "options": {}, "result": {}}
    assert verifier.evaluate("(c) => vd.checkOutcome(c)", case) == {
        "ok": True,
        "checked": False,
        "reason": "The outcome was not re-checked: this page doesn't re-read the dice of auto pass entries.",
    }


VERIFY_ENTRY = "(data) => vd.verifyEntry(data)"


def test_an_entry_proven_by_the_servers_prover_verifies(verifier):
    """The server's own prover (proofs) against this page's verifier: a Cogent roll and a
    Cold Stars roll with an empty Skill group, whole entries as the permalink's island holds them."""
    for entry in (proven_cogent_roll(), proven_cold_stars_roll()):
        got = verifier.evaluate(VERIFY_ENTRY, entry)
        assert got["ok"] and got["outcomeChecked"], got
        assert len(got["beta"]) == 128


def test_a_tampered_entry_is_refused_with_its_reason(verifier):
    entry = proven_cogent_roll()
    key_id = entry["key"]["id"]
    faces = [dict(d) for d in entry["faces"]]
    was = faces[2]["face"]
    faces[2]["face"] = was % 6 + 1
    expected = {
        "faces": f"Die 3 should be {was}, but the entry shows {was % 6 + 1}.",
        "key": f"Key {key_id[:8]}… is not published.",
        "label": "The proof is for “Athletics”, but the entry is “Stealth”.",
    }
    tampered = {"faces": faces, "key": None, "label": "Stealth"}
    for field, value in tampered.items():
        got = verifier.evaluate(VERIFY_ENTRY, entry | {field: value})
        assert got == {"ok": False, "reason": expected[field]}
    alpha = entry["proof"]["alpha"] | {"nonce": "another-nonce"}
    got = verifier.evaluate(VERIFY_ENTRY, entry | {"proof": entry["proof"] | {"alpha": alpha}})
    vrf_key = entry["key"]["vrf_key"]
    assert got == {"ok": False, "reason": f"The proof does not verify under key {vrf_key[:8]}…"}
    swapped = entry["key"] | {"vrf_key": proven_cold_stars_roll()["key"]["signing_key"]}
    got = verifier.evaluate(VERIFY_ENTRY, entry | {"key": swapped})
    assert got == {"ok": False, "reason": f"Key {key_id[:8]}… does not match its published id."}


def test_a_proven_entry_whose_outcome_was_changed_is_refused(verifier):
    entry = proven_cogent_roll(challenge_level=8)  # six dice can't reach 8 wins: a failure
    wins = entry["result"]["wins"]
    claimed = entry | {"outcome": "success"}
    got = verifier.evaluate(VERIFY_ENTRY, claimed)
    assert got == {
        "ok": False,
        "reason": f"The dice give {wins} win{'' if wins == 1 else 's'} against CL 8: "
        f"{'Critical failure' if not wins else 'Failure'}, but the entry says Success.",
    }
