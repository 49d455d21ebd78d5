"""``DIR/review.sqlite``: every save of every annotator, versioned, never overwritten.

Why SQLite in WAL mode with one transaction per save: a save the server acknowledged
must survive ``kill -9`` of the server or the browser, and two annotators (two browser
tabs, two processes) may save at once. Each annotator has their own annotation of each
image; a save names the version it was made from, and is refused when that is not the
annotator's latest (:class:`StaleVersion`, HTTP 409), so an edit made in one tab never
silently replaces one made in another. Earlier versions stay in the table.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from privbench.runtime.errors import PrivbenchError

STORE_FILE = "review.sqlite"
SCHEMA_VERSION = 1
APPLICATION_ID = 0x70726276  # "prbv": marks a privbench review store among SQLite files

_SCHEMA = """
CREATE TABLE IF NOT EXISTS annotations (
    image TEXT NOT NULL,
    annotator TEXT NOT NULL,
    version INTEGER NOT NULL,
    saved_at TEXT NOT NULL,
    annotation TEXT NOT NULL,
    PRIMARY KEY (image, annotator, version)
);
CREATE TABLE IF NOT EXISTS ratings (
    survey TEXT NOT NULL,
    item TEXT NOT NULL,
    rater TEXT NOT NULL,
    version INTEGER NOT NULL,
    saved_at TEXT NOT NULL,
    score REAL,
    PRIMARY KEY (survey, item, rater, version)
);
"""

_TABLES = {
    "annotations": {"image", "annotator", "version", "saved_at", "annotation"},
    "ratings": {"survey", "item", "rater", "version", "saved_at", "score"},
}
"""The columns every store has (:data:`_SCHEMA`)."""


class StoreError(PrivbenchError):
    """A ``review.sqlite`` that is broken or not privbench's."""


class StaleVersion(PrivbenchError):
    """A save made from a version that is not the annotator's latest."""

    def __init__(self, image: str, annotator: str, given: int, latest: int) -> None:
        super().__init__(
            f"{image}: saved from version {given}, but {annotator}'s latest is {latest} "
            "(saved elsewhere since); reload to see it"
        )
        self.latest = latest


@dataclass(frozen=True)
class SavedAnnotation:
    """One annotator's latest annotation of one image."""

    image: str
    annotator: str
    version: int
    saved_at: str
    annotation: dict[str, object]
    """``{"status": ..., "factors": [{"name", "category", "why", "box"}]}`` (``{}`` when the
    row cannot be read: see :attr:`problem`)."""
    problem: str | None = None
    """Why the stored row is not an annotation (not JSON, not an object), or None."""


def _saved(
    image: str, annotator: str, version: int, saved_at: str, text: object
) -> SavedAnnotation:
    """One stored row, read. Why a row that cannot be read becomes a :class:`SavedAnnotation`
    with a problem rather than an exception: one damaged row (an edit by hand, a disk error)
    must not stop every annotator's page or the export of every other image; the app and the
    export count it as unreadable."""
    try:
        annotation = json.loads(text) if isinstance(text, str | bytes) else None
    except (ValueError, RecursionError):
        annotation = None
    if not isinstance(annotation, dict):
        return SavedAnnotation(image, annotator, version, saved_at, {}, "not a JSON object")
    return SavedAnnotation(image, annotator, version, saved_at, annotation)


class ReviewStore:
    """The review database of one dataset directory."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._check()

    @classmethod
    def of(cls, directory: Path) -> ReviewStore:
        return cls(directory / STORE_FILE)

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        connection = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        try:
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=FULL")  # acknowledged means on disk
            yield connection
        finally:
            connection.close()

    def _check(self) -> None:
        """Create the store, or check that an existing file is one (one clear line if not)."""
        fresh = not self.path.exists() or self.path.stat().st_size == 0
        try:
            with self._connect() as connection:
                application = connection.execute("PRAGMA application_id").fetchone()[0]
                if fresh:
                    connection.executescript(_SCHEMA)
                    connection.execute(f"PRAGMA application_id={APPLICATION_ID}")
                    connection.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
                elif application != APPLICATION_ID:
                    raise StoreError(
                        f"{self.path}: an SQLite file that is not a privbench review store; "
                        "move it away or review another folder"
                    )
                else:
                    version = connection.execute("PRAGMA user_version").fetchone()[0]
                    if version > SCHEMA_VERSION:
                        raise StoreError(
                            f"{self.path}: written by a newer privbench (store version "
                            f"{version}); upgrade privbench"
                        )
                    self._check_tables(connection)
        except sqlite3.DatabaseError as error:
            raise StoreError(f"{self.path}: not a readable review store ({error})") from None

    def _check_tables(self, connection: sqlite3.Connection) -> None:
        """A marked store must hold its tables with their columns; why here: a damaged store
        would otherwise start the app and then fail every request."""
        for table, columns in _TABLES.items():
            found = {row[1] for row in connection.execute(f"PRAGMA table_info({table})")}
            if not columns <= found:
                what = "no table" if not found else "a damaged table"
                raise StoreError(
                    f"{self.path}: a privbench review store with {what} {table!r}; "
                    "restore it from a backup or move it away"
                )

    def latest(self, image: str, annotator: str) -> SavedAnnotation | None:
        with self._connect() as connection:
            row = connection.execute(
                "SELECT version, saved_at, annotation FROM annotations WHERE image = ? AND "
                "annotator = ? ORDER BY version DESC LIMIT 1",
                (image, annotator),
            ).fetchone()
        if row is None:
            return None
        return _saved(image, annotator, row[0], row[1], row[2])

    def save(self, image: str, annotator: str, version: int, annotation: dict[str, object]) -> int:
        """Store a new version (``version`` + 1) in one transaction; raise
        :class:`StaleVersion` when ``version`` is not the annotator's latest (0: none yet)."""
        saved_at = datetime.now(UTC).isoformat(timespec="seconds")
        text = json.dumps(annotation, ensure_ascii=False, sort_keys=True)
        with self._connect() as connection:
            connection.execute("BEGIN IMMEDIATE")
            try:
                row = connection.execute(
                    "SELECT MAX(version) FROM annotations WHERE image = ? AND annotator = ?",
                    (image, annotator),
                ).fetchone()
                latest = int(row[0] or 0)
                if version != latest:
                    raise StaleVersion(image, annotator, version, latest)
                connection.execute(
                    "INSERT INTO annotations VALUES (?, ?, ?, ?, ?)",
                    (image, annotator, latest + 1, saved_at, text),
                )
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise
        return latest + 1

    def all_latest(self) -> list[SavedAnnotation]:
        """Every annotator's latest annotation of every image."""
        with self._connect() as connection:
            rows = connection.execute(
                "SELECT a.image, a.annotator, a.version, a.saved_at, a.annotation "
                "FROM annotations a JOIN (SELECT image, annotator, MAX(version) AS v "
                "FROM annotations GROUP BY image, annotator) m "
                "ON a.image = m.image AND a.annotator = m.annotator AND a.version = m.v "
                "ORDER BY a.image, a.annotator"
            ).fetchall()
        return [_saved(r[0], r[1], r[2], r[3], r[4]) for r in rows]

    def versions(self, image: str, annotator: str) -> int:
        """How many versions an annotator saved of an image (earlier ones are kept)."""
        with self._connect() as connection:
            row = connection.execute(
                "SELECT COUNT(*) FROM annotations WHERE image = ? AND annotator = ?",
                (image, annotator),
            ).fetchone()
        return int(row[0])

    def save_rating(self, survey: str, item: str, rater: str, score: float | None) -> int:
        """Store a rater's new score of an item (None: cleared) as its next version.

        Why versions and not an update: as with annotations, an acknowledged save is never
        overwritten, so a rater's earlier scores stay for the researcher to see.
        """
        saved_at = datetime.now(UTC).isoformat(timespec="seconds")
        with self._connect() as connection:
            connection.execute("BEGIN IMMEDIATE")
            try:
                row = connection.execute(
                    "SELECT MAX(version) FROM ratings WHERE survey = ? AND item = ? AND rater = ?",
                    (survey, item, rater),
                ).fetchone()
                version = int(row[0] or 0) + 1
                connection.execute(
                    "INSERT INTO ratings VALUES (?, ?, ?, ?, ?, ?)",
                    (survey, item, rater, version, saved_at, score),
                )
                connection.execute("COMMIT")
            except BaseException:
                connection.execute("ROLLBACK")
                raise
        return version

    def ratings(self, survey: str) -> dict[str, dict[str, float | None]]:
        """Every rater's latest score of every item of ``survey``: rater → item → score."""
        with self._connect() as connection:
            rows = connection.execute(
                "SELECT r.rater, r.item, r.score FROM ratings r JOIN (SELECT item, rater, "
                "MAX(version) AS v FROM ratings WHERE survey = ? GROUP BY item, rater) m "
                "ON r.item = m.item AND r.rater = m.rater AND r.version = m.v "
                "WHERE r.survey = ? ORDER BY r.rater, r.item",
                (survey, survey),
            ).fetchall()
        latest: dict[str, dict[str, float | None]] = {}
        for rater, item, score in rows:
            latest.setdefault(rater, {})[item] = None if score is None else float(score)
        return latest
