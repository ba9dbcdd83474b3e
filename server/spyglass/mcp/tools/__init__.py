"""The MCP tools, one module per group; each module's ``register(server, session)`` adds its tools."""

from . import index, search, spans

GROUPS = (search, spans, index)
