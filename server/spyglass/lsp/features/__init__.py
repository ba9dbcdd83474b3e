"""One module per LSP area; each ``setup(server)`` registers its handlers."""
