"""find_symbol's name matching on a real index: exact, prefix, substring, a typo (one edit, or two swapped
letters), then letters in order."""

from pathlib import Path

import pytest

from spyglass.engine.symbols import edit_distance
from spyglass.engine.workspace import Workspace

AUTH = '''class Auth:
    """Base class of the authentication schemes."""


class BasicAuth(Auth):
    """HTTP basic authentication."""


class DigestAuth(Auth):
    """HTTP digest authentication."""

    def _build_auth_header(self, request, challenge):
        return "Digest " + challenge.realm


def digest_token(secret):
    return secret[::-1]
'''


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [
        ("DigestAuth", "DigestAuth", 0),
        ("DigestAuht", "DigestAuth", 1),  # two neighbours swapped: one edit, not two
        ("iDgestAuth", "DigestAuth", 1),
        ("DigestAth", "DigestAuth", 1),
        ("DigestAuthx", "DigestAuth", 1),
        ("DigastAuth", "DigestAuth", 1),
        ("DgiestAuht", "DigestAuth", 2),
        ("ca", "abc", 3),  # optimal string alignment: a swapped pair is not edited again
        ("", "abc", 3),
    ],
)
def test_edit_distance_counts_a_transposition_as_one_edit(a: str, b: str, distance: int):
    assert edit_distance(a, b) == distance
    assert edit_distance(b, a) == distance


def test_edit_distance_stops_past_a_bound():
    assert edit_distance("DigestAuth", "BasicAuth", limit=2) > 2


def test_find_symbol_finds_a_name_with_two_letters_swapped(tmp_path: Path):
    (tmp_path / "auth.py").write_text(AUTH, encoding="utf-8")
    with Workspace.open(tmp_path, writer=True, overrides={"embed": False}) as ws:
        ws.index()
        found = ws.symbols("DigestAuht", semantic=False)
        assert (found[0].span.symbol, found[0].match) == ("DigestAuth", "typo")
        assert all(f.span.symbol != "BasicAuth" for f in found)
        # a typo ranks below every exact, prefix or substring match, above letters merely in order
        assert [f.match for f in ws.symbols("DigestAuth", semantic=False)][:1] == ["exact"]
        lower = ws.symbols("digestauht", semantic=False)
        assert lower[0].span.symbol == "DigestAuth"
