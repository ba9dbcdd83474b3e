"""Start-up, settings, workspace folders and shutdown."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from lsprotocol import types
from pygls.uris import to_fs_path

from ..server import SpyglassServer
from ..settings import parse_settings

log = logging.getLogger(__name__)


def _path(uri: str | None) -> Path | None:
    if not uri:
        return None
    path = to_fs_path(uri)
    return Path(path) if path else None


def setup(server: SpyglassServer) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(ls: SpyglassServer, params: types.InitializeParams) -> None:
        ls.loop = asyncio.get_running_loop()
        ls.settings, problems = parse_settings(params.initialization_options)
        for problem in problems:
            ls.tell(problem)
        window = params.capabilities.window
        ls.client_progress = bool(window and window.work_done_progress)
        folders = [_path(f.uri) for f in params.workspace_folders or []]
        if not folders:
            folders = [_path(params.root_uri) or (Path(params.root_path) if params.root_path else None)]
        ls.roots = [f for f in folders if f is not None and f.is_dir()]
        if not ls.roots:
            log.info("no workspace folder: only open files' folders will be indexed")

    @server.feature(types.INITIALIZED)
    async def initialized(ls: SpyglassServer, params: types.InitializedParams) -> None:
        for root in ls.roots:  # opening migrates or creates the index: off the loop
            await ls.run_engine(ls.open_folder, root)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(ls: SpyglassServer, params: types.DidChangeConfigurationParams) -> None:
        settings, problems = parse_settings(params.settings)
        for problem in problems:
            ls.tell(problem)
        before = ls.settings.engine_overrides()
        ls.settings = settings
        if settings.engine_overrides() != before:  # model, excludes, threads or index location: reopen
            log.info("engine settings changed: reopening %d folder(s)", len(ls.folders))
            roots = list(ls.folders)
            await ls.run_engine(ls.close_all)
            for root in roots:
                await ls.run_engine(ls.open_folder, root)

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    async def did_change_folders(ls: SpyglassServer, params: types.DidChangeWorkspaceFoldersParams) -> None:
        for f in params.event.removed:
            if (path := _path(f.uri)) is not None:
                await ls.run_engine(ls.close_folder, path)
        for f in params.event.added:
            if (path := _path(f.uri)) is not None and path.is_dir():
                await ls.run_engine(ls.open_folder, path)

    @server.feature(types.SHUTDOWN)
    async def shutdown(ls: SpyglassServer, params: None) -> None:
        await ls.run_engine(ls.close_all)
