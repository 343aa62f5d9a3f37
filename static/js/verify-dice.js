// Verify a roll's dice in the player's own browser (issue 37, docs/verifiable-dice.md): the VRF
// proof under the server's published key (ECVRF-EDWARDS25519-SHA512-TAI, RFC 9381), the faces it
// yields, and the outcome those faces give under the system's rules (static/js/dice-readings.js).
// Nothing here trusts the server's own word on the result: only its published key.
//
// The bundle is imported by a relative path on purpose: Django's manifest storage gives this file
// a hashed name but leaves module imports alone, and WhiteNoise serves the unhashed bundle too.
import {
  Point,
  bytesToHex,
  concatBytes,
  hexToBytes,
  sha256,
  sha512,
  utf8ToBytes,
} from "../vendor/noble-ed25519-bundle.js";
import { readEntry, OUTCOME_LABELS } from "./dice-readings.js";

export const SUITE = "ECVRF-EDWARDS25519-SHA512-TAI";
const SUITE_BYTE = 0x03; // RFC 9381 §5.5: suite_string of ECVRF-EDWARDS25519-SHA512-TAI
const C_LEN = 16; // RFC 9381 §5.5: cLen
const PT_LEN = 32;
const L = Point.Fn.ORDER; // the prime order of the base point (RFC 9381's q)

// A refusal with the reason a player reads; anything else thrown is a bug, not a verdict.
class Refusal extends Error {}

function refuse(reason) {
  throw new Refusal(reason);
}

// --- Canonical JSON (the spec: Python's sort_keys, "," and ":" separators, UTF-8) --------------

function byCodePoint(a, b) {
  // Python sorts str keys by code point; JS's default sort compares UTF-16 units, which differ
  // above U+FFFF.
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0) - y[i].codePointAt(0);
    if (d) return d;
  }
  return x.length - y.length;
}

export function canonicalJson(value) {
  if (value === null || typeof value === "boolean" || typeof value === "string") {
    return JSON.stringify(value);
  }
  if (typeof value === "number") {
    // Only ints are canonical: a float's text differs between Python and JS.
    if (!Number.isSafeInteger(value)) throw new TypeError(`Not an integer: ${value}`);
    return String(value);
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (typeof value === "object") {
    const keys = Object.keys(value).sort(byCodePoint);
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`).join(",")}}`;
  }
  throw new TypeError(`Not canonical JSON: ${typeof value}`);
}

export function canonicalBytes(value) {
  return utf8ToBytes(canonicalJson(value));
}

// --- ECVRF-EDWARDS25519-SHA512-TAI verification (RFC 9381 §5.3) --------------------------------

function bytesToIntLE(bytes) {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]);
  return n;
}

function hexBytes(hex, length, what) {
  if (typeof hex !== "string" || hex.length !== length * 2 || !/^[0-9a-f]*$/i.test(hex)) {
    refuse(`${what} is not ${length} bytes of hex.`);
  }
  return hexToBytes(hex);
}

// RFC 8032 decoding, strict: a non-canonical encoding is invalid, as RFC 9381's string_to_point.
function decodePoint(bytes) {
  try {
    return Point.fromBytes(bytes, false);
  } catch {
    return null;
  }
}

// RFC 9381 §5.4.5: a key of small order would let a prover choose beta; refuse it.
export function validateKey(pkBytes) {
  const Y = decodePoint(pkBytes);
  if (Y === null) refuse(`Key ${bytesToHex(pkBytes).slice(0, 8)}… is not a point on the curve.`);
  if (Y.isSmallOrder()) refuse(`Key ${bytesToHex(pkBytes).slice(0, 8)}… is of small order.`);
  return Y;
}

// RFC 9381 §5.4.1.1: try-and-increment, then clear the cofactor.
export function encodeToCurve(pkBytes, alphaBytes) {
  for (let ctr = 0; ctr < 256; ctr++) {
    const hash = sha512(
      concatBytes(Uint8Array.of(SUITE_BYTE, 0x01), pkBytes, alphaBytes, Uint8Array.of(ctr, 0x00)),
    );
    const H = decodePoint(hash.subarray(0, PT_LEN));
    if (H !== null) return H.clearCofactor();
  }
  refuse("No curve point found for this input (a 2^-256 event).");
}

function challenge(points) {
  const parts = points.map((p) => p.toBytes());
  const hash = sha512(concatBytes(Uint8Array.of(SUITE_BYTE, 0x02), ...parts, Uint8Array.of(0x00)));
  return bytesToIntLE(hash.subarray(0, C_LEN));
}

// RFC 9381 §5.4.4.
function decodeProof(pi) {
  const Gamma = decodePoint(pi.subarray(0, PT_LEN));
  if (Gamma === null) refuse("The proof's Gamma is not a point on the curve.");
  const c = bytesToIntLE(pi.subarray(PT_LEN, PT_LEN + C_LEN));
  const s = bytesToIntLE(pi.subarray(PT_LEN + C_LEN));
  // s >= L would give a second encoding of the same proof (malleability).
  if (s >= L) refuse("The proof's s is not below the group order.");
  return { Gamma, c, s };
}

// RFC 9381 §5.3: beta (64 bytes) when pi proves alpha under the key, else a Refusal.
export function ecvrfVerify(pkHex, piHex, alphaBytes) {
  const pkBytes = hexBytes(pkHex, PT_LEN, "The VRF key");
  const pi = hexBytes(piHex, PT_LEN + C_LEN + 32, "The proof");
  const Y = validateKey(pkBytes);
  const { Gamma, c, s } = decodeProof(pi);
  const H = encodeToCurve(pkBytes, alphaBytes);
  // Verification handles public data only, so the variable-time multiplication is fine.
  const U = Point.BASE.multiplyUnsafe(s).subtract(Y.multiplyUnsafe(c));
  const V = H.multiplyUnsafe(s).subtract(Gamma.multiplyUnsafe(c));
  if (challenge([Y, H, Gamma, U, V]) !== c) {
    refuse(`The proof does not verify under key ${pkHex.slice(0, 8)}…`);
  }
  // RFC 9381 §5.2, proof_to_hash.
  const point = Gamma.clearCofactor().toBytes();
  return sha512(concatBytes(Uint8Array.of(SUITE_BYTE, 0x03), point, Uint8Array.of(0x00)));
}

// --- Dice from beta (the spec's rejection sampling) --------------------------------------------

function* byteStream(beta) {
  yield* beta;
  for (let counter = 1; counter < 2 ** 32; counter++) {
    const be = Uint8Array.of(counter >>> 24, (counter >>> 16) & 255, (counter >>> 8) & 255, counter & 255);
    yield* sha512(concatBytes(beta, be));
  }
}

// [[kind, count, sides], …] → [{kind, face}, …] in pool order.
export function facesFromBeta(beta, pool) {
  const bytes = byteStream(beta);
  const faces = [];
  for (const [kind, count, sides] of pool) {
    // Bytes at or above the last whole multiple of sides are discarded, so every face is equally
    // likely (a plain b mod 6 would favour 1–4).
    const limit = 256 - (256 % sides);
    for (let i = 0; i < count; i++) {
      let b = bytes.next().value;
      while (b >= limit) b = bytes.next().value;
      faces.push({ kind, face: (b % sides) + 1 });
    }
  }
  return faces;
}

function checkPool(pool) {
  const ok =
    Array.isArray(pool) &&
    pool.every(
      (g) =>
        Array.isArray(g) && g.length === 3 && typeof g[0] === "string" &&
        Number.isInteger(g[1]) && g[1] >= 0 && g[1] <= 1000 && (g[2] === 6 || g[2] === 10),
    );
  if (!ok) refuse("The proof's pool is not a list of [kind, count, sides] groups.");
}

// --- The entry as a whole ----------------------------------------------------------------------

function short(hex) {
  return `${String(hex).slice(0, 8)}…`;
}

function checkKey(proof, key) {
  if (!key) refuse(`Key ${short(proof.key)} is not published.`);
  if (key.id !== proof.key) refuse(`The proof names key ${short(proof.key)}, not ${short(key.id)}.`);
  const signing = hexBytes(key.signing_key, 32, "The signing key");
  const vrf = hexBytes(key.vrf_key, 32, "The VRF key");
  // The id is a hash of both public keys: a VRF key swapped under a published id shows here.
  if (bytesToHex(sha256(concatBytes(signing, vrf))).slice(0, 16) !== key.id) {
    refuse(`Key ${short(key.id)} does not match its published id.`);
  }
}

function checkProofRecord(proof) {
  if (!proof || typeof proof !== "object" || !proof.pi) refuse("This entry carries no proof.");
  if (proof.v !== 1) refuse(`Proof version ${proof.v} is not one this page knows.`);
  if (proof.suite !== SUITE) refuse(`The proof's suite ${proof.suite} is not ${SUITE}.`);
  const alpha = proof.alpha;
  if (!alpha || typeof alpha !== "object") refuse("The proof has no input (alpha).");
  // The spec's alpha, field by field: anything else was not made by a Poolside server. Version 2
  // commits to the roller's counter where version 1 committed to the chain position.
  const bound = alpha.v === 2 ? "counter" : "position";
  const names = ["campaign", "nonce", "pool", "target", "v", bound].sort();
  const shaped =
    (alpha.v === 1 || alpha.v === 2) && Number.isInteger(alpha.campaign) &&
    canonicalJson(Object.keys(alpha).sort()) === canonicalJson(names) &&
    /^[A-Za-z0-9_-]{8,64}$/.test(String(alpha.nonce)) && /^[0-9a-f]{64}$/.test(String(alpha[bound]));
  if (!shaped) refuse("The proof's input is not a version 1 or 2 input (campaign, position or counter, nonce).");
  checkPool(alpha.pool);
}

function compareFaces(proven, shown) {
  if (proven.length !== shown.length) {
    refuse(`The proof gives ${proven.length} dice, but the entry shows ${shown.length}.`);
  }
  proven.forEach((die, i) => {
    const entryDie = shown[i] || {};
    const kind = entryDie.kind;
    if (kind !== die.kind) refuse(`Die ${i + 1} is a ${die.kind} die, but the entry shows ${kind}.`);
    if (entryDie.face !== die.face) {
      refuse(`Die ${i + 1} should be ${die.face}, but the entry shows ${entryDie.face}.`);
    }
  });
}

function same(a, b) {
  return canonicalJson(a ?? null) === canonicalJson(b ?? null);
}

// The readings, figures and outcome band the faces give against what the entry records.
function compareOutcome(data, read) {
  read.faces.forEach((die, i) => {
    const shown = data.faces[i];
    for (const field of Object.keys(die)) {
      if (!same(die[field], shown[field])) {
        refuse(`Die ${i + 1} (${die.face}) reads ${die[field]}, but the entry shows ${shown[field]}.`);
      }
    }
  });
  if (read.outcome !== data.outcome) {
    const label = (code) => OUTCOME_LABELS[code] || code;
    refuse(`The dice give ${read.summary}: ${label(read.outcome)}, but the entry says ${label(data.outcome)}.`);
  }
  const keys = new Set([...Object.keys(read.result), ...Object.keys(data.result || {})]);
  for (const key of keys) {
    if (!same(read.result[key], (data.result || {})[key])) {
      const shown = (data.result || {})[key];
      refuse(`The dice give ${key.replace(/_/g, " ")} ${read.result[key] ?? "(none)"}, but the entry says ${shown ?? "(none)"}.`);
    }
  }
}

// The outcome alone, for an entry whose faces are already trusted: { ok, reason, checked }.
export function checkOutcome(data) {
  try {
    const read = readEntry(data);
    if (read.unchecked) return { ok: true, checked: false, reason: read.unchecked };
    compareOutcome(data, read);
    return { ok: true, checked: true, reason: "" };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, checked: true, reason: error.message };
    throw error;
  }
}

// The proved pool is the entry's pool (proofs/holding.py pool_problem): the dice rolled for Cogent
// and DAD6 (`rolled` where boons were traded, else `dice`), Ability, Skill and Risk for Cold
// Stars. Every entry with a proof draws its whole pool.
const COLD_STARS_GROUPS = ["ability", "skill", "risk"];

function checkPoolIsTheEntrys(data, proved) {
  const pool = data.pool;
  if (!pool || typeof pool !== "object") return;
  if (COLD_STARS_GROUPS.every((name) => name in pool)) {
    const wanted = COLD_STARS_GROUPS.map((name) => [name, pool[name], 10]);
    if (canonicalJson(proved) !== canonicalJson(wanted)) {
      const counts = proved.map(([kind, count]) => `${count} ${kind}`).join(", ");
      const shown = COLD_STARS_GROUPS.map((name) => `${pool[name]} ${name}`).join(", ");
      refuse(`The proof rolls ${counts}, but the entry's pool is ${shown}.`);
    }
    return;
  }
  const dice = pool.rolled ?? pool.dice;
  if (dice === undefined) return;
  const count = proved.reduce((sum, group) => sum + group[1], 0);
  if (count !== dice) refuse(`The proof rolls ${count} dice, but the entry's pool is ${dice}d6.`);
}

// The island's key must be one this browser pinned, half for half (pinKeys below).
function checkPinned(key, pinned) {
  if (!pinned) return;
  const held = pinned.find((k) => k.id === key.id);
  if (!held || held.signing_key !== key.signing_key || held.vrf_key !== key.vrf_key) {
    refuse(
      `Key ${short(key.id)} is not a key this browser pinned: the server changed its key ` +
        "without a rotation signed by the key before.",
    );
  }
}

function checkNonce(proof, sent) {
  if (sent && sent !== proof.alpha.nonce) {
    refuse(
      `Your browser sent ${short(sent)}; this proof uses ${short(proof.alpha.nonce)} — ` +
        "the server did not use your part.",
    );
  }
}

function verifyDice(data) {
  const proof = data.proof;
  checkProofRecord(proof);
  if (proof.alpha.target !== data.label) {
    refuse(`The proof is for “${proof.alpha.target}”, but the entry is “${data.label}”.`);
  }
  const beta = ecvrfVerify(data.key.vrf_key, proof.pi, canonicalBytes(proof.alpha));
  compareFaces(facesFromBeta(beta, proof.alpha.pool), data.faces || []);
  checkPoolIsTheEntrys(data, proof.alpha.pool);
  return beta;
}

// The whole check of one entry's island (rolls/rolling/verify_data.py): { ok, reason } on a
// failure; { ok, beta, outcomeChecked, note, nonceChecked } when the dice verify. `held`: what
// this browser holds the server to — `sent`, the nonce it sent for this entry (if it rolled it),
// and `pinned`, the keys it pinned (heldKeys); without them those checks are not made.
export async function verifyEntry(data, held = {}) {
  try {
    if (!data.proof || !data.proof.pi) refuse("This entry carries no proof.");
    checkKey(data.proof, data.key);
    checkPinned(data.key, held.pinned);
    const beta = verifyDice(data);
    checkNonce(data.proof, held.sent);
    const nonceChecked = Boolean(held.sent);
    const read = readEntry(data);
    if (read.unchecked) {
      return { ok: true, beta: bytesToHex(beta), outcomeChecked: false, note: read.unchecked, nonceChecked };
    }
    compareOutcome(data, read);
    return { ok: true, beta: bytesToHex(beta), outcomeChecked: true, note: "", nonceChecked };
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, reason: error.message };
    return { ok: false, reason: `The check could not run: ${error.message}` };
  }
}

// --- Keys pinned on first sight, and nonces kept (issue 49) ------------------------------------

const KEYS = "poolside-keys";
const NONCES = "poolside-nonces";

// RFC 8032 §5.1.7 verification, strict as libsodium's: canonical encodings, S below the group
// order, no small-order key, and [S]B = R + [k]A.
export function ed25519Verify(publicHex, message, signatureHex) {
  try {
    const sig = hexBytes(signatureHex, 64, "The signature");
    const pub = hexBytes(publicHex, 32, "The signing key");
    const A = decodePoint(pub);
    const R = decodePoint(sig.subarray(0, 32));
    const S = bytesToIntLE(sig.subarray(32));
    if (A === null || R === null || A.isSmallOrder() || S >= L) return false;
    const k = bytesToIntLE(sha512(concatBytes(sig.subarray(0, 32), pub, message))) % L;
    return Point.BASE.multiplyUnsafe(S).equals(R.add(A.multiplyUnsafe(k)));
  } catch {
    return false;
  }
}

function rotationMessage(previous, key) {
  const statement = { from: previous, id: key.id, signing_key: key.signing_key, vrf_key: key.vrf_key };
  return concatBytes(utf8ToBytes("poolside key rotation v1\n"), canonicalBytes(statement));
}

function validRecord(key) {
  try {
    checkKey({ key: key.id }, key);
    return true;
  } catch {
    return false;
  }
}

// The keys to trust (proofs/holding.py pin_keys): those `saved`, and each key `offered` now that
// a rotation signed by the newest key held so far hands over to. { pinned, problems }.
export function pinKeys(saved, offered) {
  const pinned = saved.filter(validRecord);
  const problems = [];
  let newest = pinned[pinned.length - 1];
  for (const key of offered.filter(validRecord)) {
    const known = pinned.find((k) => k.id === key.id);
    if (known) {
      if (known.signing_key !== key.signing_key || known.vrf_key !== key.vrf_key) {
        problems.push(`Key ${short(key.id)} is not the key this browser pinned under that id.`);
      }
      continue;
    }
    const rotation = key.rotation;
    const handed =
      newest && rotation && rotation.from === newest.id &&
      ed25519Verify(newest.signing_key, rotationMessage(newest.id, key), String(rotation.signature));
    if (!handed) {
      problems.push(`Key ${short(key.id)} is new and no rotation signed by the key before hands over to it.`);
      continue;
    }
    pinned.push(key);
    newest = key;
  }
  return { pinned, problems };
}

function stored(name, fallback) {
  try {
    return JSON.parse(localStorage.getItem(name) || "null") ?? fallback;
  } catch {
    return fallback;
  }
}

function store(name, value) {
  try {
    localStorage.setItem(name, JSON.stringify(value));
  } catch {
    // A private window or full storage: this visit still checks; the next starts afresh.
  }
}

// The keys this browser holds the server to: pinned on first sight (the first Verify), and from
// then on grown only by signed rotations.
export async function heldKeys(url) {
  let offered = null;
  try {
    const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
    if (response.ok) offered = (await response.json()).keys;
  } catch {
    offered = null;
  }
  const saved = stored(KEYS, null);
  if (!Array.isArray(saved)) {
    const first = Array.isArray(offered) ? offered.filter(validRecord) : null;
    if (first) store(KEYS, first);
    return { pinned: first, problems: [], first: true };
  }
  const { pinned, problems } = pinKeys(saved, Array.isArray(offered) ? offered : []);
  store(KEYS, pinned);
  return { pinned, problems, first: false };
}

export function sentNonce(entry) {
  const kept = stored(NONCES, {});
  return typeof kept["e:" + entry] === "string" ? kept["e:" + entry] : "";
}

// --- The permalink's button (templates/rolls/entry_detail.html) --------------------------------

function show(output, result) {
  output.classList.remove("verify-ok", "verify-failed");
  output.classList.add(result.ok ? "verify-ok" : "verify-failed");
  const title = document.createElement("strong");
  const text = document.createElement("span");
  if (!result.ok) {
    title.textContent = "✗ Not verified.";
    text.textContent = ` ${result.reason}`;
  } else if (!result.outcomeChecked) {
    title.textContent = "✓ Dice verified.";
    text.textContent = ` The dice come from the published key. ${result.note}`;
  } else {
    title.textContent = "✓ Verified.";
    text.textContent = " The dice come from the published key and give the result shown.";
  }
  const parts = [title, text];
  if (result.ok) {
    const held = document.createElement("span");
    held.className = "verify-held";
    held.textContent = result.nonceChecked
      ? " The proof uses the nonce your browser sent."
      : " This browser did not send this roll's nonce, so it could not compare it.";
    held.textContent += result.firstKeys
      ? " This browser now keeps the server's keys, and will accept a new one only if the key before signed it."
      : " The key is one this browser pinned.";
    parts.push(held);
  }
  output.replaceChildren(...parts);
}

function setUp(button) {
  const island = document.getElementById(button.dataset.verifyDice);
  const output = document.getElementById(button.getAttribute("aria-controls"));
  if (!island || !output) return;
  // Shown only now: without this script the button could do nothing.
  button.hidden = false;
  button.addEventListener("click", async () => {
    button.disabled = true;
    output.classList.remove("verify-ok", "verify-failed");
    output.textContent = "Checking…";
    // The island is read at each click, never cached: what is checked is what the page holds.
    const data = JSON.parse(island.textContent);
    const keys = await heldKeys(button.dataset.keysUrl);
    const result = await verifyEntry(data, { pinned: keys.pinned, sent: sentNonce(data.entry) });
    result.firstKeys = keys.first;
    show(output, result);
    button.disabled = false;
  });
}

if (typeof document !== "undefined") {
  document.querySelectorAll("button[data-verify-dice]").forEach(setUp);
}
