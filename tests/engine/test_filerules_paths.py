import pytest

from spyglass.engine.filerules import is_example_path, is_side_path, is_test_path


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


@pytest.mark.parametrize(
    ("path", "example"),
    [
        ("examples/basic/main.go", True),
        ("_examples/manpages/main.go", True),
        ("doc/usage/extensions/example_google.py", True),  # named as an example, in any folder
        ("src/pkg/example.py", True),
        ("web/example-app.js", True),
        ("create/browser/examples.ts", False),  # vitest's code that writes example projects
        ("src/counterexample.py", False),
        ("docs/conf.py", False),
        ("lib/parser.rs", False),
    ],
)
def test_is_example_path(path, example):
    assert is_example_path(path) is example
