// Work-account sign-in: the server's /auth/config read defensively, nested app auth first, the
// Office dialog where Word cannot sign add-ins in, and the vendored MSAL kept equal to the package.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { SignInRequiredError, authModeFrom, createEntraAuth } from "../../addin_server/static/taskpane/auth.js";
import { vendoredPath, vendoredText } from "../../scripts/vendor.mjs";

const ENTRA = { clientId: "c", authority: "https://login.microsoftonline.com/t", scopes: ["api://p/access_as_user"] };

test("the vendored MSAL is the installed @azure/msal-browser, unmodified", () => {
  const pkg = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url)));
  assert.match(readFileSync(vendoredPath("msal"), "utf8"), new RegExp(`^// @azure/msal-browser ${pkg.devDependencies["@azure/msal-browser"].replace(/\./g, "\\.")} \\(MIT\\)`));
  assert.equal(readFileSync(vendoredPath("msal"), "utf8"), vendoredText("msal"), "run npm run vendor");
});

test("auth config: entra with everything it needs, else tokens; broken entra config is reported", () => {
  assert.deepEqual(authModeFrom({ mode: "entra", entra: { client_id: "c", authority: ENTRA.authority, scopes: ENTRA.scopes } }), { mode: "entra", entra: ENTRA });
  assert.deepEqual(authModeFrom(null), { mode: "tokens" });
  assert.deepEqual(authModeFrom({ mode: "none" }), { mode: "none" });
  assert.deepEqual(authModeFrom({ mode: "entra", entra: { client_id: "c", scopes: [] } }), { mode: "misconfigured" });
});

const office = (nested, dialogMessage) => {
  const opened = [];
  return {
    opened,
    EventType: { DialogMessageReceived: "message", DialogEventReceived: "event" },
    context: {
      requirements: { isSetSupported: (name, v) => nested && name === "NestedAppAuth" && v === "1.1" },
      ui: {
        displayDialogAsync(url, options, callback) {
          opened.push({ url, options });
          const handlers = {};
          callback({ status: "succeeded", value: { addEventHandler: (type, fn) => { handlers[type] = fn; }, close() {} } });
          setTimeout(() => handlers.message({ message: JSON.stringify(dialogMessage) }), 0);
        },
      },
    },
  };
};

test("nested app auth: silent first; a popup only on an interactive sign-in", async () => {
  const calls = [];
  let signedIn = false;
  const loadMsal = async () => ({
    createNestablePublicClientApplication: async (config) => {
      calls.push(["create", config.auth.clientId]);
      return {
        acquireTokenSilent: async () => {
          calls.push(["silent"]);
          if (signedIn) return { accessToken: "A", account: { username: "jane@firm" } };
          throw Object.assign(new Error("x"), { name: "InteractionRequiredAuthError" });
        },
        acquireTokenPopup: async (request) => {
          calls.push(["popup", request.scopes]);
          signedIn = true;
          return { accessToken: "B", account: { username: "jane@firm" } };
        },
      };
    },
  });
  const auth = createEntraAuth(ENTRA, { office: office(true), loadMsal });
  assert.equal(auth.method, "nested");
  await assert.rejects(auth.getToken(), SignInRequiredError);
  assert.equal(await auth.signIn(), "B");
  assert.equal(await auth.getToken(), "A");
  assert.equal(auth.account(), "jane@firm");
  assert.deepEqual(calls, [["create", "c"], ["silent"], ["silent"], ["popup", ENTRA.scopes], ["silent"]]);
});

test("without nested app auth: the sign-in dialog, its token kept until it nearly expires", async () => {
  let now = 1_000_000;
  const host = office(false, { accessToken: "D", expiresOn: now + 3_600_000, account: "jane@firm" });
  const auth = createEntraAuth(ENTRA, { office: host, dialogUrl: "https://p.example/taskpane/signin.html", now: () => now });
  assert.equal(auth.method, "dialog");
  await assert.rejects(auth.getToken(), SignInRequiredError, "no dialog without a click");
  assert.equal(await auth.signIn(), "D");
  assert.equal(await auth.getToken(), "D");
  assert.deepEqual(host.opened.map((o) => o.url), ["https://p.example/taskpane/signin.html"]);
  now += 3_600_000; // within a minute of expiry: ask again
  await assert.rejects(auth.getToken(), SignInRequiredError);
  const failing = createEntraAuth(ENTRA, { office: office(false, { error: "access_denied" }), dialogUrl: "https://p.example/s" });
  await assert.rejects(failing.signIn(), /Sign-in failed: access_denied/);
});
