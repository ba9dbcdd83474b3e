"""Words the engine defines once and the front ends use: every indexing phase the indexer reports has a
label in each front end's table (a new phase cannot show up as its bare name)."""

import pytest

from spyglass.cli import progress as cli_progress
from spyglass.engine.indexer import PHASES
from spyglass.lsp import progress as lsp_progress
from spyglass.mcp import session as mcp_session


@pytest.mark.parametrize("labels", [cli_progress.PHASE_LABELS, lsp_progress.PHASE_LABELS, mcp_session.PHASE_LABELS])
def test_every_phase_has_a_label_in_every_front_end(labels: dict):
    assert sorted(labels) == sorted(PHASES)
