import assert from "node:assert/strict";
import { test } from "node:test";
import {
  DEFAULTS,
  SETTINGS_KEY,
  createSettingsStore,
  filtersFromSettings,
  normaliseSettings,
  validateServerUrl,
} from "../../addin_server/static/taskpane/settings.js";

/** A Web Storage stand-in (localStorage's getItem/setItem). */
function memoryStorage(initial = {}) {
  const data = new Map(Object.entries(initial));
  return {
    getItem: (k) => (data.has(k) ? data.get(k) : null),
    setItem: (k, v) => data.set(k, String(v)),
    data,
  };
}

/** Office.context.roamingSettings stand-in: get/set plus saveAsync with a result. */
function roaming({ fail = false } = {}) {
  const saved = new Map();
  const pending = new Map();
  return {
    get: (k) => (pending.has(k) ? pending.get(k) : saved.get(k)),
    set: (k, v) => pending.set(k, v),
    saveAsync(cb) {
      setTimeout(() => {
        if (fail) return cb({ status: "failed", error: { message: "quota exceeded" } });
        for (const [k, v] of pending) saved.set(k, v);
        cb({ status: "succeeded" });
      }, 0);
    },
    saved,
  };
}

const SAMPLE = {
  serverUrl: "https://precedent.example.com/",
  topK: "8",
  filters: { document: " MSA 2021 ", type: "limitation", section: "" },
  rerank: false,
  apiToken: "tok-123",
};

test("defaults when nothing is stored", () => {
  assert.deepEqual(createSettingsStore({ storage: memoryStorage() }).load(), { ...DEFAULTS, filters: {} });
  assert.deepEqual(createSettingsStore({}).load(), { ...DEFAULTS, filters: {} });
});

test("localStorage: saved settings come back in a new store (Word reopened)", async () => {
  const storage = memoryStorage();
  const saved = await createSettingsStore({ storage }).save(SAMPLE);
  assert.deepEqual(saved, {
    serverUrl: "https://precedent.example.com",
    topK: 8,
    filters: { document: "MSA 2021", type: "limitation" },
    rerank: false,
    apiToken: "tok-123",
  });
  assert.ok(storage.data.has(SETTINGS_KEY));
  const reopened = createSettingsStore({ storage });
  assert.equal(reopened.kind, "local");
  assert.deepEqual(reopened.load(), saved);
});

test("roaming settings are preferred when the host has them", async () => {
  const storage = memoryStorage();
  const settings = roaming();
  const store = createSettingsStore({ roamingSettings: settings, storage });
  assert.equal(store.kind, "roaming");
  await store.save(SAMPLE);
  assert.equal(settings.saved.get(SETTINGS_KEY).topK, 8);
  assert.equal(storage.data.size, 0, "localStorage untouched");
  assert.equal(createSettingsStore({ roamingSettings: settings }).load().serverUrl, "https://precedent.example.com");
});

test("a failed roaming save is reported", async () => {
  const store = createSettingsStore({ roamingSettings: roaming({ fail: true }) });
  await assert.rejects(store.save(SAMPLE), /quota exceeded/);
});

test("corrupt or odd stored values fall back to defaults", () => {
  const storage = memoryStorage({ [SETTINGS_KEY]: "{not json" });
  assert.deepEqual(createSettingsStore({ storage }).load(), { ...DEFAULTS, filters: {} });
  assert.equal(normaliseSettings({ rerank: "yes" }).rerank, null);
  assert.deepEqual(normaliseSettings({ filters: { "bad field!": "x", type: 3 } }).filters, {});
  assert.equal(normaliseSettings({ topK: "999" }).topK, 20);
  assert.equal(normaliseSettings({ topK: 0 }).topK, 1);
  assert.equal(normaliseSettings({ topK: "many" }).topK, DEFAULTS.topK);
  assert.equal(normaliseSettings({ serverUrl: 42 }).serverUrl, "");
  assert.equal("extra" in normaliseSettings({ extra: 1 }), false);
});

test("server URL validation", () => {
  assert.equal(validateServerUrl(""), "");
  assert.equal(validateServerUrl("https://precedent.example.com"), "");
  assert.equal(validateServerUrl("http://localhost:5000"), "");
  assert.match(validateServerUrl("precedent.example.com"), /full URL/);
  assert.match(validateServerUrl("http://precedent.example.com"), /https/);
  assert.match(validateServerUrl("ftp://precedent.example.com"), /https/);
});

test("filters leave out empty fields", () => {
  assert.deepEqual(filtersFromSettings(normaliseSettings({})), {});
  assert.deepEqual(filtersFromSettings(normaliseSettings(SAMPLE)), { document: "MSA 2021", type: "limitation" });
});

test("settings saved before filters were pickers keep their two filters", () => {
  const storage = memoryStorage({ [SETTINGS_KEY]: JSON.stringify({ topK: 3, filterDocument: "MSA 2021", filterType: "limitation" }) });
  assert.deepEqual(createSettingsStore({ storage }).load().filters, { document: "MSA 2021", type: "limitation" });
});
