"""`spyglass mcp-config` in a subprocess: what each client's configuration looks like, and --write's merging."""

import json
import subprocess
from pathlib import Path

import clirun
import pytest

CMD = "/opt/bin/spyglass"


def run(*args: str, cwd: Path, code: int = 0) -> subprocess.CompletedProcess:
    return clirun.run("mcp-config", *args, cwd=cwd, check_code=code)


def body(stdout: str) -> str:
    """The printed content without its comment lines."""
    return "".join(line for line in stdout.splitlines(keepends=True) if not line.startswith("#"))


def yaml_block(text: str) -> dict:
    """The Continue block, parsed with PyYAML when it is installed (it is not a dependency), else by its lines."""
    try:
        import yaml
    except ImportError:
        lines = text.splitlines()
        assert lines[:4] == ['name: "Spyglass"', lines[1], "schema: v1", "mcpServers:"]
        return {
            "schema": "v1",
            "mcpServers": [
                {
                    "name": json.loads(lines[4].split(": ", 1)[1]),
                    "command": json.loads(lines[5].split(": ", 1)[1]),
                    "args": [json.loads(line.split("- ", 1)[1]) for line in lines[7:]],
                }
            ],
        }
    return yaml.safe_load(text)


@pytest.mark.parametrize(
    ("client", "key", "entry"),
    [
        ("cursor", "mcpServers", {}),
        ("vscode", "servers", {"type": "stdio"}),
    ],
)
def test_json_clients_print_their_file(tmp_path: Path, client: str, key: str, entry: dict):
    out = run(client, "--command", CMD, cwd=tmp_path).stdout
    target = ".cursor/mcp.json" if client == "cursor" else ".vscode/mcp.json"
    assert out.splitlines()[0] == f"# {tmp_path.resolve() / target}"
    assert json.loads(body(out)) == {
        key: {"spyglass": {**entry, "command": CMD, "args": ["mcp", str(tmp_path.resolve())]}}
    }
    assert not (tmp_path / target).exists()


def test_claude_prints_the_cli_command_and_the_project_file(tmp_path: Path):
    out = run("claude", "--command", CMD, "--root", str(tmp_path), cwd=Path.cwd()).stdout
    root = str(tmp_path.resolve())
    lines = out.splitlines()
    assert lines[1] == f"claude mcp add --scope project spyglass -- {CMD} mcp {root}"
    assert lines[0].startswith("# ") and lines[2].startswith(f"# or write {tmp_path.resolve() / '.mcp.json'}")
    config = json.loads("\n".join(lines[3:]))
    assert config == {"mcpServers": {"spyglass": {"type": "stdio", "command": CMD, "args": ["mcp", root], "env": {}}}}


def test_claude_command_line_is_shell_quoted(tmp_path: Path):
    root = tmp_path / "my project"
    root.mkdir()
    line = run("claude", "--command", "/opt/my bin/spyglass", "--root", str(root), cwd=tmp_path).stdout.splitlines()[1]
    assert line.endswith(f"-- '/opt/my bin/spyglass' mcp '{root.resolve()}'")


def test_continue_prints_a_yaml_block(tmp_path: Path):
    out = run("continue", "--command", CMD, cwd=tmp_path).stdout
    assert out.splitlines()[0] == f"# {tmp_path.resolve() / '.continue/mcpServers/spyglass.yaml'}"
    block = yaml_block(body(out))
    assert block["schema"] == "v1"
    assert block["mcpServers"] == [{"name": "spyglass", "command": CMD, "args": ["mcp", str(tmp_path.resolve())]}]


def test_default_command_is_an_absolute_spyglass(tmp_path: Path):
    config = json.loads(body(run("cursor", cwd=tmp_path).stdout))["mcpServers"]["spyglass"]
    assert Path(config["command"]).is_absolute()
    assert config["args"][-2:] == ["mcp", str(tmp_path.resolve())]


@pytest.mark.parametrize(
    ("client", "target", "key"),
    [
        ("claude", ".mcp.json", "mcpServers"),
        ("cursor", ".cursor/mcp.json", "mcpServers"),
        ("vscode", ".vscode/mcp.json", "servers"),
    ],
)
def test_write_creates_and_merges_json(tmp_path: Path, client: str, target: str, key: str):
    run(client, "--write", "--command", CMD, cwd=tmp_path)
    path = tmp_path / target
    written = json.loads(path.read_text(encoding="utf-8"))
    assert written[key]["spyglass"]["command"] == CMD
    assert written[key]["spyglass"]["args"] == ["mcp", str(tmp_path.resolve())]

    other = {"command": "npx", "args": ["-y", "other-server"]}
    existing = {"inputs": [], key: {"other": other, "spyglass": {"command": "old"}}}
    path.write_text(json.dumps(existing), encoding="utf-8")
    proc = run(client, "--write", "--command", CMD, cwd=tmp_path)
    assert str(path) in proc.stdout
    text = path.read_text(encoding="utf-8")
    merged = json.loads(text)
    assert merged["inputs"] == [] and merged[key]["other"] == other
    assert list(merged[key]) == ["other", "spyglass"] and merged[key]["spyglass"]["command"] == CMD
    assert text.startswith('{\n  "inputs"') and text.endswith("}\n")  # 2-space indentation
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


def test_write_continue_block(tmp_path: Path):
    run("continue", "--write", "--command", CMD, cwd=tmp_path)
    text = (tmp_path / ".continue" / "mcpServers" / "spyglass.yaml").read_text(encoding="utf-8")
    assert yaml_block(text)["mcpServers"][0]["args"] == ["mcp", str(tmp_path.resolve())]


@pytest.mark.parametrize("content", ['{"servers": {"a": 1},}', "// a comment\n{}", "[1, 2]", '{"servers": []}'])
def test_write_leaves_a_malformed_file_untouched(tmp_path: Path, content: str):
    path = tmp_path / ".vscode" / "mcp.json"
    path.parent.mkdir()
    path.write_bytes(content.encode("utf-8"))
    proc = run("vscode", "--write", "--command", CMD, cwd=tmp_path, code=1)
    assert path.read_bytes() == content.encode("utf-8")
    assert "mcp.json" in proc.stderr and "unchanged" in proc.stderr
    assert sorted(p.name for p in path.parent.iterdir()) == ["mcp.json"]


def test_bad_root_is_a_usage_error(tmp_path: Path):
    proc = run("cursor", "--root", str(tmp_path / "missing"), cwd=tmp_path, code=2)
    assert "not a folder" in proc.stderr
    (tmp_path / "file").write_text("x", encoding="utf-8")
    run("cursor", "--write", "--root", str(tmp_path / "file"), cwd=tmp_path, code=2)
    assert not (tmp_path / ".cursor").exists()
