// Follow the cursor, the parts without timers or DOM: what to read from Word, which paragraphs
// are not worth a search, how long to wait after the server says no, and where the lawyer's
// choices are kept. follow.js puts them to work; tests/js/follow.test.mjs checks them in Node.

import { MAX_SELECTION_CHARS } from "./messages.js";
import { clauseKey, loadTarget } from "./word.js";

export const FOLLOW_KEY = "precedent.follow.v1";
/** Longest wait after failures the server gave no Retry-After for. */
export const MAX_BACKOFF_MS = 120_000;

// The cursor's paragraph is judged before any request, so no clause number is read here (the
// server's reader is reading/paragraphs.py): a reserved clause is whatever ends in "Reserved"
// after at most two short words ("14. [Reserved]", "Section 4.2 Intentionally omitted."), which
// only a paragraph too short to search anyway can be.
const RESERVED = /^(?:\S{1,12}\s+){0,2}?(?:\[\s*)?(?:reserved|intentionally\s+(?:left\s+blank|omitted|deleted)|not\s+used|deleted)(?:\s*\])?\.?$/i;
const SIGNATURE = /^(?:by|name|title|date|signature|signed|its|witness|print(?:ed)?\s+name|address|email)\s*:|^_{3,}|^\[?signature page follows\]?\.?$/i;
const HEADING_STYLE = /^(?:heading\s*\d|title|subtitle)$/i;

/**
 * Why the paragraph (or selection) at the cursor is not searched, or "" when it is.
 * `target`: {text, style}; `minWords`: fewer words than this is not a clause; `headings`: the
 * texts (clauseKey) of the paragraphs the server read as headings set in capitals (the
 * document's reading, POST /api/v1/document `headings`): the pane tells no heading by its
 * capitals itself.
 */
export function skipReason(target, { minWords = 8, maxChars = MAX_SELECTION_CHARS, headings = null } = {}) {
  const key = clauseKey(target?.text);
  if (!key) return "empty";
  if (key.length > maxChars) return "too long";
  const body = key;
  if (RESERVED.test(body)) return "reserved";
  if (SIGNATURE.test(body)) return "signature";
  if (HEADING_STYLE.test(String(target?.style || "").trim())) return "heading";
  if (headings?.has?.(body)) return "heading"; // "12. LIMITATION OF LIABILITY", as the server read it
  const words = body.split(" ").filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (words.length < minWords) return "short";
  return "";
}

/**
 * The texts (clauseKey) of the paragraphs the server read as headings in capitals, from its
 * reading of the document (`profile.headings`: indexes into the `paragraphs` the pane sent).
 */
export function headingTexts(profile, paragraphs) {
  const wanted = new Set(Array.isArray(profile?.headings) ? profile.headings : []);
  return new Set((paragraphs || []).filter((p) => wanted.has(p?.index)).map((p) => clauseKey(p.text)).filter(Boolean));
}

/** What the pane says about a skipped paragraph (one short line under the toggle). */
export function skipMessage(reason, target) {
  const length = clauseKey(target?.text).length.toLocaleString("en-US");
  return {
    empty: "Waiting: the paragraph at the cursor is empty.",
    "too long": `Not searched: this paragraph is ${length} characters long, more than one clause. Select the clause and click Find precedent.`,
    reserved: "Not searched: a reserved or omitted clause.",
    signature: "Not searched: a signature line.",
    heading: "Not searched: a heading. Click in a clause.",
    short: "Not searched: too short to be a clause. Keep typing, or click in a longer paragraph.",
  }[reason] || "";
}

/**
 * How long to wait before the next cursor search after `err` (an ApiError), in ms: the
 * server's Retry-After when it gave one, else doubling from 2 s per failure in a row.
 */
export function backoffMs(err, failures) {
  const retryAfter = Number(err?.retryAfter) || 0;
  if (err?.status === 429 && retryAfter > 0) return retryAfter * 1000;
  return Math.min(MAX_BACKOFF_MS, 2000 * 2 ** Math.max(0, failures - 1));
}

/**
 * Read what a cursor search would search: the paragraph at the cursor, or the selection when
 * there is one (word.js loadTarget, as Find precedent), with where it sits. Properties from
 * WordApi 1.3 (table cell, content control, style) are read only where Word has them.
 * Returns {text, source, style, where: "" | "table cell" | "content control", control}.
 */
export async function readCursorTarget(run, { hasApi13 = false } = {}) {
  return run(async (context) => {
    const target = await loadTarget(context);
    const out = { text: target.text, source: target.source, style: "", where: "", control: "" };
    if (!hasApi13) return out;
    const paragraph = context.document.getSelection().paragraphs.getFirst();
    paragraph.load("style,tableNestingLevel");
    const control = paragraph.parentContentControlOrNullObject;
    control.load("title,tag");
    await context.sync();
    out.style = paragraph.style || "";
    if (paragraph.tableNestingLevel > 0) out.where = "table cell";
    else if (control && control.isNullObject === false) {
      out.where = "content control";
      out.control = control.title || control.tag || "";
    }
    return out;
  });
}

/** The lawyer's choices, per user (the pane's storage): {on: true|false|null, strict, minSimilarity|null}. */
export function createFollowStore(storage) {
  const clean = (raw) => {
    const src = raw && typeof raw === "object" ? raw : {};
    const similarity = Number(src.minSimilarity);
    return {
      on: typeof src.on === "boolean" ? src.on : null, // null: the firm's default
      strict: src.strict === true,
      minSimilarity: Number.isFinite(similarity) && similarity > 0 && similarity <= 1 ? similarity : null,
    };
  };
  let memory = clean(null);
  return {
    load() {
      try {
        const json = storage?.getItem(FOLLOW_KEY);
        return json ? clean(JSON.parse(json)) : memory;
      } catch {
        return memory; // storage disabled by policy, or corrupt: the defaults
      }
    },
    save(values) {
      memory = clean(values);
      try {
        storage?.setItem(FOLLOW_KEY, JSON.stringify(memory));
      } catch {
        // Remembered for this session only.
      }
      return memory;
    },
  };
}
