"""Source text rewritten before parsing where a grammar cannot read what the compiler can.

Each rewrite keeps the text's length and lines, so the tree's byte offsets and lines point into the file as
written: only the tree comes from the rewritten text; names, docs, signatures and what is indexed are read from
the file as written (parsing.py). A tree of rewritten text is not reused for an incremental parse.
"""

from __future__ import annotations

from collections.abc import Callable

from .c import blank_macros, end_empty_defines
from .components import rewrite_astro, rewrite_component
from .haskell import rewrite_haskell
from .hlsl import rewrite_hlsl
from .kotlin import rewrite_kotlin
from .pascal import blank_else_branches
from .systemverilog import blank_assertion_macros
from .typescript import rewrite_typescript
from .vb import rewrite_vb

REWRITES: dict[str, Callable[[bytes], bytes]] = {
    "astro": rewrite_astro,
    "c": blank_macros,
    "cpp": blank_macros,
    "cuda": blank_macros,
    "glsl": end_empty_defines,
    "haskell": rewrite_haskell,
    "hlsl": rewrite_hlsl,
    "kotlin": rewrite_kotlin,
    "objective-c": blank_macros,
    "pascal": blank_else_branches,
    "svelte": rewrite_component,
    "systemverilog": blank_assertion_macros,
    "typescript": rewrite_typescript,
    "vb": rewrite_vb,
    "verilog": blank_assertion_macros,
    "vue": rewrite_component,
}


def rewritten(language: str, data: bytes) -> bytes:
    """``data`` as the language's grammar should read it (unchanged for most languages)."""
    rewrite = REWRITES.get(language)
    return rewrite(data) if rewrite is not None else data


__all__ = ["REWRITES", "blank_macros", "rewritten"]
