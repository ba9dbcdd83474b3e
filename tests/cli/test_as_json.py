"""The one function behind every ``--json``: answers become their fields in order, nested answers too, and
a field marked to be left out when None (a search's ``index.note``) is left out."""

from spyglass.cli.render import as_json
from spyglass.engine.answers import DiskChanges, SearchAnswer, SearchedIndex

FRESH = {
    "files": 2,
    "spans": 5,
    "embedded": 5,
    "embedded_fraction": 1.0,
    "pending_embeddings": 0,
    "model": None,
    "last_update": None,
}


def test_fields_in_order_and_a_none_note_left_out():
    answer = SearchAnswer("q", [], False, SearchedIndex(**FRESH, mode="hybrid"))
    data = as_json(answer)
    assert list(data) == ["query", "results", "truncated", "index", "tier", "elapsed_ms"]
    assert data["index"] == {**FRESH, "mode": "hybrid"} and list(data["index"])[-1] == "mode"
    lexical = as_json(SearchedIndex(**FRESH, mode="lexical", note="no model"))
    assert lexical == {**FRESH, "mode": "lexical", "note": "no model"}


def test_plain_data_and_answers_inside_it():
    data = as_json({"root": "/r", "changes": [DiskChanges(1, 0, 2)], "pair": (1, None)})
    assert data == {"root": "/r", "changes": [{"new": 1, "modified": 0, "deleted": 2}], "pair": [1, None]}
