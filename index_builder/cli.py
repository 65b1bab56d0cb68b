"""`index-builder`: build, search and evaluate clause indexes from the command line."""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path
from typing import Any, Sequence

from index_builder import extras
from index_builder.errors import InvalidRequestError, PrecedentError
from index_builder.settings import TRAINED_RERANKER_PATH, Settings, load_settings

log = logging.getLogger("index_builder")

DEFAULT_EVAL_INDEX = Path("var/acord-index")
# A build that wrote its index but left out source files it could not read (a corrupt .docx):
# a scheduler must see it, so it is not 0 (2 is a failed command, 130 an interrupted one).
EXIT_SKIPPED = 4
BUILD_EXIT_STATUS = f"""exit status:
  0    built (or already up to date); every source file was read
  {EXIT_SKIPPED}    built, but some source files could not be read and were left out (their
       names and reasons are printed, logged and kept in the version's "skipped" notes);
       --allow-skipped makes this 0
  2    nothing built: the error says what to do (the live index is unchanged)
  130  interrupted (the live index is unchanged)"""
INDEX_COMMANDS = ("build", "search", "eval")  # they open the index and embed


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
        # Before any work: an extra the settings call for and the install lacks is named now.
        extras.require_all(extras.for_settings(settings, index=args.command in INDEX_COMMANDS,
                                               usage=args.command == "learn"),
                           f"index-builder {args.command}")
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

    build = sub.add_parser("build", help="build or update an index from corpora and contract folders",
                           epilog=BUILD_EXIT_STATUS, formatter_class=argparse.RawDescriptionHelpFormatter)
    _common(build)
    build.add_argument("sources", nargs="*", type=Path,
                       help="what to index: folders or files of .docx/.txt/.md contracts (the firm's "
                            "library) and BEIR folders (with corpus.jsonl; the ACORD benchmark is one: "
                            "give $PRECEDENT_ACORD_DIR). Required, unless --source names a DMS source")
    build.add_argument("--no-progress", action="store_true", help="no progress bars")
    build.add_argument("--allow-skipped", action="store_true",
                       help=f"exit 0, not {EXIT_SKIPPED}, when source files could not be read and were left out")
    build.add_argument("--workers", type=int,
                       help="processes reading and embedding documents (default PRECEDENT_BUILD_WORKERS or 1)")
    # DMS sources (issue 25; docs/sources.md): secrets only from the environment or files
    build.add_argument("--source", action="append", default=[], metavar="KIND:WHERE",
                       help="follow a document source incrementally: folder:PATH, "
                            "sharepoint:drives/ID | sites/HOST:/sites/NAME | users/UPN, "
                            "imanage:WORKSPACE[,WORKSPACE] (repeat for several)")
    build.add_argument("--daemon", action="store_true",
                       help="with --source: sync again every PRECEDENT_SOURCE_SYNC_EVERY_S seconds "
                            "(default 900) until stopped")
    build.set_defaults(handler=_cmd_build)

    search = sub.add_parser("search", help="print the top clauses for a phrase or a whole clause")
    _common(search)
    search.add_argument("text", help="query text (a short phrase or a whole clause)")
    search.add_argument("--top-k", type=int, help="number of results (default 10)")
    search.add_argument("--retriever", choices=("hybrid", "dense", "bm25"), default="hybrid")
    search.add_argument("--filter", action="append", default=[], metavar="FIELD=VALUE",
                        help="keep clauses whose FIELD (doc_id, document, type, any metadata) is VALUE")
    search.add_argument("--json", action="store_true", help="print JSON instead of text")
    search.add_argument("--variations", type=float, metavar="SIMILARITY",
                        help="fold results at least this similar into one (0 = show every copy; "
                             "default PRECEDENT_VARIATION_THRESHOLD)")
    search.set_defaults(handler=_cmd_search)

    evaluate = sub.add_parser("eval", help="measure retrieval on the ACORD benchmark")
    _common(evaluate)
    evaluate.add_argument("--retriever", choices=("hybrid", "dense", "bm25"), default="hybrid")
    evaluate.add_argument("--no-cross-encoder", action="store_true",
                          help="leave out the configured cross-encoder (PRECEDENT_CROSS_ENCODER); "
                               "LLM rerank is measured with `addin-server eval`")
    evaluate.add_argument("--expansion", choices=("glossary", "none"),
                          help="short-query expansion (default PRECEDENT_QUERY_EXPANSION or glossary)")
    add_acord_options(evaluate, split="test")
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

    # issue 27: relearn the ranker from the firm's usage events (index_builder/learn/)
    learn = sub.add_parser("learn", help="retrain the learned ranker on usage events + ACORD rows; "
                                         "installs it only if the guard passes")
    learn.add_argument("--index", type=Path, help="index folder (the usage database sits beside it)")
    learn.add_argument("--propensity", choices=("auto", "swaps", "assumed", "none"), default="auto",
                       help="position-bias correction: measured from swaps, assumed 1/k, or none")
    learn.add_argument("--event-share", type=float, default=0.25,
                       help="the events' total training weight as a share of the ACORD queries'")
    learn.add_argument("--dry-run", action="store_true", help="report the guard, install nothing")
    learn.set_defaults(handler=_cmd_learn, model=None)
    return parser


def _cmd_learn(args: argparse.Namespace, settings: Settings) -> int:
    from index_builder.learn.command import REFUSED, run_learn

    report, folder = run_learn(settings, args.propensity, args.event_share, args.dry_run)
    print(json.dumps({**report.to_dict(), "folder": str(folder) if folder else None}, indent=2))
    return 0 if report.installed or args.dry_run else REFUSED


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--index", type=Path, help="index folder (default PRECEDENT_INDEX_DIR or var/index)")
    add_engine_options(parser)
    parser.add_argument("--model", help="sentence-transformers model (default all-MiniLM-L6-v2)")


def add_engine_options(parser: argparse.ArgumentParser) -> None:
    """--backend and --uri, for every command that opens an index (both CLIs)."""
    parser.add_argument("--backend", choices=("embedded", "milvus"),
                        help="search engine (default PRECEDENT_BACKEND or embedded)")
    parser.add_argument("--uri", help="Milvus URI (default PRECEDENT_MILVUS_URI: milvus-lite in the "
                                      "index folder); http://host:19530 for a cluster")


def add_acord_options(parser: argparse.ArgumentParser, split: str) -> None:
    """Which ACORD queries an eval runs and where its results go (both eval commands)."""
    parser.add_argument("--data", type=Path, help="ACORD folder (default PRECEDENT_ACORD_DIR)")
    parser.add_argument("--split", choices=("train", "valid", "test"), default=split)
    parser.add_argument("--wording", choices=("short", "medium", "long"), default="short",
                        help="query wording from query_formats.tsv")
    parser.add_argument("--mode", choices=("query", "clause"), default="query",
                        help="'clause': each 5-star clause is the query (as the add-in sends)")
    parser.add_argument("--limit", type=int, help="only the first N queries (LLM runs are slow)")
    parser.add_argument("--depth", type=int, default=1000,
                        help="ranking depth per retriever before unjudged clauses are dropped")
    parser.add_argument("--json", type=Path, dest="json_out", help="write results to this JSON file")
    parser.add_argument("--no-progress", action="store_true")


def _overrides(args: argparse.Namespace) -> dict[str, Any]:
    overrides: dict[str, Any] = {"index_dir": args.index, "embedding.model": args.model}
    if getattr(args, "data", None) is not None:
        overrides["acord_dir"] = args.data
    if getattr(args, "expansion", None) is not None:
        overrides["retrieval.query_expansion"] = args.expansion
    if getattr(args, "workers", None) is not None:
        overrides["embedding.workers"] = args.workers
    if getattr(args, "variations", None) is not None:
        overrides["retrieval.variation_threshold"] = args.variations
    if getattr(args, "backend", None) is not None:
        overrides["backend"] = args.backend
    if getattr(args, "uri", None) is not None:
        overrides["milvus.uri"] = args.uri
    if args.command == "eval" and args.index is None:
        overrides["index_dir"] = DEFAULT_EVAL_INDEX
    return overrides


def _embedder(settings: Settings):  # type: ignore[no-untyped-def]
    from index_builder.index import load_embedder

    return load_embedder(settings.embedding)


def _query_embedder(settings: Settings):  # type: ignore[no-untyped-def]
    """What embeds queries, as the server's does (its twin model, batcher and cache), waiting
    as a command waits (PRECEDENT_COMMAND_QUERY_DEADLINE_S), not as the server refuses."""
    from dataclasses import replace

    from index_builder.index.batcher import query_embedder

    return query_embedder(settings.embedding,
                          lambda embedding: _embedder(replace(settings, embedding=embedding)),
                          command=True)


def _cmd_build(args: argparse.Namespace, settings: Settings) -> int:
    from index_builder.index.build import build_index

    if args.source:
        return _cmd_sync(args, settings)
    if not args.sources:
        # It used to index the ACORD benchmark without a word: firm IT, running a bare build
        # against the firm's index folder, got 3,931 public clauses instead of its library.
        raise InvalidRequestError(
            "Name what to index: index-builder build --index FOLDER /path/to/precedents (folders or "
            "files of .docx/.txt/.md), or --source KIND:WHERE for a DMS. For the ACORD benchmark: "
            f"index-builder build --index var/acord-index {settings.acord_dir}")
    _check_sources(args.sources)  # before the embedding model loads (tens of seconds)
    log.info("Indexing %s into %s", ", ".join(str(p) for p in args.sources), settings.index_dir)
    report = build_index(settings, args.sources, _embedder(settings), progress=not args.no_progress)
    print(f"Index {settings.index_dir} ({report.version}): {report.documents} documents, "
          f"{report.clauses} clauses in {report.seconds:.1f} s")
    print(f"  read {len(report.parsed)}, unchanged {len(report.reused)}, removed "
          f"{len(report.removed)}; embedded {report.embedded} clause texts, reused "
          f"{report.embeddings_reused}; terms extracted for {report.terms_extracted} clauses")
    for path, reason in report.skipped:
        print(f"  skipped {path}: {reason}")
    for path, note in report.notes:
        print(f"  {path}: {note}")
    return _skipped_status(report.skipped, args.allow_skipped)


def _check_sources(sources: Sequence[Path]) -> None:
    """A source path that is not there is named before any work, with the fix."""
    missing = [str(p) for p in sources if not Path(p).exists()]
    if missing:
        raise InvalidRequestError(
            f"{'These sources do' if len(missing) > 1 else 'The source'} {', '.join(missing)} "
            f"{'not exist' if len(missing) > 1 else 'does not exist'}: check the path (quote one "
            f"with spaces) and give folders or files of .docx/.txt/.md, or --source KIND:WHERE for a DMS.")


def _skipped_status(skipped: Sequence[tuple[str, str]], allowed: bool) -> int:
    """EXIT_SKIPPED when the build left source files out (0 with --allow-skipped), said in the
    log by count and name (file names and reasons only: never a clause's text)."""
    if not skipped:
        return 0
    names = ", ".join(str(p) for p, _ in skipped[:20]) + (f" and {len(skipped) - 20} more" if len(skipped) > 20 else "")
    log.warning("%d source file(s) could not be read and were left out of the index: %s. Fix or "
                "remove them and build again%s.", len(skipped), names,
                "" if allowed else f" (exit status {EXIT_SKIPPED}; --allow-skipped exits 0)")
    return 0 if allowed else EXIT_SKIPPED


def _cmd_sync(args: argparse.Namespace, settings: Settings) -> int:
    """build --source: one sync (or, with --daemon, one every PRECEDENT_SOURCE_SYNC_EVERY_S)."""
    from index_builder.sources import open_source
    from index_builder.sources.sync import follow, sync_and_build

    if args.sources:
        raise InvalidRequestError("Give either folders to build from or --source, not both; a "
                                  "folder can be a source too: --source folder:PATH.")
    sources = [open_source(s, settings) for s in args.source]  # a wrong setting: before the model loads
    embedder = _embedder(settings)
    if args.daemon:
        follow(settings, args.source, embedder, settings.sources.sync_every_s or 900,
               progress=not args.no_progress)
        return 0
    report = sync_and_build(settings, sources, embedder, progress=not args.no_progress)
    build = report.build
    print(f"Synced {len(args.source)} source(s): {report.changed} listed as changed, "
          f"{report.deleted} deleted{' (cursor expired: listed again whole)' if report.resynced else ''}"
          f"{f'; waited {sum(report.waits):.0f} s on throttling' if report.waits else ''}")
    print(f"Index {settings.index_dir} ({build.version}): {build.documents} documents, "
          f"{build.clauses} clauses in {build.seconds:.1f} s")
    print(f"  read {len(build.parsed)}, unchanged {len(build.reused)} (access changed "
          f"{len(build.relabelled)}), removed {len(build.removed)}; embedded {build.embedded} "
          f"clause texts, reused {build.embeddings_reused}")
    for path, reason in build.skipped:
        print(f"  skipped {path}: {reason}")
    return _skipped_status(build.skipped, args.allow_skipped)


def _cmd_search(args: argparse.Namespace, settings: Settings) -> int:
    from index_builder.index.backend import filters_from_mapping
    from index_builder.retrieve.pipeline import SearchRequest, build_pipeline

    from index_builder.index import open_store

    backend = open_store(settings).open()  # before the model loads: a missing index says so at once
    pipeline = build_pipeline(settings, _query_embedder(settings), backend,
                              retrievers=_retrievers(args.retriever))
    request = SearchRequest(text=args.text, top_k=args.top_k,
                            filters=filters_from_mapping(_parse_filters(args.filter)))
    results = pipeline.search(request).results
    if args.json:
        print(json.dumps([{"rank": r.rank, "score": r.hit.score, "ranks": r.hit.retriever_ranks,
                           **r.hit.clause.to_dict(),
                           "variants": [v.clause.clause_id for v, _ in r.variants]}
                          for r in results], indent=2, ensure_ascii=False))
        return 0
    for r in results:
        hit = r.hit
        ranks = ", ".join(f"{k} #{v}" for k, v in sorted(hit.retriever_ranks.items()))
        print(f"{r.rank:>2}. [{hit.clause.clause_id}] {hit.clause.citation()}  ({ranks})")
        snippet = " ".join(hit.clause.text.split())
        print(f"    {snippet[:300]}{'…' if len(snippet) > 300 else ''}")
        if r.variants:
            print(f"    also in: {', '.join(v.clause.clause_id for v, _ in r.variants)}")
    if not results:
        print("No matching clauses.")
    return 0


def _cmd_eval(args: argparse.Namespace, settings: Settings) -> int:
    from index_builder.evaluate.runner import EvalConfig, eval_pipeline, run_eval_command

    config = EvalConfig(split=args.split, retriever=args.retriever, wording=args.wording,
                        mode=args.mode, limit=args.limit, depth=args.depth,
                        cross_encoder=not args.no_cross_encoder)
    embedder = _embedder(settings)  # builds the ACORD index when it is missing or stale
    return run_eval_command(settings, config, embedder,
                            lambda: eval_pipeline(settings, config, _query_embedder(settings)),
                            "none", args.json_out, not args.no_progress)


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
