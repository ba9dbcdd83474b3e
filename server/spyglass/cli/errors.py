"""Errors of the command line itself (exit code 2), as opposed to the engine's."""


class UsageError(Exception):
    """A bad argument or option: reported with the usage exit code."""
