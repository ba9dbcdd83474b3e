"""Language-server latency and freshness on a real corpus (a benchmark, not a test; docs/lsp.md).

    python bench/lsp_bench.py CORPUS [--rounds 20] [--branch-files 1000] [--out report.json]

CORPUS is copied to a temporary folder (with its index, if it has one) and served by a real
``spyglass lsp`` process over stdio, driven by pygls's client. Measured, warm:
  1. ``workspace/symbol`` as typed: every prefix of some names, and a few descriptions: p50/p95;
  2. ``textDocument/hover`` inside random definitions: p50/p95;
  3. freshness of an edit: a new function typed into an open buffer, until ``workspace/symbol`` finds it;
  4. freshness of a write by another process: a new file, until ``workspace/symbol`` finds it;
  5. a "branch switch": N files rewritten at once; the slowest ``workspace/symbol`` answer while the
     server catches up, and the time until it is idle again.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).parent))
from common import emit  # noqa: E402

NAMES = ["simplify", "Matrix", "lambdify", "integrate", "Poly", "solve", "expand", "parse_expr"]
DESCRIPTIONS = ["where is the determinant computed", "convert an expression to latex", "solve linear equations"]


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return round(values[min(len(values) - 1, int(p * len(values)))] * 1000, 1)


def summary(values: list[float]) -> dict:
    return {"n": len(values), "p50_ms": pct(values, 0.5), "p95_ms": pct(values, 0.95), "max_ms": pct(values, 1.0)}


async def status(client: LanguageClient) -> dict:
    res = await client.protocol.send_request_async("spyglass/status", {})
    if not res.folders:  # still opening
        return {"state": "starting", "embeddedFraction": 0.0, "spans": 0, "modelLoaded": False}
    f = res.folders[0]
    return {"state": f.state, "embeddedFraction": f.embeddedFraction, "spans": f.spans, "modelLoaded": f.modelLoaded}


async def wait_idle(client: LanguageClient, timeout: float = 3600) -> float:
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        s = await status(client)
        if s["state"] == "idle" and s["spans"] and s.get("modelLoaded"):
            return time.perf_counter() - t0
        await asyncio.sleep(0.2)
    raise TimeoutError("the server never became idle")


async def symbol(client: LanguageClient, query: str) -> list:
    return await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=query)) or []


async def until_found(client: LanguageClient, name: str, timeout: float = 30) -> float:
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        hits = await symbol(client, name)
        if hits and hits[0].name == name:
            return time.perf_counter() - t0
        await asyncio.sleep(0.02)
    raise TimeoutError(f"{name} never found")


async def run(args) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="spyglass-lsp-bench-"))
    root = tmp / args.corpus.name
    t0 = time.perf_counter()
    shutil.copytree(args.corpus, root, symlinks=True)
    print(f"copied corpus in {time.perf_counter() - t0:.1f}s", file=sys.stderr)
    rng = random.Random(7)
    report: dict = {"corpus": str(args.corpus)}
    client = LanguageClient("spyglass-bench", "1")
    await client.start_io(sys.executable, "-m", "spyglass", "lsp")
    try:
        await client.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(window=types.WindowClientCapabilities(work_done_progress=False)),
                workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
            )
        )
        client.initialized(types.InitializedParams())
        report["seconds_to_idle_at_start"] = round(await wait_idle(client), 2)
        report["status"] = await status(client)
        await symbol(client, "warm up")

        # 1. symbol search as typed
        times = []
        for _ in range(2):
            for name in NAMES:
                for i in range(1, len(name) + 1):
                    t = time.perf_counter()
                    await symbol(client, name[:i])
                    times.append(time.perf_counter() - t)
            for q in DESCRIPTIONS:
                t = time.perf_counter()
                await symbol(client, q)
                times.append(time.perf_counter() - t)
        report["workspace_symbol"] = summary(times)

        # 2. hover inside random definitions
        py_files = sorted(p for p in root.rglob("*.py") if ".spyglass" not in p.parts)
        targets = []
        for path in rng.sample(py_files, min(60, len(py_files))):
            lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
            cands = [i for i, ln in enumerate(lines) if ln.lstrip().startswith("def ")]
            if cands:
                targets.append((path, rng.choice(cands)))
        times = []
        for path, line in targets:
            params = types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
                position=types.Position(line=line, character=8),
            )
            t = time.perf_counter()
            await client.text_document_hover_async(params)
            times.append(time.perf_counter() - t)
        report["hover"] = summary(times)

        # 3. an edit in an open buffer
        times = []
        for i, (path, _) in enumerate(targets[: args.rounds]):
            text = path.read_text(encoding="utf-8", errors="replace")
            uri = path.as_uri()
            client.text_document_did_open(
                types.DidOpenTextDocumentParams(
                    text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)
                )
            )
            end = len(text.splitlines())
            name = f"typed_symbol_{i}_{rng.randrange(10**6)}"
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
                    content_changes=[
                        types.TextDocumentContentChangePartial(
                            range=types.Range(
                                start=types.Position(line=end, character=0), end=types.Position(line=end, character=0)
                            ),
                            text=f"\n\ndef {name}():\n    return 1\n",
                        )
                    ],
                )
            )
            times.append(await until_found(client, name))
            client.text_document_did_close(
                types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
            )
        report["edit_to_symbol"] = summary(times)
        await wait_idle(client)

        # 4. a file written by another process
        times = []
        for i in range(args.rounds):
            name = f"written_symbol_{i}_{rng.randrange(10**6)}"
            path = root / f"bench_written_{i}.py"
            path.write_text(f"def {name}():\n    return {i}\n", encoding="utf-8")
            times.append(await until_found(client, name))
        report["external_write_to_symbol"] = summary(times)
        await wait_idle(client)

        # 5. a branch switch: many files rewritten at once
        files = rng.sample(py_files, min(args.branch_files, len(py_files)))
        for path in files:
            with path.open("a", encoding="utf-8") as f:
                f.write("\n# switched branch\n")
        t = time.perf_counter()
        worst = []
        while time.perf_counter() - t < 600:
            q = time.perf_counter()
            await symbol(client, "simplify")
            worst.append(time.perf_counter() - q)
            s = await status(client)
            if s["state"] == "idle" and time.perf_counter() - t > 1:
                break
            await asyncio.sleep(0.1)
        report["branch_switch"] = {
            "files": len(files),
            "seconds_to_idle": round(time.perf_counter() - t, 2),
            "workspace_symbol_during": summary(worst),
        }
        await client.shutdown_async(None)
        client.exit(None)
    finally:
        try:
            await asyncio.wait_for(client.stop(), 10)
        except TimeoutError:
            pass
        shutil.rmtree(tmp, ignore_errors=True)
    return report


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpus", type=Path)
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--branch-files", type=int, default=1000)
    ap.add_argument("--out", type=Path)
    args = ap.parse_args()
    report = asyncio.run(run(args))
    emit(report, args.out)


if __name__ == "__main__":
    main()
