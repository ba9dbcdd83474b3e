"""``spyglass export-model SOURCE OUT``: turn a sentence-transformers model folder into an ONNX folder.

Run once where torch is installed (``pip install 'spyglass[sentence-transformers]' onnx``); afterwards
``--model OUT`` (or ``model = "OUT"`` in a config file) runs the model on ONNX Runtime, without torch.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from ..engine import Embedder, export_onnx
from .errors import UsageError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("export-model", help="export a sentence-transformers model to ONNX (runs without torch)")
    p.add_argument("source", help="a local sentence-transformers model folder")
    p.add_argument("out", help="the folder to write model.onnx, its weights and tokenizer.json into")
    p.add_argument("--int8", action="store_true", help="quantize the weights to int8 (smaller, faster, vectors differ)")


def cmd_export_model(args: argparse.Namespace) -> int:
    source, out = Path(args.source).expanduser().resolve(), Path(args.out).expanduser().resolve()
    if not (source / "config.json").is_file():
        raise UsageError(f"{source} is not a model folder (no config.json in it)")
    if out == source:
        raise UsageError("write the export to a new folder, not into the model's own")
    started = time.perf_counter()
    print(f"spyglass: exporting {source} to ONNX{' (int8)' if args.int8 else ''}...", file=sys.stderr)
    export_onnx(source, out, int8=args.int8)
    dims = Embedder(str(out), encoder="onnx").dims  # loads it back: a broken export fails here, not at index time
    print(
        f"spyglass: wrote {out} ({dims} dimensions) in {time.perf_counter() - started:.1f}s; "
        f'use it with --model {out} or model = "{out}" in .spyglass.toml',
        file=sys.stderr,
    )
    return 0
