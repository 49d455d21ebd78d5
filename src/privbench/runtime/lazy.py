"""A benchmark's hook whose code is imported when it is first called.

Why: the registry imports every benchmark's declaration at start-up, while a hook's code
(the audit, pandas and scipy readers, OCR) should load only when a command calls it. One
wrapper does that for every hook of every benchmark, instead of a hand-written function
per hook whose body is an import and a call.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Lazy:
    """``name`` of ``module``, imported on the first call and called with its arguments."""

    module: str
    name: str

    def resolve(self) -> Callable[..., Any]:
        """The function itself (imports ``module``)."""
        function: Callable[..., Any] = getattr(importlib.import_module(self.module), self.name)
        return function

    def __call__(self, *args: object, **kwargs: object) -> Any:
        return self.resolve()(*args, **kwargs)
