// Collecting the open document: the one module that walks the body's paragraphs through
// Office.js. The pane reads nothing from them itself: document-profile.js sends them to the
// server, whose clause-reading core (index_builder/reading) reads parties, defined terms and
// the section map for conforming, redraft and the document check (issue 38).
//
// Shape of a paragraph (kept stable: other pane features build on it):
//   {index, text, listString, style, isHeading, inTable}
// `index` is the paragraph's position in body.paragraphs (0-based, empty paragraphs counted),
// so a finding can be selected again with goToParagraph.
//
// Two ways to read, both in batches of `batchSize` paragraphs per context.sync():
// - WordApi 1.3 (every Word the manifest admits: it requires 1.4): walk
//   paragraphs.getFirstOrNullObject() / getNextOrNullObject(), which office-addin-mock can
//   mock (single objects), with listItemOrNullObject.listString for automatic numbers and
//   tableNestingLevel for tables;
// - older Word (1.1/1.2, e.g. Word 2016 opened without the manifest's check): the paragraphs
//   collection loaded page by page with {top, skip}; automatic numbers and tables are then
//   unknown (listString "" and inTable false), typed numbers still appear in the text.

const CHAIN_PROPS = "text,style,styleBuiltIn,isListItem,tableNestingLevel,outlineLevel";
const OLD_PROPS = "text,style,outlineLevel";
export const DEFAULT_BATCH = 200;
// A guard, not a limit anyone should meet: 20,000 paragraphs is a 1,500-page document.
export const MAX_PARAGRAPHS = 20000;

/** True when this Word supports `set` at `version` (assumed true outside Office, e.g. in tests). */
function supports(set, version) {
  const req = globalThis.Office?.context?.requirements;
  return typeof req?.isSetSupported === "function" ? Boolean(req.isSetSupported(set, version)) : true;
}

const HEADING_STYLE = /^(?:heading|überschrift|titre|título|titolo|kop)\s*[1-9]$/i;

/** A heading by style (built-in "Heading n", or a localised name) or by outline level 1-9. */
export function isHeadingStyle({ style = "", styleBuiltIn = "", outlineLevel } = {}) {
  if (/^heading[1-9]$/i.test(String(styleBuiltIn))) return true;
  if (HEADING_STYLE.test(String(style).trim())) return true;
  // Word's outline levels: 1-9 for headings, 10 for body text.
  return Number.isInteger(outlineLevel) && outlineLevel >= 1 && outlineLevel <= 9;
}

/** Word's paragraph text without the trailing paragraph mark and with soft breaks as spaces. */
function cleanText(text) {
  return String(text ?? "").replace(/[\r\u000b\u2028\u2029]+$/g, "").replace(/[\u000b\u2028\u2029]/g, " ");
}

function toParagraph(index, p, listString) {
  const props = { style: safe(() => p.style), styleBuiltIn: safe(() => p.styleBuiltIn), outlineLevel: safe(() => p.outlineLevel) };
  const nesting = safe(() => p.tableNestingLevel);
  return {
    index,
    text: cleanText(safe(() => p.text)),
    listString: typeof listString === "string" ? listString : "",
    style: typeof props.style === "string" ? props.style : "",
    isHeading: isHeadingStyle(props),
    inTable: Number.isInteger(nesting) && nesting > 0,
  };
}

/** A property that was not loaded (older Word) reads as undefined instead of throwing. */
function safe(get) {
  try {
    const value = get();
    return typeof value === "string" && value.startsWith("Error, property was not loaded") ? undefined : value;
  } catch {
    return undefined;
  }
}

/** Queue `count` paragraphs after `previous` (or from the first when null), loading each. */
function queueBatch(context, previous, count) {
  const queued = [];
  let cursor = previous;
  for (let i = 0; i < count; i += 1) {
    cursor = cursor ? cursor.getNextOrNullObject() : context.document.body.paragraphs.getFirstOrNullObject();
    cursor.load(CHAIN_PROPS);
    const list = cursor.listItemOrNullObject;
    list.load("listString");
    queued.push({ paragraph: cursor, list });
  }
  return queued;
}

async function readByChain(context, batchSize, limit) {
  const out = [];
  let last = null;
  while (out.length < limit) {
    const batch = queueBatch(context, last, Math.min(batchSize, limit - out.length));
    await context.sync();
    for (const { paragraph, list } of batch) {
      if (paragraph.isNullObject) return out;
      const listed = paragraph.isListItem === true && list.isNullObject === false ? safe(() => list.listString) : "";
      out.push(toParagraph(out.length, paragraph, listed));
      last = paragraph;
    }
  }
  return out;
}

async function readByPages(context, batchSize, limit) {
  const out = [];
  while (out.length < limit) {
    const page = context.document.body.paragraphs;
    page.load({ select: OLD_PROPS, top: Math.min(batchSize, limit - out.length), skip: out.length });
    await context.sync();
    const items = Array.isArray(page.items) ? page.items : [];
    for (const p of items) out.push(toParagraph(out.length, p, ""));
    if (items.length < batchSize) return out;
  }
  return out;
}

/**
 * Every body paragraph of the open document, in order, read `batchSize` at a time (one
 * context.sync() per batch). `run` has Word.run's shape. Never logs or sends the text.
 * Options: batchSize (default 200), limit (default 20,000), api ("chain" | "pages"; by
 * default chosen from the Word API sets this Word supports).
 */
export async function readParagraphs(run, { batchSize = DEFAULT_BATCH, limit = MAX_PARAGRAPHS, api } = {}) {
  const size = Math.max(1, Math.floor(Number(batchSize) || DEFAULT_BATCH));
  const how = api ?? (supports("WordApi", "1.3") ? "chain" : "pages");
  return run((context) => (how === "chain" ? readByChain(context, size, limit) : readByPages(context, size, limit)));
}

/**
 * Select paragraph `index` (as readParagraphs numbered it) and scroll to it, so a finding of
 * the document check is one click from its place. `search` (optional, at most 255
 * characters) narrows the selection to the words inside the paragraph. Returns true when found.
 */
export async function goToParagraph(run, index, search = "") {
  return run(async (context) => {
    let cursor = context.document.body.paragraphs.getFirstOrNullObject();
    for (let i = 0; i < index; i += 1) cursor = cursor.getNextOrNullObject();
    cursor.load("text");
    await context.sync();
    if (cursor.isNullObject) return false;
    let target = cursor;
    if (search) {
      const hit = cursor.search(String(search).slice(0, 255), { matchCase: true }).getFirstOrNullObject();
      hit.load("text");
      await context.sync();
      if (hit.isNullObject === false) target = hit;
    }
    target.select();
    await context.sync();
    return true;
  });
}

/**
 * Add `text` as a new paragraph after paragraph `index` (or at the end of the body when
 * index < 0), as a tracked change; the document's own track-changes mode is restored after.
 * Used to add a precedent's definition the document lacks. Returns true when added.
 */
export async function insertParagraphAfter(run, index, text) {
  return run(async (context) => {
    const document = context.document;
    document.load("changeTrackingMode");
    let anchor = null;
    if (index >= 0) {
      anchor = document.body.paragraphs.getFirstOrNullObject();
      for (let i = 0; i < index; i += 1) anchor = anchor.getNextOrNullObject();
      anchor.load("text");
    }
    await context.sync();
    if (anchor && anchor.isNullObject) return false;
    const previous = document.changeTrackingMode;
    document.changeTrackingMode = globalThis.Word?.ChangeTrackingMode?.trackAll ?? "TrackAll";
    try {
      if (anchor) anchor.insertParagraph(String(text), "After");
      else document.body.insertParagraph(String(text), "End");
      await context.sync();
    } finally {
      document.changeTrackingMode = previous;
      await context.sync();
    }
    return true;
  });
}
