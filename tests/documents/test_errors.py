"""Unreadable files raise DocumentError naming the file and the problem, nothing rawer."""

from __future__ import annotations

import os
import struct
import zipfile
from pathlib import Path

import pytest
from docx import Document

from index_builder.ingest import SUPPORTED_SUFFIXES, read_clauses
from index_builder.errors import DocumentError

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def assert_unreadable(path: Path, *words: str) -> None:
    with pytest.raises(DocumentError) as caught:
        read_clauses(path, "doc", path.name)
    message = caught.value.message
    assert str(path) in message
    for word in words:
        assert word in message, message


def test_supported_suffixes() -> None:
    assert SUPPORTED_SUFFIXES == frozenset({".docx", ".txt", ".md"})


def test_random_bytes_named_docx(tmp_path: Path) -> None:
    junk = bytes(range(7, 256)) + os.urandom(2000)  # starts neither with PK nor OLE magic
    assert_unreadable(write(tmp_path / "junk.docx", junk), "not a .docx", "binary")


def test_zero_byte_file(tmp_path: Path) -> None:
    assert_unreadable(write(tmp_path / "empty.docx", b""), "empty file")


def test_text_renamed_docx(tmp_path: Path) -> None:
    text = "1. Confidentiality. Keep it secret.\n".encode()
    assert_unreadable(write(tmp_path / "notes.docx", text), "not a .docx", "plain text")


def test_truncated_zip(tmp_path: Path) -> None:
    real = tmp_path / "real.docx"
    Document().save(str(real))
    data = real.read_bytes()
    assert_unreadable(write(tmp_path / "cut.docx", data[: len(data) // 2]), "corrupt")


def test_damaged_compressed_part(tmp_path: Path) -> None:
    real = tmp_path / "real.docx"
    document = Document()
    document.add_paragraph("Confidentiality obligations apply to both parties. " * 50)
    document.save(str(real))
    with zipfile.ZipFile(real) as archive:
        info = archive.getinfo("word/document.xml")
    data = bytearray(real.read_bytes())
    header = info.header_offset  # local header: name and extra lengths at bytes 26..29
    name_len, extra_len = struct.unpack("<HH", data[header + 26 : header + 30])
    start = header + 30 + name_len + extra_len
    for offset in range(start + 10, start + 40):
        data[offset] ^= 0xFF
    assert_unreadable(write(tmp_path / "flipped.docx", bytes(data)), "corrupt")


def test_zip_that_is_not_a_word_document(tmp_path: Path) -> None:
    path = tmp_path / "archive.docx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("readme.txt", "hello")
    assert_unreadable(path, "not a Word document", "word/document.xml")


def test_malformed_document_xml(tmp_path: Path) -> None:
    path = tmp_path / "broken.docx"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("word/document.xml", "<w:document><w:body><w:p>")
    assert_unreadable(path, "corrupt", "not well-formed XML")


def test_encrypted_docx(tmp_path: Path) -> None:
    # Word stores a password-protected .docx as an OLE compound file with these streams.
    data = OLE_MAGIC + b"\x00" * 504 + "EncryptionInfo".encode("utf-16-le") + b"\x00" * 64
    assert_unreadable(write(tmp_path / "locked.docx", data), "encrypted")


def test_legacy_doc_renamed_docx(tmp_path: Path) -> None:
    data = OLE_MAGIC + b"\x00" * 504 + "WordDocument".encode("utf-16-le")
    assert_unreadable(write(tmp_path / "old.docx", data), "Word 97-2003")


def test_document_without_text(tmp_path: Path) -> None:
    path = tmp_path / "blank.docx"
    Document().save(str(path))
    assert_unreadable(path, "empty document")


def test_unsupported_suffix(tmp_path: Path) -> None:
    assert_unreadable(write(tmp_path / "scan.pdf", b"%PDF-1.7"), "unsupported", ".pdf")


def test_binary_text_file(tmp_path: Path) -> None:
    assert_unreadable(write(tmp_path / "data.txt", b"\x00\x01\x02abc"), "binary")


def test_missing_file(tmp_path: Path) -> None:
    assert_unreadable(tmp_path / "gone.docx", "cannot read")
