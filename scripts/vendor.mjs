// Copy the browser builds of the pane's two libraries into addin_server/static/taskpane/vendor/
// as ES modules, so the pane needs no CDN and no bundler (it is served as plain files, and
// nothing is fetched from the network at run time):
//   jsdiff (BSD-3-Clause)            dist/diff.js               -> vendor/diff.js
//   @azure/msal-browser (MIT)        lib/msal-browser.min.js    -> vendor/msal-browser.js
//
//   npm ci && npm run vendor      (after changing a version in package.json)
//
// tests/js/blackline.test.mjs and tests/js/auth.test.mjs fail when a vendored copy and the
// installed package differ.

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = join(dirname(fileURLToPath(import.meta.url)), "..");
const VENDOR = join(REPO, "addin_server/static/taskpane/vendor");

export const LIBRARIES = {
  diff: { package: "diff", build: "dist/diff.js", out: "diff.js", exports: ["diffArrays", "diffWordsWithSpace"] },
  msal: {
    package: "@azure/msal-browser",
    build: "lib/msal-browser.min.js",
    out: "msal-browser.js",
    exports: ["createNestablePublicClientApplication", "PublicClientApplication", "InteractionRequiredAuthError", "BrowserAuthError"],
  },
};

export const VENDORED = join(VENDOR, LIBRARIES.diff.out);
export const vendoredPath = (name) => join(VENDOR, LIBRARIES[name].out);

/** The vendored module's text for the installed package `name` (a key of LIBRARIES). */
export function vendoredText(name = "diff") {
  const lib = LIBRARIES[name];
  const root = join(REPO, "node_modules", lib.package);
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const umd = readFileSync(join(root, lib.build), "utf8");
  const licence = readFileSync(join(root, "LICENSE"), "utf8").trim();
  return [
    `// ${lib.package} ${pkg.version} (${pkg.license}), ${lib.build} wrapped as an ES module`,
    "// by scripts/vendor.mjs. Do not edit: change the version in package.json and run npm run vendor.",
    "/*",
    licence.replace(/\*\//g, "* /"),
    "*/",
    // The UMD wrapper sees a CommonJS-style `exports` object and fills it.
    "const module = { exports: {} };",
    "const exports = module.exports;",
    umd.trim().replace(/\n\/\/# sourceMappingURL=.*$/, ""),
    `export const { ${lib.exports.join(", ")} } = module.exports;`,
    `export const VERSION = ${JSON.stringify(pkg.version)};`,
    "",
  ].join("\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const name of Object.keys(LIBRARIES)) {
    writeFileSync(vendoredPath(name), vendoredText(name));
    console.log(`wrote ${vendoredPath(name)}`);
  }
}
