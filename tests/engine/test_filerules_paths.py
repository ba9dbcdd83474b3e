import pytest

from spyglass.engine.filerules import is_side_path, is_test_path


@pytest.mark.parametrize(
    ("path", "side"),
    [
        ("doc/usage/extensions/example_google.py", True),
        ("docs/conf.py", True),
        ("examples/basic/main.go", True),
        ("benchmarks/bench_io.py", True),
        ("src/pkg/docs.py", False),  # a file named docs is code
        ("src/pkg/example.py", False),
        ("src\\demo\\app.ts", True),
        ("lib/parser.rs", False),
    ],
)
def test_is_side_path(path, side):
    assert is_side_path(path) is side


def test_side_and_test_paths_are_independent():
    assert is_test_path("tests/docs/test_x.py") and is_side_path("tests/docs/test_x.py")
    assert not is_test_path("docs/guide.md")
