"""C and C++ macros that tree-sitter cannot expand, blanked before parsing.

Without a preprocessor the grammar reads a macro name as a type or a class name, and the class or function
after it is lost or misnamed: ``ABSL_NAMESPACE_BEGIN`` on its own line swallows the class that follows,
``class FMT_API format_error`` names the class ``FMT_API``, ``bool empty() const ABSL_SHARED_LOCKS_REQUIRED(mu_)``
names the method after the macro, and a line that is only a call (``FMT_PRAGMA_CLANG(diagnostic ignored
"...")``) makes the class after it part of a statement. Each pattern below finds one such place; its ``m``
group (the macros) is turned into spaces, so the text keeps its length and lines and every byte offset of the
parse still points into the file as written (what is indexed comes from the original). Only upper-case names with an
underscore count, and only where a declaration is sure to be around them: a constant (``return MAX_SIZE;``,
``static const int MAX_SIZE = 100;``) is never touched. Repetitions are bounded, so a hostile line is read
in one pass.
"""

from __future__ import annotations

import re

from .blanking import blank_group

NAME = rb"[A-Z_][A-Z0-9]*_[A-Z0-9_]*"  # FMT_API, __BEGIN_DECLS, Q_OBJECT
CALL = NAME + rb"(?:\([^()\n]*\))?"  # ... or ABSL_GUARDED_BY(mu_)
GAP = rb"(?:[ \t]+|[ \t]*\r?\n[ \t]*)"  # the space between two words of a declaration, at most one line break
DECLARATION_START = (
    rb"(?:static|inline|const|constexpr|extern|virtual|explicit|void|int|char|bool|unsigned|signed|long|short|"
    rb"double|float|auto|struct|class|enum|template|typename|friend)\b"
    rb"|[A-Za-z_][\w:<>]*[ \t*&]+[A-Za-z_]\w*[ \t]*[(=;{\[]"  # a type, then a name
)

PATTERNS = [
    # a line that is only a macro name: ABSL_NAMESPACE_BEGIN, __BEGIN_DECLS
    re.compile(rb"(?m)^(?P<m>[ \t]*" + NAME + rb"[ \t]*)(?=\r?$)"),
    # a line that is only a macro call with no semicolon, which must expand to declarations or nothing:
    # FMT_PRAGMA_CLANG(diagnostic ignored "-Wweak-vtables"), Q_DECLARE_METATYPE(Point)
    re.compile(rb"(?m)^(?P<m>[ \t]*" + NAME + rb"\([^()\n]*\)[ \t]*)(?=\r?$)"),
    # export and attribute macros in a class head: class FMT_API format_error :, class ABSL_LOCKABLE Mutex {,
    # class FMT_SO_VISIBILITY("default") format_error :
    re.compile(rb"\b(?:class|struct|union)\s+(?P<m>(?:" + CALL + rb"\s+){1,4})(?=[A-Za-z_]\w*\s*(?:final\s*)?[:{])"),
    # before a line's declaration: ABSL_CONST_INIT static Mutex mu;
    re.compile(rb"(?m)^[ \t]*(?P<m>(?:" + CALL + rb"[ \t]+){1,4})(?=" + DECLARATION_START + rb")"),
    # after a parameter list, on its line or the next: bool empty() const ABSL_SHARED_LOCKS_REQUIRED(mu_) {,
    # explicit MutexLock(Mutex* mu) ABSL_EXCLUSIVE_LOCK_FUNCTION(mu)\n      : MutexLock(*mu) {}
    re.compile(
        rb"(?<=\))(?:" + GAP + rb"(?:const|noexcept|override|final)){0,4}(?P<m>(?:" + GAP + CALL + rb"){1,4})"
        rb"(?=(?:" + GAP + rb")?[{;=:])"
    ),
    # a function-like one after a declarator: int n_ ABSL_GUARDED_BY(mu_);
    re.compile(rb"(?<=[\w\]])(?P<m>(?:[ \t]+" + NAME + rb"\([^()\n]*\)){1,4})(?=[ \t]*[;=,{)])"),
]


# `#define NAME` or `#define NAME(args)` with nothing after it but spaces or tabs: every grammar of the C family
# reads the next line as the macro's value, so a header guard written with a trailing space took the function
# below it (lygia's shaders: 18 files). The first of those spaces is read as `;`, a value on the macro's own line.
EMPTY_DEFINE_RE = re.compile(rb"(?m)^([ \t]*#[ \t]*define[ \t]+[A-Za-z_]\w*(?:\([^()\r\n]*\))?)[ \t](?=[ \t]*\r?$)")


def end_empty_defines(data: bytes) -> bytes:
    """``data`` with each macro defined as nothing but trailing spaces given a value on its line."""
    return EMPTY_DEFINE_RE.sub(rb"\1;", data) if b"define" in data else data


def blank_macros(data: bytes) -> bytes:
    """``data`` with the macro names a grammar cannot expand turned into spaces, and each empty macro's trailing
    space read as a value (``end_empty_defines``): same length, same lines."""
    for pattern in PATTERNS:
        data = pattern.sub(blank_group, data)
    return end_empty_defines(data)  # last: its `;` must not read as the end of a declaration to the patterns
