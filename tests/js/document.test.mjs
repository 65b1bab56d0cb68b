// readParagraphs against office-addin-mock, on real agreements' paragraphs (Common Paper
// Independent Contractor and Pilot agreements, CC BY 4.0, as benchmarks/conform/paragraphs.py
// reads them from the .docx: automatic numbers as Word displays them, table cells marked).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { afterEach, test } from "node:test";
import { OfficeMockObject } from "office-addin-mock";
import { goToParagraph, isHeadingStyle, readParagraphs } from "../../addin_server/static/taskpane/document.js";

const load = (name) => JSON.parse(readFileSync(new URL(`./fixtures/documents/${name}.json`, import.meta.url)));
const CONTRACTOR = load("contractor-agreement");
const PILOT = load("pilot-agreement");

afterEach(() => {
  delete globalThis.Office;
});

/** A paragraph seed as Word would hold it (listItemOrNullObject and tableNestingLevel: WordApi 1.3). */
function paragraphSeed(p, stats) {
  return {
    text: `${p.text}\r`,
    style: p.style,
    styleBuiltIn: p.isHeading ? p.style.replace(/\s+/g, "") : "Normal",
    outlineLevel: p.isHeading ? Number(p.style.replace(/\D/g, "")) || 1 : 10,
    isListItem: Boolean(p.listString),
    tableNestingLevel: p.inTable ? 1 : 0,
    listItemOrNullObject: { listString: p.listString || "" },
    selected: false,
    select() {
      stats.selected = p.index;
    },
  };
}

/**
 * A mocked Word body holding `paragraphs`: paragraphs.getFirstOrNullObject() and each
 * paragraph's getNextOrNullObject() hand back single mocked objects (office-addin-mock
 * cannot mock collections), the one after the last being a null object.
 */
function mockDocument(paragraphs) {
  const stats = { syncs: 0, selected: null };
  const nullSeed = { text: "", style: "", styleBuiltIn: "", outlineLevel: 0, isListItem: false, tableNestingLevel: 0, listItemOrNullObject: { listString: "" } };
  const mocks = paragraphs.map((p) => new OfficeMockObject(paragraphSeed(p, stats)));
  const end = new OfficeMockObject(nullSeed);
  const all = [...mocks, end];
  all.forEach((m, i) => {
    m.isNullObject = i === mocks.length; // read without load() in Office, as in word.test.mjs
    m.listItemOrNullObject.isNullObject = !(paragraphs[i]?.listString);
    m.getNextOrNullObject = () => all[Math.min(i + 1, mocks.length)];
    m.search = () => ({ getFirstOrNullObject: () => ({ isNullObject: true, load() {} }) });
  });
  const mock = new OfficeMockObject({ document: { body: { paragraphs: {} } } });
  mock.document.body.paragraphs.getFirstOrNullObject = () => all[0];
  const context = {
    document: mock.document,
    async sync() {
      stats.syncs += 1;
      for (const m of all) await m.sync();
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
  return { run: (batch) => batch(context), stats };
}

test("reads every paragraph of a real agreement with its automatic number, style and table flag", async () => {
  const { run } = mockDocument(CONTRACTOR);
  const got = await readParagraphs(run, { batchSize: 50 });
  assert.equal(got.length, CONTRACTOR.length);
  assert.deepEqual(got, CONTRACTOR); // the exact shape: {index, text, listString, style, isHeading, inTable}
  const term = got.find((p) => p.listString === "4.1");
  assert.match(term.text, /^Term\. This Agreement will commence/);
  assert.ok(got.some((p) => p.inTable && /Governing Law/.test(p.text)));
});

test("one context.sync per batch: the batch size decides the round trips", async () => {
  const small = mockDocument(PILOT);
  await readParagraphs(small.run, { batchSize: 40 });
  assert.equal(small.stats.syncs, Math.ceil((PILOT.length + 1) / 40));
  const big = mockDocument(PILOT);
  const all = await readParagraphs(big.run, { batchSize: 1000 });
  assert.equal(big.stats.syncs, 1);
  assert.equal(all.length, PILOT.length);
});

test("text is read only after load + sync (the mock throws otherwise), and limit stops early", async () => {
  const { run } = mockDocument(PILOT);
  const got = await readParagraphs(run, { batchSize: 7, limit: 20 });
  assert.equal(got.length, 20);
  assert.ok(got.every((p) => !String(p.text).startsWith("Error")));
});

test("an empty document reads as no paragraphs", async () => {
  const { run } = mockDocument([]);
  assert.deepEqual(await readParagraphs(run), []);
});

test("older Word (no WordApi 1.3): the paragraphs collection is read page by page with top/skip", async () => {
  globalThis.Office = { context: { requirements: { isSetSupported: (set, version) => set === "WordApi" && Number(version) <= 1.2 } } };
  const loads = [];
  const paragraphs = {
    items: [],
    load(options) {
      loads.push(options);
      this.items = PILOT.slice(options.skip, options.skip + options.top).map((p) => ({ text: `${p.text}\r`, style: p.style, outlineLevel: 10 }));
    },
  };
  const context = { document: { body: { paragraphs } }, sync: async () => {} };
  const got = await readParagraphs((batch) => batch(context), { batchSize: 100 });
  assert.equal(got.length, PILOT.length);
  assert.deepEqual(loads.map((l) => l.skip), [0, 100, 200].filter((s) => s <= PILOT.length));
  assert.equal(got[40].text, PILOT[40].text);
  assert.ok(got.every((p) => p.listString === "" && p.inTable === false)); // unknown in Word 1.1: said, not guessed
});

test("headings by built-in style, localised style name or outline level; body text is not one", () => {
  assert.ok(isHeadingStyle({ styleBuiltIn: "Heading2" }));
  assert.ok(isHeadingStyle({ style: "Überschrift 1" }));
  assert.ok(isHeadingStyle({ style: "Custom", outlineLevel: 3 }));
  assert.ok(!isHeadingStyle({ style: "Normal", outlineLevel: 10 }));
});

test("goToParagraph selects the paragraph at an index", async () => {
  const { run, stats } = mockDocument(CONTRACTOR.slice(0, 30));
  assert.equal(await goToParagraph(run, 24), true);
  assert.equal(stats.selected, 24);
  assert.equal(await goToParagraph(run, 500), false);
});
