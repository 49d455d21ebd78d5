"""The hooks a benchmark imports on first call name functions that exist."""

from __future__ import annotations

import importlib

import pytest

from privbench.registry import SUITES
from privbench.runtime.lazy import Lazy


@pytest.mark.parametrize("name", sorted(SUITES))
def test_every_lazy_hook_resolves(name: str) -> None:
    module = importlib.import_module(f"privbench.suites.{name}.cross_run")
    hooks = [value for value in vars(module).values() if isinstance(value, Lazy)]
    assert hooks, f"{name}: no lazy hook found"
    for hook in hooks:
        assert callable(hook.resolve()), f"{hook.module}.{hook.name}"


def test_a_lazy_hook_calls_its_function_with_its_arguments() -> None:
    joined = Lazy("os.path", "join")
    assert joined("a", "b") == importlib.import_module("os.path").join("a", "b")


def test_a_missing_function_fails_when_called() -> None:
    with pytest.raises(AttributeError):
        Lazy("os.path", "no_such_function")()
