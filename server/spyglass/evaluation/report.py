"""Evaluation reports: a JSON file per run, a Markdown table, and a comparison of two runs.

A report is one JSON object::

    {"created": "2025-06-01T12:00:00+00:00",
     "config": {...},                                  # whatever the runner wants to record
     "systems": {"spyglass": <metrics.aggregate(...)>, "bm25 control": {...}},
     "instances": {"pallets__flask-4045": {"spyglass": <InstanceScore.to_dict()>, ...}, ...}}

Per-instance entries hold the per-instance metric values (``metrics.METRICS`` names), ``file_rank`` (rank of
the first gold file, null when not retrieved) and ``top_files``.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from spyglass.evaluation.metrics import ACC_METRICS, METRICS, InstanceScore, aggregate

# Published results on SWE-bench Lite-274 (percentages), as listed in ../shared/bench/README.md:
# SweRank (Reddy et al. 2025) Table 1 for the retrievers, LocAgent (Chen et al. 2025) for E5 and the agents.
# Only file Acc@1/3/5, module Acc@5/10 and function Acc@5/10 were published; other metrics are None.


def _published(size: str, source: str, file: tuple, module: tuple, function: tuple) -> dict[str, Any]:
    row: dict[str, Any] = dict.fromkeys(METRICS)
    row.update(zip(("file_acc@1", "file_acc@3", "file_acc@5"), file, strict=True))
    row.update(zip(("module_acc@5", "module_acc@10"), module, strict=True))
    row.update(zip(("function_acc@5", "function_acc@10"), function, strict=True))
    row.update({"instances": 274, "size": size, "source": source})
    return row


_NONE2 = (None, None)
PUBLISHED_LITE_274: dict[str, dict[str, Any]] = {
    "BM25": _published("-", "SweRank", (38.69, 51.82, 61.68), (45.26, 52.92), (31.75, 36.86)),
    "E5-base-v2": _published("110M", "LocAgent", (49.64, 74.45, 80.29), _NONE2, _NONE2),
    "Jina-Code-v2": _published("161M", "SweRank", (43.43, 71.17, 80.29), (63.50, 72.63), (42.34, 52.19)),
    "CodeRankEmbed": _published("137M", "SweRank", (52.55, 77.74, 84.67), (71.90, 78.83), (51.82, 58.76)),
    "SFR-Embedding-2": _published("7B", "SweRank", (58.03, 80.29, 83.94), (70.07, 79.20), (56.20, 64.23)),
    "SweRankEmbed-Small": _published("137M", "SweRank", (66.42, 86.50, 90.88), (79.56, 85.04), (63.14, 74.45)),
    "SweRankEmbed-Large": _published("7B", "SweRank", (72.63, 91.24, 94.16), (84.31, 89.78), (71.90, 82.12)),
    "Agentless (GPT-4o, agent)": _published("-", "LocAgent", (67.15, 74.45, 74.45), (67.15, 67.15), (55.47, 55.47)),
    "LocAgent (Claude-3.5, agent)": _published("-", "LocAgent", (77.74, 91.97, 94.16), (86.50, 87.59), (73.36, 77.37)),
}

_COLUMNS = (
    ("file Acc@1", "file_acc@1"),
    ("file Acc@3", "file_acc@3"),
    ("file Acc@5", "file_acc@5"),
    ("file Acc@10", "file_acc@10"),
    ("module Acc@5", "module_acc@5"),
    ("module Acc@10", "module_acc@10"),
    ("function Acc@5", "function_acc@5"),
    ("function Acc@10", "function_acc@10"),
    ("MRR", "file_mrr"),
    ("nDCG@10", "file_ndcg@10"),
    ("tokens", "tokens"),
    ("cut: results", "cut_results"),
    ("cut: gold file kept %", "cut_file_recall"),
)


class ReportError(ValueError):
    """A report file that is not a report."""


def _fmt(metric: str, value: Any) -> str:
    if value is None:
        return "-"
    if metric in ACC_METRICS or metric == "cut_file_recall":
        return f"{value:.2f}"
    if metric == "tokens":
        return f"{value:.0f}"
    if metric == "cut_results":
        return f"{value:.1f}"
    return f"{value:.3f}"


def format_table(rows: Mapping[str, Mapping[str, Any]]) -> str:
    """A Markdown table, one row per system (an ``aggregate`` dict or a ``PUBLISHED_LITE_274`` row).

    Acc@k are percentages; MRR and nDCG@10 are over files; ``n`` is the number of instances; a missing
    value shows as ``-``.
    """
    header = ["system", "n", *(title for title, _ in _COLUMNS)]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    for name, row in rows.items():
        n = row.get("instances")
        cells = [name.replace("|", "\\|"), "-" if n is None else str(n)]
        cells += [_fmt(metric, row.get(metric)) for _, metric in _COLUMNS]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------------------
# JSON reports


def make_report(
    config: Mapping[str, Any],
    results: Mapping[str, Iterable[InstanceScore]],
    *,
    created: str | None = None,
) -> dict[str, Any]:
    """A report from per-system instance scores: aggregates per system and per-instance entries."""
    systems: dict[str, Any] = {}
    instances: dict[str, dict[str, Any]] = {}
    for system, scores in results.items():
        scores = list(scores)
        systems[system] = aggregate(scores)
        for s in scores:
            instances.setdefault(s.id, {})[system] = s.to_dict()
    return {
        "created": created or datetime.now(UTC).isoformat(timespec="seconds"),
        "config": dict(config),
        "systems": systems,
        "instances": instances,
    }


def _validate(data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise ReportError(f"{where}: a report is a JSON object, got {type(data).__name__}")
    for key in ("systems", "instances"):
        if not isinstance(data.get(key), dict):
            raise ReportError(f"{where}: a report needs an object {key!r}")
    if not isinstance(data.get("config", {}), dict):
        raise ReportError(f"{where}: 'config' must be an object")
    return data


def write_report(path: str | Path, data: Mapping[str, Any]) -> None:
    """Write a report as JSON (UTF-8, atomically). ``created`` is filled in when absent."""
    path = Path(path)
    data = _validate(dict(data), str(path))
    data.setdefault("created", datetime.now(UTC).isoformat(timespec="seconds"))
    data.setdefault("config", {})
    ordered = {k: data[k] for k in ("created", "config", "systems", "instances")}
    ordered.update((k, v) for k, v in data.items() if k not in ordered)
    text = json.dumps(ordered, ensure_ascii=False, indent=1, allow_nan=False) + "\n"
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with open(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load_report(path: str | Path) -> dict[str, Any]:
    """Read a report written by ``write_report``; raises ``ReportError`` if it is not one."""
    with open(path, encoding="utf-8") as f:
        try:
            data = json.load(f)
        except json.JSONDecodeError as e:
            raise ReportError(f"{path}: not valid JSON ({e.msg} at line {e.lineno})") from None
    return _validate(data, str(path))


def merge_systems(reports: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each system's averages over the instances of several reports together (e.g. a tuning and a held-out
    run); an instance in more than one report counts once, from the last report that has it."""
    per_system: dict[str, dict[str, InstanceScore]] = {}
    for report in reports:
        for instance_id, systems in report["instances"].items():
            for system, values in systems.items():
                per_system.setdefault(system, {})[instance_id] = InstanceScore.from_dict(instance_id, values)
    return {system: aggregate(scores.values()) for system, scores in per_system.items()}


# ---------------------------------------------------------------------------------------------------------
# comparing two reports


def _delta(metric: str, a: Any, b: Any) -> str:
    if a is None or b is None:
        return ""
    d = b - a
    if metric in ACC_METRICS or metric == "cut_file_recall":
        return f"{d:+.2f}"
    if metric == "tokens":
        return f"{d:+.0f}"
    if metric == "cut_results":
        return f"{d:+.1f}"
    return f"{d:+.3f}"


def _rank(r: Any) -> str:
    return "not found" if r is None else str(r)


def _rank_change(a: Any, b: Any) -> int:
    """-1 when the first gold file moved down (or dropped out), +1 when it moved up, 0 otherwise."""
    if a == b:
        return 0
    if b is None or (a is not None and b > a):
        return -1
    return 1


def compare(a: Mapping[str, Any], b: Mapping[str, Any]) -> str:
    """Readable text: per-metric deltas (B - A) of every system in both reports, then the queries whose
    file Acc@5 or first-gold-file rank got worse (regressed), better (improved), or both (mixed)."""
    sys_a, sys_b = a.get("systems", {}), b.get("systems", {})
    inst_a, inst_b = a.get("instances", {}), b.get("instances", {})
    lines = [f"A: {a.get('created', '?')}", f"B: {b.get('created', '?')}"]
    common = [s for s in sys_a if s in sys_b]
    if not common:
        lines.append("No system is in both reports.")
    for system in common:
        ra, rb = sys_a[system], sys_b[system]
        lines += ["", f"== {system} (instances {ra.get('instances')} -> {rb.get('instances')})"]
        lines.append(f"  {'metric':<16}{'A':>10}{'B':>10}{'delta':>9}  n")
        na, nb = ra.get("n", {}), rb.get("n", {})
        for metric in METRICS:
            va, vb = ra.get(metric), rb.get(metric)
            n = str(na.get(metric, "?")) if na.get(metric) == nb.get(metric) else f"{na.get(metric)}->{nb.get(metric)}"
            lines.append(f"  {metric:<16}{_fmt(metric, va):>10}{_fmt(metric, vb):>10}{_delta(metric, va, vb):>9}  {n}")
        regressed: list[str] = []
        improved: list[str] = []
        mixed: list[str] = []
        both = [i for i in inst_a if i in inst_b and system in inst_a[i] and system in inst_b[i]]
        for iid in sorted(both):
            ea, eb = inst_a[iid][system], inst_b[iid][system]
            acc_a, acc_b = ea.get("file_acc@5"), eb.get("file_acc@5")
            acc_change = 0 if acc_a is None or acc_b is None or acc_a == acc_b else (1 if acc_b > acc_a else -1)
            rank_change = _rank_change(ea.get("file_rank"), eb.get("file_rank"))
            if not acc_change and not rank_change:
                continue
            line = (
                f"    {iid}  file Acc@5 {_fmt('file_acc@5', acc_a)} -> {_fmt('file_acc@5', acc_b)}, "
                f"first gold file rank {_rank(ea.get('file_rank'))} -> {_rank(eb.get('file_rank'))}"
            )
            changes = {acc_change, rank_change} - {0}
            target = mixed if changes == {1, -1} else regressed if -1 in changes else improved
            target.append(line)
        lines.append(f"  queries in both reports: {len(both)}")
        for title, items in (("regressed", regressed), ("improved", improved), ("mixed", mixed)):
            if items or title != "mixed":
                lines.append(f"  {title} ({len(items)}):")
                lines += items
    only_a = [s for s in sys_a if s not in sys_b]
    only_b = [s for s in sys_b if s not in sys_a]
    if only_a or only_b:
        lines.append("")
    if only_a:
        lines.append("Only in A: " + ", ".join(only_a))
    if only_b:
        lines.append("Only in B: " + ", ".join(only_b))
    return "\n".join(lines) + "\n"
