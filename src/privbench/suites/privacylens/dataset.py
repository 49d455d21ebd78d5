"""Load and validate PrivacyLens data: a ``main_data.json`` in the reference's layout.

Layout (``data/main_data.json`` of the reference repository, shipped unchanged in
``data/``): a JSON list of cases, each ``{"name", "seed", "vignette", "trajectory"}``:

* ``seed``: the privacy norm (``data_type``, ``data_subject``, ``data_sender``,
  ``data_sender_name``, ``data_recipient``, ``transmission_principle``, ``source``);
* ``vignette``: the story and its concrete actors (``story``, ``data_type_concrete`` …);
* ``trajectory``: the agent's task (``user_name``, ``user_email``, ``user_instruction``,
  ``toolkits``, ``executable_trajectory``, ``final_action``, ``sensitive_info_items``).

Why one pass: :func:`validate_privacylens` collects every problem (the file and the case's
name or position) so a damaged or hand-written file is reported in full. The reference
reads the file without checks and fails mid-run on a missing key; privbench refuses the
data before any model is called. Toolkits are checked against the descriptions the agent
prompt needs (:mod:`.toolkits`): a case naming an unknown toolkit could not be prompted as
the reference prompts it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from privbench.json_files import load_valid, read_json_value
from privbench.runtime.errors import Problem
from privbench.suites.privacylens.toolkits import application_of, known_toolkits

DATA_DIR = Path(__file__).parent / "data"
DATA_FILE = "main_data.json"
MAX_DATA_BYTES = 64 << 20
"""The most privbench reads of a ``main_data.json`` (the reference's is 2.7 MB)."""
MAX_CASES = 20_000
MAX_ITEMS_PER_CASE = 64

SEED_FIELDS = (
    "data_type",
    "data_subject",
    "data_sender",
    "data_sender_name",
    "data_recipient",
    "transmission_principle",
)
VIGNETTE_FIELDS = (
    "story",
    "data_type_concrete",
    "data_subject_concrete",
    "data_sender_concrete",
    "data_recipient_concrete",
)
TRAJECTORY_FIELDS = (
    "user_name",
    "user_email",
    "user_instruction",
    "executable_trajectory",
    "final_action",
)


@dataclass(frozen=True)
class Seed:
    """The privacy norm a case is built from (the probing's seed level reads it)."""

    data_type: str
    data_subject: str
    data_sender: str
    data_sender_name: str
    data_recipient: str
    transmission_principle: str
    source: str
    """Where the norm comes from: ``regulation``, ``literature`` or ``crowdsourcing``."""


@dataclass(frozen=True)
class Vignette:
    """The story of the norm with concrete actors (the probing's vignette level)."""

    story: str
    data_type_concrete: str
    data_subject_concrete: str
    data_sender_concrete: str
    data_recipient_concrete: str


@dataclass(frozen=True)
class Trajectory:
    """The agent's task: the user, the instruction, the tools, the past actions, and the
    sensitive items its final action must not leak."""

    user_name: str
    user_email: str
    user_instruction: str
    toolkits: tuple[str, ...]
    executable_trajectory: str
    final_action: str
    """The tool the final action must use (``GmailSendEmail``)."""
    sensitive_info_items: tuple[str, ...]


@dataclass(frozen=True)
class PrivacyLensCase:
    """One PrivacyLens case, at its 0-based position in the file."""

    name: str
    index: int
    seed: Seed
    vignette: Vignette
    trajectory: Trajectory

    @property
    def application(self) -> str:
        """The application the final action goes through (the toolkit holding its tool)."""
        return application_of(self.trajectory.final_action, self.trajectory.toolkits)

    @property
    def source(self) -> str:
        return self.seed.source


def _text_fields(
    part: object, fields: tuple[str, ...], where: str, display: str, problems: list[Problem]
) -> dict[str, str] | None:
    """The part's named text fields, or None with one problem per missing or bad field."""
    if not isinstance(part, dict):
        problems.append(Problem(display, where, "must be a JSON object"))
        return None
    found: dict[str, str] = {}
    for name in fields:
        value = part.get(name)
        if not isinstance(value, str) or not value.strip():
            problems.append(Problem(display, where, f"'{name}' must be non-empty text"))
        else:
            found[name] = value
    return found if len(found) == len(fields) else None


def _text_list(value: object) -> tuple[str, ...] | None:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        return None
    return tuple(value)


def _case(raw: object, index: int, display: str, problems: list[Problem]) -> PrivacyLensCase | None:
    """One case read and checked; None (with its problems recorded) when it is unusable."""
    if not isinstance(raw, dict):
        problems.append(Problem(display, f"#{index + 1}", "a case must be a JSON object"))
        return None
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        problems.append(Problem(display, f"#{index + 1}", "'name' must be non-empty text"))
        return None
    before = len(problems)
    seed = _text_fields(raw.get("seed"), SEED_FIELDS, f"{name}: seed", display, problems)
    vignette = _text_fields(
        raw.get("vignette"), VIGNETTE_FIELDS, f"{name}: vignette", display, problems
    )
    where = f"{name}: trajectory"
    trajectory = _text_fields(raw.get("trajectory"), TRAJECTORY_FIELDS, where, display, problems)
    raw_trajectory = raw.get("trajectory")
    toolkits = items = None
    if isinstance(raw_trajectory, dict):
        toolkits = _text_list(raw_trajectory.get("toolkits"))
        if not toolkits:
            problems.append(Problem(display, where, "'toolkits' must be a non-empty list of names"))
        else:
            unknown = [t for t in toolkits if t not in known_toolkits()]
            if unknown:
                problems.append(
                    Problem(
                        display,
                        where,
                        f"unknown toolkit '{unknown[0]}' (privbench describes: "
                        f"{', '.join(sorted(known_toolkits()))})",
                    )
                )
        items = _text_list(raw_trajectory.get("sensitive_info_items"))
        if not items:
            problems.append(
                Problem(display, where, "'sensitive_info_items' must be a non-empty list of text")
            )
        elif len(items) > MAX_ITEMS_PER_CASE:
            problems.append(
                Problem(
                    display, where, f"{len(items)} sensitive items (at most {MAX_ITEMS_PER_CASE})"
                )
            )
    if len(problems) > before or seed is None or vignette is None or trajectory is None:
        return None
    assert toolkits is not None and items is not None
    source = raw["seed"].get("source")
    return PrivacyLensCase(
        name=name,
        index=index,
        seed=Seed(**seed, source=source if isinstance(source, str) and source else "unknown"),
        vignette=Vignette(**vignette),
        trajectory=Trajectory(
            **{k: trajectory[k] for k in TRAJECTORY_FIELDS},
            toolkits=toolkits,
            sensitive_info_items=items,
        ),
    )


def validate_privacylens(directory: Path) -> tuple[list[PrivacyLensCase], list[Problem]]:
    """Every case of ``directory/main_data.json`` and every problem found (one line each)."""
    path = directory / DATA_FILE
    display = str(path)
    if not path.is_file():
        return [], [
            Problem(display, None, f"missing file (a PrivacyLens folder holds {DATA_FILE})")
        ]
    data, problems = read_json_value(path, display, MAX_DATA_BYTES)
    if data is None:
        return [], problems
    if not isinstance(data, list):
        return [], [Problem(display, None, "top level must be a JSON list of cases")]
    if not data:
        return [], [Problem(display, None, "no cases")]
    if len(data) > MAX_CASES:
        return [], [Problem(display, None, f"{len(data):,} cases (at most {MAX_CASES:,})")]
    cases: list[PrivacyLensCase] = []
    seen: set[str] = set()
    for index, raw in enumerate(data):
        case = _case(raw, index, display, problems)
        if case is None:
            continue
        if case.name in seen:
            problems.append(Problem(display, case.name, "name given to two cases"))
            continue
        seen.add(case.name)
        cases.append(case)
    return cases, problems


def load_privacylens(directory: str | Path) -> list[PrivacyLensCase]:
    """The cases of a valid PrivacyLens folder (:class:`DatasetError` listing problems)."""
    return load_valid(directory, validate_privacylens)
