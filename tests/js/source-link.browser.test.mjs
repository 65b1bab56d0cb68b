// "Open the source" on a result card, in Chromium: a SharePoint and an iManage precedent get a
// link that opens their DMS in a new window; a javascript: url and a missing one get none.
// Writes test-artifacts/card-open-source.png (ignored by git; the committed copy in
// benchmarks/results/sources/ is the one looked at when this was written).

import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { REPO, findChromium, launchBrowser, openPane } from "./fixtures/harness.mjs";
import { CLAUSE, DOCUMENT, RESULTS, fakeApi } from "./fixtures/fake-api.mjs";

const skip = findChromium() ? false : "Chromium not installed (apt-get install chromium, or set CHROMIUM_PATH)";
const SELECTED = { paragraphs: DOCUMENT, selection: { paragraph: 1, start: 0, end: CLAUSE.length } };
const SP = "https://contoso.sharepoint.com/sites/Legal/Precedents/Acme/msa-2021.docx";
const IM = "https://cloudimanage.com/work/link/d/ACTIVE!4471.3";

let browser;
before(async () => {
  if (!skip) browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
});

test("cards open their precedent's document in its DMS", { skip }, async () => {
  const urls = [SP, IM, "javascript:alert(1)"];
  const results = RESULTS.map((r, i) => ({ ...r, source: { ...r.source, url: urls[i] } }));
  const pane = await openPane({ browser, width: 360, shimConfig: SELECTED, api: fakeApi({ results }) });
  const { page } = pane;
  try {
    await page.click("#find");
    await page.waitForSelector(".card");
    const links = await page.$$eval(".card", (cards) => cards.map((c) => {
      const a = c.querySelector("a.open-source");
      return a ? { text: a.textContent, href: a.href, target: a.target, rel: a.rel } : null;
    }));
    assert.deepEqual(links[0], { text: "Open in SharePoint", href: SP, target: "_blank", rel: "noopener noreferrer" });
    assert.equal(links[1].text, "Open in iManage");
    assert.equal(links[2], null, "a javascript: url is never a link");
    assert.deepEqual(await pane.strayText(), []);
    const out = join(REPO, "test-artifacts");
    mkdirSync(out, { recursive: true });
    await page.screenshot({ path: join(out, "card-open-source.png"), clip: { x: 0, y: 0, width: 360, height: 620 } });
    assert.deepEqual(pane.errors.map(String), []);
  } finally {
    await pane.close();
  }
});
