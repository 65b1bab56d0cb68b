"""scripts/dev-cert.sh: the quickstart's localhost certificate is one a client trusts via the CA."""

from __future__ import annotations

import shutil
import socket
import ssl
import subprocess
import threading
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "scripts" / "dev-cert.sh"

pytestmark = pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")


def make(directory: Path) -> tuple[Path, Path, Path]:
    out = subprocess.run(["bash", str(SCRIPT), str(directory)], capture_output=True, text=True,
                         check=True, timeout=60).stdout.split()
    ca, cert, key = (Path(p) for p in out)
    return ca, cert, key


def test_the_certificate_is_trusted_through_the_ca_for_localhost(tmp_path: Path) -> None:
    ca, cert, key = make(tmp_path / "certs")
    assert (key.stat().st_mode & 0o077) == 0, "the private key is readable by its owner only"
    text = subprocess.run(["openssl", "x509", "-in", str(cert), "-noout", "-text"], capture_output=True,
                          text=True, check=True).stdout
    assert "DNS:localhost" in text and "IP Address:127.0.0.1" in text and "TLS Web Server Authentication" in text

    server_ctx = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server_ctx.load_cert_chain(cert, key)
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]

    def serve_once() -> None:
        conn, _ = listener.accept()
        with server_ctx.wrap_socket(conn, server_side=True) as tls:
            tls.sendall(b"ok")

    thread = threading.Thread(target=serve_once, daemon=True)
    thread.start()
    client_ctx = ssl.create_default_context(cafile=str(ca))  # verifies the chain and the host name
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        with client_ctx.wrap_socket(raw, server_hostname="localhost") as tls:
            assert tls.recv(2) == b"ok"
    thread.join(timeout=10)
    listener.close()


def test_a_second_run_keeps_the_trusted_ca_and_a_valid_certificate(tmp_path: Path) -> None:
    ca, cert, _ = make(tmp_path)
    first = (ca.read_bytes(), cert.read_bytes())
    make(tmp_path)
    assert (ca.read_bytes(), cert.read_bytes()) == first
    cert.unlink()  # a missing (or expiring) certificate is renewed under the same CA
    make(tmp_path)
    assert ca.read_bytes() == first[0] and cert.read_bytes() != first[1]
