"""Compare our redaction (spyglass.engine.redact) with detect-secrets on the planted-secrets corpus
(tests/planted_secrets.py): per kind caught or missed, false positives on ordinary code (this repository's
source and any folders given), cost in ms per MB, and detect-secrets' import time.

    python -m bench.secrets_compare [--repos /tmp/spyglass-semble/fastapi ...]

detect-secrets is in the test extra (`bash scripts/install.sh --tests`), not a run-time dependency. Sockets
are refused while it runs, to show it makes no network access.
"""

from __future__ import annotations

import argparse
import importlib
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

import planted_secrets as planted  # noqa: E402
from spyglass.engine.redact import redact  # noqa: E402

SOURCE_SUFFIXES = {".py", ".go", ".ts", ".tsx", ".js", ".md", ".json", ".yaml", ".yml", ".toml", ".sh", ".java"}
WIDE_SUFFIXES = SOURCE_SUFFIXES | set(
    ".rb .rs .cs .php .kt .swift .scala .c .cpp .h .ini .properties .xml .ex .exs .hs .ml .lua .cfg .conf .txt .rst "
    ".cjs .mjs".split()
)


def _no_network(*_args, **_kwargs):
    raise OSError("network access refused by the benchmark")


def _files(root: Path, suffixes: set[str] = SOURCE_SUFFIXES) -> list[Path]:
    out = []
    for p in sorted(root.rglob("*")):
        if any(part in (".git", "node_modules", ".venv", ".spyglass") for part in p.parts):
            continue
        if p.is_file() and p.suffix in suffixes and p.stat().st_size < 1_000_000:
            out.append(p)
    return out


def _ds_scan(path: Path) -> list[tuple[int, str, str]]:
    """detect-secrets' findings in one file: (line, type, value)."""
    from detect_secrets import SecretsCollection
    from detect_secrets.settings import default_settings

    with default_settings():
        found = SecretsCollection()
        found.scan_file(str(path))
    return [(s.line_number, s.type, s.secret_value or "") for f in found.files for s in found[f]]


def _value_lines(text: str, value: str) -> set[int]:
    lines = set()
    for n, line in enumerate(text.split("\n"), 1):
        if planted.leaks(line, (planted.Planted("x", "", value, ()),)):
            lines.update({n, n - 1})  # a PEM finding sits on the BEGIN line just above the body
    return lines


def compare_corpus() -> None:
    texts = planted.corpus_texts()
    with tempfile.TemporaryDirectory() as tmp:
        root = planted.write_corpus(Path(tmp))
        ds = {rel: _ds_scan(root / rel) for rel in texts}
    ours_caught = ds_caught = 0
    print(f"{'kind':30} {'ours':6} {'detect-secrets':14} (detect-secrets type)")
    for p in planted.PLANTED:
        ours = not planted.leaks(redact(texts[p.path]).text, (p,))
        lines = _value_lines(texts[p.path], p.value)
        hits = [(t, v) for n, t, v in ds[p.path] if n in lines]
        theirs = bool(hits)
        ours_caught += ours
        ds_caught += theirs
        kinds = ", ".join(sorted({t for t, _ in hits}))
        print(f"{p.kind:30} {'yes' if ours else 'MISS':6} {'yes' if theirs else 'MISS':14} {kinds}")
    n = len(planted.PLANTED)
    print(f"caught: ours {ours_caught}/{n}, detect-secrets {ds_caught}/{n}")


def _best_of(n: int, fn):
    """``fn()`` and its fastest time of ``n`` runs in ms (the machine is shared: the minimum is the cost)."""
    best = float("inf")
    for _ in range(n):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, (time.perf_counter() - t0) * 1000)
    return result, best


def false_positives(roots: list[Path], suffixes: set[str] = SOURCE_SUFFIXES) -> None:
    totals = [0, 0, 0.0]
    for root in roots:
        files = _files(root, suffixes)
        texts = [f.read_text(encoding="utf-8", errors="replace") for f in files]
        mb = sum(len(t.encode()) for t in texts) / 1e6
        if not texts:
            continue
        ours, ours_ms = _best_of(3, lambda texts=texts: sum(redact(t).count for t in texts))
        theirs, ds_ms = _best_of(2, lambda files=files: sum(len(_ds_scan(f)) for f in files))
        totals[0] += ours
        totals[1] += theirs
        totals[2] += mb
        print(
            f"{root.name}: {len(files)} files, {mb:.2f} MB; findings: ours {ours}, detect-secrets {theirs}; "
            f"cost: ours {ours_ms / mb:.0f} ms/MB, detect-secrets {ds_ms / mb:.0f} ms/MB"
        )

    print(f"all: {totals[2]:.1f} MB; findings: ours {totals[0]}, detect-secrets {totals[1]}")


def import_time() -> None:
    code = "import time; t = time.perf_counter(); import detect_secrets.core.scan, detect_secrets.settings; "
    code += "print(round((time.perf_counter() - t) * 1000))"
    ms = min(
        int(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
        for _ in range(3)
    )
    print(f"detect-secrets import: {ms} ms (best of 3 fresh processes)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repos", nargs="*", type=Path, default=[], help="more folders to count false positives in")
    ap.add_argument("--wide", action="store_true", help="more file types in --repos (config, docs, 20 languages)")
    args = ap.parse_args()
    importlib.import_module("detect_secrets")
    socket.socket.connect = _no_network  # type: ignore[method-assign]
    compare_corpus()
    false_positives([REPO / "server", *args.repos], WIDE_SUFFIXES if args.wide else SOURCE_SUFFIXES)
    import_time()


if __name__ == "__main__":
    main()
