// Words the lawyer reads. Server messages are written for lawyers, but some carry details
// meant for IT (setting names, internal addresses, nested error chains); those are cut here
// and the full text goes to the browser console for IT, never to the pane.

import { clauseKey, SelectionChangedError } from "./word.js";

/** Longest selection sent to the server; the server has its own limit and says so. */
export const MAX_SELECTION_CHARS = 20_000;

const SETTING = /\b(?:PRECEDENT|HF|OPENAI|AZURE)_[A-Z0-9_]+\b/;
const INTERNAL = /\bhttps?:\/\/\S+|\b(?:Traceback|Exception|Errno|stack)\b|\bHTTP \d{3}\b|\b(?:127\.0\.0\.1|localhost):\d+/i;
const ASK_IT = "Ask IT to check the server's settings.";

/** Remove bracketed asides nested inside other brackets, and asides that are only IT detail. */
function flattenAsides(text) {
  let out = "";
  let depth = 0;
  let aside = "";
  for (const ch of text) {
    if (ch === "(" || ch === "[") {
      depth++;
      if (depth === 1) aside = "";
      else continue;
    } else if ((ch === ")" || ch === "]") && depth > 0) {
      depth--;
      if (depth === 0) {
        const inner = aside.slice(1).trim();
        if (inner && !SETTING.test(inner) && !INTERNAL.test(inner)) out += `(${inner})`;
        else out = out.replace(/\s+$/, "");
        aside = "";
      }
      continue;
    }
    if (depth === 0) out += ch;
    else if (depth === 1) aside += ch;
  }
  return out;
}

/**
 * A server message fit for the lawyer: no setting names, internal addresses or nested brackets.
 * `sentences`: the message's sentences as the server read them (an error's `sentences`, from
 * the core's reading/sentences.py); a sentence meant for IT gives way to "Ask IT ...". The pane
 * splits no sentences itself: without them, the message is one sentence.
 */
export function forLawyer(message, sentences = null) {
  const raw = String(message ?? "").replace(/\s+/g, " ").trim();
  if (!raw) return "";
  const parts = Array.isArray(sentences) && sentences.some((s) => typeof s === "string" && s.trim()) ? sentences : [raw];
  const kept = [];
  for (const part of parts) {
    if (typeof part !== "string") continue;
    // Addresses contain brackets' and settings' look-alikes: mark them before reading asides.
    const marked = part.replace(/\s+/g, " ").replace(/\bhttps?:\/\/[^\s)\]]*[^\s)\].,;:!?]|\b(?:\d{1,3}\.){3}\d{1,3}(?::\d+)?(?:[^\s)\]]*[^\s)\].,;:!?])?/g, "PRECEDENT_ADDRESS");
    const s = flattenAsides(marked).trim();
    if (!s) continue;
    const line = SETTING.test(s) || INTERNAL.test(s) ? ASK_IT : s.replace(/\s+([.,;:!?])/g, "$1");
    if (!kept.includes(line)) kept.push(line);
  }
  return kept.join(" ");
}

/** Log the full server message for IT (browser console), when it differs from what was shown. */
export function logForIt(shown, raw, where = "Precedent") {
  if (raw && raw !== shown) globalThis.console?.info?.(`${where}: server said: ${raw}`);
}

/** Why `text` cannot be searched for, or "" when it can. */
export function checkQueryText(text) {
  const key = clauseKey(text);
  if (!key) {
    return "Nothing is selected. Select a clause in the document (or click in its paragraph), then click Find precedent.";
  }
  if (key.length > MAX_SELECTION_CHARS) {
    return `The selection is ${key.length.toLocaleString("en-US")} characters long; Precedent searches one clause at a time (at most ${MAX_SELECTION_CHARS.toLocaleString("en-US")} characters). Select a single clause.`;
  }
  return "";
}

/** A failure from Word (OfficeExtension.Error or other) in plain words; the detail goes to the console. */
export function wordErrorMessage(err, doing) {
  if (err instanceof SelectionChangedError) return err.message;
  if (err?.message) globalThis.console?.info?.(`Precedent: Word said: ${err.message}`);
  return `Word could not ${doing}. Click in the document and try again.`;
}
