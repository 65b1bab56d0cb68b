"""Shared pieces for the security tests: Entra-shaped token claims, settings, a JWKS endpoint
on loopback, and a small walled contract library. (Fixtures are in conftest.py.)"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt

from index_builder.settings import Settings, load_settings

TENANT = "11111111-2222-3333-4444-555555555555"
OTHER_TENANT = "99999999-8888-7777-6666-555555555555"
CLIENT_ID = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee"
APP_ID_URI = f"api://precedent.firm.example/{CLIENT_ID}"


class JwksServer:
    """Serves {"keys": [...]} for the kids in ``published``; counts the fetches."""

    def __init__(self, keys: dict[str, Any]) -> None:
        self.keys = keys
        self.published = ["k1"]
        self.fetches = 0
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                outer.fetches += 1
                body = json.dumps({"keys": [outer.jwk(kid) for kid in outer.published]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/{TENANT}/discovery/v2.0/keys"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def jwk(self, kid: str) -> dict[str, Any]:
        data = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.keys[kid].public_key()))
        # As Entra publishes them: no "alg", use "sig".
        return {**data, "kid": kid, "use": "sig"}

    def __enter__(self) -> "JwksServer":
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(5)


def entra_settings(jwks_url: str, **overrides: Any) -> Settings:
    values = {"auth.tenant_ids": (TENANT,), "auth.client_id": CLIENT_ID,
              "auth.app_id_uri": APP_ID_URI, "auth.jwks_url": jwks_url,
              "auth.jwks_min_refresh_s": 30.0, "index_dir": "var/unused-index"}
    values.update(overrides)
    return load_settings({}, values)


def claims(**changes: Any) -> dict[str, Any]:
    """A valid v2 access token's claims for this API; ``changes`` replace or (None) drop."""
    now = int(time.time())
    base = {"iss": f"https://login.microsoftonline.com/{TENANT}/v2.0", "aud": APP_ID_URI,
            "tid": TENANT, "oid": "0b0b0b0b-0000-4000-8000-000000000001",
            "preferred_username": "alice@firm.example", "scp": "access_as_user",
            "azp": CLIENT_ID, "iat": now - 10, "nbf": now - 10, "exp": now + 3600,
            "groups": ["Acme-Team", "all-lawyers"], "ver": "2.0"}
    base.update(changes)
    return {k: v for k, v in base.items() if v is not None}


# Distinctive words let a test prove a walled clause's text never reaches a walled user.
ACME_SPA = """# Share Purchase Agreement (Acme)

1. Indemnity. The Seller shall indemnify the Buyer against all losses arising from any breach of the Zanzibar pipeline warranties.

2. Limitation of liability. The Seller's aggregate liability for indemnity claims shall not exceed the Quetzalcoatl escrow amount.

3. Confidentiality. Each party shall keep the terms of this Agreement confidential.
"""
OPEN_NDA = """# Mutual Non-Disclosure Agreement

1. Indemnity. Each party shall indemnify the other against all losses arising from any breach of this Agreement.

2. Limitation of liability. Neither party's aggregate liability for indemnity claims shall exceed one hundred thousand pounds.

3. Confidentiality. Each party shall keep the Confidential Information of the other confidential.
"""
WALLED_WORDS = ("Zanzibar", "Quetzalcoatl")
POLICY = {"rules": [{"pattern": "Matters/Acme/", "allow": ["acme-team"], "deny": ["acme-conflict"]},
                    {"pattern": "Forms/", "allow": ["*"]}]}
