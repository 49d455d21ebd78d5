"""``build.json``: what a build was made from and how, beside the dataset it made.

Why a file: a reviewer of a dataset built from captures needs to know which videos and
images it came from (with their SHA-256, so a changed source is noticed), which frames
were kept and why others were not, the settings, and which drafter proposed the
annotations. It also marks a folder as a build: ``build`` refuses to write over a folder
that is not one. No date or clock value is written, so the same inputs give the same file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from privbench.exports import write_export
from privbench.runtime.errors import UsageError
from privbench.suites.spatialtrust.question_design import QuestionTypes
from privbench.tooling.spatialtrust_builder.captures import CaptureFile, SourceFile

MANIFEST_FILE = "build.json"
TOOL: Literal["privbench build spatialtrust"] = "privbench build spatialtrust"
Stage = Literal["captured", "complete"]


class _Entry(BaseModel):
    model_config = ConfigDict(extra="ignore")


class BuildSettings(_Entry):
    """The options the build ran with."""

    every: float
    max_captures: int | None
    size: tuple[int, int]
    faces: Literal["keep", "blur"]
    drafter: str
    box_format: str
    seed: int
    max_tokens: int | None = None
    """The drafter's output limit (``--max-tokens``; None: the provider's)."""
    question_types: QuestionTypes = "paper"
    """How q2/q3 are typed (``--question-types``); ``review export`` types them the same."""


class DrafterEntry(_Entry):
    """Who drafted the annotations, and what came of it."""

    model: str
    reported_models: list[str] = Field(default_factory=list)
    """The model versions the provider reported (its identity beyond the alias asked for)."""
    prompt_hash: str
    log: str | None = None
    counts: dict[str, int] = Field(default_factory=dict)


class BuildManifest(_Entry):
    """The whole ``build.json``."""

    tool: Literal["privbench build spatialtrust"] = TOOL
    format_version: int = 1
    stage: Stage
    out: str
    """The folder the build goes to (while it is being made it lives beside it)."""
    settings: BuildSettings
    sources: list[SourceFile]
    captures: list[CaptureFile]
    frames: dict[str, int]
    """Every frame considered, by fate (kept, near duplicate, dark, blurred, ...)."""
    drafter: DrafterEntry | None = None
    counts: dict[str, int] = Field(default_factory=dict)
    """What the dataset holds: images, elements by category, images with factors."""


def write_manifest(directory: Path, manifest: BuildManifest) -> None:
    """Write ``build.json`` (renamed into place: never a truncated file)."""
    document = manifest.model_dump(mode="json")
    write_export(
        directory / MANIFEST_FILE, json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    )


def is_build(directory: Path) -> bool:
    """Whether ``directory`` holds a privbench build (its ``build.json`` says so)."""
    try:
        document = json.loads((directory / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(document, dict) and document.get("tool") == TOOL


def read_manifest(directory: Path) -> BuildManifest:
    """A build's manifest; a one-line error when the folder is not a build."""
    path = directory / MANIFEST_FILE
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file (not a privbench build)") from None
    except (OSError, ValueError) as error:
        raise UsageError(f"{path}: not readable JSON ({error})") from None
    try:
        return BuildManifest.model_validate(document)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise UsageError(f"{path}: {where}: {first['msg']} (not a privbench build?)") from None


def build_provenance(directory: Path) -> dict[str, object] | None:
    """A build's ``build.json`` as written (sources with their SHA-256, settings, drafter,
    counts, every capture's source), for a dataset made from it to carry along; None when
    ``directory`` is not a readable build.

    Why the whole document: the exported dataset is what people evaluate on and share, and
    without it the link back to the videos and the drafter is lost.
    """
    try:
        document = json.loads((directory / MANIFEST_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return document if isinstance(document, dict) and document.get("tool") == TOOL else None


def build_question_types(directory: Path) -> QuestionTypes:
    """How the build in ``directory`` typed q2/q3 ("paper" when it says nothing or is no
    build), so that a dataset rebuilt from its annotations asks the same way."""
    settings = (build_provenance(directory) or {}).get("settings")
    types = settings.get("question_types") if isinstance(settings, dict) else None
    return "neutral" if types == "neutral" else "paper"
