// npm run validate [-- FILE] [-- --online]
//
// Runs Microsoft's validator (`office-addin-manifest validate FILE`, default
// office_manifest/manifest.xml). That validator posts the manifest to a Microsoft web
// service; where the service cannot be reached (offline CI, a locked-down network) this
// script says so plainly and runs offline checks of its own instead, so the command still
// catches the mistakes we can see locally. With --online (or PRECEDENT_VALIDATE_ONLINE=1)
// an unreachable service is a failure, for release builds that must be validated by Microsoft.
// tests/addin/test_manifest.py checks the manifest's structure in more depth.

import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const online = args.includes("--online") || process.env.PRECEDENT_VALIDATE_ONLINE === "1";
const file = resolve(args.find((a) => !a.startsWith("--")) || join(REPO, "office_manifest", "manifest.xml"));
const cli = join(REPO, "node_modules", ".bin", "office-addin-manifest");

if (!existsSync(cli)) {
  console.error("office-addin-manifest is not installed: run `npm install` at the repository root.");
  process.exit(1);
}
if (!existsSync(file)) {
  console.error(`No manifest at ${file}. Render one: addin-server manifest --url https://HOST --out ${file}`);
  process.exit(1);
}

const run = spawnSync(cli, ["validate", file], { encoding: "utf8", timeout: 120_000 });
const output = `${run.stdout || ""}${run.stderr || ""}`;
process.stdout.write(run.stdout || "");
process.stderr.write(run.stderr || "");

if (!/Unable to contact the manifest validation service/.test(output)) {
  process.exit(run.status ?? 1);
}

if (online) {
  console.error("\nMicrosoft's manifest validation service could not be reached, and --online requires it.");
  process.exit(1);
}

console.log("\nMicrosoft's validation service cannot be reached from here; running the offline checks instead.");
const problems = await offlineChecks(file);
if (problems.length) {
  console.error(`Offline checks failed for ${file}:`);
  for (const p of problems) console.error(`  - ${p}`);
  process.exit(1);
}
console.log(`Offline checks passed for ${file}. Validate with Microsoft's service before publishing: npm run validate -- --online`);

/** Checks that need no network: what Office itself rejects or what breaks the pane. */
async function offlineChecks(path) {
  const problems = [];
  const require = createRequire(import.meta.url);
  const { OfficeAddinManifest } = require("office-addin-manifest");
  let info;
  try {
    info = await OfficeAddinManifest.readManifestFile(path); // parses the XML
  } catch (err) {
    return [`not a readable add-in manifest: ${err.message}`];
  }
  const xml = readFileSync(path, "utf8");
  const guid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  if (info.officeAppType !== "TaskPaneApp") problems.push(`xsi:type is ${info.officeAppType}, expected TaskPaneApp`);
  if (!guid.test(info.id || "")) problems.push(`Id ${info.id} is not a GUID`);
  if (!/^\d{1,5}(\.\d{1,5}){0,3}$/.test(info.version || "")) problems.push(`Version ${info.version} is not n.n.n.n`);
  if (!(info.hosts || []).includes("Document")) problems.push("Hosts does not include Document (Word)");
  if (info.permissions !== "ReadWriteDocument") problems.push(`Permissions is ${info.permissions}, expected ReadWriteDocument`);
  for (const [what, value] of [["DisplayName", info.displayName], ["ProviderName", info.providerName]]) {
    if (!value || value.length > 125) problems.push(`${what} must be 1-125 characters`);
  }
  if (!info.description || info.description.length > 250) problems.push("Description must be 1-250 characters");

  const urls = [...xml.matchAll(/DefaultValue="(https?:\/\/[^"]*)"/g)].map((m) => m[1]);
  const origins = new Set();
  for (const url of urls) {
    const u = new URL(url);
    if (u.protocol !== "https:" && !["localhost", "127.0.0.1"].includes(u.hostname)) problems.push(`${url} is not https`);
    if (!url.startsWith("https://go.microsoft.com/")) origins.add(u.origin);
  }
  if (origins.size > 1) problems.push(`URLs point at more than one server: ${[...origins].join(", ")}`);

  if (!/<Set Name="WordApi" MinVersion="1\.4"\s*\/>/.test(xml)) problems.push("Requirements do not declare WordApi 1.4");
  const defined = new Set([...xml.matchAll(/<bt:(?:Image|Url|String) id="([^"]+)"/g)].map((m) => m[1]));
  for (const [, resid] of xml.matchAll(/resid="([^"]+)"/g)) {
    if (!defined.has(resid)) problems.push(`resid ${resid} has no resource`);
    if (resid.length > 32) problems.push(`resid ${resid} is longer than 32 characters`);
  }
  for (const [, id, value] of xml.matchAll(/<bt:ShortStrings>[\s\S]*?<\/bt:ShortStrings>/g).next().value?.[0].matchAll(/id="([^"]+)" DefaultValue="([^"]*)"/g) || []) {
    if (value.length > 125) problems.push(`short string ${id} is longer than 125 characters`);
  }
  if (!/<ExtensionPoint xsi:type="PrimaryCommandSurface">\s*<OfficeTab id="TabHome">/.test(xml)) problems.push("no ribbon button on the Home tab");
  if (!/<OfficeMenu id="ContextMenuText">/.test(xml)) problems.push("no context-menu entry for selected text");
  return problems;
}
