"""What the language server tests share besides their fixtures (tests/lsp/conftest.py): the shared JSON
contract, custom requests, waiting for a condition, and the server's status."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import jsonschema
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

FIXTURE = Path(__file__).parents[1] / "fixtures" / "shop"
SCHEMA = json.loads((Path(__file__).parents[2] / "shared" / "lsp.schema.json").read_text(encoding="utf-8"))


def check(answer, definition: str) -> None:
    """``answer`` validates against ``#/$defs/<definition>`` of the shared contract."""
    schema = {"$ref": f"#/$defs/{definition}", "$defs": SCHEMA["$defs"]}
    jsonschema.validate(answer, schema)


async def request(client: LanguageClient, method: str, params) -> dict:
    return await client.protocol.send_request_async(method, params)


async def wait_until(predicate, timeout: float = 60.0, step: float = 0.1):
    deadline = time.monotonic() + timeout
    while True:
        value = await predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(step)


async def now(value):
    """``value`` as an awaitable, for ``wait_until`` on a plain condition."""
    return value


def plain(obj):
    if hasattr(obj, "_asdict"):
        return {k: plain(v) for k, v in obj._asdict().items()}
    if isinstance(obj, list | tuple):
        return [plain(v) for v in obj]
    return obj


async def status(client: LanguageClient) -> dict:
    return plain(await request(client, "spyglass/status", {}))


async def idle_and_embedded(client: LanguageClient) -> dict | None:
    s = await status(client)
    folder = s["folders"][0] if s["folders"] else None
    if folder and folder.get("state") == "idle" and folder["embeddedFraction"] == 1.0 and folder["spans"]:
        return s
    return None


async def start(client: LanguageClient, root: Path, options: dict | None = None) -> None:
    """Initialize a fresh server (the ``fresh_client`` fixture) on the one folder ``root``."""
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("neovim"),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
            initialization_options=options,
        )
    )


async def folder_state(client: LanguageClient, *states: str) -> dict | None:
    folder = (await status(client))["folders"]
    return folder[0] if folder and folder[0].get("state") in states else None


async def symbol(client: LanguageClient, name: str) -> list:
    return await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=name))
