"""A Jupyter notebook read as its code: every line of the file kept, each line of a code cell's source as
the Python it holds, a Markdown cell's lines as comments, everything else (outputs, metadata, the JSON
around them) blank.

On disk a notebook is JSON (nbformat 4), a code cell's lines strings in a list, one per line of the file:

    "source": [
     "def normalize(x):\\n",
     "    return x / x.sum()"
    ]

Read as written, a notebook was windows of JSON ranked as data: its functions were no spans, its outputs
(images as base64, tables, tracebacks) were searched, and a snippet showed escaped strings. Read as its
code, it is parsed as Python, and a line of a span is the line of the file it came from, so every span,
snippet and line number points into the notebook as written. The view is a pure function of the file's
bytes, and reading a view again gives it back (:func:`code_view`), so it can be taken wherever a file is read.

Only notebooks of a Python kernel (or of none named: Jupyter's default) are read this way; another
kernel's notebook (R, Julia) stays JSON, as does a file that is not a notebook of nbformat 4. IPython's
own syntax is blanked: a line magic or shell escape (``%matplotlib inline``, ``!pip install x``), and a
cell whose cell magic runs something other than Python (``%%bash``, ``%%html``, ``%%writefile``).
"""

from __future__ import annotations

import json
import re
from pathlib import PurePosixPath

SUFFIX = ".ipynb"

_EOL_RE = re.compile(rb"\r\n|\r|\n")
_SOURCE_OPEN_RE = re.compile(rb'^[ \t]*"source"[ \t]*:[ \t]*\[[ \t]*$')
_STRING_LINE_RE = re.compile(rb'^[ \t]*("(?:[^"\\]|\\.)*")[ \t]*,?[ \t]*$')
_LIST_CLOSE_RE = re.compile(rb"^[ \t]*\][ \t]*,?[ \t]*$")
_SINGLE_SOURCE_RE = re.compile(rb'^[ \t]*"source"[ \t]*:[ \t]*("(?:[^"\\]|\\.)*")[ \t]*,?[ \t]*$')
_MAGIC_RE = re.compile(r"^[ \t]*(?:%|!)")
_HELP_RE = re.compile(r"^[ \t]*[\w.]+\?\??[ \t]*$")  # IPython's help: ``obj?``, ``obj??``
# cell magics whose body is still Python (the rest, %%bash or %%writefile, hold something else)
_PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "python", "python3", "debug", "memit"})
_PYTHON_KERNELS = frozenset({"python", "python2", "python3", "ipython", "ipython3"})


# A notebook's outputs (plots as base64) make its file many times the size of its code: the file may be this many
# times the size limit, and its code is held to the limit.
SIZE_FACTOR = 20


def size_limit(rel_path: str, max_file_size: int) -> int:
    """The largest file at ``rel_path`` that is read: a notebook may be ``SIZE_FACTOR`` times the limit."""
    return max_file_size * SIZE_FACTOR if is_notebook(rel_path) else max_file_size


def is_notebook(rel_path: str) -> bool:
    return PurePosixPath(rel_path).suffix.lower() == SUFFIX


def code_view(rel_path: str, data: bytes) -> bytes:
    """A file's bytes as the index reads them: a Python notebook's code (:func:`notebook_code`), any other
    file (or a notebook already read so) unchanged."""
    if not is_notebook(rel_path):
        return data
    code = notebook_code(data)
    return data if code is None else code


def notebook_code(data: bytes) -> bytes | None:
    """The code of a Python notebook of nbformat 4, line for line (see the module's docstring); None when
    ``data`` is not one."""
    head = data.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head.startswith(b"{"):
        return None
    try:
        nb = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(nb, dict) or nb.get("nbformat") != 4 or not isinstance(nb.get("cells"), list):
        return None
    if not _python_kernel(nb.get("metadata")):
        return None
    cells = [c for c in nb["cells"] if isinstance(c, dict)]
    lines = _EOL_RE.split(data)
    out = [b""] * len(lines)
    sources = _sources(lines)
    # each cell's source found as a run of lines, in order; a cell that cannot be found so stays blank
    at = found = 0
    for cell in cells:
        text = _joined(cell.get("source"))
        if not text:
            continue
        for k in range(at, len(sources)):
            if sources[k][1] == text:
                at, found = k + 1, found + 1
                _write(out, sources[k][0], text, cell.get("cell_type"))
                break
    if not found and any(_joined(c.get("source")) for c in cells):
        return None  # written in a way this cannot lay out line by line (all on one line): stays JSON
    return b"\n".join(out)


def _python_kernel(metadata: object) -> bool:
    """Whether the notebook's kernel runs Python: the kernel's language, else the language's name, else
    (neither given) Jupyter's default, Python."""
    if not isinstance(metadata, dict):
        return True
    for key, field in (("kernelspec", "language"), ("language_info", "name")):
        info = metadata.get(key)
        if isinstance(info, dict) and isinstance(info.get(field), str) and info[field].strip():
            return info[field].strip().lower() in _PYTHON_KERNELS
    return True


def _joined(source: object) -> str | None:
    if isinstance(source, str):
        return source
    if isinstance(source, list) and all(isinstance(s, str) for s in source):
        return "".join(source)
    return None


def _sources(lines: list[bytes]) -> list[tuple[int, str]]:
    """Every ``"source"`` written one string per line: (the line of its first string, the joined text)."""
    found: list[tuple[int, str]] = []
    i = 0
    while i < len(lines):
        single = _SINGLE_SOURCE_RE.match(lines[i])
        if single:  # "source": "x = 1" — one line of code, on the key's own line
            text = _decoded(single[1])
            if text is not None and "\n" not in text.rstrip("\n") and "\r" not in text:
                found.append((i, text))
            i += 1
            continue
        if not _SOURCE_OPEN_RE.match(lines[i]):
            i += 1
            continue
        parts: list[str] = []
        j = i + 1
        while j < len(lines) and (m := _STRING_LINE_RE.match(lines[j])):
            part = _decoded(m[1])
            # one string, one line: a string holding a line break before its end cannot be laid on its line
            if part is None or "\n" in part[:-1] or "\r" in part:
                parts = []
                break
            parts.append(part)
            j += 1
        if parts and j < len(lines) and _LIST_CLOSE_RE.match(lines[j]):
            found.append((i + 1, "".join(parts)))
        i = j
    return found


def _decoded(literal: bytes) -> str | None:
    try:
        value = json.loads(literal)
    except (UnicodeDecodeError, ValueError):
        return None
    return value if isinstance(value, str) else None


def _write(out: list[bytes], first: int, text: str, cell_type: object) -> None:
    """A cell's lines into ``out`` from line ``first``: code as it is, Markdown as comments."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if cell_type == "code":
        magic = lines[0].strip() if lines else ""
        if magic.startswith("%%"):
            name = magic[2:].split(maxsplit=1)[0] if len(magic) > 2 else ""
            if name not in _PYTHON_CELL_MAGICS:
                return
            lines = [""] + lines[1:]
        rendered, escaped = [], False  # a shell escape's line ending in a backslash goes on to the next
        for line in lines:
            ipython = escaped or bool(_MAGIC_RE.match(line) or _HELP_RE.match(line))
            escaped = ipython and line.rstrip().endswith("\\")
            rendered.append("" if ipython else line)
    elif cell_type == "markdown":
        rendered = [f"# {line}".rstrip() if line.strip() else "#" for line in lines]
    else:  # a raw cell: text for a converter, not code
        return
    for k, line in enumerate(rendered):
        if first + k < len(out):
            out[first + k] = line.encode("utf-8", "surrogatepass")
