"""The engine: discovery, parsing, embedding, the store, indexing and search, behind one facade.

Nothing in this package imports an editor or agent protocol; the front ends use
``spyglass.engine.workspace.Workspace`` and nothing else.
"""
