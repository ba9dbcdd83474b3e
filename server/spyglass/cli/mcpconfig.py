"""``spyglass mcp-config``: the MCP client configuration for Claude Code, Cursor, Continue and VS Code.

Each client starts our MCP server itself, as ``<spyglass> mcp <root>`` over stdio, once its configuration
says so. This command prints that configuration, or with ``--write`` puts it in the workspace folder:

- claude: ``.mcp.json``, ``{"mcpServers": {"spyglass": {"type": "stdio", "command", "args", "env"}}}``,
  or the ``claude mcp add`` command line that writes the same;
- cursor: ``.cursor/mcp.json``, ``{"mcpServers": {"spyglass": {"command", "args"}}}``;
- continue: ``.continue/mcpServers/spyglass.yaml``, a block ``name, version, schema: v1, mcpServers: [...]``;
- vscode: ``.vscode/mcp.json``, ``{"servers": {"spyglass": {"type": "stdio", "command", "args"}}}``.

Sources (checked with the clients' documentation):

- Claude Code, code.claude.com/docs/en/mcp (relayed by docs.mcpbundles.com/blog/claude-code-mcp-tools and
  answerqa.com/ai/managing-mcp-servers-cli): ``claude mcp add [options] <name> -- <command> [args...]``;
  "all options (--transport, --env, --scope, --header) must come before the server name", so the
  command we print is ``claude mcp add --scope project spyglass -- ...``; ``--scope project`` stores the
  server in ``.mcp.json`` at the project root, whose stdio entries Claude Code writes as
  ``{"type": "stdio", "command", "args", "env": {}}`` under ``mcpServers`` (as shown in
  cnblogs.com/LexLuc/p/19164475; "type" defaults to stdio when absent). Claude Code asks each person
  to approve a project's ``.mcp.json`` servers the first time.
- Cursor, cursor.com/docs/mcp (quoted by developersdigest.tech/mcp-servers/clients/cursor): project file
  ``.cursor/mcp.json``, global ``~/.cursor/mcp.json``; ``{"mcpServers": {"name": {"command", "args", "env"}}}``.
- Continue, docs.continue.dev/customize/deep-dives/mcp (docs/customize/deep-dives/mcp.mdx in
  continuedev/continue, PR #8021): a folder ``.continue/mcpServers`` at the top of
  the workspace holding YAML blocks ``name``, ``version``, ``schema: v1``, ``mcpServers: [{name, command,
  args}]`` (JSON files in Claude/Cursor format are read there too; we write the native YAML block).
- VS Code, code.visualstudio.com/docs/copilot/reference/mcp-configuration: workspace file
  ``.vscode/mcp.json`` with ``"servers"`` mapping names to ``{"type": "stdio", "command", "args"}``
  (``type`` is required); the file may also hold ``"inputs"``, which a merge keeps.

``--write`` merges into an existing JSON file (every other server and key is kept, only our ``spyglass``
entry is replaced) and never touches a file it cannot parse: it exits 1 saying which file and why. Files
are replaced atomically (a temporary file in the same folder, then ``os.replace``).
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import sys
from pathlib import Path

from .. import __version__
from . import render
from .errors import UsageError

SERVER_NAME = "spyglass"
CLIENTS = ("claude", "cursor", "continue", "vscode")
EXIT_OK, EXIT_ERROR = 0, 1  # main's codes; importing main here would be circular

# Where each client looks for a workspace's servers, and the key holding them in the JSON files.
TARGETS = {
    "claude": Path(".mcp.json"),
    "cursor": Path(".cursor/mcp.json"),
    "continue": Path(".continue/mcpServers/spyglass.yaml"),
    "vscode": Path(".vscode/mcp.json"),
}
SERVERS_KEY = {"claude": "mcpServers", "cursor": "mcpServers", "vscode": "servers"}


class ConfigError(Exception):
    """An existing configuration file we must not overwrite (exit 1, the file left as it was)."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("mcp-config", help="print (or --write) the MCP configuration for an agent client")
    p.add_argument("client", choices=CLIENTS, help="the agent client to configure")
    p.add_argument(
        "--write",
        action="store_true",
        help="write the configuration into the workspace folder (JSON files are merged, other servers kept)",
    )
    p.add_argument("--root", default=None, help="the workspace folder the server serves (default: the current one)")
    p.add_argument(
        "--command",
        dest="server_command",  # not "command": main dispatches on args.command, the subcommand's name
        default=None,
        metavar="CMD",
        help="the program the client runs (default: the absolute path of this spyglass)",
    )


def cmd_mcp_config(args: argparse.Namespace) -> int:
    root = Path(args.root or ".").resolve()
    if not root.is_dir():
        raise UsageError(f"--root {root} is not a folder")
    if args.server_command is not None and not args.server_command.strip():
        raise UsageError("--command must not be empty")
    argv = [args.server_command] if args.server_command else _default_command()
    command, server_args = argv[0], [*argv[1:], "mcp", str(root)]
    for text in (command, *server_args):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:  # a path with undecodable bytes cannot go into a UTF-8 config file
            raise UsageError(f"{text!r} is not valid text and cannot be written into a configuration") from None

    target = root / TARGETS[args.client]
    if not args.write:
        sys.stdout.write(_preview(args.client, target, root, command, server_args))
        return EXIT_OK
    try:
        if args.client == "continue":
            _write_atomic(target, _continue_yaml(command, server_args))
            action = "wrote"
        else:
            action = _merge_json(target, SERVERS_KEY[args.client], _entry(args.client, command, server_args))
    except ConfigError as e:
        render.error(str(e))
        return EXIT_ERROR
    except OSError as e:  # permissions, a file where a folder should be, a full disk
        render.error(f"could not write {target}: {e.strerror or e}")
        return EXIT_ERROR
    sys.stdout.write(f"{action} {target}\n")
    if args.client == "claude":
        sys.stdout.write("Claude Code asks to approve the servers of a project's .mcp.json the first time.\n")
    return EXIT_OK


def _default_command() -> list[str]:
    """``[spyglass]`` as an absolute path, or ``[python, "-m", "spyglass"]`` when no script is found.

    The script next to the running interpreter comes first: clients start servers outside our virtualenv,
    without its PATH, so a bare ``spyglass`` would not be found (or would be another install).
    """
    here = Path(os.path.abspath(sys.executable)).parent  # not resolve(): a venv's python links outside it
    for name in ("spyglass", "spyglass.exe"):
        if (here / name).is_file():
            return [str(here / name)]
    found = shutil.which("spyglass")
    if found:
        return [os.path.abspath(found)]
    return [os.path.abspath(sys.executable), "-m", "spyglass"]


def _entry(client: str, command: str, args: list[str]) -> dict:
    if client == "claude":  # the shape `claude mcp add` itself writes into .mcp.json
        return {"type": "stdio", "command": command, "args": args, "env": {}}
    if client == "vscode":  # VS Code requires "type"
        return {"type": "stdio", "command": command, "args": args}
    return {"command": command, "args": args}


def _json_text(data: object) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def _preview(client: str, target: Path, root: Path, command: str, args: list[str]) -> str:
    if client == "continue":
        return f"# {_safe(target)}\n{_continue_yaml(command, args)}"
    content = _json_text({SERVERS_KEY[client]: {SERVER_NAME: _entry(client, command, args)}})
    if client != "claude":
        return f"# {_safe(target)}\n{content}"
    # `claude mcp add --scope project` writes .mcp.json in the folder it runs in, hence "run it in root"
    line = shlex.join(["claude", "mcp", "add", "--scope", "project", SERVER_NAME, "--", command, *args])
    return (
        f"# Claude Code: run this in {_safe(root)}\n{line}\n"
        f"# or write {_safe(target)} (spyglass mcp-config claude --write merges it into an existing file)\n{content}"
    )


def _safe(path: Path) -> str:
    """``path`` for a comment line: a newline or other control character in a name must not end the comment."""
    return "".join(c if _yaml_printable(c) else f"\\u{ord(c):04x}" for c in str(path))


def _yaml_str(text: str) -> str:
    """A YAML double-quoted scalar: JSON's escaping, plus escapes for what YAML reads differently.

    YAML folds U+0085/U+2028/U+2029 as line breaks and rejects other non-printable characters, all of
    which JSON leaves raw; ``\\uXXXX`` means the same in both.
    """
    quoted = json.dumps(text, ensure_ascii=False)
    return "".join(c if _yaml_printable(c) else f"\\u{ord(c):04x}" for c in quoted)


def _yaml_printable(c: str) -> bool:
    n = ord(c)
    if n in (0x85, 0x2028, 0x2029):
        return False
    return n == 0x09 or 0x20 <= n <= 0x7E or 0xA0 <= n <= 0xD7FF or 0xE000 <= n <= 0xFFFD or n >= 0x10000


def _continue_yaml(command: str, args: list[str]) -> str:
    # written by hand to avoid a YAML dependency; every string is quoted, so no value can change type
    lines = [
        f"name: {_yaml_str('Spyglass')}",
        f"version: {_yaml_str(__version__)}",
        "schema: v1",
        "mcpServers:",
        f"  - name: {_yaml_str(SERVER_NAME)}",
        f"    command: {_yaml_str(command)}",
        "    args:",
        *(f"      - {_yaml_str(a)}" for a in args),
    ]
    return "\n".join(lines) + "\n"


def _merge_json(target: Path, key: str, entry: dict) -> str:
    """Put ``entry`` under ``key``/``spyglass`` in ``target``, keeping everything else; return what was done."""
    data: dict = {}
    action = "wrote"
    if target.exists():
        try:
            text = target.read_text(encoding="utf-8-sig")  # a BOM, as some Windows editors write, is fine
        except UnicodeDecodeError as e:
            raise ConfigError(
                f"{target} is not UTF-8 text ({e.reason}); left unchanged, fix it or add the entry by hand"
            ) from None
        if text.strip():  # an empty file is as good as a missing one
            try:
                data = json.loads(text)
            except json.JSONDecodeError as e:
                # e.g. comments, which VS Code tolerates in its JSON files but json does not
                raise ConfigError(
                    f"{target} is not valid JSON ({e.msg} at line {e.lineno}, column {e.colno}); "
                    "left unchanged, fix it or add the entry by hand"
                ) from None
            if not isinstance(data, dict):
                raise ConfigError(f"{target} holds a JSON {type(data).__name__}, not an object; left unchanged")
        servers = data.get(key, {})
        if not isinstance(servers, dict):
            raise ConfigError(f'{target}: "{key}" is a JSON {type(servers).__name__}, not an object; left unchanged')
        action = "updated" if SERVER_NAME in servers else "added spyglass to"
    data.setdefault(key, {})[SERVER_NAME] = entry  # same position if it was there, last otherwise
    _write_atomic(target, _json_text(data))
    return action


def _write_atomic(target: Path, text: str) -> None:
    """Replace ``target`` in one step, so a client reading it never sees half a file."""
    if target.is_symlink():  # write through a link (e.g. a shared config) instead of replacing the link
        target = target.resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    # an existing file keeps its permissions; a new one gets the umask's, like any file the user creates
    mode = target.stat().st_mode & 0o7777 if target.exists() else 0o666
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with open(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if target.exists():
            os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
