"""``spyglass mcp``: the MCP server for coding agents, over the same engine and index as the language server.

- ``app``: builds the ``MCPServer`` and runs it on stdio;
- ``session``: what every tool shares: the live index, limits, path confinement, redaction, the query log;
- ``models``: the tools' structured outputs (pydantic; their JSON Schemas are the tools' output schemas);
- ``render``: the compact text an agent reads;
- ``tools/``: one module per tool group (search, spans, index).
"""
