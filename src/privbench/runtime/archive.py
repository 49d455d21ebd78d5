"""Unpack a downloaded zip safely, and find the dataset folder inside it.

Why checked before anything is written: a member named ``/etc/x`` or ``../../x``
("zip-slip") would write outside the target folder. Every member name is checked first;
one bad name refuses the whole archive, so nothing half-unpacked is left behind.

Why the dataset root is searched for: a release may unpack to its files directly, to one
top folder (``Priv-IQ/``, ``privIQ/``) or deeper; the folder that holds the index file
(``priv-IQ.json``) is the dataset, wherever it is. Archives made on a Mac carry
``__MACOSX/`` copies and ``._`` resource files that are not data: they are skipped.

Why limits: a few megabytes of zip can declare (or, lying, hold) gigabytes. Each file is
capped at :attr:`UnpackLimits.member` bytes and all together at :attr:`UnpackLimits.total`;
the declared sizes are checked before anything is written, and the bytes actually
written are counted too, so a member whose header lies stops at the cap.
"""

from __future__ import annotations

import re
import shutil
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

from privbench.runtime.errors import PrivbenchError

_DRIVE = re.compile(r"^[A-Za-z]:")
_COPY = 1 << 20


@dataclass(frozen=True)
class UnpackLimits:
    """The most bytes one unpacked file, and all of them together, may have."""

    member: int = 256 << 20
    """256 MiB: a photo or an index file is a few megabytes."""
    total: int = 4 << 30
    """4 GiB: twice the largest download (a zip stores photos about as large as they are)."""


class ArchiveRefused(PrivbenchError):
    """The archive cannot be unpacked safely (a name, a size, a clash): nothing was."""


def member_problem(name: str) -> str | None:
    """Why an archive member must not be unpacked (an absolute path, ``..``), or None."""
    path = name.replace("\\", "/")
    if path.startswith("/") or _DRIVE.match(path):
        return "an absolute path"
    if ".." in path.split("/"):
        return "a '..' component"
    if "\0" in path:
        return "a NUL character"
    return None


def is_metadata(name: str) -> bool:
    """A Mac archiver's ``__MACOSX/`` entry or ``._`` resource file: not part of the data."""
    parts = PurePosixPath(name.replace("\\", "/")).parts
    return bool(parts) and (parts[0] == "__MACOSX" or parts[-1].startswith("._"))


def _depth(folder: str) -> int:
    return 0 if not folder else folder.count("/") + 1


def dataset_roots(names: Iterable[str], index_file: str) -> list[str]:
    """The shallowest folders (POSIX, ``""`` for the top) that hold ``index_file``.

    One folder is the dataset; several at the same depth are ambiguous (the caller says
    so); a deeper copy (a backup inside the dataset) does not compete with a shallower one.
    """
    found = {
        PurePosixPath(name.replace("\\", "/")).parent.as_posix()
        for name in names
        if not is_metadata(name) and PurePosixPath(name.replace("\\", "/")).name == index_file
    }
    roots = sorted("" if root == "." else root for root in found)
    if not roots:
        return []
    shallowest = min(_depth(root) for root in roots)
    return [root for root in roots if _depth(root) == shallowest]


def member_names(archive: Path, label: str) -> list[str]:
    """Every member name of ``archive``; a one-line error if it is not a zip."""
    try:
        with zipfile.ZipFile(archive) as handle:
            return handle.namelist()
    except (zipfile.BadZipFile, OSError) as error:
        raise ArchiveRefused(f"{label}: not a zip archive ({error})") from None


def _chosen(member: zipfile.ZipInfo, prefix: str) -> bool:
    """A file of the dataset: under ``prefix``, not a folder entry, not metadata."""
    name = member.filename.replace("\\", "/")
    return not member.is_dir() and not is_metadata(name) and name.startswith(prefix)


def _check_space(members: list[zipfile.ZipInfo], destination: Path, label: str) -> None:
    """Refuse an archive whose files would not fit on the disk (a zip bomb, a full disk)."""
    needed = sum(member.file_size for member in members)
    existing = next(p for p in (destination, *destination.parents) if p.exists())
    free = shutil.disk_usage(existing).free
    if needed > free:  # not the archive's fault: it is kept for another try
        raise PrivbenchError(
            f"{label}: unpacked it needs {needed:,} bytes, {free:,} are free on "
            f"{existing}; nothing was unpacked"
        )


def _too_large(name: str, size: int, limits: UnpackLimits, label: str, what: str) -> ArchiveRefused:
    return ArchiveRefused(
        f"{label}: member '{name}' {what} {size:,} bytes, more than the {limits.member:,} "
        "privbench unpacks from one file; nothing was unpacked"
    )


def _check_sizes(members: list[zipfile.ZipInfo], limits: UnpackLimits, label: str) -> None:
    """Refuse, by the sizes the archive declares, a file or a whole over the limits."""
    for member in members:
        if member.file_size > limits.member:
            raise _too_large(member.filename, member.file_size, limits, label, "declares")
    total = sum(member.file_size for member in members)
    if total > limits.total:
        raise ArchiveRefused(
            f"{label}: its files declare {total:,} bytes unpacked, more than the "
            f"{limits.total:,} privbench unpacks; nothing was unpacked"
        )


def _check_clashes(names: list[str], label: str) -> None:
    """Refuse a name that is both a file and the folder of another member."""
    files = set(names)
    for name in names:
        parts = name.split("/")
        for depth in range(1, len(parts)):
            folder = "/".join(parts[:depth])
            if folder in files:
                raise ArchiveRefused(
                    f"{label}: '{folder}' is both a file and a folder in the archive "
                    f"(of '{name}'); nothing was unpacked"
                )


def _copy(
    source: IO[bytes], out: Path, name: str, room: int, limits: UnpackLimits, label: str
) -> int:
    """Write one member, at most ``limits.member`` bytes and ``room`` in all; its size."""
    written = 0
    with out.open("wb") as handle:
        for block in iter(lambda: source.read(_COPY), b""):
            written += len(block)
            if written > limits.member:
                raise _too_large(name, written, limits, label, "holds more than")
            if written > room:
                raise ArchiveRefused(
                    f"{label}: its files hold more than the {limits.total:,} bytes privbench "
                    "unpacks; nothing was unpacked"
                )
            handle.write(block)
    return written


def unpack(
    archive: Path,
    destination: Path,
    root: str,
    label: str,
    limits: UnpackLimits | None = None,
) -> int:
    """Unpack the members under ``root`` of ``archive`` into ``destination``; files written.

    Every name and declared size is checked before anything is written (``label`` names
    the archive in the error); directories are made as needed, metadata entries skipped.
    Raises :class:`ArchiveRefused` (one line); the caller removes ``destination``.
    """
    limits = UnpackLimits() if limits is None else limits
    try:
        with zipfile.ZipFile(archive) as handle:
            members = handle.infolist()
            for member in members:
                problem = member_problem(member.filename)
                if problem is not None:
                    raise ArchiveRefused(
                        f"{label}: member '{member.filename}' has {problem} and would be "
                        "written outside the folder; nothing was unpacked"
                    )
            prefix = f"{root}/" if root else ""
            chosen = [member for member in members if _chosen(member, prefix)]
            full = [member.filename.replace("\\", "/") for member in chosen]
            _check_clashes(full, label)
            names = [name[len(prefix) :] for name in full]
            _check_sizes(chosen, limits, label)
            _check_space(chosen, destination, label)
            base = destination.resolve()
            room = limits.total
            for member, name in zip(chosen, names, strict=True):
                target = destination / name
                if not target.resolve().is_relative_to(base):  # a link already in the way
                    raise ArchiveRefused(f"{label}: member '{member.filename}' leaves the folder")
                target.parent.mkdir(parents=True, exist_ok=True)
                with handle.open(member) as source:
                    room -= _copy(source, target, member.filename, room, limits, label)
            return len(chosen)
    except zipfile.BadZipFile as error:
        raise ArchiveRefused(f"{label}: corrupt zip archive ({error})") from None
    except OSError as error:  # a name the file system refuses, a full disk
        reason = error.strerror or type(error).__name__
        raise ArchiveRefused(f"{label}: cannot unpack ({reason}); nothing was kept") from None
