"""``spyglass``: index, search, fetch spans and report status from a terminal or CI.

Human output by default, ``--json`` for machines (documented in docs/cli.md). Exit codes: 0 success
(a search with no results included), 1 an error while working (the message says what), 2 a usage error,
3 the index is missing or unusable, 4 another process is writing the index (and, if it is a server that
owns the index, did not answer a request to update it).
"""

from __future__ import annotations

import argparse
import logging
import os
import re
import signal
import sys
import threading
from pathlib import Path

from ..engine import (
    KINDS,
    TIERS,
    Freshness,
    IndexLocked,
    IndexMissing,
    IndexReport,
    IndexUnusable,
    OutsideWorkspace,
    OwnerUnavailable,
    SearchFilters,
    SpyglassError,
    UnknownValue,
    Workspace,
    access_denied_message,
    find_root,
    index_through_owner,
    is_access_denied,
    parse_span_id,
)
from . import evaluate, exportmodel, hooks, mcpconfig, progress, render
from .errors import UsageError

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_NO_INDEX, EXIT_LOCKED = 0, 1, 2, 3, 4


def _add_common(p: argparse.ArgumentParser, root_positional: bool = False) -> None:
    if root_positional:
        p.add_argument("root", nargs="?", default=None, help="the folder to index (default: the current one)")
    else:
        p.add_argument("--root", default=None, help="workspace folder (default: nearest folder with an index)")
    p.add_argument("--db", default=None, help="index file to use instead of <root>/.spyglass/index.db")
    p.add_argument("--json", action="store_true", help="print machine-readable JSON")
    p.add_argument("-v", "--verbose", action="count", default=0, help="more logging on stderr")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="spyglass", description="Local, offline code search.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("index", help="build or update the index of a folder")
    _add_common(p, root_positional=True)
    p.add_argument("--model", default=None, help="embedding model: bundled name, local path or hub name")
    p.add_argument("--no-embed", action="store_true", help="lexical index only (no model needed)")
    p.add_argument("--rebuild", action="store_true", help="throw the existing index away and build anew")
    p.add_argument("--threads", type=int, default=None, help="threads for the embedding model")
    p.add_argument(
        "--wait",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="wait this long for another writer to finish (default: fail at once)",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bars")

    p = sub.add_parser("search", help="search the index")
    p.add_argument("query", help="natural language, identifiers, a path or a pasted error")
    _add_common(p)
    p.add_argument("-k", type=int, default=10, help="at most this many results (default 10)")
    p.add_argument("--min-score", type=float, default=None, help="drop results scoring below this (0..1)")
    p.add_argument("--glob", action="append", default=[], help="only paths matching this glob (repeatable)")
    p.add_argument("--language", action="append", default=[], help="only this language, any case (repeatable)")
    p.add_argument("--kind", action="append", default=[], help=f"only this span kind (repeatable): {', '.join(KINDS)}")
    p.add_argument(
        "--max-tokens", type=int, default=None, help="at most this many tokens (estimated) of results in all"
    )
    p.add_argument("--per-file", type=int, default=None, help="at most this many results from one file (default 3)")
    p.add_argument("--files", action="store_true", help="rank files: one result per file, its best span")
    p.add_argument(
        "--tier",
        choices=TIERS,
        default=None,
        help="fast: names and full text only, no model; balanced: hybrid (the default); "
        "deep: with a re-ranker configured, a wider pool, a second pass with the best results' names, re-ranked",
    )
    p.add_argument("--model", default=None, help=argparse.SUPPRESS)
    p.add_argument(
        "--show-secrets",
        action="store_true",
        help="print secrets found in files as they are (by default they are replaced by [REDACTED:<kind>])",
    )

    p = sub.add_parser("history", help="search the repository's recent commits: when and why something changed")
    p.add_argument("query", nargs="?", default="", help="words from the change, a name or a file (may be empty)")
    _add_common(p)
    p.add_argument("--path", default=None, help="only commits that touched this file or folder")
    p.add_argument("-k", type=int, default=10, help="at most this many commits (default 10)")
    p.add_argument("--max-tokens", type=int, default=None, help="at most this many tokens (estimated) in all")

    p = sub.add_parser("ask", help="an answer from the local LLM set in `llm_url`, citing the code it used")
    p.add_argument("question")
    _add_common(p)
    p.add_argument("-k", type=int, default=8, help="spans to give the model (default 8)")

    p = sub.add_parser("span", help="print the current text of a span by its ID")
    p.add_argument("id", help="a span ID as printed by search: PATH:START-END#HASH")
    _add_common(p)
    p.add_argument(
        "--show-secrets",
        action="store_true",
        help="print secrets found in files as they are (by default they are replaced by [REDACTED:<kind>])",
    )

    p = sub.add_parser("status", help="what is indexed, what was skipped, how fresh it is")
    _add_common(p)

    p = sub.add_parser("lsp", help="run the language server (stdio; for editors)")
    p.add_argument("--stdio", action="store_true", help="serve on stdin/stdout (the default)")
    p.add_argument("--tcp", metavar="HOST:PORT", default=None, help="serve on a TCP port instead, for debugging")
    _add_metrics(p)
    p.add_argument("-v", "--verbose", action="count", default=0, help="more logging on stderr")

    p = sub.add_parser("mcp", help="run the MCP server for coding agents (stdio)")
    p.add_argument("root", nargs="?", default=None, help="the workspace folder (default: the current one)")
    p.add_argument("--db", default=None, help="index file to use instead of <root>/.spyglass/index.db")
    p.add_argument("--log-queries", action="store_true", help="append each search to .spyglass/mcp-queries.jsonl")
    _add_metrics(p)
    p.add_argument("-v", "--verbose", action="count", default=0, help="more logging on stderr")

    mcpconfig.add_parser(sub)
    hooks.add_parser(sub)
    evaluate.add_parser(sub)
    exportmodel.add_parser(sub)
    return parser


def _add_metrics(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--metrics",
        metavar="[HOST:]PORT",
        default=None,
        help="serve Prometheus metrics at http://HOST:PORT/metrics (HOST defaults to 127.0.0.1; see docs/metrics.md)",
    )


def _metrics_address(args: argparse.Namespace) -> tuple[str, int] | None:
    from ..metrics import MetricsAddressError, parse_address

    if args.metrics is None:
        return None
    try:
        return parse_address(args.metrics)
    except MetricsAddressError as e:
        raise UsageError(str(e)) from None


def _setup_logging(verbose: int) -> None:
    level = logging.WARNING - 10 * min(verbose, 2)
    logging.basicConfig(level=level, stream=sys.stderr, format="spyglass: %(levelname)s: %(message)s")
    if verbose < 2:
        for noisy in ("sentence_transformers", "transformers", "torch", "httpx", "huggingface_hub", "onnxruntime"):
            logging.getLogger(noisy).setLevel(logging.ERROR)


def _root(args: argparse.Namespace) -> Path:
    given = getattr(args, "root", None)
    return Path(given).resolve() if given else find_root(Path.cwd())


def _overrides(args: argparse.Namespace) -> dict:
    out = {"model": getattr(args, "model", None), "threads": getattr(args, "threads", None)}
    if getattr(args, "no_embed", False):
        out["embed"] = False
    return out


def cmd_index(args: argparse.Namespace) -> int:
    with _open_for_index(args) as ws:
        try:
            ws.acquire_writer()
        except IndexLocked as e:
            return _index_by_owner(args, ws, e.holder)
        return _index_here(args, ws)


def _open_for_index(args: argparse.Namespace) -> Workspace:
    try:
        return Workspace.open(
            _root(args),
            db=args.db,
            overrides=_overrides(args),
            writer=True,
            rebuild=args.rebuild,
            wait=args.wait,
            on_wait=render.waiting,
        )
    except IndexLocked as e:  # only --rebuild takes the lock while opening: it must not delete a live index
        raise IndexLocked(
            f"cannot rebuild the index while another process uses it (pid {e.holder.get('pid')}, "
            f"{e.holder.get('command', 'unknown command')}): stop that process first, or run `spyglass index` "
            "without --rebuild to bring the index up to date",
            e.holder,
        ) from None


def _index_here(args: argparse.Namespace, ws: Workspace) -> int:
    cancel = threading.Event()
    previous = signal.signal(signal.SIGINT, lambda *_: cancel.set())
    try:
        with progress.progress(render.err, enabled=not (args.quiet or args.json)) as update:
            report = ws.index(progress=update, cancel=cancel)
        status = ws.freshness()
    finally:
        signal.signal(signal.SIGINT, previous)
    return _index_result(args, ws.root, report, status)


def _index_result(args: argparse.Namespace, root: Path, report: IndexReport, status: Freshness, **extra) -> int:
    if args.json:
        render.emit_json({"root": str(root), "report": report.summary(), "index": status, **extra})
    else:
        render.index_summary(root, report, status)
    if report.cancelled:
        return 130
    return EXIT_ERROR if report.model_error else EXIT_OK


def _index_by_owner(args: argparse.Namespace, ws: Workspace, holder: dict) -> int:
    """Another process owns the index. A server (MCP, LSP) keeps it and answers on a socket: ask it to bring
    the index up to date and show its progress and summary. Anything else (another ``spyglass index``):
    wait for the lock as long as ``--wait`` says, then index here."""
    code = _ask_owner(args, ws, holder)
    if code is not None:
        return code
    ws.acquire_writer(args.wait, render.waiting)  # nobody listens: the holder is not a server
    return _index_here(args, ws)


def _ask_owner(args: argparse.Namespace, ws: Workspace, holder: dict) -> int | None:
    """The exit code once the owner has updated the index, or None if nobody listens on its socket."""

    def connected() -> None:
        render.asking_owner(holder)
        if args.model or args.no_embed or args.threads:
            render.note("the server indexes with its own settings; --model, --no-embed and --threads are ignored")

    try:
        with progress.progress(render.err, enabled=not (args.quiet or args.json)) as update:
            done = index_through_owner(ws.db_path.parent, update, on_connected=connected)
    except OwnerUnavailable as e:
        if not e.listening:
            return None  # no socket, or one left by a server that died
        raise IndexLocked(
            f"the index is owned by another process (pid {holder.get('pid')}, "
            f"{holder.get('command', 'unknown command')}) that did not answer a request to update it "
            f"({e}); it may be stuck: stop it, or try again",
            holder,
        ) from None
    except KeyboardInterrupt:
        render.note("stopped waiting; the process that owns the index goes on updating it")
        return 130
    report = IndexReport.from_summary(done["report"])
    return _index_result(args, ws.root, report, Freshness(**done["index"]), updated_by={"pid": done["pid"]})


def cmd_search(args: argparse.Namespace) -> int:
    if args.k < 1:
        raise UsageError("-k must be at least 1")
    if args.max_tokens is not None and args.max_tokens < 1:
        raise UsageError("--max-tokens must be at least 1")
    if args.per_file is not None and args.per_file < 1:
        raise UsageError("--per-file must be at least 1")
    per_file = 1 if args.files else args.per_file
    filters = SearchFilters(globs=args.glob, languages=args.language, kinds=args.kind)
    with Workspace.open(_root(args), db=args.db, overrides=_overrides(args)) as ws:
        ws.redact = not args.show_secrets
        result = ws.search(
            args.query,
            k=args.k,
            filters=filters,
            min_score=args.min_score,
            max_tokens=args.max_tokens,
            per_file=per_file,
            tier=args.tier,
        )
    if args.json:
        render.emit_json(result)
    else:
        render.search_results(result)
    return EXIT_OK


def cmd_history(args: argparse.Namespace) -> int:
    if args.k < 1:
        raise UsageError("-k must be at least 1")
    if args.max_tokens is not None and args.max_tokens < 1:
        raise UsageError("--max-tokens must be at least 1")
    with Workspace.open(_root(args), db=args.db) as ws:
        path = ws.relpath(Path(args.path).resolve()) if args.path else None  # as the shell gave it: from here
        found = ws.history(args.query, k=args.k, path=path, max_tokens=args.max_tokens)
    if args.json:
        render.emit_json(found)
    else:
        render.history(found)
    return EXIT_OK


def cmd_ask(args: argparse.Namespace) -> int:
    if args.k < 1:
        raise UsageError("-k must be at least 1")
    with Workspace.open(_root(args), db=args.db) as ws:
        found = ws.ask(args.question, k=args.k)
    if args.json:
        render.emit_json(found)
    else:
        render.ask(found)
    return EXIT_OK


def cmd_span(args: argparse.Namespace) -> int:
    with Workspace.open(_root(args), db=args.db) as ws:
        ws.redact = not args.show_secrets
        try:
            found = ws.span(args.id)
        except ValueError as e:
            raise UsageError(str(e)) from e
    if args.json:
        render.emit_json(found)
    else:
        render.span(found)
    return EXIT_OK


def cmd_status(args: argparse.Namespace) -> int:
    with Workspace.open(_root(args), db=args.db) as ws:
        info = ws.status()
    if args.json:
        render.emit_json(info)
    else:
        render.status(info, verbose=args.verbose > 0)
    return EXIT_OK


def cmd_lsp(args: argparse.Namespace) -> int:
    from ..lsp.app import run  # pygls is imported only by the commands that serve

    if args.tcp and not re.fullmatch(r"[\w.\-]*:\d+", args.tcp):
        raise UsageError(f"--tcp wants HOST:PORT, not {args.tcp!r}")
    return run(tcp=args.tcp, metrics_at=_metrics_address(args))


def cmd_mcp(args: argparse.Namespace) -> int:
    from ..mcp.app import run  # the mcp SDK is imported only by the command that serves it

    root = Path(args.root).resolve() if args.root else Path.cwd().resolve()
    if not root.is_dir():
        raise UsageError(f"{root} is not a folder")
    metrics_at = _metrics_address(args)
    return run(root, log_queries=args.log_queries, db=args.db, metrics_at=metrics_at)


COMMANDS = {
    "lsp": cmd_lsp,
    "mcp": cmd_mcp,
    "mcp-config": mcpconfig.cmd_mcp_config,
    "index": cmd_index,
    "search": cmd_search,
    "span": cmd_span,
    "status": cmd_status,
    "history": cmd_history,
    "ask": cmd_ask,
    "hooks": hooks.run,
    "eval": evaluate.cmd_eval,
    "export-model": exportmodel.cmd_export_model,
}


def _ids_as_arguments(argv: list[str]) -> list[str]:
    """``spyglass span -dash.py:1-2#...``: a span ID of a file whose name starts with '-' is the ID, not an
    option (argparse would say the ID is missing): it moves to the end, after ``--``."""
    if "span" not in argv or "--" in argv:
        return argv
    at = argv.index("span")
    for i in range(at + 1, len(argv)):
        if argv[i].startswith("-") and _is_span_id(argv[i]):
            return [*argv[:i], *argv[i + 1 :], "--", argv[i]]
    return argv


def _is_span_id(text: str) -> bool:
    try:
        parse_span_id(text)
    except ValueError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(_ids_as_arguments(sys.argv[1:] if argv is None else argv))
    _setup_logging(getattr(args, "verbose", 0))
    try:
        return COMMANDS[args.command](args)
    except (UsageError, UnknownValue) as e:
        render.error(str(e))
        return EXIT_USAGE
    except IndexMissing as e:
        render.error(str(e))
        return EXIT_NO_INDEX
    except IndexUnusable as e:
        render.error(str(e))
        return EXIT_NO_INDEX
    except IndexLocked as e:
        render.error(str(e))
        return EXIT_LOCKED
    except (OutsideWorkspace, FileNotFoundError, SpyglassError) as e:
        render.error(str(e))
        return EXIT_ERROR
    except OSError as e:
        if not is_access_denied(e):
            raise
        render.error(access_denied_message(e))
        return EXIT_ERROR
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # `spyglass search ... | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
