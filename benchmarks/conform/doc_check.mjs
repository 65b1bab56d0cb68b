// Document check on real agreements with planted errors (run by doc_check_benchmark.py).
//   node benchmarks/conform/doc_check.mjs DIR   (DIR holds NAME.json paragraph files)
// Plants, per document, one of each: an undefined term, a second different definition of
// an existing term, a reference to a missing section, a defined term in the wrong capitals,
// and a definition nobody uses. Recall: plants found (right kind, term and paragraph).
// Precision: of the findings the planted document has and the original does not, the share
// that are the plants. The original's own findings are written out for reading.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { checkDocument } from "../../addin_server/static/taskpane/doc-check.js";
import { documentProfile } from "../../addin_server/static/taskpane/document-profile.js";

const PLANTED_TERMS = ["Excluded Liabilities", "Service Credits", "Transition Period", "Data Room", "Escrow Materials",
  "Retention Amount", "Key Personnel", "Milestone Payments", "Reference Rate", "Security Deposit", "Change Control Board", "Exit Plan"];
const UNUSED_TERMS = ["Widget Fee", "Holdback Ledger", "Quiet Period", "Rollover Notice", "Support Window", "Audit Window",
  "Parking Lot Rules", "Dock Schedule", "Bonus Pool", "Launch Window", "Pilot Ledger", "Travel Policy"];

const prose = (p) => !p.inTable && String(p.text).split(/\s+/).length >= 25 && !/[\u201c"]/.test(p.text);

function plant(paragraphs, n) {
  const ps = paragraphs.map((p) => ({ ...p }));
  const profile = documentProfile(ps);
  const firstSection = profile.sections.find((s) => /^\d+$/.test(s.number))?.index ?? 0;
  let body = ps.filter((p) => p.index > firstSection && prose(p));
  // Short forms (a consent, a notice) have few long paragraphs: any paragraph of ten words or more.
  if (body.length < 4) body = ps.filter((p) => !p.inTable && String(p.text).split(/\s+/).length >= 10);
  const plants = [];
  if (!body.length) return { paragraphs: ps, plants };
  const at = (k) => body[Math.min(body.length - 1, Math.floor(((k + 1) * body.length) / 6))];
  const term = PLANTED_TERMS[n % PLANTED_TERMS.length];
  const p1 = at(0);
  p1.text += ` This obligation does not extend to ${term}.`;
  plants.push({ kind: "undefined", term, index: p1.index });
  const top = Math.max(0, ...profile.sections.map((s) => parseInt(s.number, 10)).filter(Number.isFinite));
  if (top > 0) { // a document with no numbered sections has nothing a reference could miss
    const missing = `${top + 20}.3`;
    const p2 = at(1);
    p2.text += ` This is subject to Section ${missing}.`;
    plants.push({ kind: "missing-section", term: missing, index: p2.index });
  }
  const quoted = profile.definitions.filter((d) => d.how === "quoted");
  const twice = quoted[Math.floor(quoted.length / 2)];
  if (twice) {
    const p3 = at(2);
    p3.text += ` \u201c${twice.term}\u201d means anything else the parties agree in writing.`;
    plants.push({ kind: "defined-twice", term: twice.term, index: p3.index });
  }
  const multi = quoted.map((d) => d.term).filter((t) => t.includes(" ") && t !== twice?.term);
  for (const t of multi) {
    const p = ps.find((q) => !q.inTable && q.text.includes(t) && !q.text.includes(`\u201c${t}`) && !q.text.includes(`"${t}`) && q.text.indexOf(t) > 20);
    if (!p) continue;
    const wrong = t.toLowerCase();
    p.text = p.text.replace(t, wrong);
    plants.push({ kind: "capitalisation", term: t, index: p.index });
    break;
  }
  const unused = UNUSED_TERMS[n % UNUSED_TERMS.length];
  const p5 = at(3);
  p5.text += ` \u201c${unused}\u201d means the schedule the parties agree in writing.`;
  plants.push({ kind: "unused", term: unused, index: p5.index });
  return { paragraphs: ps, plants };
}

const key = (f) => `${f.kind}|${f.term}`;
const dir = process.argv[2];
const rows = [];
const totals = {};
readdirSync(dir).filter((f) => f.endsWith(".json")).sort().forEach((file, n) => {
  const original = JSON.parse(readFileSync(join(dir, file), "utf8"));
  const parties = documentProfile(original).parties.map((p) => p.term);
  const before = checkDocument(original, { parties });
  const { paragraphs, plants } = plant(original, n);
  const after = checkDocument(paragraphs, { parties: documentProfile(paragraphs).parties.map((p) => p.term) });
  const old = new Set(before.map(key));
  const fresh = after.filter((f) => !old.has(key(f)));
  const found = plants.map((p) => after.some((f) => f.kind === p.kind && f.term.toLowerCase() === p.term.toLowerCase() && (p.kind === "defined-twice" || p.kind === "unused" || f.index === p.index)));
  const matched = fresh.filter((f) => plants.some((p) => f.kind === p.kind && f.term.toLowerCase() === p.term.toLowerCase()));
  for (const [i, p] of plants.entries()) {
    totals[p.kind] ??= { planted: 0, found: 0 };
    totals[p.kind].planted += 1;
    totals[p.kind].found += found[i] ? 1 : 0;
  }
  rows.push({ document: file.replace(/\.json$/, ""), plants: plants.map((p, i) => ({ ...p, found: found[i] })),
    new_findings: fresh.length, new_findings_that_are_plants: matched.length,
    new_findings_not_plants: fresh.filter((f) => !matched.includes(f)).map((f) => `${f.kind}: ${f.term}`),
    original_findings: before.map((f) => `${f.kind}: ${f.term}`) });
});
const planted = Object.values(totals).reduce((a, t) => a + t.planted, 0);
const found = Object.values(totals).reduce((a, t) => a + t.found, 0);
const fresh = rows.reduce((a, r) => a + r.new_findings, 0);
const plantsFound = rows.reduce((a, r) => a + r.new_findings_that_are_plants, 0);
const figures = {
  documents: rows.length, planted, recall: +(found / planted).toFixed(3),
  precision_of_new_findings: +(plantsFound / Math.max(fresh, 1)).toFixed(3),
  by_kind: Object.fromEntries(Object.entries(totals).map(([k, t]) => [k, { ...t, recall: +(t.found / t.planted).toFixed(3) }])),
  original_findings_per_document: +(rows.reduce((a, r) => a + r.original_findings.length, 0) / rows.length).toFixed(1),
};
process.stdout.write(JSON.stringify({ figures, documents: rows }, null, 1));
