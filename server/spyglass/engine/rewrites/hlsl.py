"""HLSL that tree-sitter-hlsl misreads, rewritten before parsing.

* A constant or texture buffer bound to a register (``cbuffer Scene : register(b0) {``, the usual form) is read as
  a declaration missing its ``;`` and a block after it: the register is blanked, so the grammar reads the buffer
  as it reads one without (a definition with a body). 68 of DirectX-Graphics-Samples' 277 shaders had an error
  there.
* Attributes on lines of their own, one above another (``[RootSignature(Sig)]`` then ``[numthreads(8, 8, 1)]``
  above a compute shader): the grammar reads one attribute before a function, and the ones above it are an error.
  Every such line but the first is blanked: the function's span starts at the first, with the comment above it
  as its doc, and its signature, read from the file as written, holds them all.
"""

from __future__ import annotations

import re

from .blanking import blank_group
from .c import end_empty_defines

BUFFER_REGISTER_RE = re.compile(
    rb"(?m)^[ \t]*[ct]buffer[ \t]+\w+[ \t]*(?P<m>:[ \t]*register[ \t]*\([^()\r\n]*\))(?=[ \t]*(?://[^\r\n]*)?(?:\r?\n|\r|\{|$))"
)
# lines that are only an attribute (``[name(...)]``, not C++'s ``[[...]]``), two or more one under another: the
# ``m`` group is all of them but the first
STACKED_ATTRIBUTES_RE = re.compile(
    rb"(?m)^[ \t]*\[[^\[\]\r\n]*\][ \t]*(?P<m>(?:(?:\r\n|\r|\n)[ \t]*\[[^\[\]\r\n]*\][ \t]*(?=\r|\n|$))+)"
)


def rewrite_hlsl(data: bytes) -> bytes:
    data = end_empty_defines(data)
    if b"buffer" not in data and b"[" not in data:
        return data
    data = BUFFER_REGISTER_RE.sub(blank_group, data)
    return STACKED_ATTRIBUTES_RE.sub(blank_group, data)
