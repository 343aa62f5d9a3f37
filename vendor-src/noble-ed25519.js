// The entry of static/vendor/noble-ed25519-bundle.js (vendor-src/build.mjs bundles it): only what
// static/js/verify-dice.js needs, so the served file carries no signing, FROST or OPRF code.
import { ed25519 } from "@noble/curves/ed25519.js";

export const Point = ed25519.Point;
export { sha256, sha512 } from "@noble/hashes/sha2.js";
export { bytesToHex, concatBytes, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
