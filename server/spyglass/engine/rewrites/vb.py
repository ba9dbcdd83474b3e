"""VB.NET whose stacked attribute lines tree-sitter-vb-dotnet cannot read, rewritten before parsing.

The grammar reads one attribute block above a declaration (``<HttpPost>``) but not two on lines of their own
(``<Required>`` then ``<EmailAddress>``, as ASP.NET models and controllers are written): the first is an error and
the declaration's span loses it. Such a run of attribute lines above a declaration is rewritten as the one block
VB.NET allows over lines (``<Required,`` then `` EmailAddress>``): each line's closing ``>`` but the last is a
comma, and each line's ``<`` but the first a space. Lines that are not followed by a declaration (an XML
literal's elements) are left as they are.
"""

from __future__ import annotations

import re

ATTRIBUTE_LINE_RE = re.compile(rb"[ \t]*<[A-Za-z][^\r\n]*>[ \t]*\r?$")
DECLARATION_RE = re.compile(
    rb"[ \t]*(?:Public|Private|Friend|Protected|Shared|Overrides|Overridable|MustOverride|NotOverridable|Overloads"
    rb"|Shadows|ReadOnly|WriteOnly|Default|Async|Iterator|Partial|MustInherit|NotInheritable|WithEvents|Sub|Function"
    rb"|Property|Class|Module|Structure|Interface|Enum|Dim|Const|Event|Delegate|Declare|Custom|Narrowing|Widening)\b",
    re.IGNORECASE,
)


def join_attribute_lines(data: bytes) -> bytes:
    """``data`` with each run of two or more attribute lines above a declaration made one attribute block."""
    if b"\n" not in data or b"<" not in data:
        return data
    lines = data.split(b"\n")
    i = 0
    changed = False
    while i < len(lines):
        if not ATTRIBUTE_LINE_RE.fullmatch(lines[i]):
            i += 1
            continue
        j = i
        while j + 1 < len(lines) and ATTRIBUTE_LINE_RE.fullmatch(lines[j + 1]):
            j += 1
        if j > i and j + 1 < len(lines) and DECLARATION_RE.match(lines[j + 1]):
            for k in range(i, j + 1):
                line = lines[k]
                if k < j:  # its closing `>` becomes a comma
                    end = line.rstrip(b" \t\r")
                    line = end[:-1] + b"," + line[len(end) :]
                if k > i:  # its opening `<` becomes a space
                    at = line.index(b"<")
                    line = line[:at] + b" " + line[at + 1 :]
                lines[k] = line
            changed = True
        i = j + 1
    return b"\n".join(lines) if changed else data
