// "Open the source": links on result cards and in Word comments (issue 25). The card itself
// is rendered in Chromium by source-link.browser.test.mjs.
import test from "node:test";
import assert from "node:assert/strict";

import { openLine, sourceLink, sourceLinkLabel, sourceUrl } from "../../addin_server/static/taskpane/source-link.js";
import { insertComment } from "../../addin_server/static/taskpane/adapt.js";
import { commentText } from "../../addin_server/static/taskpane/citations.js";

const SP = "https://contoso.sharepoint.com/sites/Legal/Precedents/Acme/spa.docx";
const IM = "https://cloudimanage.com/work/link/d/ACTIVE!123.4";

test("only http(s) and file links are offered; anything else is dropped", () => {
  assert.equal(sourceUrl({ url: SP }), SP);
  assert.equal(sourceUrl({ url: "file://fileserver/precedents/Forms/nda.docx" }), "file://fileserver/precedents/Forms/nda.docx");
  for (const bad of ["javascript:alert(1)", "data:text/html,x", "not a url", "", null, 7]) assert.equal(sourceUrl({ url: bad }), "");
  assert.equal(sourceUrl(undefined), "");
});

test("the link says where it opens", () => {
  assert.equal(sourceLinkLabel(SP), "Open in SharePoint");
  assert.equal(sourceLinkLabel(IM), "Open in iManage");
  assert.equal(sourceLinkLabel("file://fileserver/p/x.docx"), "Open file");
  assert.equal(sourceLinkLabel("https://dms.example.com/d/1"), "Open source document");
});

test("Word comments carry the link: on Insert and on each citation", () => {
  assert.match(insertComment({ document: "SPA", url: IM }), /\nOpen in iManage: https:\/\/cloudimanage\.com\/work\/link\/d\/ACTIVE!123\.4$/);
  assert.ok(!insertComment({ document: "SPA" }).includes("Open"));
  const answer = { citations: [{ marker: "[1]", clause_id: "c1", source: { document: "SPA", url: SP } }] };
  assert.match(commentText(answer, { marker: "[1]", clause_id: "c1", text: "Precedent [1]" }), /Open in SharePoint: https:\/\/contoso/);
  assert.equal(openLine({}), "");
});
