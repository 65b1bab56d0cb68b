// The sign-in window (Office dialog): MSAL's redirect sign-in, then the token goes back to the
// pane with messageParent. Configuration comes from the same server's /api/v1/auth/config.

import { authModeFrom } from "./auth.js";
import { PublicClientApplication } from "./vendor/msal-browser.js";

const status = document.getElementById("signin-status");

function send(message) {
  globalThis.Office?.context?.ui?.messageParent?.(JSON.stringify(message));
}

async function signIn() {
  const response = await fetch(new URL("../api/v1/auth/config", window.location.href), { headers: { Accept: "application/json" } });
  const auth = authModeFrom(await response.json());
  if (auth.mode !== "entra") throw new Error("this server does not use work-account sign-in");
  const pca = new PublicClientApplication({
    auth: { clientId: auth.entra.clientId, authority: auth.entra.authority, redirectUri: window.location.origin + window.location.pathname },
    cache: { cacheLocation: "sessionStorage" },
  });
  await pca.initialize();
  const result = await pca.handleRedirectPromise();
  if (result?.accessToken) {
    send({ accessToken: result.accessToken, expiresOn: result.expiresOn ? new Date(result.expiresOn).getTime() : 0, account: result.account?.username || "" });
    status.textContent = "Signed in. You can close this window.";
    return;
  }
  await pca.acquireTokenRedirect({ scopes: auth.entra.scopes });
}

const start = () =>
  signIn().catch((err) => {
    status.textContent = "Sign-in failed. Close this window and try again.";
    globalThis.console?.info?.(`Precedent sign-in: ${err?.message || err}`);
    send({ error: String(err?.errorCode || err?.message || err) });
  });

if (globalThis.Office?.onReady) Office.onReady(start);
else start();
