// Builds static/vendor/noble-ed25519-bundle.js from the pinned @noble packages (`make vendor-js`).
// The header is made from the installed packages themselves (name, version, licence text), so a
// version bump in package.json can't leave a header that names the old one. Deterministic: the
// same node_modules give the same bytes (no timestamps, no absolute paths in the output).
import { readFileSync, writeFileSync } from "node:fs";
import { build } from "esbuild";

const PACKAGES = ["@noble/curves", "@noble/hashes"];
const OUT = "static/vendor/noble-ed25519-bundle.js";

function header() {
  const parts = PACKAGES.map((name) => {
    const meta = JSON.parse(readFileSync(`node_modules/${name}/package.json`, "utf8"));
    const licence = readFileSync(`node_modules/${name}/LICENSE`, "utf8").trim();
    return `${name} ${meta.version} (${meta.license})\n\n${licence}`;
  });
  const esbuildVersion = JSON.parse(readFileSync("node_modules/esbuild/package.json", "utf8")).version;
  const text = [
    "Poolside's vendored ed25519 point arithmetic and SHA-2, for verifying dice in the browser\n" +
      "(static/js/verify-dice.js). Built by `make vendor-js` (vendor-src/build.mjs) with\n" +
      `esbuild ${esbuildVersion}; do not edit by hand. It bundles:`,
    ...parts,
  ].join("\n\n");
  return `/*!\n${text.replace(/\*\//g, "* /").split("\n").map((l) => ` * ${l}`.trimEnd()).join("\n")}\n */`;
}

await build({
  entryPoints: ["vendor-src/noble-ed25519.js"],
  outfile: OUT,
  bundle: true,
  format: "esm",
  platform: "browser",
  target: "es2020",
  minify: false,
  legalComments: "inline",
  banner: { js: header() },
  logLevel: "warning",
});
// esbuild names each bundled file in a comment; those paths are relative and stable already.
const built = readFileSync(OUT, "utf8");
writeFileSync(OUT, built.endsWith("\n") ? built : `${built}\n`);
