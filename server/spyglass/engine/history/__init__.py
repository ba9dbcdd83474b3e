"""The repository's recent history in the index: what changed, when and why (issue 22).

- :mod:`.gitlog` reads commits and their diffs with the ``git`` command;
- :mod:`.touched` names the definitions a change touched;
- :mod:`.recorder` keeps the index's copy in step with HEAD (the writer's side);
- :mod:`.reader` answers history searches, hot spots and the recency of files.
"""
