"""The command-line front end: a thin layer over spyglass.engine.Workspace."""
