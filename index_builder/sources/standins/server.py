"""The loopback HTTPS server every stand-in runs on, with the faults a test switches on."""

from __future__ import annotations

import datetime as dt
import ipaddress
import json
import secrets
import ssl
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit


@dataclass
class Faults:
    throttle: int = 0  # the next N API requests answer `throttle_status` with Retry-After
    throttle_status: int = 429
    retry_after: str = "3"
    expire_delta: bool = False  # the next delta call with a token answers 410 resyncRequired
    # A proxy in front of Graph that blocks JSON batching: POST /$batch answers 403 with the
    # proxy's own HTML page (firms' web proxies allow-list URL paths).
    block_batch: bool = False


class Emulator:
    """One HTTPS server on 127.0.0.1; subclasses route. ``url`` is its base."""

    def __init__(self, cert: tuple[Path, Path]) -> None:
        self.faults = Faults()
        self.tokens: set[str] = set()
        self.token_requests = 0
        self.requests: list[tuple[str, str]] = []  # (method, path?query) of API calls
        emulator = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:
                emulator._handle(self, "GET")

            def do_POST(self) -> None:
                emulator._handle(self, "POST")

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(str(cert[0]), str(cert[1]))
        self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.url = f"https://localhost:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "Emulator":
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()

    def expire_tokens(self) -> None:
        """Every token issued so far is now refused (401), as an expired one is."""
        self.tokens.clear()

    def issue(self) -> str:
        token = secrets.token_urlsafe(16)
        self.tokens.add(token)
        self.token_requests += 1
        return token

    # subclasses: route(method, path, query, body, headers) -> (status, headers, body)
    def route(self, method: str, path: str, query: dict[str, str], body: bytes,
              headers: Any) -> tuple[int, dict[str, str], Any]:
        raise NotImplementedError

    def _handle(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        parts = urlsplit(handler.path)
        query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
        length = int(handler.headers.get("Content-Length") or 0)
        body = handler.rfile.read(length) if length else b""
        try:
            status, headers, payload = self.route(method, unquote(parts.path), query, body,
                                                  handler.headers)
        except KeyError:
            status, headers, payload = 404, {}, {"error": {"code": "itemNotFound"}}
        if isinstance(payload, Path):  # streamed from disk, 1 MiB at a time
            size = payload.stat().st_size
            handler.send_response(status)
            handler.send_header("Content-Length", str(size))
            handler.send_header("Content-Type", "application/octet-stream")
            handler.end_headers()
            with open(payload, "rb") as data:
                while block := data.read(1 << 20):
                    handler.wfile.write(block)
            return
        raw = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        handler.send_response(status)
        for name, value in headers.items():
            handler.send_header(name, value)
        handler.send_header("Content-Length", str(len(raw)))
        if not isinstance(payload, bytes):
            handler.send_header("Content-Type", "application/json")
        handler.end_headers()
        handler.wfile.write(raw)

    def _api_gate(self, method: str, path: str, query: dict[str, str], token: str | None
                  ) -> tuple[int, dict[str, str], Any] | None:
        """Throttling first (as Graph does), then the token."""
        self.requests.append((method, path + ("?" + "&".join(f"{k}={v}" for k, v in sorted(query.items()))
                                              if query else "")))
        if self.faults.throttle > 0:
            self.faults.throttle -= 1
            return (self.faults.throttle_status, {"Retry-After": self.faults.retry_after},
                    {"error": {"code": "activityLimitReached", "message": "The request has been throttled"}})
        if token not in self.tokens:
            return 401, {}, {"error": {"code": "InvalidAuthenticationToken",
                                       "message": "Access token has expired or is not yet valid."}}
        return None


def self_signed(key: Any, name: str) -> Any:
    """A self-signed certificate for ``name`` (and localhost, 127.0.0.1), valid a week."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.x509.oid import NameOID

    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = dt.datetime.now(dt.timezone.utc)
    return (x509.CertificateBuilder().subject_name(subject).issuer_name(subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - dt.timedelta(days=1)).not_valid_after(now + dt.timedelta(days=7))
            .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                        x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
                           critical=False)
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(key, hashes.SHA256()))


def loopback_tls(folder: Path) -> tuple[Path, Path]:
    """(certificate, key) for https://localhost in ``folder``: the CA bundle to trust."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    folder.mkdir(parents=True, exist_ok=True)
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    (folder / "cert.pem").write_bytes(self_signed(key, "localhost").public_bytes(serialization.Encoding.PEM))
    (folder / "key.pem").write_bytes(key.private_bytes(serialization.Encoding.PEM,
                                                       serialization.PrivateFormat.PKCS8,
                                                       serialization.NoEncryption()))
    return folder / "cert.pem", folder / "key.pem"
