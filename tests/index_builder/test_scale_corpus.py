"""The scale corpus generator: deterministic, contract prose varied, readable by the builder."""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest

from index_builder.ingest import read_clauses


@pytest.fixture(scope="module")
def sc():  # type: ignore[no-untyped-def]
    from precedent_bench import scale_corpus

    return scale_corpus


SOURCES = [
    ("Confidentiality", "The Recipient shall keep the Confidential Information secret for five (5) years. "
                        "The Recipient may disclose it to its advisers who are bound by duties of confidence."),
    ("Confidentiality", "The Supplier shall return all Confidential Information within 30 days of a request. "
                        "Obligations survive termination of this Agreement for three (3) years."),
    ("Payment", "The Customer shall pay each invoice within 45 days. Late payments bear interest at 2% per "
                "month. The fee cap is $250,000 in any year, governed by the laws of the State of New York."),
    ("", "This Agreement is governed by the laws of England and Wales. Drafting note: choose a venue. "
         "Each party submits to the courts of {jurisdiction}."),
]


def _generator(sc, seed: int = 3):  # type: ignore[no-untyped-def]
    sources = [s for s in (sc.source_clause(h, b) for h, b in SOURCES) if s]
    return sc.Generator(sources, seed)


def test_sentences_and_source_clauses(sc) -> None:  # type: ignore[no-untyped-def]
    assert sc.split_sentences("Acme Inc. shall pay A. Smith. No. 5 applies! Then (a) it ends.") == [
        "Acme Inc. shall pay A. Smith.", "No. 5 applies!", "Then (a) it ends."]
    gov = sc.source_clause("", SOURCES[3][1])
    assert gov.heading == "Governing Law"  # guessed from the words
    assert not any("Drafting note" in s for s in gov.sentences)
    assert sc.number_words(45) == "forty-five" and sc.number_words(120) == "one hundred twenty"


def test_same_seed_same_library_other_seed_differs(sc) -> None:  # type: ignore[no-untyped-def]
    one, two, other = _generator(sc), _generator(sc), _generator(sc, seed=4)
    assert one.document(7, 12).markdown() == two.document(7, 12).markdown()
    assert one.document(7, 12).markdown() != other.document(7, 12).markdown()


def test_variation_redraws_numbers_and_applies_document_context(sc) -> None:  # type: ignore[no-untyped-def]
    context = {"roles": ("Licensor", "Licensee"), "parties": ("Kestrel Media LLC", "Upland Foods plc"),
               "law": "Ireland", "title": "Supply Agreement", "renames": {"Confidential Information": "IP Data"}}
    texts = {sc.vary(SOURCES[1][1] + " " + SOURCES[2][1] + " Courts of {jurisdiction}.",
                     random.Random(n), context) for n in range(20)}
    assert len(texts) > 10  # durations, amounts and percentages drawn afresh
    for text in texts:
        assert "Supplier" not in text and "Customer" not in text
        assert "Licensor" in text and "Licensee" in text and "IP Data" in text
        assert "New York" not in text and "Ireland" in text and "{" not in text
    assert any("(" in t and "years" in t for t in texts)  # "three (3) years" style kept


def test_library_is_read_by_the_builder_and_mutation_is_one_percent(sc, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    generator = _generator(sc)
    manifest = sc.write_library(generator, tmp_path, 250)
    assert sum(manifest["sizes"]) == 250 and all(20 <= s <= 60 for s in manifest["sizes"][:-1])
    first = sc.path_for(tmp_path, 0)
    clauses = read_clauses(first, "doc-0", str(first))
    assert len(clauses) >= manifest["sizes"][0]  # each numbered section is a clause (+ preamble)
    before = {p: p.read_text() for p in tmp_path.rglob("*.md")}
    changed = sc.mutate(generator, tmp_path, 0.2)
    after = {p: p.read_text() for p in tmp_path.rglob("*.md")}
    assert sorted(p for p in before if before[p] != after[p]) == sorted(changed)
    assert len(changed) == round(manifest["documents"] * 0.2)
    assert json.loads((tmp_path / "manifest.json").read_text())["revisions"]["1"]


def test_workers_write_the_same_library(sc, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    one, two = tmp_path / "one", tmp_path / "two"
    sc.write_library(_generator(sc), one, 200)
    sc.write_library(_generator(sc), two, 200, workers=2)
    files = sorted(p.relative_to(one) for p in one.rglob("*.md"))
    assert files == sorted(p.relative_to(two) for p in two.rglob("*.md")) and len(files) > 2
    assert all((one / f).read_text() == (two / f).read_text() for f in files)


@pytest.mark.slow
def test_real_sources_load(sc) -> None:  # type: ignore[no-untyped-def]
    contracts, acord = Path("../shared/data/contracts"), Path("../shared/data/acord")
    if not (contracts.is_dir() and (acord / "corpus.jsonl").is_file()):
        pytest.skip("shared data not present")
    sources = sc.load_sources(contracts, acord)
    assert len(sources) > 5000


@pytest.fixture(scope="module")
def bench():  # type: ignore[no-untyped-def]
    from precedent_bench.scale import scale_benchmark

    return scale_benchmark


def test_clustered_embedder_is_deterministic_and_clusters_by_opening(bench) -> None:  # type: ignore[no-untyped-def]
    embedder = bench.ClusteredEmbedder()
    same_opening = ["The Supplier shall indemnify the Customer against all third party claims for 30 days.",
                    "The Supplier shall indemnify the Customer against all third party claims for 90 days."]
    other = ["Notices must be given in writing to the address stated in the Order Form."]
    a = embedder.embed(same_opening + other)
    np.testing.assert_array_equal(a, bench.ClusteredEmbedder().embed(same_opening + other))
    assert a.shape == (3, 384) and np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    assert a[0] @ a[1] > 0.4 > abs(a[0] @ a[2])  # same cluster vs unrelated


def test_results_merge_by_key(bench, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "scale.json"
    bench.merge_result("100k-embedded-flat-build", {"build_s": 1.0}, path)
    bench.merge_result("100k-embedded-hnsw-build", {"build_s": 2.0}, path)
    bench.merge_result("100k-embedded-flat-build", {"build_s": 3.0}, path)
    data = json.loads(path.read_text())
    assert data["100k-embedded-flat-build"]["build_s"] == 3.0 and len(data) == 2


def test_vary_skips_only_rules_that_cannot_match(sc, acord_dir: Path) -> None:  # type: ignore[no-untyped-def]
    """vary's marks (a rule runs only where its mark is) give the text every rule gives."""
    def every_rule(text: str, rng: random.Random, context: dict) -> str:
        text = sc._TEMPLATE_VAR.sub(lambda m: sc._fill(m.group(1), rng, context), text)
        text = sc._DURATION.sub(lambda m: sc._duration(m, rng), text)
        text = sc._MONEY.sub(lambda m: f"${rng.choice(sc.MONEY):,}", text)
        text = sc._PERCENT.sub(lambda m: rng.choice(sc.PERCENTS), text)
        text = sc._LAW.sub(context["law"], text)
        roles = context["roles"]
        text = sc._ROLE.sub(lambda m: roles[0] if sc._side(m.group(1)) == 0 else roles[1], text)
        for old, new in context["renames"].items():
            text = text.replace(old, new)
        return text

    context = {"roles": ("Licensor", "Licensee"), "parties": ("Kestrel Media LLC", "Upland Foods plc"),
               "law": "Ireland", "title": "Supply Agreement", "renames": {"Confidential Information": "IP Data"}}
    with open(acord_dir / "corpus.jsonl", encoding="utf-8") as lines:
        texts = [json.loads(line)["text"] for _, line in zip(range(600), lines)]
    texts += [b for _, b in SOURCES] + ["no marks here", "Fees: {fee} within 30 days, 5 percent."]
    for n, text in enumerate(texts):
        assert sc.vary(text, random.Random(n), context) == every_rule(text, random.Random(n), context)
