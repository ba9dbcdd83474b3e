"""kill -9 of real `spyglass index` processes (issue 21, crash safety), a few kills; the long run is
bench/reliability_crash.py. After each kill the index passes SQLite's and FTS5's integrity checks; the
next run finishes without moving the index aside; the index then holds exactly the files and spans of a
clean build of the same tree, every span embedded after an embedding run."""

from pathlib import Path

from spyglass.evaluation.crash import CrashHarness, build_workspace

FIXTURES = Path(__file__).parent.parent / "fixtures"


def test_kill_9_in_every_phase_leaves_a_sound_index_that_recovers_to_a_clean_build(tmp_path):
    root = tmp_path / "workspace"
    # 70 files (parsed in two transactions), ~150 spans to embed
    build_workspace(root, [(FIXTURES / "shop", "shop")], generated=64, filler=300, functions=(1, 1))
    h = CrashHarness(root, tmp_path / "work", seed=21)
    # a new index killed while parsing, then its recovery killed with the index open (recovering it, walking)
    h.chain("fresh", False, ["parse", "scan"])
    # the workspace's first index, killed while embedding; the next run embeds the rest
    h.chain("initial", True, ["embed"])
    # files edited, added, deleted, renamed: killed while parsing, then while embedding (the tree changes
    # again in between, maybe)
    h.chain("update", True, ["parse", "embed"], change_between=True)
    # another change, lexical only, killed as it removes deleted files or finishes
    h.chain("update", False, ["delete"])
    t = h.tally
    assert t.kills >= 1, t.summary()
    assert t.clean, t.summary()
    assert not t.integrity_failures and not t.errors, t.summary()
    assert t.finishing_runs == 4 and t.finishing_runs_embedding == 2
    assert t.lost_spans == t.extra_spans == t.duplicated_spans == t.unembedded_spans == 0
