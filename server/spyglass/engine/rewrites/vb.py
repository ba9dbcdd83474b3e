"""VB.NET whose stacked attribute lines tree-sitter-vb-dotnet cannot read, rewritten before parsing.

The grammar reads one attribute block above a declaration (``<HttpPost>``) but not two on lines of their own
(``<Required>`` then ``<EmailAddress>``, as ASP.NET models and controllers are written): the first is an error and
the declaration's span loses it. Such a run of attribute lines above a declaration is rewritten as the one block
VB.NET allows over lines (``<Required,`` then `` EmailAddress>``): each line's closing ``>`` but the last is a
comma, and each line's ``<`` but the first a space; two blocks on one line are joined so too. Lines that are not
followed by a declaration (an XML literal's elements) are left as they are. A namespace named from the root
(``Namespace Global.Shop``) is read as the namespace it names (``Shop``).
"""

from __future__ import annotations

import re

from .blanking import blank_group

ATTRIBUTE_LINE_RE = re.compile(rb"[ \t]*<[A-Za-z][^\r\n]*>[ \t]*\r?$")
DECLARATION_RE = re.compile(
    rb"[ \t]*(?:Public|Private|Friend|Protected|Shared|Overrides|Overridable|MustOverride|NotOverridable|Overloads"
    rb"|Shadows|ReadOnly|WriteOnly|Default|Async|Iterator|Partial|MustInherit|NotInheritable|WithEvents|Sub|Function"
    rb"|Property|Class|Module|Structure|Interface|Enum|Dim|Const|Event|Delegate|Declare|Custom|Narrowing|Widening)\b",
    re.IGNORECASE,
)


# two blocks on one line (`<DebuggerHidden()> <DebuggerStepThrough()>`), which the grammar does not read either
BETWEEN_BLOCKS_RE = re.compile(rb">([ \t]+)<(?=[A-Za-z])")


def _join_blocks(m: re.Match[bytes]) -> bytes:
    return b"," + m[1] + b" "


# `Namespace Global.Community.VisualBasic` names a namespace from the root: the namespace is
# `Community.VisualBasic`, so `Global.` is blanked for the grammar (the name is read from where its node starts)
GLOBAL_NAMESPACE_RE = re.compile(rb"(?im)^([ \t]*Namespace[ \t]+)(?P<m>Global\.)(?=[A-Za-z_\[])")


def rewrite_vb(data: bytes) -> bytes:
    """``data`` as tree-sitter-vb-dotnet should read it: attribute lines joined, ``Global.`` namespaces blanked."""
    if b"Global." in data:
        data = GLOBAL_NAMESPACE_RE.sub(blank_group, data)
    return join_attribute_lines(data)


def join_attribute_lines(data: bytes) -> bytes:
    """``data`` with each run of attribute lines above a declaration made one attribute block."""
    if b"\n" not in data or b"<" not in data:
        return data
    lines = data.split(b"\n")
    changed = False
    for i in range(1, len(lines)):
        if not DECLARATION_RE.match(lines[i]):
            continue
        # the line above ends an attribute block: its blocks on one line are joined (the last of a block over
        # lines, `<Obsolete("x"),` then ` DebuggerHidden()> <DebuggerStepThrough()>`, too)
        if lines[i - 1].rstrip(b" \t\r").endswith(b">") and BETWEEN_BLOCKS_RE.search(lines[i - 1]):
            lines[i - 1] = BETWEEN_BLOCKS_RE.sub(_join_blocks, lines[i - 1])
            changed = True
        j = i - 1  # the run of attribute lines above it
        while j >= 0 and ATTRIBUTE_LINE_RE.fullmatch(lines[j]):
            j -= 1
        first = j + 1
        for k in range(first, i):
            line = lines[k]
            if k < i - 1:  # its closing `>` becomes a comma
                end = line.rstrip(b" \t\r")
                line = end[:-1] + b"," + line[len(end) :]
            if k > first:  # its opening `<` becomes a space
                at = line.index(b"<")
                line = line[:at] + b" " + line[at + 1 :]
            changed = changed or line != lines[k]
            lines[k] = line
    return b"\n".join(lines) if changed else data
