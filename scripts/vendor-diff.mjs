// Copy jsdiff's browser build (node_modules/diff/dist/diff.js) into the task pane as an ES
// module, so the pane needs no CDN and no bundler: the pane is served as plain files.
//
//   npm ci && npm run vendor      (after changing the "diff" version in package.json)
//
// tests/js/compare.test.mjs fails when the vendored copy and the installed package differ.

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");
export const VENDORED = join(REPO, "addin_server/static/taskpane/vendor/diff.js");

/** The vendored module's text for the installed jsdiff. */
export function vendoredText() {
  const pkg = JSON.parse(readFileSync(join(REPO, "node_modules/diff/package.json"), "utf8"));
  const umd = readFileSync(join(REPO, "node_modules/diff/dist/diff.js"), "utf8");
  const licence = readFileSync(join(REPO, "node_modules/diff/LICENSE"), "utf8").trim();
  return [
    `// jsdiff ${pkg.version} (https://github.com/kpdecker/jsdiff), dist/diff.js wrapped as an ES module`,
    "// by scripts/vendor-diff.mjs. Do not edit: change the version in package.json and run npm run vendor.",
    "/*",
    licence,
    "*/",
    "const module = { exports: {} };",
    "const exports = module.exports;",
    umd.trim(),
    "export const { diffArrays, diffWordsWithSpace } = module.exports;",
    `export const VERSION = ${JSON.stringify(pkg.version)};`,
    "",
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(VENDORED, vendoredText());
  console.log(`wrote ${VENDORED}`);
}
