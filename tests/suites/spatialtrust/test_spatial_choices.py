"""A SpatialTrust strategy and box convention are checked once, where a name comes in.

Why: the strategy name was checked by the command line, the task and the solver, each
with its own wording, and the box format parsed again for every sample scored. Now
:func:`parse_strategy` and :func:`get_convention` are the only readers, and inner code
(the solver, the scorer's reading of a raw answer, a regrade) receives the checked value.
"""

from __future__ import annotations

import pytest

from privbench.suites.spatialtrust.boxes import BOX_CONVENTIONS, BoxConvention, get_convention
from privbench.suites.spatialtrust.solvers import STRATEGIES, parse_strategy


@pytest.mark.parametrize("name", ["direct", "staged", "guard"])
def test_each_strategy_reads_as_itself(name: str) -> None:
    assert parse_strategy(name) == name


@pytest.mark.parametrize("name", ["Direct", "", "stage", "guard "])
def test_another_name_is_one_line_naming_the_choices(name: str) -> None:
    with pytest.raises(ValueError) as raised:
        parse_strategy(name)
    assert str(raised.value) == f"unknown strategy '{name}' (choose from direct, staged, guard)"
    assert STRATEGIES == ("direct", "staged", "guard")


def test_a_box_format_reads_as_its_convention() -> None:
    for name, convention in BOX_CONVENTIONS.items():
        assert get_convention(name) is convention
        assert isinstance(convention, BoxConvention)
    with pytest.raises(ValueError, match="unknown box format 'xywh'"):
        get_convention("xywh")


def test_inner_code_takes_the_checked_values() -> None:
    import inspect as python_inspect

    from privbench.suites.spatialtrust.regrade import regrade
    from privbench.suites.spatialtrust.scorer import stored_answer

    assert "BoxConvention" in str(python_inspect.signature(regrade).parameters["convention"])
    assert "BoxConvention" in str(python_inspect.signature(stored_answer).parameters["convention"])
