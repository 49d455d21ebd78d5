"""Checks on image files that both benchmarks' validators share.

Why: a missing, unreadable, truncated or oversized image must be reported by ``privbench
validate`` before a run spends money on a model, with the same wording for both
benchmarks — as one line naming the item, never as a traceback that hides the other
items' problems.

Why cached: checking an image decodes all of it (milliseconds for a photo), and datasets
often point many items at one image; a run also validates its whole dataset before
``--limit`` applies. So each distinct file is checked once per process and the answer
reused while the file's size, modification time and inode stay the same
(:func:`check_image`), and a dataset's loader resolves each distinct image name once per
pass (:class:`DatasetImages`).
"""

from __future__ import annotations

import os
import re
import stat
import warnings
from dataclasses import dataclass
from pathlib import Path

from PIL import Image, UnidentifiedImageError


def resolve_inside(root: Path, relative: str) -> Path | None:
    """``root / relative`` if it stays inside ``root`` (no ``..`` escapes), else None."""
    return _resolve_inside(root.resolve(), root, relative)


def _resolve_inside(resolved_root: Path, root: Path, relative: str) -> Path | None:
    candidate = (root / relative).resolve()
    try:
        candidate.relative_to(resolved_root)
    except ValueError:
        return None
    return candidate


@dataclass(frozen=True)
class ImageCheck:
    """What checking one image file found: why it is unusable, or its size."""

    problem: str | None
    size: tuple[int, int] | None = None
    """Width and height; None when ``problem`` is set."""


_CHECKED: dict[tuple[str, int, int, int, int], ImageCheck] = {}
_CHECKED_MAX = 65_536
"""Bound on remembered files (a few MB); the oldest is forgotten first."""

_BOMB = re.compile(r"\((\d+) pixels\)")


def check_image(path: Path) -> ImageCheck:
    """Whether ``path`` decodes completely as an image, checked once per unchanged file."""
    try:
        status = os.stat(path)
    except (FileNotFoundError, NotADirectoryError):
        return ImageCheck("missing image")
    except PermissionError:
        return ImageCheck("unreadable image (permission denied)")
    except OSError as error:
        return ImageCheck(f"unreadable image ({error.strerror or type(error).__name__})")
    if not stat.S_ISREG(status.st_mode):
        return ImageCheck("image path is not a file")
    key = (str(path), status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino)
    found = _CHECKED.get(key)
    if found is None:
        found = _decode(path)
        if len(_CHECKED) >= _CHECKED_MAX:
            _CHECKED.pop(next(iter(_CHECKED)))
        _CHECKED[key] = found
    return found


def _too_large(error: Exception) -> str:
    """A decompression bomb in words: how many pixels, and the limit it passes."""
    found = _BOMB.search(str(error))
    pixels = f"{int(found.group(1)):,} pixels" if found else "too many pixels"
    limit = Image.MAX_IMAGE_PIXELS
    allowed = f"; at most {limit:,} are decoded" if limit else ""
    return f"image too large to decode safely ({pixels}{allowed}; a decompression bomb?)"


def _decode(path: Path) -> ImageCheck:
    """Open, verify and fully decode ``path``; every failure is a problem in words.

    Pillow's decompression-bomb warning is raised as an error here: an image past
    ``Image.MAX_IMAGE_PIXELS`` would take gigabytes to decode, in validation and again
    when a run sends it to a model.
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(path) as image:
                image.verify()
            with Image.open(path) as image:
                image.load()
                return ImageCheck(None, image.size)
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as error:
        return ImageCheck(_too_large(error))
    except PermissionError:
        return ImageCheck("unreadable image (permission denied)")
    except UnidentifiedImageError:
        return ImageCheck("corrupt image (not a recognised image format)")
    except (OSError, SyntaxError, ValueError) as error:
        return ImageCheck(f"corrupt image ({_words(error)})")
    except Exception as error:  # a decoder's own bug on hostile bytes is still a bad image
        return ImageCheck(f"corrupt image ({type(error).__name__}: {_words(error)})")


def _words(error: BaseException) -> str:
    return " ".join(str(error).split())[:200] or type(error).__name__


def image_problem(path: Path) -> str | None:
    """Why ``path`` is not a usable image, or None if it decodes completely."""
    return check_image(path).problem


def image_size(path: Path) -> tuple[int, int]:
    """Width and height of an image that passed :func:`image_problem`."""
    size = check_image(path).size
    if size is not None:
        return size
    with Image.open(path) as image:
        return image.size


@dataclass(frozen=True)
class DatasetImage:
    """One image name of a dataset: where it resolves to, and what its check found."""

    path: Path | None
    """None when the name leads outside the dataset's image folder."""
    check: ImageCheck | None
    """None when ``path`` is None."""


class DatasetImages:
    """The images of one dataset folder, each distinct name resolved and checked once.

    Why per name as well as per file: resolving a path costs system calls, and 100,000
    items naming the same image should cost one resolution, not 100,000.
    """

    def __init__(self, root: Path) -> None:
        self.root = root
        self._resolved_root = root.resolve()
        self._seen: dict[str, DatasetImage] = {}

    def get(self, relative: str) -> DatasetImage:
        """The image ``root / relative``: its path if inside ``root``, and its check."""
        found = self._seen.get(relative)
        if found is None:
            path = _resolve_inside(self._resolved_root, self.root, relative)
            found = DatasetImage(path, None if path is None else check_image(path))
            self._seen[relative] = found
        return found
