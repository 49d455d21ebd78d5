"""Checks on image files that both benchmarks' validators share.

Why: a missing, unreadable or truncated image must be reported by ``privbench
validate`` before a run spends money on a model, with the same wording for both
benchmarks.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, UnidentifiedImageError


def resolve_inside(root: Path, relative: str) -> Path | None:
    """``root / relative`` if it stays inside ``root`` (no ``..`` escapes), else None."""
    candidate = (root / relative).resolve()
    try:
        candidate.relative_to(root.resolve())
    except ValueError:
        return None
    return candidate


def image_problem(path: Path) -> str | None:
    """Why ``path`` is not a usable image, or None if it decodes completely."""
    if not path.exists():
        return "missing image"
    if not path.is_file():
        return "image path is not a file"
    try:
        with Image.open(path) as image:
            image.verify()
        with Image.open(path) as image:
            image.load()
    except PermissionError:
        return "unreadable image (permission denied)"
    except UnidentifiedImageError:
        return "corrupt image (not a recognised image format)"
    except (OSError, SyntaxError, ValueError) as error:
        return f"corrupt image ({' '.join(str(error).split()) or type(error).__name__})"
    return None


def image_size(path: Path) -> tuple[int, int]:
    """Width and height of an image that passed :func:`image_problem`."""
    with Image.open(path) as image:
        return image.size
