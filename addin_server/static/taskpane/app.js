// Entry point: wait for Office, check what this Word can do, and hand the real Word.run,
// fetch, storage and clipboard to the pane. Only wiring lives here; the behaviour is in
// pane.js and the modules it imports, which the tests load without Office.

import { createPane } from "./pane.js";
import { createSettingsStore } from "./settings.js";

const REQUIRED_SET = ["WordApi", "1.4"];

function showHostMessage(text) {
  const bar = document.getElementById("host-message");
  bar.textContent = text;
  bar.hidden = false;
}

function localStorageOrNothing() {
  try {
    return window.localStorage; // can throw where storage is disabled by policy
  } catch {
    return undefined;
  }
}

function start(info) {
  const inWord = Boolean(globalThis.Word) && info?.host === Office.HostType.Word;
  const canEdit = inWord && Office.context.requirements.isSetSupported(...REQUIRED_SET);
  const editMessage = inWord
    ? "This version of Word cannot insert tracked changes or comments from add-ins (it needs Word 2021, Word 2024 or Microsoft 365). You can still find, compare and copy precedents."
    : "Open Precedent from Word to insert into a document.";
  if (!inWord) {
    showHostMessage("Precedent works inside Microsoft Word. Open a document in Word and click Find precedent on the Home tab.");
  } else if (!canEdit) {
    showHostMessage(editMessage);
  }
  const pane = createPane(document, {
    run: (batch) => Word.run(batch),
    settingsStore: createSettingsStore({
      roamingSettings: Office.context?.roamingSettings,
      storage: localStorageOrNothing(),
    }),
    fetchImpl: (...args) => window.fetch(...args),
    origin: window.location.origin,
    clipboard: navigator.clipboard,
    canRead: inWord,
    canEdit,
    editMessage,
    office: globalThis.Office,
    storage: localStorageOrNothing(), // follow the cursor: the lawyer's on/off (issue 31)
  });
  // Ready once the server has said what it can do (or could not be asked).
  pane.ready.finally(markReady);
}

// Tells automated tests (and the end-to-end test against the real server) that the pane
// has finished starting; nothing in the pane depends on it.
function markReady() {
  document.documentElement.dataset.paneReady = "true";
}

if (typeof Office === "undefined") {
  // office.js comes from Microsoft's CDN; without it (offline, blocked by a proxy) the pane
  // cannot talk to Word at all.
  showHostMessage("Office's script library could not be loaded, so the pane cannot talk to Word. Check the network connection (appsforoffice.microsoft.com must be reachable) and reopen the pane.");
  markReady();
} else {
  Office.onReady(start);
}
