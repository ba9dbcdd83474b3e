"""Turning a match's ``m`` group into spaces, keeping its line breaks: the text keeps its length and lines."""

from __future__ import annotations

import re

NOT_LINE_BREAK_RE = re.compile(rb"[^\r\n]")  # what blanking turns into spaces: all but line breaks


def blank_group(m: re.Match[bytes]) -> bytes:
    """The whole match with its ``m`` group blanked: for ``pattern.sub(blank_group, data)``."""
    start, end = m.start("m") - m.start(), m.end("m") - m.start()
    whole = m.group(0)
    return whole[:start] + NOT_LINE_BREAK_RE.sub(b" ", whole[start:end]) + whole[end:]
