"""Spyglass: local, offline code search over one incremental index, for editors, agents and CI."""

__version__ = "0.1.0"
