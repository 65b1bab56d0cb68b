"""The ACORD benchmark in BEIR format: loading, and downloading from its public repository."""

from __future__ import annotations

import csv
import io
import json
import logging
import re
import shutil
import zipfile
from dataclasses import dataclass
from pathlib import Path

from index_builder.errors import DataNotFoundError, PrecedentError

log = logging.getLogger(__name__)

SPLITS = ("train", "valid", "test")
WORDINGS = ("short", "medium", "long")
# The dataset is CC BY 4.0 (The Atticus Project); its repository is MIT.
ACORD_ARCHIVE_URL = "https://github.com/TheAtticusProject/acord/archive/refs/heads/main.zip"
_NEEDED = ("corpus.jsonl", "queries.jsonl", "qrels/train.tsv", "qrels/valid.tsv", "qrels/test.tsv")
_OPTIONAL = ("query_formats.tsv",)


@dataclass(frozen=True)
class Query:
    query_id: str
    text: str
    category: str
    split: str
    wordings: dict[str, str]  # "short" | "medium" | "long" -> text


@dataclass(frozen=True)
class Acord:
    """Queries and graded judgments (0..4 = stars - 1); absent pairs are unknown."""

    path: Path
    queries: dict[str, Query]
    qrels: dict[str, dict[str, dict[str, int]]]  # split -> qid -> clause id -> grade

    def split_queries(self, split: str) -> list[Query]:
        return [q for q in self.queries.values() if q.split == split and q.query_id in self.qrels[split]]


def load_acord(path: Path) -> Acord:
    """Read an ACORD folder (corpus.jsonl, queries.jsonl, qrels/*.tsv, query_formats.tsv)."""
    path = check_acord_dir(path)
    formats = _read_formats(path / "query_formats.tsv")
    queries = {}
    for line in (path / "queries.jsonl").read_text("utf-8").splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        meta = row.get("metadata") or {}
        text = str(row["text"])
        wordings = {"short": text, **formats.get(_wording_key(text), {})}
        queries[str(row["_id"])] = Query(str(row["_id"]), text, str(meta.get("category", "")),
                                         str(meta.get("split", "")), wordings)
    qrels = {split: _read_qrels(path / "qrels" / f"{split}.tsv") for split in SPLITS}
    return Acord(path, queries, qrels)


def check_acord_dir(path: Path) -> Path:
    """The folder, if it holds ACORD's BEIR files; else DataNotFoundError saying how to get them."""
    path = Path(path)
    missing = [name for name in _NEEDED if not (path / name).is_file()]
    if missing:
        raise DataNotFoundError(
            f"ACORD is not at {path} (missing {', '.join(missing)}). Point PRECEDENT_ACORD_DIR "
            f"or --data at it, or fetch it with `index-builder download-acord --dest DIR`.")
    return path


def _read_qrels(path: Path) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    with open(path, encoding="utf-8", newline="") as rows:
        reader = csv.reader(rows, delimiter="\t")
        next(reader, None)  # header
        for row in reader:
            if len(row) >= 3:
                qrels.setdefault(row[0], {})[row[1]] = int(row[2])
    return qrels


def _read_formats(path: Path) -> dict[str, dict[str, str]]:
    """Map the short query (loosely normalised) to its medium and long lawyer-written wordings."""
    if not path.is_file():
        return {}
    formats = {}
    with open(path, encoding="utf-8", newline="") as rows:
        reader = csv.reader(rows, delimiter="\t")
        next(reader, None)
        for row in reader:
            if len(row) >= 3 and row[0].strip():
                formats[_wording_key(row[0])] = {"medium": row[1].strip(), "long": row[2].strip()}
    return formats


def _wording_key(text: str) -> str:
    """Loose match: the formats file writes '"as-is" clause' as 'as-is clause', 'exclude' as 'excludes'."""
    return " ".join(word.rstrip("s") for word in re.findall(r"[a-z0-9]+", text.casefold()))


def download_acord(dest: Path, url: str = ACORD_ARCHIVE_URL, timeout: float = 120.0) -> Path:
    """Fetch the repository archive and unpack the BEIR files into dest; returns dest."""
    import requests

    log.info("Downloading ACORD from %s", url)
    try:
        response = requests.get(url, timeout=timeout)
        response.raise_for_status()
    except requests.RequestException as exc:
        raise PrecedentError(f"Could not download ACORD from {url} ({exc}). Check the network "
                             f"or proxy, or download it by hand and pass --data DIR.") from exc
    return unpack_acord_archive(response.content, Path(dest))


def unpack_acord_archive(archive: bytes, dest: Path) -> Path:
    """Find the folder holding corpus.jsonl inside a zip and copy the BEIR files out."""
    try:
        bundle = zipfile.ZipFile(io.BytesIO(archive))
    except zipfile.BadZipFile:
        raise PrecedentError("The ACORD download is not a zip archive; try again later.") from None
    roots = [name[: -len("corpus.jsonl")] for name in bundle.namelist()
             if name.endswith("corpus.jsonl") and name[: -len("corpus.jsonl")] + "qrels/test.tsv"
             in bundle.namelist()]
    if not roots:
        raise PrecedentError("The ACORD archive has no corpus.jsonl with qrels/ beside it; "
                             "its layout changed: download the BEIR files by hand.")
    root = min(roots, key=len)
    dest.mkdir(parents=True, exist_ok=True)
    for name in _NEEDED + _OPTIONAL:
        member = root + name
        if member not in bundle.namelist():
            continue
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        with bundle.open(member) as source, open(target, "wb") as out:
            shutil.copyfileobj(source, out)
    log.info("ACORD unpacked into %s", dest)
    return dest
