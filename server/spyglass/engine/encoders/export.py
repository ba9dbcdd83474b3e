"""Export a sentence-transformers model to an ONNX folder that the ``onnx`` encoder runs without torch.

Needs torch, transformers and onnx (``pip install 'spyglass[sentence-transformers]' onnx``), once; the folder it
writes then needs neither. The folder holds:

- ``model.onnx``: the transformer, then the model's pooling (mean or CLS, from ``1_Pooling/config.json``) and L2
  normalisation, all inside the graph; inputs ``input_ids`` and ``attention_mask`` (int64, [batch, tokens]),
  output ``sentence_embedding`` (float32, [batch, dims]);
- ``model.onnx.data``: its weights as ONNX external data, which ONNX Runtime memory-maps, so processes that load
  the same model share one copy of the weights;
- ``tokenizer.json`` (and ``tokenizer_config.json``, which names the padding token).

With ``int8`` the MatMul weights are quantized (dynamic, per channel): a smaller, faster model whose vectors
differ from the original's (index and queries must then both use it; it gets its own model id).
"""

from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path

from ..errors import ModelLoadError

OPSET = 17
GRAPH = "model.onnx"
WEIGHTS = "model.onnx.data"


def _pooling(source: Path) -> str:
    config = source / "1_Pooling" / "config.json"
    if config.is_file() and json.loads(config.read_text()).get("pooling_mode_cls_token"):
        return "cls"
    return "mean"


def export_onnx(source: Path, out: Path, *, int8: bool = False) -> Path:
    """Write ``out/model.onnx`` (+ weights and tokenizer) from the sentence-transformers model folder ``source``."""
    try:
        import onnx
        import torch
        from transformers import AutoModel, AutoTokenizer
    except ImportError as e:
        raise ModelLoadError(
            f"exporting a model needs torch, transformers and onnx ({e}); "
            "run `pip install 'spyglass[sentence-transformers]' onnx` first"
        ) from e
    pooling = _pooling(source)

    class SentenceEncoder(torch.nn.Module):
        def __init__(self, transformer):
            super().__init__()
            self.transformer = transformer

        def forward(self, input_ids, attention_mask):
            hidden = self.transformer(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
            if pooling == "cls":
                pooled = hidden[:, 0]
            else:
                mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
                pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
            return torch.nn.functional.normalize(pooled, p=2.0, dim=1)

    out.mkdir(parents=True, exist_ok=True)
    model = SentenceEncoder(AutoModel.from_pretrained(str(source))).eval()
    example = torch.ones((2, 16), dtype=torch.int64)
    plain = out / "plain.onnx"
    # The TorchScript exporter (dynamo=False), deprecated since torch 2.9: its graph matches sentence-transformers
    # to cosine 1.0; the dynamo exporter's output for this model did not (cosine -0.09 on our texts, torch 2.13).
    with torch.no_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            model,
            (example, example),
            str(plain),
            input_names=["input_ids", "attention_mask"],
            output_names=["sentence_embedding"],
            dynamic_axes={"input_ids": {0: "batch", 1: "tokens"}, "attention_mask": {0: "batch", 1: "tokens"}},
            opset_version=OPSET,
            do_constant_folding=True,
            dynamo=False,
        )
    if int8:
        from onnxruntime.quantization import QuantType, quantize_dynamic

        quantized = out / "quantized.onnx"
        quantize_dynamic(
            str(plain),
            str(quantized),
            op_types_to_quantize=["MatMul"],
            per_channel=True,
            reduce_range=True,
            weight_type=QuantType.QInt8,
        )
        plain.unlink()
        plain = quantized
    graph = onnx.load(str(plain))
    plain.unlink()
    for stale in (out / GRAPH, out / WEIGHTS):
        stale.unlink(missing_ok=True)
    onnx.save_model(graph, str(out / GRAPH), save_as_external_data=True, all_tensors_to_one_file=True, location=WEIGHTS)
    (out / WEIGHTS).chmod(0o644)  # onnx writes it private; installed model files are world-readable
    if (source / "tokenizer.json").is_file():
        shutil.copy2(source / "tokenizer.json", out / "tokenizer.json")
    else:
        AutoTokenizer.from_pretrained(str(source)).backend_tokenizer.save(str(out / "tokenizer.json"))
    if (source / "tokenizer_config.json").is_file():
        shutil.copy2(source / "tokenizer_config.json", out / "tokenizer_config.json")
    return out / GRAPH
