// Sign-in with the lawyer's work account (Microsoft Entra ID), when the server asks for it
// (GET /api/v1/auth/config -> {"mode": "entra", "entra": {client_id, authority, scopes}}).
//
// 1. Nested app authentication: Word itself signs the add-in in (MSAL.js
//    createNestablePublicClientApplication; acquireTokenSilent, then acquireTokenPopup on a click).
//    Needs the NestedAppAuth 1.1 requirement set (current Microsoft 365 builds).
// 2. Elsewhere, an Office dialog (signin.html) runs MSAL's redirect sign-in and hands the token back
//    with messageParent.
// MSAL is vendored (vendor/msal-browser.js): nothing is loaded from a CDN. Tokens stay in memory
// (and in MSAL's own cache); they are never written to the pane's settings.

export const SIGN_IN_MESSAGE = "Sign in with your work account to use Precedent.";

/** A token cannot be had without the lawyer clicking Sign in. */
export class SignInRequiredError extends Error {
  constructor(message = SIGN_IN_MESSAGE) {
    super(message);
    this.name = "SignInRequiredError";
  }
}

/** {mode: "entra"|"tokens"|"none", entra?} from /auth/config; servers without it use API tokens. */
export function authModeFrom(config) {
  const mode = typeof config?.mode === "string" ? config.mode : "tokens";
  const e = config?.entra && typeof config.entra === "object" ? config.entra : null;
  if (mode !== "entra") return { mode: mode === "none" ? "none" : "tokens" };
  const scopes = Array.isArray(e?.scopes) ? e.scopes.filter((s) => typeof s === "string" && s) : [];
  if (!e || typeof e.client_id !== "string" || !e.client_id || typeof e.authority !== "string" || !scopes.length) {
    return { mode: "misconfigured" };
  }
  return { mode: "entra", entra: { clientId: e.client_id, authority: e.authority, scopes } };
}

const isInteraction = (err) =>
  err?.name === "InteractionRequiredAuthError" ||
  /interaction_required|login_required|consent_required|no_account|no_tokens_found/i.test(String(err?.errorCode || err?.message || ""));

/**
 * The sign-in for one server. deps: {office (window.Office), loadMsal () => module,
 * dialogUrl (signin.html's absolute URL), now () => ms}.
 * Returns {getToken({interactive}), signIn(), account(), method}.
 */
export function createEntraAuth(entra, { office = globalThis.Office, loadMsal = () => import("./vendor/msal-browser.js"), dialogUrl, now = () => Date.now() } = {}) {
  const nested = Boolean(office?.context?.requirements?.isSetSupported?.("NestedAppAuth", "1.1"));
  const request = { scopes: entra.scopes };
  let pca = null;
  let cached = null; // dialog tokens: {accessToken, expiresOn (ms), account}
  let who = "";

  async function app() {
    if (!pca) {
      const msal = await loadMsal();
      pca = await msal.createNestablePublicClientApplication({ auth: { clientId: entra.clientId, authority: entra.authority } });
    }
    return pca;
  }

  async function nestedToken(interactive) {
    const client = await app();
    try {
      const result = await client.acquireTokenSilent(request);
      who = result?.account?.username || who;
      return result.accessToken;
    } catch (err) {
      if (!isInteraction(err) && !interactive) throw err;
      if (!interactive) throw new SignInRequiredError();
      const result = await client.acquireTokenPopup(request);
      who = result?.account?.username || who;
      return result.accessToken;
    }
  }

  function dialogToken() {
    return new Promise((resolve, reject) => {
      if (!office?.context?.ui?.displayDialogAsync || !dialogUrl) {
        reject(new Error("This version of Word cannot open the sign-in window. Use Word on the web or a current Microsoft 365 Word."));
        return;
      }
      office.context.ui.displayDialogAsync(dialogUrl, { height: 60, width: 30, promptBeforeOpen: false }, (opened) => {
        if (opened.status === "failed") {
          reject(new Error("Word could not open the sign-in window. Allow pop-ups for Word and try again."));
          return;
        }
        const dialog = opened.value;
        dialog.addEventHandler(office.EventType.DialogMessageReceived, (arg) => {
          dialog.close();
          let message = {};
          try {
            message = JSON.parse(arg.message);
          } catch {
            // handled below as a failed sign-in
          }
          if (typeof message.accessToken === "string" && message.accessToken) resolve(message);
          else reject(new Error(message.error ? `Sign-in failed: ${String(message.error)}` : "Sign-in did not complete. Try again."));
        });
        dialog.addEventHandler(office.EventType.DialogEventReceived, () => reject(new SignInRequiredError("Sign-in was closed before it finished. Click Sign in to try again.")));
      });
    });
  }

  async function getToken({ interactive = false } = {}) {
    if (nested) return nestedToken(interactive);
    if (cached && cached.expiresOn - 60_000 > now()) return cached.accessToken;
    if (!interactive) throw new SignInRequiredError();
    const got = await dialogToken();
    cached = { accessToken: got.accessToken, expiresOn: Number(got.expiresOn) || now() + 30 * 60_000 };
    who = typeof got.account === "string" ? got.account : who;
    return cached.accessToken;
  }

  return {
    method: nested ? "nested" : "dialog",
    getToken,
    /** Interactive sign-in (call from a click: browsers allow pop-ups only then). */
    signIn: () => getToken({ interactive: true }),
    account: () => who,
  };
}
