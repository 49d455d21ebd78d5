"""Load and validate the ConfAIde benchmark files (the reference repository's layout).

Layout (``benchmark/`` of the reference repository, shipped unchanged in ``data/``)::

    tier_1.txt, tier_2a.txt, tier_2b.txt   one rating prompt per line
    tier_1_labels.txt, tier_2_labels.txt   one human label per line (2a and 2b share one)
    tier_3.txt                             <BEGIN><header> story <END><header><agents>
    tier_3_control.txt                     one yes/no question per tier-3 scenario
    tier_4.txt                             <BEGIN><private, public> meeting <END><…>

Why the text transformations live here: the reference derives each scenario's story and
each meeting's transcript from the raw lines (joining, collapsing blank lines, dropping the
question sentence); the prompts must use exactly that text, so it is computed once, in the
same way, when the data is read.

Why one pass: :func:`validate_confaide` collects every problem (file and item with its
line) so a damaged copy is reported in full, not one error at a time. The reference skips a
block it cannot parse and carries on; privbench refuses the data instead, since a skipped
scenario would silently change every figure.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from privbench.json_files import load_valid
from privbench.runtime.download import sha256_file
from privbench.runtime.errors import Problem

DATA_DIR = Path(__file__).parent / "data"
MANIFEST_FILE = "manifest.json"

RATING_TIERS = ("1", "2a", "2b")
TIERS = ("1", "2a", "2b", "3", "4")

TIER_FILES = {tier: f"tier_{tier}.txt" for tier in TIERS}
LABEL_FILES = {"1": "tier_1_labels.txt", "2a": "tier_2_labels.txt", "2b": "tier_2_labels.txt"}
CONTROL_FILE = "tier_3_control.txt"

TIER_1_RATINGS = (1, 2, 3, 4)
TIER_2_RATINGS = (-100, -50, 0, 50, 100)

_BEGIN = "<BEGIN>"
_END = "<END>"
_AGENT_KEYS = ("about", "questionee", "questioner", "topic")


@dataclass(frozen=True)
class RatingItem:
    """A tier-1 or tier-2 prompt (one line) with the human label at the same line."""

    id: str
    tier: str
    index: int
    text: str
    """The line as the reference reads it (stripped; its ``\\n`` is two characters)."""
    label: float


@dataclass(frozen=True)
class Tier3Scenario:
    """A tier-3 scenario: who knows the secret about whom, the story and the control question."""

    id: str
    index: int
    line: int
    """1-based line of the ``<BEGIN>`` marker in ``tier_3.txt``."""
    topic: str
    aware_agent_relation: str
    oblivious_agent_relation: str
    reveal_reason: str
    subject_agent: str
    """Whose secret it is (the footer's ``About``)."""
    aware_agent: str
    """Who knows it and is asked what to say (``Questionee``)."""
    oblivious_agent: str
    """Who does not know it and asks (``Questioner``)."""
    secret: str
    """The footer's ``Topic``."""
    story: str
    control_question: str
    """The scenario's line of ``tier_3_control.txt``, stripped."""


@dataclass(frozen=True)
class Meeting:
    """A tier-4 meeting transcript with its private and its public fact."""

    id: str
    index: int
    line: int
    private_info: str
    public_info: str
    text: str


@dataclass(frozen=True)
class ConfAIdeData:
    """Every tier of the benchmark, items in file order."""

    directory: Path
    tier_1: tuple[RatingItem, ...]
    tier_2a: tuple[RatingItem, ...]
    tier_2b: tuple[RatingItem, ...]
    tier_3: tuple[Tier3Scenario, ...]
    tier_4: tuple[Meeting, ...]

    def ratings(self, tier: str) -> tuple[RatingItem, ...]:
        """The items of rating tier ``1``, ``2a`` or ``2b``."""
        return {"1": self.tier_1, "2a": self.tier_2a, "2b": self.tier_2b}[tier]


def item_id(tier: str, index: int) -> str:
    """The stable id of an item: its tier and 0-based position (``tier3-0042``)."""
    return f"tier{tier}-{index:04d}"


def _read_lines(path: Path, problems: list[Problem]) -> list[str] | None:
    """The file's lines with their endings (``readlines``, as the reference reads them)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        problems.append(Problem(str(path), None, "missing file"))
        return None
    except (OSError, UnicodeDecodeError) as error:
        problems.append(Problem(str(path), None, f"unreadable: {error}"))
        return None
    return text.splitlines(keepends=True)


def _labels(path: Path, problems: list[Problem]) -> list[float] | None:
    lines = _read_lines(path, problems)
    if lines is None:
        return None
    labels: list[float] = []
    for number, line in enumerate(lines, start=1):
        try:
            labels.append(float(line.strip()))
        except ValueError:
            problems.append(Problem(str(path), f"line {number}", f"not a number: {line.strip()!r}"))
            labels.append(float("nan"))  # keeps the count aligned: one problem, not two
    return labels


def _rating_tier(
    directory: Path, tier: str, labels: list[float] | None, problems: list[Problem]
) -> tuple[RatingItem, ...]:
    path = directory / TIER_FILES[tier]
    lines = _read_lines(path, problems)
    if lines is None:
        return ()
    items = []
    for index, line in enumerate(lines):
        text = line.strip()
        if not text:
            problems.append(Problem(str(path), f"line {index + 1}", "empty line"))
            continue
        label = labels[index] if labels is not None and index < len(labels) else float("nan")
        items.append(RatingItem(item_id(tier, index), tier, index, text, label))
    if labels is not None and len(labels) != len(lines):
        problems.append(
            Problem(
                str(path),
                None,
                f"{len(lines)} prompts but {len(labels)} labels in {LABEL_FILES[tier]}",
            )
        )
    return tuple(items)


def _header(line: str, marker: str) -> str:
    """``<…>`` after the marker, as the reference keeps it (angle brackets included)."""
    return line.strip().removeprefix(marker)


def _fields(header: str) -> list[str]:
    return header.removesuffix(">").removeprefix("<").split(",")


def scenario_story(raw: str) -> str:
    """The story shown to the model: the block's text without its final question sentence.

    The reference joins the lines, turns newlines into spaces, collapses double spaces once,
    splits on ``". "``, drops the last piece (the question) and puts a full stop back.
    """
    flat = raw.replace("\n", " ").replace("  ", " ")
    sentences = flat.split(". ")
    return ". ".join(sentences[:-1]).replace("  ", " ") + "."


def meeting_text(raw: str) -> str:
    """The transcript shown to the model: blank lines collapsed as the reference does."""
    return raw.replace("\n\n\n", "\n").replace("\n\n", "\n")


def _agents(footer: str) -> dict[str, str] | str:
    """The footer's ``Key: value`` pairs (keys lowered, values stripped of spaces and dots)."""
    found: dict[str, str] = {}
    for element in footer.removesuffix(">").removeprefix("<").strip().split(","):
        parts = element.split(": ")
        if len(parts) != 2:
            return f"cannot read {element!r} as 'Key: value'"
        found[parts[0].lower()] = parts[1].strip().strip(".")
    missing = [key for key in _AGENT_KEYS if key not in found]
    if missing:
        return "missing " + ", ".join(repr(key) for key in missing)
    if len({found[key] for key in _AGENT_KEYS}) != len(_AGENT_KEYS) or len(found) != 4:
        return "About, Questionee, Questioner and Topic must be 4 distinct values"
    return found


@dataclass(frozen=True)
class _Block:
    line: int
    header: str
    body: str
    footer: str
    end_line: int


def _blocks(path: Path, lines: list[str], problems: list[Problem]) -> list[_Block]:
    """``<BEGIN>`` … ``<END>`` blocks; text outside a block or an unclosed block is a problem."""
    blocks: list[_Block] = []
    start: int | None = None
    header = ""
    body: list[str] = []
    for number, line in enumerate(lines, start=1):
        if line.startswith(_BEGIN):
            if start is not None:
                problems.append(Problem(str(path), f"line {start}", "block has no <END>"))
            start, header, body = number, _header(line, _BEGIN), []
        elif line.startswith(_END):
            if start is None:
                problems.append(Problem(str(path), f"line {number}", "<END> without <BEGIN>"))
                continue
            blocks.append(_Block(start, header, "".join(body), _header(line, _END), number))
            start = None
        elif start is None:
            if line.strip():
                problems.append(Problem(str(path), f"line {number}", "text outside a block"))
        else:
            body.append(line)
    if start is not None:
        problems.append(Problem(str(path), f"line {start}", "block has no <END>"))
    return blocks


def _tier_3(directory: Path, problems: list[Problem]) -> tuple[Tier3Scenario, ...]:
    path = directory / TIER_FILES["3"]
    lines = _read_lines(path, problems)
    control_path = directory / CONTROL_FILE
    controls = _read_lines(control_path, problems)
    if lines is None:
        return ()
    scenarios: list[Tier3Scenario] = []
    blocks = _blocks(path, lines, problems)
    for index, block in enumerate(blocks):
        where = f"scenario {index} (line {block.line})"
        fields = _fields(block.header)
        if len(fields) != 4:
            problems.append(
                Problem(
                    str(path), where, f"header {block.header!r} must have 4 comma-separated fields"
                )
            )
            continue
        if not block.footer.startswith(block.header):
            problems.append(
                Problem(
                    str(path),
                    f"scenario {index} (line {block.end_line})",
                    "<END> header differs from <BEGIN>",
                )
            )
            continue
        agents = _agents(block.footer.split(block.header)[-1])
        if isinstance(agents, str):
            problems.append(Problem(str(path), f"scenario {index} (line {block.end_line})", agents))
            continue
        if ". " not in block.body.replace("\n", " "):
            problems.append(Problem(str(path), where, "story has no sentence before the question"))
            continue
        control = ""
        if controls is not None and index < len(controls):
            control = controls[index].strip()
            if not control:
                problems.append(Problem(str(control_path), f"line {index + 1}", "empty question"))
        topic, aware_relation, oblivious_relation, reason = fields
        scenarios.append(
            Tier3Scenario(
                id=item_id("3", index),
                index=index,
                line=block.line,
                topic=topic,
                aware_agent_relation=aware_relation,
                oblivious_agent_relation=oblivious_relation,
                reveal_reason=reason,
                subject_agent=agents["about"],
                aware_agent=agents["questionee"],
                oblivious_agent=agents["questioner"],
                secret=agents["topic"],
                story=scenario_story(block.body),
                control_question=control,
            )
        )
    if not blocks:
        problems.append(Problem(str(path), None, "no scenarios"))
    if controls is not None and len(controls) != len(blocks):
        problems.append(
            Problem(
                str(control_path), None, f"{len(controls)} questions for {len(blocks)} scenarios"
            )
        )
    return tuple(scenarios)


def _tier_4(directory: Path, problems: list[Problem]) -> tuple[Meeting, ...]:
    path = directory / TIER_FILES["4"]
    lines = _read_lines(path, problems)
    if lines is None:
        return ()
    meetings: list[Meeting] = []
    blocks = _blocks(path, lines, problems)
    for index, block in enumerate(blocks):
        where = f"meeting {index} (line {block.line})"
        begin = [field.strip() for field in _fields(block.header)]
        end = [field.strip() for field in _fields(block.footer)]
        if len(begin) != 2 or not all(begin):
            problems.append(
                Problem(str(path), where, f"header {block.header!r} must be <private, public>")
            )
            continue
        if begin != end:
            problems.append(
                Problem(
                    str(path),
                    f"meeting {index} (line {block.end_line})",
                    "<END> header differs from <BEGIN>",
                )
            )
            continue
        if not block.body.strip():
            problems.append(Problem(str(path), where, "empty meeting"))
            continue
        meetings.append(
            Meeting(
                item_id("4", index), index, block.line, begin[0], begin[1], meeting_text(block.body)
            )
        )
    if not blocks:
        problems.append(Problem(str(path), None, "no meetings"))
    return tuple(meetings)


def manifest_problems(directory: Path) -> list[Problem]:
    """Files whose size or SHA-256 differs from ``manifest.json`` (none when it is absent).

    Why only when present: the shipped copy carries the manifest of its upstream commit; a
    user's own edited copy without one is checked for shape only.
    """
    path = directory / MANIFEST_FILE
    if not path.is_file():
        return []
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
        entries = [(str(e["path"]), str(e["sha256"]), int(e["size"])) for e in manifest["files"]]
    except (OSError, ValueError, KeyError, TypeError) as error:
        return [Problem(str(path), None, f"unreadable manifest: {error}")]
    problems = []
    for name, digest, size in entries:
        target = directory / name
        if not target.is_file():
            problems.append(Problem(str(target), None, "missing file listed in manifest.json"))
        elif target.stat().st_size != size or sha256_file(target) != digest:
            problems.append(
                Problem(str(target), None, "differs from manifest.json (size or SHA-256)")
            )
    return problems


def validate_confaide(directory: Path) -> tuple[list[ConfAIdeData], list[Problem]]:
    """The benchmark (a one-element list when valid) and every problem found in one pass.

    Shape problems name their file and item (line); a file that differs from the manifest is
    named as well, after them, so the line-level cause comes first.
    """
    problems: list[Problem] = []
    labels_1 = _labels(directory / LABEL_FILES["1"], problems)
    labels_2 = _labels(directory / LABEL_FILES["2a"], problems)
    tier_1 = _rating_tier(directory, "1", labels_1, problems)
    tier_2a = _rating_tier(directory, "2a", labels_2, problems)
    tier_2b = _rating_tier(directory, "2b", labels_2, problems)
    tier_3 = _tier_3(directory, problems)
    tier_4 = _tier_4(directory, problems)
    problems.extend(manifest_problems(directory))
    if problems:
        return [], problems
    return [ConfAIdeData(directory, tier_1, tier_2a, tier_2b, tier_3, tier_4)], []


def load_confaide(directory: str | Path = DATA_DIR) -> ConfAIdeData:
    """The benchmark in ``directory`` (the shipped copy by default).

    Raises :class:`~privbench.runtime.errors.DatasetError` listing its problems.
    """
    return load_valid(directory, validate_confaide)[0]
