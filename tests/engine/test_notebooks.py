"""A Jupyter notebook is read as its code: parsed as Python, line for line with the file on disk."""

from __future__ import annotations

import json
import re
from pathlib import Path

from spyglass.engine.context import file_imports
from spyglass.engine.discovery import discover
from spyglass.engine.history.touched import enclosing_symbols
from spyglass.engine.languages import language_for
from spyglass.engine.notebooks import code_view, notebook_code
from spyglass.engine.parsing import parse_spans, split_lines
from spyglass.engine.settings import Settings
from spyglass.engine.workspace import Workspace

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "polyglot" / "readings.ipynb"
LEXICAL = {"embed": False}
_EOL = re.compile(rb"\r\n|\r|\n")


def notebook(*cells: dict, metadata: dict | None = None, **top) -> bytes:
    """A notebook as Jupyter writes it: nbformat 4, one space of indent, sorted keys, a source line a string."""
    nb = {"cells": list(cells), "metadata": metadata if metadata is not None else {}, "nbformat": 4}
    nb.update({"nbformat_minor": 5, **top})
    return (json.dumps(nb, indent=1, sort_keys=True, ensure_ascii=False) + "\n").encode()


def code(text: str, outputs: list | None = None) -> dict:
    lines = text.split("\n")
    source = [line + "\n" for line in lines[:-1]] + [lines[-1]]
    return {"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": outputs or [], "source": source}


def markdown(text: str) -> dict:
    return {**code(text), "cell_type": "markdown"}


def spans_of(path: str, data: bytes) -> list[tuple[str, str, int, int]]:
    return [(s.kind, s.qualname, s.start_line, s.end_line) for s in parse_spans(path, data).spans]


def test_a_notebooks_code_cells_are_parsed_as_python_on_the_lines_of_the_file() -> None:
    raw = FIXTURE.read_bytes()
    r = parse_spans("analysis/readings.ipynb", raw)
    assert r.language == "python" and r.parsed and not r.had_errors
    assert [(s.kind, s.qualname, s.start_line, s.end_line) for s in r.spans] == [
        ("module", "analysis.readings", 1, 139),
        ("function", "smooth_readings", 49, 52),
        ("class", "OutlierFilter", 76, 88),
        ("method", "OutlierFilter.__init__", 79, 80),
        ("method", "OutlierFilter.fit", 82, 84),
        ("method", "OutlierFilter.transform", 86, 88),
    ]
    file_lines = split_lines(raw.decode())
    smooth = r.spans[1]
    # a span's lines are the file's lines, each the code its JSON string holds
    assert file_lines[48] == '    "def smooth_readings(values, window=3):\\n",'
    assert smooth.text.split("\n")[0] == "def smooth_readings(values, window=3):"
    assert smooth.signature == "def smooth_readings(values, window=3)"
    assert smooth.doc.startswith("Average each reading with its neighbours")
    # the Markdown is the notebook's doc, its outputs, magics and shell cells are in no span
    module = r.spans[0]
    assert module.doc.startswith("# Sensor readings") and "weather station" in module.doc
    indexed = "\n".join(s.text for s in r.spans)
    for outside in ("iVBORw0KGgo", "Figure size", "ZeroDivisionError", "[1.5 2.5 3.5]", "matplotlib", "pip install"):
        assert outside not in indexed
    assert "echo" not in indexed and "OutlierFilter?" not in indexed  # a %%bash cell; IPython's help
    assert "clean = OutlierFilter(limit=1.0).fit(readings).transform(readings)" in module.text
    assert file_imports(code_view("readings.ipynb", raw), "python") == ["import numpy as np"]


def test_the_code_of_a_notebook_keeps_every_line_and_reads_the_same_again() -> None:
    raw = FIXTURE.read_bytes()
    view = notebook_code(raw)
    assert view is not None and len(_EOL.split(view)) == len(_EOL.split(raw))
    assert code_view("readings.ipynb", view) is view  # read twice, the same code (what the workspace shows)
    # the language of a notebook is read from its code: JSON still is a notebook that could not be read so
    assert language_for("readings.ipynb", view) == "python" and language_for("readings.ipynb", raw) == "json"
    assert code_view("readings.json", raw) is raw  # only notebooks
    crlf = raw.replace(b"\n", b"\r\n")
    assert notebook_code(crlf) == view
    bom = b"\xef\xbb\xbf" + raw
    assert notebook_code(bom) == view


def test_a_notebook_it_cannot_read_as_code_stays_json() -> None:
    r_kernel = notebook(code("f <- function(x) x + 1"), metadata={"kernelspec": {"language": "R", "name": "ir"}})
    compact = json.dumps({"cells": [code("def f():\n    return 1")], "metadata": {}, "nbformat": 4}).encode()
    old = json.dumps({"worksheets": [{"cells": []}], "metadata": {}, "nbformat": 3}, indent=1).encode()
    for data in (r_kernel, compact, old, b"{ not json", b"[1, 2]\n", b"\xff\xfe{}"):
        assert notebook_code(data) is None
        r = parse_spans("x.ipynb", data)
        assert r.language == "json" and not r.parsed  # windows of the JSON, as before: nothing lost
    assert parse_spans("x.ipynb", r_kernel).spans[0].text.startswith("{")


def test_a_julia_notebook_is_read_as_julia() -> None:
    raw = notebook(
        markdown("# Kalman filter\nOne step at a time."),
        code('using LinearAlgebra\n\n"""Advance the state estimate."""\nfunction predict(x, F)\n    F * x\nend'),
        code("?predict"),  # IJulia's help, shell and package cells are not Julia
        code("]add Flux"),
        code(";ls -la"),
        code("area(r) = pi * r^2"),
        metadata={"kernelspec": {"language": "julia", "name": "julia-1.10"}, "language_info": {"name": "julia"}},
    )
    view = notebook_code(raw)
    assert view is not None and len(_EOL.split(view)) == len(_EOL.split(raw))
    assert view.startswith(b"#\n") and code_view("k.ipynb", view) is view  # read twice, the same code
    assert language_for("k.ipynb", view) == "julia" and language_for("k.ipynb", raw) == "json"
    assert b"?predict" not in view and b"add Flux" not in view and b"ls -la" not in view
    r = parse_spans("k.ipynb", raw)
    assert r.language == "julia" and r.parsed and not r.had_errors
    lines = split_lines(raw.decode())
    spans = {s.qualname: s for s in r.spans}
    assert spans["predict"].doc == "Advance the state estimate." and spans["area"].kind == "function"
    assert lines[spans["predict"].start_line - 1].strip() == '"function predict(x, F)\\n",'
    assert spans["k"].doc == "# Kalman filter\nOne step at a time."  # the opening Markdown: the module's doc
    assert file_imports(view, "julia") == ["using LinearAlgebra"]


def test_odd_notebooks_keep_what_can_be_laid_on_its_lines() -> None:
    # no kernel named: Jupyter's default, Python
    assert spans_of("a.ipynb", notebook(code("def f():\n    return 1")))[1:] == [("function", "f", 9, 10)]
    # a source written as one string: on the key's line when it is one line of code, else the cell is left out
    one = notebook(
        {**code(""), "source": "def g(): return 2"},
        {**code(""), "source": "def h():\n    return 3"},
        code("def k():\n    return 4"),
    )
    assert [q for _, q, _, _ in spans_of("a.ipynb", one)[1:]] == ["g", "k"]
    # a string holding a line break before its end cannot be laid on its line: that cell is left out
    broken = notebook(code("def a():\n    return 1"), code("def b():\n    return 2")).replace(
        b'"def b():\\n",\n', b'"def b():\\n    return 2\\n",\n'
    )
    assert [q for _, q, _, _ in spans_of("a.ipynb", broken)[1:]] == ["a"]
    # escapes, other scripts, lone surrogates: decoded, never raised on
    odd = notebook(code('def greet():\n    return "caf\\u00e9 \u4e2d \\"quoted\\""'), code('s = "\\ud800"'))
    r = parse_spans("a.ipynb", odd)
    assert r.spans[1].qualname == "greet" and '"caf\\u00e9 \u4e2d \\"quoted\\""' in r.spans[1].text
    # magics: a line magic or shell escape (and its continuation lines), a cell run by something else
    magics = notebook(
        code("%load_ext autoreload\n!saved_model_cli show \\\n    --all\nx = 1"),
        code("%%time\ndef timed():\n    return 1"),
        code("%%writefile util.py\ndef written():\n    return 1"),
        code("%%html\n<b>bold</b>"),
    )
    r = parse_spans("a.ipynb", magics)
    assert not r.had_errors and [s.qualname for s in r.spans[1:]] == ["timed"]
    # an empty notebook, one with no cells, a markdown-only one
    assert parse_spans("a.ipynb", notebook()).spans == []
    assert [s.kind for s in parse_spans("a.ipynb", notebook(markdown("# Notes\nSome prose."))).spans] == ["module"]


def test_a_notebook_is_held_to_the_size_limit_by_its_code(tmp_path: Path) -> None:
    image = "iVBORw0KGgo" * 200_000  # an output of 2.2 MB, as a plot is
    big_output = notebook(code("def plot_all():\n    return 1", outputs=[{"data": {"image/png": image}}]))
    big_code = notebook(code("\n".join(f"x{i} = {i}" for i in range(120_000))))
    (tmp_path / "plots.ipynb").write_bytes(big_output)
    (tmp_path / "generated.ipynb").write_bytes(big_code)
    (tmp_path / "big.json").write_bytes(big_output)
    settings = Settings(max_file_size=1_000_000)
    found = discover(tmp_path, settings)
    assert sorted(f.path for f in found.files) == ["generated.ipynb", "plots.ipynb"]  # a notebook may be larger
    with Workspace.open(tmp_path, writer=True, overrides={**LEXICAL, "max_file_size": 1_000_000}) as ws:
        report = ws.index()
        assert report.skipped["too large"] == 2  # big.json by its size, generated.ipynb by its code's
        top = ws.search("plot_all").results[0]
        assert (top.path, top.symbol, top.language) == ("plots.ipynb", "plot_all", "python")


def test_a_notebook_is_searched_shown_and_read_as_its_code(polyglot: Path) -> None:
    with Workspace.open(polyglot, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        top = ws.search("moving average of readings").results[0]
        assert (top.path, top.symbol, top.kind, top.language, top.start_line) == (
            "readings.ipynb",
            "smooth_readings",
            "function",
            "python",
            49,
        )
        assert "def smooth_readings(values, window=3):" in top.snippet and '\\n",' not in top.snippet
        # nothing of the outputs is searched
        for output in ("iVBORw0KGgo", "ZeroDivisionError", "Figure"):
            assert all(r.path != "readings.ipynb" for r in ws.search(output).results), output
        # a span read by its ID, and the context of a line, are the code
        span = ws.span(top.id)
        assert span.status == "current" and span.text.startswith("def smooth_readings(values, window=3):\n")
        ctx = ws.context(polyglot / "readings.ipynb", 87)
        assert ctx.language == "python" and ctx.span is not None and ctx.span.symbol == "OutlierFilter.transform"
        assert ctx.imports == ["import numpy as np"]
        # an edit to a cell is seen, as for any file
        path = polyglot / "readings.ipynb"
        path.write_bytes(path.read_bytes().replace(b"def smooth_readings(", b"def rolling_mean("))
        ws.index()
        assert ws.search("rolling_mean").results[0].path == "readings.ipynb"


def test_hostile_notebooks_are_read_in_one_pass() -> None:
    # cells written as one string of several lines (none can be laid out) before many that can: each is
    # looked up, not searched for (a search from each cell took 23 s at 20,000)
    n = 40_000
    unmatched = [{"cell_type": "code", "source": "a\nb"}] * n
    cells = ",\n".join(
        [json.dumps(c) for c in unmatched] + [f'{{"cell_type": "code",\n"source": "c{i}"\n}}' for i in range(n)]
    )
    data = ('{"cells": [\n' + cells + '\n], "metadata": {}, "nbformat": 4}\n').encode()
    view = notebook_code(data)
    assert view is not None and view.count(b"\n") == data.count(b"\n") and view.count(b"c39999") == 1
    deep = b'{"cells": ' + b"[" * 100_000 + b"]" * 100_000 + b', "nbformat": 4}'
    assert notebook_code(deep) is None  # too deep for the JSON reader: stays JSON
    huge = notebook(code("x = '" + "y" * 2_000_000 + "'"))
    assert "x = 'yyy" in parse_spans("a.ipynb", huge).spans[0].text


def test_line_breaks_as_other_editors_write_them() -> None:
    # Windows editors have written "\r\n" into sources; a string that does not end its line goes on in the
    # next one (its own line stays blank, the next lines keep theirs)
    windows = notebook(code("def untouched():\n    return 1"), code("def edited():\n    return 2")).replace(
        b'"def edited():\\n"', b'"def edited():\\r\\n"'
    )
    assert [q for _, q, _, _ in spans_of("a.ipynb", windows)[1:]] == ["untouched", "edited"]
    split = notebook(code("")).replace(
        b'"source": [\n    ""\n   ]',
        b'"source": [\n    "def f(",\n    "x):\\n",\n    "    return x\\n",\n    "\\n",\n'
        b'    "def g():\\n",\n    "    return 1"\n   ]',
    )
    lines = split_lines(split.decode())
    spans = {q: (a, b) for _, q, a, b in spans_of("a.ipynb", split)[1:]}
    assert lines[spans["g"][0] - 1].strip() == '"def g():\\n",' and spans["f"][0] == lines.index('    "def f(",') + 1
    # a Markdown cell with the text of a later code cell does not take its lines
    same = notebook(markdown("def dup():\n    return 1"), code("def dup():\n    return 1"))
    assert [(k, q) for k, q, _, _ in spans_of("a.ipynb", same)] == [("module", "a"), ("function", "dup")]


def test_ipython_syntax_is_blank_only_where_ipython_reads_it() -> None:
    cell = "\n".join(
        [
            'msg = ("value %d"',
            "       % 3)",  # the % operator going on a line: Python, not a magic
            "files = !ls",
            "t = %timeit -o f()",
            "?len",
            "%timeit np.fromiter((xi for xi in x),",
            "                    dtype=x.dtype)",  # a magic going on over an open bracket
            "def ask():",
            '    """Ask.',
            "    Why?",
            '    """',
            "    return msg",
        ]
    )
    r = parse_spans("a.ipynb", notebook(code(cell), code("def after():\n    return 1")))
    assert not r.had_errors and [s.qualname for s in r.spans[1:]] == ["ask", "after"]
    module = r.spans[0].text
    assert "       % 3)" in module and "!ls" not in module and "%timeit" not in module and "dtype" not in module
    assert "    Why?" in r.spans[1].text.split("\n")  # a docstring's question is no help request


def test_a_notebooks_secrets_are_redacted_and_its_outputs_never_shown(tmp_path: Path) -> None:
    token = "ghp_" + "Xy7Kq2Lm9Np4Rs6Tv8Wz1Ab3Cd5Ef0Gh2Ij4"
    leaked = "glpat-" + "Qw3Er5Ty7Ui9Op1As2Df"
    printed = {"name": "stdout", "output_type": "stream", "text": [f"GITLAB_TOKEN={leaked}\n"]}
    (tmp_path / "deploy.ipynb").write_bytes(
        notebook(code(f'def deploy_release():\n    token = "{token}"\n    return token', outputs=[printed]))
    )
    with Workspace.open(tmp_path, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        hit = ws.search("deploy_release").results[0]
        assert token not in hit.snippet and "[REDACTED:github-token]" in hit.snippet
        found = ws.span(hit.id, context_lines=40)
        assert token not in found.text and leaked not in found.text and "GITLAB" not in found.text
        assert ws.search("GITLAB_TOKEN").results == [] and ws.search(leaked[:12]).results == []
        assert ws.context(tmp_path / "deploy.ipynb", 12).span is None  # the output's line holds nothing


def test_an_open_notebook_buffer_is_read_as_its_code(tmp_path: Path) -> None:
    path = tmp_path / "live.ipynb"
    path.write_bytes(notebook(code("def first():\n    return 1")))
    with Workspace.open(tmp_path, writer=True, overrides=LEXICAL) as ws:
        ws.index()
        edited = path.read_text().replace("def first():", "def renamed_in_editor():")
        ws.update_file(path, text=edited)
        hit = ws.search("renamed_in_editor").results[0]
        assert hit.path == "live.ipynb" and hit.snippet.startswith("def renamed_in_editor():")
        ws.update_file(path, text=edited[: edited.index("return")])  # half typed: not JSON, indexed as windows
        windows = ws.store.con.execute("SELECT kind, language FROM spans").fetchall()
        assert windows == [("window", "json")]
        ws.update_file(path, text=edited)
        assert ws.search("renamed_in_editor").results[0].language == "python"


def test_a_notebook_too_large_by_its_code_is_read_again_when_the_limit_rises(tmp_path: Path) -> None:
    (tmp_path / "big.ipynb").write_bytes(notebook(code("\n".join(f"x{i} = {i}" for i in range(20_000)))))
    with Workspace.open(tmp_path, writer=True, overrides={**LEXICAL, "max_file_size": 100_000}) as ws:
        assert ws.index().skipped["too large"] == 1
    with Workspace.open(tmp_path, writer=True, overrides={**LEXICAL, "max_file_size": 1_000_000}) as ws:
        ws.index()
        assert ws.search("x19999").results[0].path == "big.ipynb"


def test_the_history_names_what_a_change_to_a_notebook_touched() -> None:
    raw = FIXTURE.read_bytes()
    assert enclosing_symbols("readings.ipynb", raw, [(87, 87), (50, 51)]) == [
        "OutlierFilter.transform",
        "smooth_readings",
    ]
