"""Open a .docx package safely and turn every way it can be broken into a DocumentError."""

from __future__ import annotations

import io
import posixpath
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from index_builder.errors import DocumentError

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
W = f"{{{W_NS}}}"

# An encrypted .docx is not a ZIP at all but an OLE compound file (the same container as a
# Word 97-2003 .doc); the magic number tells the two cases apart from a plain corrupt file.
_OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
_ENCRYPTION_STREAM = "EncryptionInfo".encode("utf-16-le")
# Guard against zip bombs: a real contract's XML parts are a few MB at most.
_MAX_PART_BYTES = 64 * 1024 * 1024
_MAIN_PART = "word/document.xml"
_REL = "{http://schemas.openxmlformats.org/package/2006/relationships}"
_OFFICE_DOCUMENT = "/officeDocument"



@dataclass(frozen=True)
class DocxParts:
    """The XML parts the reader needs; optional parts are None when the package lacks them."""

    document: etree._Element
    styles: etree._Element | None
    numbering: etree._Element | None
    core: etree._Element | None


def open_docx(path: Path) -> DocxParts:
    """Read and parse the parts of a .docx, or raise DocumentError saying what is wrong."""
    data = read_bytes(path)
    _reject_non_zip(path, data)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as package:
            names = set(package.namelist())
            main = _related(path, package, names, "_rels/.rels", _OFFICE_DOCUMENT, "")
            main = main or _MAIN_PART
            if main not in names:
                raise DocumentError(
                    f"{path}: not a Word document (the ZIP package has no {main}); "
                    "save it as .docx from Word and try again"
                )
            rels = f"{posixpath.dirname(main)}/_rels/{posixpath.basename(main)}.rels"
            styles = _related(path, package, names, rels, "/styles", "word/styles.xml")
            numbering = _related(path, package, names, rels, "/numbering", "word/numbering.xml")
            return DocxParts(
                document=_parse_part(path, package, main),
                styles=_parse_optional(path, package, names, styles),
                numbering=_parse_optional(path, package, names, numbering),
                core=_parse_optional(path, package, names, "docProps/core.xml"),
            )
    except (zipfile.BadZipFile, zipfile.LargeZipFile, zlib.error, EOFError, ValueError) as exc:
        raise DocumentError(f"{path}: corrupt .docx (damaged ZIP package: {exc})") from exc
    except NotImplementedError as exc:  # e.g. an unsupported ZIP compression method
        raise DocumentError(f"{path}: unreadable .docx ({exc})") from exc


def _related(
    path: Path, package: zipfile.ZipFile, names: set[str], rels: str, kind: str, default: str
) -> str:
    """The part a relationship of this kind points to (word/document.xml is only a habit)."""
    if rels not in names:
        return default
    base = posixpath.dirname(posixpath.dirname(rels))  # "word/_rels/x.rels" -> "word"
    for relation in _parse_part(path, package, rels).iter(_REL + "Relationship"):
        if (relation.get("Type") or "").endswith(kind) and relation.get("TargetMode") != "External":
            target = relation.get("Target") or ""
            joined = target.lstrip("/") if target.startswith("/") else posixpath.join(base, target)
            return posixpath.normpath(joined)
    return default


def read_bytes(path: Path) -> bytes:
    """The file's bytes, or DocumentError for an unreadable or empty file."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise DocumentError(f"{path}: cannot read file ({exc.strerror or exc})") from exc
    if not data:
        raise DocumentError(f"{path}: empty file (0 bytes)")
    return data


def _reject_non_zip(path: Path, data: bytes) -> None:
    if data.startswith(_OLE_MAGIC):
        if _ENCRYPTION_STREAM in data:
            raise DocumentError(
                f"{path}: encrypted (password-protected) .docx; remove the password in Word "
                "and save again"
            )
        raise DocumentError(
            f"{path}: not a .docx but an OLE file (probably a Word 97-2003 .doc); "
            "open it in Word and save as .docx"
        )
    if not data.startswith(b"PK"):
        kind = "plain text" if _looks_like_text(data) else "unknown binary data"
        raise DocumentError(f"{path}: not a .docx (the file holds {kind}, not a ZIP package)")


def _looks_like_text(data: bytes) -> bool:
    sample = data[:4096]
    if b"\x00" in sample:
        return False
    try:
        sample.decode("utf-8")
    except UnicodeDecodeError as exc:
        # A multi-byte character cut at the sample's end is still text.
        return exc.start >= len(sample) - 3
    return True


def _parse_optional(
    path: Path, package: zipfile.ZipFile, names: set[str], part: str
) -> etree._Element | None:
    return _parse_part(path, package, part) if part in names else None


def _parse_part(path: Path, package: zipfile.ZipFile, part: str) -> etree._Element:
    info = package.getinfo(part)
    if info.file_size > _MAX_PART_BYTES:
        raise DocumentError(
            f"{path}: {part} is {info.file_size:,} bytes uncompressed, more than a contract "
            "part can plausibly be; refusing to read it"
        )
    if info.flag_bits & 0x1:
        raise DocumentError(f"{path}: encrypted ZIP entry {part}; save it again without a password")
    raw = package.read(part)
    # No DTDs, no entities, no network: document XML is untrusted. A parser per call,
    # because lxml parsers must not be shared between threads.
    parser = etree.XMLParser(
        resolve_entities=False, no_network=True, load_dtd=False, remove_comments=True
    )
    try:
        return etree.fromstring(raw, parser=parser)
    except etree.XMLSyntaxError as exc:
        raise DocumentError(
            f"{path}: corrupt .docx ({part} is not well-formed XML: {exc})"
        ) from exc


def attr(element: etree._Element | None, name: str = "val") -> str | None:
    """A w: attribute of an element, None when the element or attribute is absent."""
    if element is None:
        return None
    return element.get(W + name)


def is_on(element: etree._Element | None) -> bool:
    """A WordprocessingML toggle (w:b, w:u ...): present and not switched off."""
    if element is None:
        return False
    value = attr(element)
    return value not in ("0", "false", "off", "none")
