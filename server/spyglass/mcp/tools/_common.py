"""Helpers the tool modules share: building a result with text and structured content, bounding text."""

from __future__ import annotations

from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import BaseModel

from ...engine import CHARS_PER_TOKEN

READ_ONLY = ToolAnnotations(readOnlyHint=True, destructiveHint=False, idempotentHint=True, openWorldHint=False)

MAX_TOKENS_DEFAULT = 2000  # about 8 KB of text: what one answer may cost an agent by default
MAX_TOKENS_LIMIT = 8000


def answer(model: BaseModel, text: str) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=model.model_dump(mode="json")
    )


def trim(text: str, max_tokens: int) -> tuple[str, bool]:
    """``text`` cut at a line boundary to about ``max_tokens``, with a marker saying what was left out."""
    budget = max_tokens * CHARS_PER_TOKEN
    if len(text) <= budget:
        return text, False
    lines, kept, size = text.split("\n"), [], 0
    for line in lines:
        if size + len(line) + 1 > budget - 60:
            break
        kept.append(line)
        size += len(line) + 1
    if not kept:  # one enormous line
        kept = [lines[0][: max(0, budget - 60)]]
    left = len(lines) - len(kept)
    return "\n".join(kept) + f"\n… [trimmed: {left} more line(s); raise max_tokens or fetch a narrower span]", True
