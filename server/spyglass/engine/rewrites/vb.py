"""VB.NET whose stacked attribute lines tree-sitter-vb-dotnet cannot read, rewritten before parsing.

The grammar reads one attribute block above a declaration (``<HttpPost>``) but not two on lines of their own
(``<Required>`` then ``<EmailAddress>``, as ASP.NET models and controllers are written): the first is an error and
the declaration's span loses it. Such a run of attribute lines above a declaration is rewritten as the one block
VB.NET allows over lines (``<Required,`` then `` EmailAddress>``): each line's closing ``>`` but the last is a
comma, and each line's ``<`` but the first a space; two blocks on one line are joined so too. Lines that are not
followed by a declaration (an XML literal's elements) are left as they are. A namespace named from the root
(``Namespace Global.Shop``) is read as the namespace it names (``Shop``).

Three more forms the grammar reads only in part:
- attributes on a type declared inside another (``<Serializable>`` above a class's nested ``Public Class
  QualityItem``): the nested type and the rest of its outer class were an error. They are made comments (a type
  at the top level or in a namespace keeps them);
- attributes on an enum's members (``<DispName("Mono")> Mono``), which lost the enum: they are blanked;
- a constructor (``Sub New``), which it gives no name node, so constructors were no definitions: ``New`` is
  read as the name ``N_w`` (names are read from the file as written, so the span is ``Basket.New``).
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


_MODIFIERS = (
    rb"(?:(?:Public|Private|Friend|Protected|Shared|Shadows|Partial|MustInherit|NotInheritable|Overloads)[ \t]+)*"
)
# a type's first line (and its attribute blocks on the same line), and the end of a type that can hold types
TYPE_RE = re.compile(
    rb"(?P<m>[ \t]*(?:<[^\r\n]*>[ \t_]*)?)"
    + _MODIFIERS
    + rb"(?P<kind>Class|Structure|Interface|Module|Enum)[ \t]+[A-Za-z_\[]",
    re.IGNORECASE,
)
TYPE_END_RE = re.compile(rb"[ \t]*End[ \t]+(?:Class|Structure|Interface|Module)\b", re.IGNORECASE)
ENUM_END_RE = re.compile(rb"[ \t]*End[ \t]+Enum\b", re.IGNORECASE)
# a type declared and ended on one line (`Class Empty : End Class`): it holds nothing after its line
ONE_LINE_TYPE_END_RE = re.compile(rb":[ \t]*End[ \t]+(?:Class|Structure|Interface|Module)\b", re.IGNORECASE)
ATTRIBUTED_MEMBER_RE = re.compile(rb"(?P<m>[ \t]*<[^\r\n]*>)[ \t]*[A-Za-z_\[]")  # an enum member's attributes
MAX_BLOCK_LINES = 20  # an attribute block over lines, at most
# `Sub New(`, a constructor: its `New` read as a name of the same length
CONSTRUCTOR_RE = re.compile(
    rb"(?im)^([ \t]*(?:<[^\r\n]*>[ \t]*)?" + _MODIFIERS + rb"Sub[ \t]+)New(?=[ \t]*(?:\(|'|\r?$))"
)


def rewrite_vb(data: bytes) -> bytes:
    """``data`` as tree-sitter-vb-dotnet should read it: constructors named, the attributes it cannot read made
    comments or blank, the others' lines joined, ``Global.`` namespaces blanked."""
    if b"Global." in data:
        data = GLOBAL_NAMESPACE_RE.sub(blank_group, data)
    data = CONSTRUCTOR_RE.sub(rb"\1N_w", data)
    return join_attribute_lines(hide_unread_attributes(data))


def hide_unread_attributes(data: bytes) -> bytes:
    """``data`` with the attributes the grammar cannot read made blank or comments: those of a type declared
    inside another type (on its own first line, and the block on the lines above it, made comments so that a doc
    comment above stays the type's), and those of an enum's members (``<DispName("Mono")> Mono``)."""
    if b"<" not in data:
        return data
    lines = data.split(b"\n")
    depth = 0  # types open around the line
    in_enum = False
    changed = False
    for i, line in enumerate(lines):
        if in_enum:
            if ENUM_END_RE.match(line):
                in_enum = False
            elif (member := ATTRIBUTED_MEMBER_RE.match(line)) is not None:
                lines[i] = blank_group(member) + line[member.end() :]
                changed = True
            continue
        if TYPE_END_RE.match(line):
            depth = max(0, depth - 1)
            continue
        m = TYPE_RE.match(line)
        if m is None:
            continue
        if depth:
            if b"<" in m["m"]:
                lines[i] = blank_group(m) + line[m.end() :]
                changed = True
            for j in _attribute_block_above(lines, i):
                at = len(lines[j]) - len(lines[j].lstrip())
                lines[j] = lines[j][:at] + b"'" + lines[j][at + 1 :]
                changed = True
        if m["kind"].lower() == b"enum":
            in_enum = not ENUM_END_RE.search(line)
        elif not ONE_LINE_TYPE_END_RE.search(line, m.end()):
            depth += 1
    return b"\n".join(lines) if changed else data


def _attribute_block_above(lines: list[bytes], i: int) -> range:
    """The lines of the attribute blocks right above line ``i``: one per line (``<Serializable>``), or one
    over lines (``<ComImport(),`` ... ``Guid(x)>``); empty if there are none."""
    first = i
    while first > 0:
        if ATTRIBUTE_LINE_RE.fullmatch(lines[first - 1]):
            first -= 1
            continue
        if not lines[first - 1].rstrip().endswith(b">"):
            break
        top = first - 1  # the last line of a block over lines: up to the line it opens on
        while top > max(0, first - 1 - MAX_BLOCK_LINES) and not lines[top].lstrip().startswith(b"<"):
            if not lines[top - 1].rstrip().endswith((b",", b"_", b"(")):
                return range(first, i)
            top -= 1
        if not lines[top].lstrip().startswith(b"<"):
            break
        first = top
    return range(first, i)


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
