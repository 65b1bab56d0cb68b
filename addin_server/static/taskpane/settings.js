// The pane's settings: server URL, number of results, filters, AI rating and API token.
//
// They must survive closing Word. Office.context.roamingSettings (which follows the user
// between machines) is used where the host has it; Word does not (it is an Outlook API),
// so in Word the store is the pane's localStorage, which WebView2/WKWebView keep per add-in
// origin across restarts.

export const SETTINGS_KEY = "precedent.settings.v1";
export const MAX_TOP_K = 20;

export const DEFAULTS = Object.freeze({
  serverUrl: "", // empty: the server that served this pane (same origin)
  topK: 5,
  filters: Object.freeze({}), // field -> value picked from GET /api/v1/facets ("" = any)
  rerank: null, // null: the server's default; true/false: the lawyer's choice
  apiToken: "",
});

/** Return a complete, valid settings object from anything stored (unknown keys dropped). */
export function normaliseSettings(raw) {
  const src = raw && typeof raw === "object" ? raw : {};
  const text = (v) => (typeof v === "string" ? v.trim() : "");
  let topK = Number.parseInt(src.topK, 10);
  if (!Number.isFinite(topK)) topK = DEFAULTS.topK;
  topK = Math.min(MAX_TOP_K, Math.max(1, topK));
  const filters = {};
  const given = src.filters && typeof src.filters === "object" && !Array.isArray(src.filters) ? src.filters : {};
  // Settings saved before filters were pickers kept two free-text fields.
  for (const [field, value] of Object.entries({ document: src.filterDocument, type: src.filterType, ...given })) {
    if (/^[A-Za-z0-9_.-]{1,64}$/.test(field) && text(value)) filters[field] = text(value);
  }
  return {
    serverUrl: text(src.serverUrl).replace(/\/+$/, ""),
    topK,
    filters,
    rerank: typeof src.rerank === "boolean" ? src.rerank : null,
    apiToken: text(src.apiToken),
  };
}

/** Why a server URL cannot be used, or "" when it can (empty means "this server"). */
export function validateServerUrl(value) {
  const url = String(value ?? "").trim();
  if (!url) return "";
  let parsed;
  try {
    parsed = new URL(url);
  } catch {
    return "Enter the server address as a full URL, for example https://precedent.example.com.";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    return "The server address must start with https://.";
  }
  if (parsed.protocol === "http:" && !["localhost", "127.0.0.1", "[::1]"].includes(parsed.hostname)) {
    return "Word only talks to add-in servers over https://. Use an https address.";
  }
  return "";
}

/** The filters object for POST /api/v1/precedents, leaving out empty fields. */
export function filtersFromSettings(settings) {
  const filters = {};
  for (const [field, value] of Object.entries(settings?.filters || {})) if (value) filters[field] = value;
  return filters;
}

/**
 * A settings store over whichever backend the host offers.
 * `roamingSettings` is Office.context.roamingSettings (get/set/saveAsync) or undefined;
 * `storage` is a Web Storage object (localStorage) or undefined.
 */
export function createSettingsStore({ roamingSettings, storage } = {}) {
  return {
    kind: roamingSettings ? "roaming" : storage ? "local" : "memory",

    load() {
      let raw;
      try {
        if (roamingSettings) {
          raw = roamingSettings.get(SETTINGS_KEY);
        } else if (storage) {
          const json = storage.getItem(SETTINGS_KEY);
          raw = json ? JSON.parse(json) : undefined;
        }
      } catch {
        raw = undefined; // unreadable or corrupt: start from the defaults rather than fail
      }
      return normaliseSettings({ ...DEFAULTS, ...(raw || {}) });
    },

    /** Save and resolve with the normalised settings; rejects if the host refuses. */
    async save(values) {
      const settings = normaliseSettings(values);
      if (roamingSettings) {
        roamingSettings.set(SETTINGS_KEY, settings);
        await new Promise((resolve, reject) => {
          roamingSettings.saveAsync((result) => {
            if (!result || result.status !== "failed") resolve();
            else reject(new Error(result.error?.message || "Office could not save the settings."));
          });
        });
      } else if (storage) {
        storage.setItem(SETTINGS_KEY, JSON.stringify(settings));
      }
      return settings;
    },
  };
}
