"""The language server: pygls over the engine's :class:`~spyglass.engine.workspace.Workspace` (``spyglass lsp``)."""
