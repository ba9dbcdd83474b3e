"""The answers' vocabularies are the wire contract's: the Literal types equal the enums of
shared/lsp.schema.json and the constants of extension/src/protocol.ts, so neither side can drift."""

import json
import re
from pathlib import Path
from typing import get_args

import pytest

from spyglass.engine import answers, related, spans, symbols

REPO = Path(__file__).parents[2]
SCHEMA = json.loads((REPO / "shared" / "lsp.schema.json").read_text(encoding="utf-8"))["$defs"]
PROTOCOL = (REPO / "extension" / "src" / "protocol.ts").read_text(encoding="utf-8")


def _ts_constant(name: str) -> tuple[str, ...]:
    """The strings of ``export const NAME = ['a', 'b'] as const;`` in protocol.ts."""
    found = re.search(rf"export const {name} = \[(.*?)\] as const;", PROTOCOL, re.DOTALL)
    assert found, f"protocol.ts declares no {name}"
    return tuple(re.findall(r"'([^']*)'", found.group(1)))


def _related_properties() -> dict:
    return next(part["properties"] for part in SCHEMA["RelatedSpan"]["allOf"] if "properties" in part)


@pytest.mark.parametrize(
    ("literal", "schema_enum", "ts_constant"),
    [
        (spans.Kind, SCHEMA["Kind"]["enum"], "KINDS"),
        (answers.FolderState, SCHEMA["FolderStatus"]["properties"]["state"]["enum"], "FOLDER_STATES"),
        (answers.Role, SCHEMA["FolderStatus"]["properties"]["role"]["enum"], "ROLES"),
        (answers.SearchMode, SCHEMA["FolderStatus"]["properties"]["mode"]["enum"], "SEARCH_MODES"),
        (answers.Relation, _related_properties()["relation"]["enum"], "RELATIONS"),
        (answers.SpanStatus, SCHEMA["SpanResult"]["properties"]["status"]["enum"], "SPAN_STATUSES"),
    ],
)
def test_vocabularies_match_the_schema_and_the_extension(literal, schema_enum, ts_constant):
    assert get_args(literal) == tuple(schema_enum) == _ts_constant(ts_constant)


def test_the_engine_uses_the_same_vocabularies():
    assert spans.KINDS == get_args(spans.Kind)
    assert related.RELATIONS == get_args(answers.Relation)
    assert set(get_args(answers.MatchKind)) == {*symbols.BANDS, "semantic"}
