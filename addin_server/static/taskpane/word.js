// Word operations. Each public function takes `run`, a function with Word.run's shape
// (`run(async (context) => ...)`), so tests can hand in a mock context; the helpers take the
// request context and the objects they touch. Edits are queued and sent in few
// context.sync() round trips; nothing here blocks the pane's thread.
//
// Collections are never loaded (office-addin-mock cannot mock them, and we need one item
// only): paragraphs.getFirst() and search(...).getFirstOrNullObject() return single objects.

/** Raised when Insert/Apply finds a different clause selected than the one searched for. */
export class SelectionChangedError extends Error {
  constructor() {
    super("The selection in the document has changed since you searched. Select the clause again and click Find precedent.");
    this.name = "SelectionChangedError";
  }
}

/** Word.ChangeTrackingMode.trackAll, or its string value where the enum is not loaded. */
function trackAllMode() {
  return globalThis.Word?.ChangeTrackingMode?.trackAll ?? "TrackAll";
}

/**
 * Text compared between Find and Apply: Word's paragraph marks, line breaks, tabs and
 * non-breaking spaces become spaces, runs of spaces collapse.
 */
export function clauseKey(text) {
  return String(text ?? "")
    .replace(/[\r\n\t\u000b\u00a0\u2028\u2029]/g, " ")
    .replace(/ {2,}/g, " ")
    .trim();
}

/**
 * Load the selection and the paragraph it starts in, in one round trip, and choose what a
 * search reads and an insert replaces:
 * - nothing selected (a cursor): the paragraph at the cursor;
 * - exactly one whole paragraph selected: that paragraph (replacing the paragraph's content,
 *   rather than a selection that ends in its paragraph mark, keeps the paragraph and its style);
 * - otherwise the selection.
 * Returns {range, text, source: "selection" | "paragraph"}.
 */
export async function loadTarget(context) {
  const selection = context.document.getSelection();
  const paragraph = selection.paragraphs.getFirst();
  selection.load("text");
  paragraph.load("text");
  await context.sync();
  const selected = selection.text ?? "";
  if (!clauseKey(selected)) {
    return { range: paragraph, text: paragraph.text ?? "", source: "paragraph" };
  }
  if (clauseKey(selected) === clauseKey(paragraph.text)) {
    return { range: paragraph, text: paragraph.text ?? "", source: "selection" };
  }
  return { range: selection, text: selected, source: "selection" };
}

/** Read the clause to search for: {text, source}. text is "" when the paragraph is empty. */
export async function readSelection(run) {
  return run(async (context) => {
    const target = await loadTarget(context);
    return { text: target.text, source: target.source };
  });
}

/**
 * Replace `range` with `text` as a tracked change, then put the document's track-changes
 * mode back as it was (the lawyer's own setting is theirs). Returns the inserted range.
 */
export async function replaceWithTracking(context, range, text) {
  const document = context.document;
  document.load("changeTrackingMode");
  await context.sync();
  const previous = document.changeTrackingMode;
  document.changeTrackingMode = trackAllMode();
  let inserted;
  try {
    inserted = range.insertText(text, "Replace");
    await context.sync();
  } catch (err) {
    document.changeTrackingMode = previous;
    try {
      await context.sync();
    } catch {
      // The original failure is the one to report.
    }
    throw err;
  }
  document.changeTrackingMode = previous;
  await context.sync();
  return inserted;
}

/**
 * Add one Word comment per citation, anchored on the sentence that cites it, or on the whole
 * inserted range when the sentence is not found. Word searches at most 255 characters, so a
 * sentence is found by its first characters (`search`) and, when longer, stretched to its
 * last characters (`searchEnd`) with expandTo.
 * `comments` are {marker, text, search, searchEnd?}; returns [{marker, anchoredOn: "sentence"|"clause"}].
 */
export async function addCitationComments(context, insertedRange, comments) {
  const find = (text) => {
    const hit = insertedRange.search(text, { matchCase: true }).getFirstOrNullObject();
    hit.load("text");
    return hit;
  };
  const hits = comments.map((comment) =>
    comment.search ? { start: find(comment.search), end: comment.searchEnd ? find(comment.searchEnd) : null } : null,
  );
  await context.sync();
  const placed = comments.map((comment, i) => {
    const hit = hits[i];
    const onSentence = Boolean(hit) && hit.start.isNullObject === false;
    let anchor = insertedRange;
    if (onSentence) anchor = hit.end && hit.end.isNullObject === false ? hit.start.expandTo(hit.end) : hit.start;
    anchor.insertComment(comment.text);
    return { marker: comment.marker, anchoredOn: onSentence ? "sentence" : "clause" };
  });
  await context.sync();
  return placed;
}

/** True when the target holds one of `expected` (the clause searched for, or what Precedent put there). */
export function holdsExpected(targetText, expected) {
  const key = clauseKey(targetText);
  return (Array.isArray(expected) ? expected : [expected]).some((t) => typeof t === "string" && clauseKey(t) === key);
}

/**
 * Replace the searched-for clause with `text` as a tracked change, after checking that the
 * same clause (or the text an earlier Insert/Apply put in its place: `expectedText` may be a
 * list) is still there; add `comment` on the inserted text when given, and select it, so a
 * second Insert finds what the first one put there. Returns {source, commented}.
 */
export async function insertPrecedent(run, { expectedText, text, comment = "" }) {
  return run(async (context) => {
    const target = await loadTarget(context);
    if (!holdsExpected(target.text, expectedText)) throw new SelectionChangedError();
    const inserted = await replaceWithTracking(context, target.range, text);
    if (comment) inserted.insertComment(comment);
    inserted.select();
    await context.sync();
    return { source: target.source, commented: Boolean(comment) };
  });
}

/**
 * Replace the searched-for clause with the redraft as a tracked change and add its
 * citation comments. `comments` as for addCitationComments. Returns {placed}.
 */
export async function applyRedraft(run, { expectedText, text, comments = [] }) {
  return run(async (context) => {
    const target = await loadTarget(context);
    if (!holdsExpected(target.text, expectedText)) throw new SelectionChangedError();
    const inserted = await replaceWithTracking(context, target.range, text);
    const placed = comments.length ? await addCitationComments(context, inserted, comments) : [];
    inserted.select();
    await context.sync();
    return { placed };
  });
}
