"""Fixtures for the security tests: RSA keys, a JWKS endpoint on loopback, a token signer,
and a small contract library (helpers in security_helpers.py).

Tokens are shaped like Entra ID v2 access tokens for an API (iss, aud, tid, oid, scp, azp,
preferred_username, groups) and signed locally; the server fetches the keys from the local
endpoint exactly as it would from login.microsoftonline.com.
"""

from __future__ import annotations

import hashlib
from typing import Any, Iterator

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from security_helpers import ACME_SPA, OPEN_NDA, JwksServer


@pytest.fixture(scope="session")
def rsa_keys() -> dict[str, Any]:
    """Three signing keys: 'k1' published, 'k2' published after a rotation, 'rogue' never."""
    return {kid: rsa.generate_private_key(public_exponent=65537, key_size=2048)
            for kid in ("k1", "k2", "rogue")}


@pytest.fixture
def jwks(rsa_keys: dict[str, Any]) -> Iterator[JwksServer]:
    with JwksServer(rsa_keys) as server:
        yield server


@pytest.fixture
def sign(rsa_keys: dict[str, Any]) -> Any:
    """sign(claims, kid="k1") -> an RS256 token as Entra would issue it."""

    def make(payload: dict[str, Any], kid: str = "k1") -> str:
        return jwt.encode(payload, rsa_keys[kid], algorithm="RS256", headers={"kid": kid, "typ": "JWT"})

    return make


@pytest.fixture
def contracts(tmp_path: Any) -> Any:
    root = tmp_path / "contracts"
    (root / "Matters" / "Acme").mkdir(parents=True)
    (root / "Forms").mkdir()
    (root / "Matters" / "Acme" / "spa.txt").write_text(ACME_SPA)
    (root / "Forms" / "nda.txt").write_text(OPEN_NDA)
    return root


@pytest.fixture(scope="session")
def milvus_lite_uri(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One milvus-lite server for the session's Milvus variants (as tests/backends does)."""
    path = str(tmp_path_factory.mktemp("milvus") / "milvus.db")
    yield path
    from index_builder.index.milvus_connection import stop_lite

    stop_lite(path)


@pytest.fixture
def engine(request: Any, tmp_path: Any) -> dict[str, Any]:
    """Settings overrides for the search engine: embedded unless parametrised with "milvus"."""
    if getattr(request, "param", "embedded") == "embedded":
        return {}
    name = "walls_" + hashlib.sha1(str(tmp_path).encode()).hexdigest()[:12]
    return {"backend": "milvus", "milvus.uri": request.getfixturevalue("milvus_lite_uri"),
            "milvus.collection": name}
