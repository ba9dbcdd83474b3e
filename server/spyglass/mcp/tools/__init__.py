"""The MCP tools, one module per group; each module's ``register(server, session)`` adds its tools."""

from . import ask, history, index, search, spans

GROUPS = (search, spans, history, ask, index)
