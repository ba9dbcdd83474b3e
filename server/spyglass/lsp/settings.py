"""The editor's settings for the language server, from ``initializationOptions`` and
``workspace/didChangeConfiguration``: typed, with defaults; a bad value is reported and its default used."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel

from ..engine import DEFAULT_MODEL


class ClientSettings(BaseModel):
    """What an editor can set (camelCase on the wire: ``maxResults``, ``indexLocation``)."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")

    model: str = Field(DEFAULT_MODEL, min_length=1, description="Embedding model: name, local path or hub name.")
    exclude: list[str] = Field(default_factory=list, description="Extra gitignore-style globs to leave out.")
    hover: bool = Field(True, description="Show the related-code card on hover.")
    max_results: int = Field(50, ge=1, le=500, description="Most results per symbol search or search request.")
    threads: int = Field(0, ge=0, le=256, description="Threads for the embedding model; 0: one per core.")
    index_location: str = Field(
        "", description="Where the index lives (relative to each folder, or absolute); empty: .spyglass."
    )

    def engine_overrides(self) -> dict[str, Any]:
        """The engine settings this client set explicitly (unset ones keep config-file values)."""
        out: dict[str, Any] = {}
        for name, key in (("model", "model"), ("exclude", "exclude"), ("threads", "threads")):
            if name in self.model_fields_set:
                out[key] = getattr(self, name)
        if self.index_location:
            out["index_dir"] = self.index_location
        return out


def parse_settings(raw: Any) -> tuple[ClientSettings, list[str]]:
    """Settings from a client's options (``{"spyglass": {...}}`` or the inner object); problems as text."""
    if raw is None:
        return ClientSettings(), []
    if isinstance(raw, dict) and isinstance(raw.get("spyglass"), dict):
        raw = raw["spyglass"]
    if not isinstance(raw, dict):
        return ClientSettings(), [f"Spyglass settings must be an object, not {type(raw).__name__}; using defaults"]
    problems: list[str] = []
    good: dict[str, Any] = {}
    for key, value in raw.items():
        try:
            ClientSettings.model_validate({key: value})
        except ValidationError as e:
            msg = e.errors()[0]["msg"]
            problems.append(f"Spyglass setting {key}={value!r} is invalid ({msg}); using the default")
            continue
        good[key] = value
    return ClientSettings.model_validate(good), problems
