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

// Which of the member's numbers alpha's counter (version 2) commits to, trying `from` upwards to
// `most` first (the next number: one hash in an honest log), then the numbers below; null: none.
export function counterN(alpha, mine, from, most) {
  if (!alpha || alpha.v !== 2 || !Number.isInteger(alpha.campaign)) return null;
  const opens = (n) =>
    bytesToHex(sha256(canonicalBytes({ campaign: alpha.campaign, n, roller: mine.roller, secret: mine.secret }))) === alpha.counter;
  for (let n = from; n <= most; n++) if (opens(n)) return n;
  for (let n = 1; n < from; n++) if (opens(n)) return n;
  return null;
}

// The member's own rolls must count 1, 2, 3, … (docs/verifiable-dice.md): a number missing is a
// roll the server drew dice for and never logged, unless a blind roll of theirs (a placeholder,
// whose proof is the GM's) stands in its place. `counted`: { seen, blind }, seen null while the
// first number is unknown (a first visit that starts at a checkpoint). A problem, or null.
export function countOwn(counted, item, mine, most) {
  if (!mine || item.player !== mine.player) return null;
  if (item.placeholder || item.redacted) {
    counted.blind += 1;
    return null;
  }
  const alpha = item.proof && item.proof.alpha;
  if (!alpha || alpha.v !== 2) return null;
  const n = counterN(alpha, mine, (counted.seen ?? 0) + 1, most);
  if (n === null) return { problem: "foreign" };
  if (counted.seen !== null && n <= counted.seen) return { problem: "twice", n };
  const missing = counted.seen === null ? 0 : n - counted.seen - 1;
  if (missing > counted.blind) return { problem: "gap", n, missing: counted.seen + 1 };
  counted.blind -= missing;
  counted.seen = n;
  return null;
}

async function getJson(url) {
  const response = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
  if (!response.ok) throw new Error(`the server answered ${response.status}`);
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
  // Another role's view: checked against that role's saved head instead (run, checkWithRoles).
  if (saved && saved.role !== page.role) return { status: "role", head, view };
  if (saved && saved.length > head.length) return { status: "shorter", head, view };
  let running = page.start.hash;
  let position = page.start.length;
  let passed = !saved || (position === saved.length && running === saved.hash);
  let opened = true;
  // Counted from the saved head on (what came before it was counted on an earlier visit).
  const fresh = { seen: position === 0 ? 0 : null, blind: 0 };
  const counted = saved && saved.counted ? { ...saved.counted } : fresh;
  const mine = page.counter;
  let gap = null;
  for (;;) {
    for (const item of page.items) {
      running = viewStep(running, item);
      opened = opened && textsOpen(item);
      position += 1;
      if (saved && position === saved.length) passed = running === saved.hash;
      if (!gap && position > (saved ? saved.length : 0)) gap = countOwn(counted, item, mine, head.length + 1);
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
  if (gap) return { status: gap.problem, head, view, gap };
  return { status: "ok", head, view, counted };
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
  gap: (saved, head, gap) =>
    `Your roll #${gap.missing} is missing from your history: this log goes on to your roll ` +
    `#${gap.n}. The server drew dice for a roll of yours and never logged it. Ask the GM to run ` +
    "verify_log, and keep your JSON export.",
  twice: (saved, head, gap) =>
    `Your roll #${gap.n} appears twice in your history: the server proved two rolls of yours for ` +
    "one number. Ask the GM to run verify_log, and keep your JSON export.",
  foreign: () =>
    "A roll of yours in this log doesn't carry your own counter: the server numbered it some other " +
    "way. Ask the GM to run verify_log, and keep your JSON export.",
};

function when(saved) {
  return saved.at ? new Date(saved.at).toLocaleString() : "your last visit";
}

function load(key) {
  try {
    return JSON.parse(window.localStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}

// A head is kept per role (`<key>:role:<role>`), besides the newest under the key itself: an answer
// in another role is checked against that role's own saved head, so a server that says the role
// changed can't make a visit a first visit, and going back finds the old record waiting.
async function checkWithRoles(box, storeKey, saved) {
  const url = box.dataset.url;
  const keysUrl = box.dataset.keysUrl;
  const result = await checkView(url, keysUrl, saved);
  if (result.status !== "role") return { result, saved, changed: null };
  const kept = load(`${storeKey}:role:${result.view.role}`);
  const again = await checkView(url, keysUrl, kept);
  if (again.status === "role") throw new Error("the role changed between two answers");
  return { result: again, saved: kept, changed: { from: saved.role, to: again.view.role, before: kept } };
}

const ROLES = { gm: "the GM", member: "a member" };

function couldNot(saved, error) {
  const alarm = document.getElementById("view-alarm");
  alarm.querySelector("h2").textContent = "Couldn't check your history";
  alarm.querySelector("p").textContent =
    `The server didn't let this browser check your view of the log (${error.message || "no answer"}). ` +
    `This browser still keeps the record of what you saw on ${when(saved)} (${saved.length} entries) and ` +
    "checks it again on your next visit.";
  alarm.hidden = false;
}

async function run(box) {
  const storeKey = `poolside:view:${box.dataset.campaign}:${box.dataset.member}`;
  const newest = load(storeKey);
  if (newest && newest.role && !load(`${storeKey}:role:${newest.role}`)) {
    window.localStorage.setItem(`${storeKey}:role:${newest.role}`, JSON.stringify(newest));
  }
  let checked;
  try {
    checked = await checkWithRoles(box, storeKey, newest);
  } catch (error) {
    // Offline, the server busy or refusing: said, once a record exists that it kept from being
    // checked; nothing saved.
    if (newest) couldNot(newest, error);
    return;
  }
  const { result, saved, changed } = checked;
  const { status, head, view } = result;
  if (status === "ok") {
    const keep = { length: head.length, hash: head.hash, key: head.key, signature: head.signature, role: view.role, counted: result.counted, at: new Date().toISOString() };
    window.localStorage.setItem(storeKey, JSON.stringify(keep));
    window.localStorage.setItem(`${storeKey}:role:${view.role}`, JSON.stringify(keep));
    box.querySelector(".view-check-short").textContent = "✓";
    const verified =
      `Verified: your view of this log (${head.length} entries) is signed by the server` +
      (saved ? " and still holds everything this browser saw before." : ".") +
      (result.counted && result.counted.seen ? ` Your rolls count up to #${result.counted.seen} with none missing.` : "");
    const as = (role) => ROLES[role] || role;
    box.querySelector(".visually-hidden").textContent = changed
      ? `Your role changed from ${as(changed.from)} to ${as(changed.to)}. ${verified} The record of ` +
        `your view as ${as(changed.from)} is kept too.`
      : verified;
    if (changed) {
      box.querySelector(".view-check-word").textContent = ` verified as ${as(changed.to)} (your role changed)`;
      box.classList.add("view-check-changed");
      box.classList.add("view-check-changed");
    }
    box.hidden = false;
    return;
  }
  const alarm = document.getElementById("view-alarm");
  alarm.querySelector("p").textContent = WORDS[status](saved, head, result.gap);
  alarm.hidden = false;
}

const box = document.getElementById("view-check");
if (box) run(box);
