"""The audit trail's query key: the trail keeps a keyed hash (HMAC-SHA256) of each query.

A plain SHA-256 let anyone holding the trail confirm a guessed clause ("did anyone search for
this indemnity?") by hashing it; with a key only whoever holds the key can. The key is
``PRECEDENT_AUDIT_KEY`` or, when that is unset, a random one the first server to start writes
once to ``PRECEDENT_AUDIT_KEY_FILE`` (default ``keys/audit-query.key`` beside the index folder),
owner read/write only. Every worker and every restart reads the same file, so one query always
has one hash and IT can still correlate repeats.

Two workers starting at once: each writes a whole key to a private temporary file and links
it to the key's name; a link never replaces an existing file, so the first one published wins
and the other reads it (no lock needed, and no reader ever sees half a key).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import secrets
import tempfile
from pathlib import Path

from index_builder.errors import ConfigError, DataNotFoundError
from index_builder.settings import Settings

log = logging.getLogger(__name__)

KEY_FILE_MODE = 0o600
KEY_DIR_MODE = 0o700


def key_path(settings: Settings) -> Path:
    """PRECEDENT_AUDIT_KEY_FILE, else keys/audit-query.key beside the index folder."""
    return settings.audit.key_file or Path(settings.index_dir).resolve().parent / "keys" / "audit-query.key"


def query_key(settings: Settings, create: bool = True) -> bytes:
    """The deployment's key: the setting, else the key file (made once when ``create``)."""
    if settings.audit.key.strip():
        return settings.audit.key.strip().encode("utf-8")
    path = key_path(settings)
    if not path.exists():
        if not create:
            raise DataNotFoundError(
                f"No audit key at {path}: set PRECEDENT_AUDIT_KEY or PRECEDENT_AUDIT_KEY_FILE as the "
                "server that wrote the trail has them, so queries can be matched.")
        _create(path)
    return _read(path)


def keyed_hash(key: bytes, text: str) -> str:
    """What the trail stores for a query under ``key``: HMAC-SHA256 of its UTF-8, hex."""
    return hmac.new(key, text.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()


def plain_hash(text: str) -> str:
    """What trails written before the key kept (``query_sha256``): the plain SHA-256, hex."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _create(path: Path) -> None:
    try:
        path.parent.mkdir(mode=KEY_DIR_MODE, parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")  # mode 0600
        try:
            with os.fdopen(fd, "w", encoding="ascii") as out:
                out.write(secrets.token_hex(32) + "\n")
                out.flush()
                os.fsync(out.fileno())
            os.chmod(temporary, KEY_FILE_MODE)
            try:
                os.link(temporary, path)  # fails, never replaces, if another worker was first
                log.info("Made the audit trail's query key %s (owner-only); keep it with the "
                         "deployment: a new key gives new hashes.", path)
            except FileExistsError:
                pass
        finally:
            os.unlink(temporary)
    except OSError as exc:
        raise ConfigError(f"Could not make the audit key file {path} ({exc}): make its folder "
                          "writable by the server, or set PRECEDENT_AUDIT_KEY.") from exc


def _read(path: Path) -> bytes:
    try:
        text = path.read_text("ascii").strip()
        key = bytes.fromhex(text)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"The audit key file {path} is unreadable or not hex ({exc}): restore it "
                          "from the deployment's backup, or set PRECEDENT_AUDIT_KEY.") from exc
    if len(key) < 16:
        raise ConfigError(f"The audit key file {path} holds under 16 bytes: restore it, or set "
                          "PRECEDENT_AUDIT_KEY.")
    if os.name == "posix" and path.stat().st_mode & 0o077:
        log.warning("The audit key file %s can be read by others than its owner: chmod 600 it.", path)
    return key
