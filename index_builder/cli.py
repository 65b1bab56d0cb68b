"""`index-builder`: build, search and evaluate clause indexes from the command line."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any, Sequence

from index_builder.errors import ConfigError, InvalidRequestError, PrecedentError
from index_builder.settings import TRAINED_RERANKER_PATH, Settings, load_settings

log = logging.getLogger("index_builder")

DEFAULT_EVAL_INDEX = Path("var/acord-index")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if not args.verbose:  # faiss reports its CPU-feature probing (AVX512 missing...) at INFO
        for noisy in ("faiss.loader", "bm25s"):
            logging.getLogger(noisy).setLevel(logging.WARNING)
    try:
        settings = load_settings(overrides=_overrides(args))
        return int(args.handler(args, settings) or 0)
    except PrecedentError as exc:
        log.error("%s", exc.message)
        return 2
    except KeyboardInterrupt:
        log.error("Interrupted; the live index is unchanged.")
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="index-builder", description=__doc__)
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", required=True)

    build = sub.add_parser("build", help="build or update an index from corpora and contract folders")
    _common(build)
    build.add_argument("sources", nargs="*", type=Path,
                       help="BEIR folders (with corpus.jsonl) and folders or files of .docx/.txt/.md "
                            "contracts (default: the ACORD corpus)")
    build.add_argument("--no-progress", action="store_true", help="no progress bars")
    build.set_defaults(handler=_cmd_build)

    search = sub.add_parser("search", help="print the top clauses for a phrase or a whole clause")
    _common(search)
    search.add_argument("text", help="query text (a short phrase or a whole clause)")
    search.add_argument("--top-k", type=int, help="number of results (default 10)")
    search.add_argument("--retriever", choices=("hybrid", "dense", "bm25"), default="hybrid")
    search.add_argument("--filter", action="append", default=[], metavar="FIELD=VALUE",
                        help="keep clauses whose FIELD (doc_id, document, type, any metadata) is VALUE")
    search.add_argument("--json", action="store_true", help="print JSON instead of text")
    search.add_argument("--variations", type=float, default=0.9, metavar="SIMILARITY",
                        help="fold results at least this similar into one (0 = show every copy)")
    search.set_defaults(handler=_cmd_search)

    evaluate = sub.add_parser("eval", help="measure retrieval on the ACORD benchmark")
    _common(evaluate)
    evaluate.add_argument("--data", type=Path, help="ACORD folder (default PRECEDENT_ACORD_DIR)")
    evaluate.add_argument("--split", choices=("train", "valid", "test"), default="test")
    evaluate.add_argument("--retriever", choices=("hybrid", "dense", "bm25"), default="hybrid")
    evaluate.add_argument("--wording", choices=("short", "medium", "long"), default="short",
                          help="query wording from query_formats.tsv")
    evaluate.add_argument("--mode", choices=("query", "clause"), default="query",
                          help="'clause': each 5-star clause is the query (as the add-in sends)")
    evaluate.add_argument("--rerank", choices=("auto", "none", "llm"), default="auto",
                          help="'auto': the configured cross-encoder if built (PRECEDENT_CROSS_ENCODER); "
                               "'none': first stage only; 'llm': the configured LLM after the first stage")
    evaluate.add_argument("--expansion", choices=("glossary", "none"),
                          help="short-query expansion (default PRECEDENT_QUERY_EXPANSION or glossary)")
    evaluate.add_argument("--prompt", type=Path, help="rerank prompt file to measure (with --rerank llm)")
    evaluate.add_argument("--rerank-depth", type=int, default=20, help="candidates to rerank")
    evaluate.add_argument("--limit", type=int, help="only the first N queries (LLM runs are slow)")
    evaluate.add_argument("--depth", type=int, default=1000,
                          help="ranking depth per retriever before unjudged clauses are dropped")
    evaluate.add_argument("--json", type=Path, dest="json_out", help="write results to this JSON file")
    evaluate.add_argument("--no-progress", action="store_true")
    evaluate.set_defaults(handler=_cmd_eval)

    train = sub.add_parser("train-reranker",
                           help="fine-tune the cross-encoder reranker on ACORD's train split (CPU, ~15 min)")
    train.add_argument("--data", type=Path, help="ACORD folder (default PRECEDENT_ACORD_DIR)")
    train.add_argument("--out", type=Path, help="model folder (default PRECEDENT_CROSS_ENCODER "
                                                "or var/models/acord-cross-encoder)")
    train.add_argument("--epochs", type=int, default=1)
    train.add_argument("--lr", type=float, default=4e-5)
    train.add_argument("--max-pairs", type=int, help="train on at most N pairs (for quick checks)")
    train.set_defaults(handler=_cmd_train, index=None, model=None)

    download = sub.add_parser("download-acord", help="fetch ACORD (CC BY 4.0) from its public repository")
    download.add_argument("--dest", type=Path, required=True)
    download.add_argument("--url", help="archive URL (default: the GitHub repository's zip)")
    download.set_defaults(handler=_cmd_download, index=None, model=None)
    return parser


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--index", type=Path, help="index folder (default PRECEDENT_INDEX_DIR or var/index)")
    parser.add_argument("--model", help="sentence-transformers model (default all-MiniLM-L6-v2)")


def _overrides(args: argparse.Namespace) -> dict[str, Any]:
    overrides: dict[str, Any] = {"index_dir": args.index, "embedding.model": args.model}
    if getattr(args, "data", None) is not None:
        overrides["acord_dir"] = args.data
    if getattr(args, "expansion", None) is not None:
        overrides["retrieval.query_expansion"] = args.expansion
    if args.command == "eval" and args.index is None:
        overrides["index_dir"] = DEFAULT_EVAL_INDEX
    return overrides


def _embedder(settings: Settings):  # type: ignore[no-untyped-def]
    from index_builder.index.embedder import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(settings.embedding)


def _cmd_build(args: argparse.Namespace, settings: Settings) -> int:
    from index_builder.index.build import build_index

    sources = args.sources or [settings.acord_dir]
    report = build_index(settings, sources, _embedder(settings), progress=not args.no_progress)
    print(f"Index {settings.index_dir} ({report.version}): {report.documents} documents, "
          f"{report.clauses} clauses in {report.seconds:.1f} s")
    print(f"  read {len(report.parsed)}, unchanged {len(report.reused)}, removed "
          f"{len(report.removed)}; embedded {report.embedded} clause texts, reused "
          f"{report.embeddings_reused}")
    for path, reason in report.skipped:
        print(f"  skipped {path}: {reason}")
    return 0


def _cmd_search(args: argparse.Namespace, settings: Settings) -> int:
    from index_builder.retrieve.hybrid import build_retriever
    from index_builder.index.store import load_index
    from index_builder.retrieve.variations import group_variations

    filters = _parse_filters(args.filter)
    index = load_index(settings.index_dir)
    retriever = build_retriever(index, _embedder(settings), settings, _retrievers(args.retriever))
    top_k = args.top_k or settings.retrieval.top_k
    pool = max(top_k, settings.retrieval.candidate_depth) if args.variations > 0 else top_k
    groups = group_variations(retriever.search(args.text, top_k=pool, filters=filters),
                              lambda h: h.clause.text, top_k, args.variations)
    hits = [g.leader for g in groups]
    if args.json:
        print(json.dumps([{"rank": h.rank, "score": h.score, "ranks": h.retriever_ranks,
                           **h.clause.to_dict(),
                           "variants": [v.clause.clause_id for v, _ in g.variants]}
                          for h, g in zip(hits, groups)], indent=2, ensure_ascii=False))
        return 0
    for n, (hit, group) in enumerate(zip(hits, groups), 1):
        ranks = ", ".join(f"{k} #{v}" for k, v in sorted(hit.retriever_ranks.items()))
        print(f"{n:>2}. [{hit.clause.clause_id}] {hit.clause.citation()}  ({ranks})")
        snippet = " ".join(hit.clause.text.split())
        print(f"    {snippet[:300]}{'…' if len(snippet) > 300 else ''}")
        if group.variants:
            print(f"    also in: {', '.join(v.clause.clause_id for v, _ in group.variants)}")
    if not hits:
        print("No matching clauses.")
    return 0


def _cmd_eval(args: argparse.Namespace, settings: Settings) -> int:
    from index_builder.evaluate.runner import EvalConfig, ensure_acord_index, run_acord_eval
    from index_builder.evaluate.evaluation import format_table

    config = EvalConfig(split=args.split, retriever=args.retriever, wording=args.wording,
                        mode=args.mode, rerank_depth=args.rerank_depth, limit=args.limit,
                        depth=args.depth, cross_encoder=args.rerank == "auto")
    reranker = _reranker(args)
    embedder = _embedder(settings)
    index = ensure_acord_index(settings, embedder, progress=not args.no_progress)
    result = run_acord_eval(settings, config, embedder, index, reranker, not args.no_progress)
    title = config.title(settings, embedder.model_id, args.rerank)
    print(format_table(result, title))
    print(f"latency per query (ms): {result.latency_ms}")
    if args.json_out:
        args.json_out.parent.mkdir(parents=True, exist_ok=True)
        args.json_out.write_text(json.dumps({"config": title, **result.to_dict()}, indent=2))
        print(f"wrote {args.json_out}")
    return 0


def _reranker(args: argparse.Namespace):  # type: ignore[no-untyped-def]
    if args.rerank in ("none", "auto"):
        if args.prompt:
            raise ConfigError("--prompt needs --rerank llm.")
        return None
    # The LLM layer lives with the server; import it only when asked for.
    from addin_server.rerank import reranker_for_eval

    return reranker_for_eval(prompt_path=args.prompt)


def _cmd_train(args: argparse.Namespace, settings: Settings) -> int:
    from index_builder.evaluate.acord import load_acord
    from index_builder.evaluate.training import TrainConfig, train_cross_encoder, training_pairs

    out = args.out or Path(settings.rerank.cross_encoder or TRAINED_RERANKER_PATH)
    acord = load_acord(settings.acord_dir)
    corpus = {}
    for line in (settings.acord_dir / "corpus.jsonl").read_text("utf-8").splitlines():
        if line.strip():
            row = json.loads(line)
            corpus[str(row["_id"])] = str(row["text"])
    config = TrainConfig(epochs=args.epochs, lr=args.lr, max_pairs=args.max_pairs)
    pairs = training_pairs(acord, corpus, config)
    print(f"Training on {len(pairs)} (query, clause) pairs from {', '.join(config.splits)}...")
    report = train_cross_encoder(pairs, out, config)
    print(f"Cross-encoder saved to {out} in {report['seconds']:.0f} s "
          f"(use it with PRECEDENT_CROSS_ENCODER={out}).")
    return 0


def _cmd_download(args: argparse.Namespace, settings: Settings) -> int:
    from index_builder.evaluate.acord import ACORD_ARCHIVE_URL, download_acord

    dest = download_acord(args.dest, url=args.url or ACORD_ARCHIVE_URL)
    print(f"ACORD is in {dest} (CC BY 4.0, The Atticus Project).")
    return 0


def _retrievers(name: str) -> tuple[str, ...]:
    return ("dense", "bm25") if name == "hybrid" else (name,)


def _parse_filters(raw: list[str]) -> dict[str, list[str]]:
    filters: dict[str, list[str]] = {}
    for item in raw:
        name, sep, value = item.partition("=")
        if not sep or not name:
            raise InvalidRequestError(f"--filter {item!r} must look like FIELD=VALUE.")
        filters.setdefault(name.strip(), []).append(value.strip())
    return filters


if __name__ == "__main__":
    sys.exit(main())
