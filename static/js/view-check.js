// Hold the server to the log this member has seen (docs/verifiable-dice.md#your-view-of-the-log).
// The browser keeps the last signed head of the member's view it checked; on each visit it folds
// the items the server gives onto it: they must pass through the saved head (history it saw is
// unchanged) and end at the newly signed one. Anything else is said plainly, at the top of the log.
//
// Relative imports on purpose: Django's manifest storage hashes this file's name but leaves module
// imports alone, and WhiteNoise serves the unhashed files too (static/js/verify-dice.js says so).
import {
  Point,
  bytesToHex,
  concatBytes,
  hexToBytes,
  sha256,
  sha512,
  utf8ToBytes,
} from "../vendor/noble-ed25519-bundle.js";
import { canonicalBytes } from "./verify-dice.js";

const L = 2n ** 252n + 27742317777372353535851937790883648493n; // the base point's order

// What of an item the view chains (proofs/protocol.py view_bound): all of it, except
// (view item format 2) the committed texts and their salts — the commitments stand for them, so a
// text can be removed and the view still verifies.
export function viewBound(item) {
  const committed = item.commitments;
  if (!committed || Object.keys(committed).length === 0) return item;
  const bound = {};
  for (const [key, value] of Object.entries(item)) {
    if (!(key in committed) && key !== "salts") bound[key] = value;
  }
  return bound;
}

export function viewStep(previousHex, item) {
  const digest = sha256(canonicalBytes(viewBound(item)));
  return bytesToHex(sha256(concatBytes(hexToBytes(previousHex), digest)));
}

// Does each text shown open its commitment, SHA-256(salt ‖ UTF-8 text)? A removed text (null) is
// not checked: what is gone isn't shown.
export function textsOpen(item) {
  const salts = item.salts || {};
  for (const [name, commitment] of Object.entries(item.commitments || {})) {
    if (item[name] === null || item[name] === undefined) continue;
    try {
      const digest = sha256(concatBytes(hexToBytes(salts[name]), utf8ToBytes(item[name])));
      if (bytesToHex(digest) !== commitment) return false;
    } catch {
      return false;
    }
  }
  return true;
}

export function viewMessage(view, head) {
  const signed = { campaign: view.campaign, hash: head.hash, length: head.length, member: view.member, role: view.role };
  return concatBytes(utf8ToBytes("poolside view head v1\n"), canonicalBytes(signed));
}

function littleEndian(bytes) {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]);
  return n;
}

// Ed25519 (RFC 8032 §5.1.7) on the vendored point arithmetic: [8][S]B = [8]R + [8][k]A.
export function signatureValid(publicHex, message, signatureHex) {
  try {
    const key = hexToBytes(publicHex);
    const signature = hexToBytes(signatureHex);
    if (key.length !== 32 || signature.length !== 64) return false;
    const A = Point.fromBytes(key, false);
    const R = Point.fromBytes(signature.slice(0, 32), false);
    const s = littleEndian(signature.slice(32));
    if (s >= L) return false;
    const k = littleEndian(sha512(concatBytes(signature.slice(0, 32), key, message))) % L;
    const left = Point.BASE.multiplyUnsafe(s);
    const right = R.add(A.multiplyUnsafe(k));
    return left.clearCofactor().equals(right.clearCofactor());
  } catch {
    return false;
  }
}

async function getJson(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
  if (!response.ok) throw new Error(`${response.status}`);
  return response.json();
}

function withParams(url, params) {
  const full = new URL(url, window.location.href);
  for (const [name, value] of Object.entries(params)) full.searchParams.set(name, String(value));
  return full.toString();
}

// The check itself, without the page: { status: "ok" | "changed" | "shorter" | "text" |
// "unsigned" | "role", head, view }. Exported for the tests.
export async function checkView(url, keysUrl, saved) {
  const since = saved ? { since: saved.length } : {};
  let page = await getJson(withParams(url, since));
  const view = { campaign: page.campaign, member: page.member, role: page.role };
  const head = page.head;
  if (saved && saved.role !== page.role) return { status: "role", head, view };
  if (saved && saved.length > head.length) return { status: "shorter", head, view };
  let running = page.start.hash;
  let position = page.start.length;
  let passed = !saved || (position === saved.length && running === saved.hash);
  let opened = true;
  for (;;) {
    for (const item of page.items) {
      running = viewStep(running, item);
      opened = opened && textsOpen(item);
      position += 1;
      if (saved && position === saved.length) passed = running === saved.hash;
    }
    if (page.next === null) break;
    page = await getJson(withParams(url, { ...since, start: page.next }));
  }
  if (!passed) return { status: "changed", head, view };
  if (!opened) return { status: "text", head, view };
  if (position !== head.length || running !== head.hash) return { status: "unsigned", head, view };
  const keys = (await getJson(keysUrl)).keys;
  const key = keys.find((each) => each.id === head.key);
  if (!key || !signatureValid(key.signing_key, viewMessage(view, head), head.signature)) {
    return { status: "unsigned", head, view };
  }
  return { status: "ok", head, view };
}

const WORDS = {
  changed: (saved) =>
    `History you saw has changed. This log no longer holds what this browser saw on ${when(saved)} ` +
    `(${saved.length} entries): an entry was changed, removed or put out of order since.`,
  shorter: (saved, head) =>
    `This log is shorter than when this browser last saw it: ${saved.length} entries on ` +
    `${when(saved)}, ${head.length} now. Entries you saw have been removed.`,
  text: () =>
    "A message on this page doesn't say what the log recorded it saying: its text doesn't match " +
    "the commitment your view is signed over. Don't trust it until the GM has checked the log.",
  unsigned: () =>
    "The server's signature on your view of this log doesn't match its entries. Don't trust what " +
    "this page shows until the GM has checked the log.",
};

function when(saved) {
  return saved.at ? new Date(saved.at).toLocaleString() : "your last visit";
}

async function run(box) {
  const storeKey = `poolside:view:${box.dataset.campaign}:${box.dataset.member}`;
  let saved = null;
  try {
    saved = JSON.parse(window.localStorage.getItem(storeKey) || "null");
  } catch {
    saved = null;
  }
  let result;
  try {
    result = await checkView(box.dataset.url, box.dataset.keysUrl, saved);
  } catch {
    return; // offline, or the server busy: nothing checked, nothing said, nothing saved
  }
  const { status, head, view } = result;
  if (status === "ok" || status === "role") {
    const keep = { length: head.length, hash: head.hash, key: head.key, signature: head.signature, role: view.role, at: new Date().toISOString() };
    window.localStorage.setItem(storeKey, JSON.stringify(keep));
    box.querySelector(".view-check-short").textContent = "✓";
    box.querySelector(".visually-hidden").textContent =
      status === "role"
        ? "Your role changed: this browser now keeps a new record of your view of the log."
        : `Verified: your view of this log (${head.length} entries) is signed by the server` +
          (saved ? " and still holds everything this browser saw before." : ".");
    box.hidden = false;
    return;
  }
  const alarm = document.getElementById("view-alarm");
  alarm.querySelector("p").textContent = WORDS[status](saved, head);
  alarm.hidden = false;
}

const box = document.getElementById("view-check");
if (box) run(box);
