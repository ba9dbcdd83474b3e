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
snippet and line number points into the notebook as written. The code is a pure function of the file's
bytes, and reading it again gives it back (the JSON starts with ``{`` on its first line, the code with an
empty line), so it can be taken wherever a file is read (:func:`code_view`).

Each cell is found by its text among the sources written one string per line (a cell's type, written
above its source, must agree), in order, by lookup: one pass however the file is written. A string that
does not end its line goes on in the next one (the logical line sits on the first); a ``\\r\\n`` in a source
(Windows editors have written them) is a line break. A cell that cannot be laid on the file's lines (a
source written as one string of several lines) is left out; a notebook none of whose cells can be is
left as JSON.

Notebooks of a Python kernel (or of none named: Jupyter's default) and of a Julia kernel are read this way;
another kernel's notebook (R) stays JSON, as does a file that is not a notebook of nbformat 4. A Julia
notebook's code says so on its first line, ``#`` where a Python notebook's is empty, and the language is read
from there (``languages.CONTENT_HINTS``). IPython's own syntax is blanked where IPython reads it, at the
start of a logical line (not inside brackets or a string): a line magic or shell escape (``%matplotlib
inline``, ``!pip install x``, ``files = !ls``), a help request (``?len``, ``np.sum?``), with the lines it
goes on over; and a cell whose cell magic runs something other than Python (``%%bash``, ``%%html``,
``%%writefile``). IJulia's are cells: one that starts with ``?`` (help), ``;`` (shell) or ``]`` (packages).
"""

from __future__ import annotations

import bisect
import hashlib
import json
import logging
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import PurePosixPath

SUFFIX = ".ipynb"

log = logging.getLogger(__name__)

_EOL_RE = re.compile(rb"\r\n|\r|\n")
_SOURCE_OPEN_RE = re.compile(rb'^([ \t]*)"source"[ \t]*:[ \t]*\[[ \t]*$')
_STRING_LINE_RE = re.compile(rb'^[ \t]*("(?:[^"\\]|\\.)*")[ \t]*,?[ \t]*$')
_LIST_CLOSE_RE = re.compile(rb"^[ \t]*\][ \t]*,?[ \t]*$")
_SINGLE_SOURCE_RE = re.compile(rb'^([ \t]*)"source"[ \t]*:[ \t]*("(?:[^"\\]|\\.)*")[ \t]*,?[ \t]*$')
_CELL_TYPE_RE = re.compile(rb'^([ \t]*)"cell_type"[ \t]*:[ \t]*"(\w+)"')
# IPython's syntax at a logical line's start: a magic or shell escape (`%timeit f()`, `!pip install x`), one
# assigned (`files = !ls`), a help request (`?len`, `np.sum?`)
_IPYTHON_RE = re.compile(
    r"^[ \t]*(?:[%!]|\?|[\w.]+\?\??[ \t]*$|[A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*[ \t]*=[ \t]*[%!](?!=))"
)
# cell magics whose body is still Python (the rest, %%bash or %%writefile, hold something else)
_PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "python", "python3", "debug", "memit"})
_CANDIDATES = 64  # sources of one text looked at for a cell (of the wrong cell type, the next is tried)
_RECENT_KEPT = 16  # notebooks whose code is kept: a search's snippets read a file's code once each
_recent: OrderedDict[bytes, bytes | None] = OrderedDict()
_lock = threading.Lock()
_PYTHON_KERNELS = frozenset({"python", "python2", "python3", "ipython", "ipython3"})
# the kernels whose code is read, by the language the kernel names: the first line of that code (the JSON's "{")
KERNELS = {**dict.fromkeys(_PYTHON_KERNELS, "python"), "julia": "julia"}
FIRST_LINE = {"python": b"", "julia": b"#"}


# A notebook's outputs (plots as base64) make its file many times the size of its code: the file may be this many
# times the size limit, and its code is held to the limit.
SIZE_FACTOR = 20


def size_limit(rel_path: str, max_file_size: int) -> int:
    """The largest file at ``rel_path`` that is read: a notebook may be ``SIZE_FACTOR`` times the limit."""
    return max_file_size * SIZE_FACTOR if is_notebook(rel_path) else max_file_size


def is_notebook(rel_path: str) -> bool:
    return PurePosixPath(rel_path).suffix.lower() == SUFFIX


def code_view(rel_path: str, data: bytes) -> bytes:
    """A file's bytes as the index reads them: a Python or Julia notebook's code (:func:`notebook_code`), any
    other file (or a notebook already read so) unchanged."""
    if not is_notebook(rel_path):
        return data
    code = notebook_code(data)
    return data if code is None else code


def notebook_code(data: bytes) -> bytes | None:
    """The code of a Python or Julia notebook of nbformat 4, line for line (see the module's docstring); None
    when ``data`` is not one. A notebook's JSON starts with ``{`` on its first line, its code with an empty line
    (Python) or ``#`` (Julia)."""
    digest = hashlib.blake2b(data, digest_size=16).digest()
    with _lock:
        if digest in _recent:
            _recent.move_to_end(digest)
            return _recent[digest]
    try:
        code = _read(data)
    except Exception:  # never on any input, as the parser: a notebook this cannot read stays JSON
        log.exception("could not read a notebook's code; indexing it as JSON")
        code = None
    with _lock:
        _recent[digest] = code
        while len(_recent) > _RECENT_KEPT:
            _recent.popitem(last=False)
    return code


def _read(data: bytes) -> bytes | None:
    if not data.removeprefix(b"\xef\xbb\xbf").lstrip(b" \t").startswith(b"{"):
        return None
    try:
        nb = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None
    if not isinstance(nb, dict) or nb.get("nbformat") != 4 or not isinstance(nb.get("cells"), list):
        return None
    kernel = _kernel(nb.get("metadata"))
    if kernel is None:
        return None
    cells = [c for c in nb["cells"] if isinstance(c, dict) and _joined(c.get("source"))]
    lines = _EOL_RE.split(data)
    out = [b""] * len(lines)
    sources = _sources(lines)
    by_text: dict[str, list[int]] = {}
    for k, source in enumerate(sources):
        by_text.setdefault(source.text, []).append(k)
    # each cell's source found as a run of lines, in order; a cell that cannot be found so stays blank
    at = found = 0
    for cell in cells:
        text, cell_type = _normalised(_joined(cell.get("source")) or ""), cell.get("cell_type")
        candidates = by_text.get(text, [])
        first = bisect.bisect_left(candidates, at)
        for k in candidates[first : first + _CANDIDATES]:
            if sources[k].cell_type in (None, cell_type):
                at, found = k + 1, found + 1
                _write(out, sources[k], cell_type, kernel)
                break
    if not found and cells:
        return None  # written in a way this cannot lay out line by line (all on one line): stays JSON
    if out and not out[0]:
        out[0] = FIRST_LINE[kernel]
    return b"\n".join(out)


def _kernel(metadata: object) -> str | None:
    """The language of the notebook's kernel, if its code is read ("python", "julia"): the kernel's language,
    else the language's name, else (neither given) Jupyter's default, Python; None for another kernel's."""
    if not isinstance(metadata, dict):
        return "python"
    for key, name in (("kernelspec", "language"), ("language_info", "name")):
        info = metadata.get(key)
        if isinstance(info, dict) and isinstance(info.get(name), str) and info[name].strip():
            return KERNELS.get(info[name].strip().lower())
    return "python"


def _joined(source: object) -> str | None:
    if isinstance(source, str):
        return source
    if isinstance(source, list) and all(isinstance(s, str) for s in source):
        return "".join(source)
    return None


@dataclass(slots=True)
class _Source:
    """A ``"source"`` written one string per line of the file."""

    line: int  # the file's line (0-based) of its first string
    parts: list[str]  # the strings, one a line
    cell_type: str | None  # the cell's type, when its key is written above at the same indentation
    text: str = field(init=False)  # the joined strings, their line breaks as ``\n``

    def __post_init__(self) -> None:
        self.text = _normalised("".join(self.parts))


def _sources(lines: list[bytes]) -> list[_Source]:
    """Every ``"source"`` written one string per line (or as one string of one line, on the key's line)."""
    found: list[_Source] = []
    cell_types: dict[bytes, str] = {}  # the last "cell_type" seen at each indentation
    i = 0
    while i < len(lines):
        line = lines[i]
        kind = _CELL_TYPE_RE.match(line)
        if kind:
            cell_types[kind[1]] = kind[2].decode("ascii")
            i += 1
            continue
        single = _SINGLE_SOURCE_RE.match(line)
        if single:  # "source": "x = 1": one line of code, on the key's own line
            text = _decoded(single[2])
            if text is not None and _one_line(text):
                found.append(_Source(i, [text], cell_types.get(single[1])))
            i += 1
            continue
        opened = _SOURCE_OPEN_RE.match(line)
        if not opened:
            i += 1
            continue
        parts: list[str] = []
        j = i + 1
        while j < len(lines) and (m := _STRING_LINE_RE.match(lines[j])):
            part = _decoded(m[1])
            if part is None or not _one_line(part):  # a line break inside a string: not one line of the file
                parts = []
                break
            parts.append(part)
            j += 1
        if parts and j < len(lines) and _LIST_CLOSE_RE.match(lines[j]):
            found.append(_Source(i + 1, parts, cell_types.get(opened[1])))
        i = max(j, i + 1)
    return found


def _one_line(part: str) -> bool:
    """Whether a string holds no line break but a last one (``\n``, ``\r\n`` or ``\r``: Windows editors
    have written ``\r\n`` into sources)."""
    body = part[:-2] if part.endswith("\r\n") else part[:-1] if part.endswith(("\n", "\r")) else part
    return "\n" not in body and "\r" not in body


def _normalised(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _decoded(literal: bytes) -> str | None:
    try:
        value = json.loads(literal)
    except (UnicodeDecodeError, ValueError):
        return None
    return value if isinstance(value, str) else None


def _write(out: list[bytes], source: _Source, cell_type: object, kernel: str) -> None:
    """A cell's lines into ``out``, each on the file's line of the string it starts in (a string that does
    not end its line goes on in the next one): code as it is, Markdown as comments."""
    starts: list[int] = []
    lines: list[str] = []
    pending: str | None = None
    for k, part in enumerate(source.parts):
        if pending is None:
            starts.append(source.line + k)
            pending = ""
        pending += part
        if part.endswith(("\n", "\r")):
            lines.append(_normalised(pending).removesuffix("\n"))
            pending = None
    if pending is not None:
        lines.append(_normalised(pending))
    if cell_type == "code":
        rendered = _python(lines) if kernel == "python" else _julia(lines)
    elif cell_type == "markdown":
        rendered = [f"# {line}".rstrip() if line.strip() else "#" for line in lines]
    else:  # a raw cell: text for a converter, not code
        return
    for at, line in zip(starts, rendered, strict=True):
        if at < len(out):
            out[at] = line.encode("utf-8", "surrogatepass")


def _python(lines: list[str]) -> list[str]:
    """A code cell's lines with IPython's own syntax blanked: a cell magic that runs something other than
    Python blanks the cell; a line magic, shell escape or help request at the start of a logical line is
    blank, with the lines it goes on over (brackets left open, a trailing backslash)."""
    first = lines[0].strip() if lines else ""
    if first.startswith("%%"):
        name = first[2:].split(maxsplit=1)[0] if len(first) > 2 else ""
        if name not in _PYTHON_CELL_MAGICS:
            return [""] * len(lines)
        lines = ["", *lines[1:]]
    rendered: list[str] = []
    depth, quote, continued, blanking = 0, None, False, False
    for line in lines:
        starts_logical = depth == 0 and quote is None and not continued
        if starts_logical:
            blanking = bool(_IPYTHON_RE.match(line))
        if blanking and line.lstrip().startswith("!") and starts_logical:
            # a shell command's quotes and brackets are the shell's: only a trailing backslash goes on
            depth, quote, continued = 0, None, line.rstrip().endswith("\\")
        else:
            depth, quote, continued = _scan(line, depth, quote)
        rendered.append("" if blanking else line)
    return rendered


def _julia(lines: list[str]) -> list[str]:
    """A Julia cell's lines, blank when IJulia reads the cell as something else: help (``?sum``), a shell
    command (``;ls``) or the package manager (``]add Flux``)."""
    first = next((line.lstrip() for line in lines if line.strip()), "")
    return [""] * len(lines) if first.startswith(("?", ";", "]")) else lines


def _scan(line: str, depth: int, quote: str | None) -> tuple[int, str | None, bool]:
    """Python's state after ``line``: (brackets open, the delimiter of a string still open, whether a
    backslash goes on to the next line)."""
    i, n = 0, len(line)
    while i < n:
        c = line[i]
        if quote is not None:
            if c == "\\":
                i += 2
            elif line.startswith(quote, i):
                i += len(quote)
                quote = None
            else:
                i += 1
            continue
        if c == "#":
            return depth, None, False
        if c in "\"'":
            quote = line[i : i + 3] if line[i : i + 3] in ('"""', "'''") else c
            i += len(quote)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth = max(0, depth - 1)
        i += 1
    continued = line.endswith("\\")
    if quote in ('"', "'") and not continued:
        quote = None  # a one-line string left open ends with its line (a syntax error Python reports)
    return depth, quote, continued
