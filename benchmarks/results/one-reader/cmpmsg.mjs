// node cmpmsg.mjs OLD_MESSAGES_JS MESSAGES_JSONL: each server message as the old pane showed it
// (its own sentence split) and as this pane shows it (the server's sentences, messages.py).
import fs from "node:fs";
import { pathToFileURL } from "node:url";
import { forLawyer as newF } from "../../../addin_server/static/taskpane/messages.js";
const { forLawyer: oldF } = await import(pathToFileURL(process.argv[2]).href);
let same = 0;
const diff = [];
for (const line of fs.readFileSync(process.argv[3], "utf8").split("\n").filter(Boolean)) {
  const { m, s } = JSON.parse(line);
  const a = oldF(m), b = newF(m, s);
  if (a === b) same++; else diff.push({ m, old: a, new: b });
}
console.log("same", same, "differ", diff.length);
for (const d of diff) console.log(JSON.stringify(d));
