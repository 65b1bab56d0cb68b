"""Fixtures for the source contract suite: a TLS certificate for the loopback emulations, and
one driver per source (the drivers themselves are in source_drivers.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterator

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from index_builder.sources.standins import loopback_tls, self_signed

from source_drivers import Driver, FolderDriver, GraphDriver, IManageDriver


@pytest.fixture(scope="session")
def tls(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(certificate, key) for https://localhost: the CA bundle the sources are told to trust."""
    return loopback_tls(tmp_path_factory.mktemp("tls"))


@pytest.fixture(scope="session")
def app_certificate(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Any]:
    """The Entra app's certificate credential: a PEM with key and certificate, and its public key."""
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    cert = self_signed(key, "precedent-sync")
    path = tmp_path_factory.mktemp("app") / "precedent-app.pem"
    path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                       serialization.NoEncryption())
                     + cert.public_bytes(serialization.Encoding.PEM))
    return path, key.public_key()


@pytest.fixture(params=["folder", "sharepoint", "imanage"])
def driver(request: Any, tmp_path: Path, embedder: Any, tls: tuple[Path, Path]) -> Iterator[Driver]:
    if request.param == "folder":
        yield FolderDriver(tmp_path, embedder)
        return
    made = GraphDriver(tmp_path, embedder, tls) if request.param == "sharepoint" \
        else IManageDriver(tmp_path, embedder, tls)
    yield made
    made.server.stop()


@pytest.fixture(params=["sharepoint", "imanage"])
def http_driver(request: Any, tmp_path: Path, embedder: Any, tls: tuple[Path, Path]) -> Iterator[Driver]:
    made = GraphDriver(tmp_path, embedder, tls) if request.param == "sharepoint" \
        else IManageDriver(tmp_path, embedder, tls)
    yield made
    made.server.stop()
