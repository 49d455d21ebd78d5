"""The package's shape: imports run downward only, one definition per type name.

Why a test: a layer that imports upward (even inside a function, to dodge a cycle) ties a
low module to everything above it, and the same type name defined in two modules makes
readers guess which one a signature means. Both were found in review and fixed; this
keeps them fixed. The source is read with :mod:`ast`, so nothing is imported.
"""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "privbench"

LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"__main__", "command_docs"}),
    frozenset({"cli"}),
    frozenset({"demo", "_registry"}),
    frozenset({"report", "validation", "review", "judgecheck"}),
    frozenset({"analysis", "audit"}),
    frozenset({"registry"}),  # names every benchmark, and pairs each with its tooling
    frozenset({"tooling.spatialtrust_builder"}),  # builds questions from the scene vocabulary
    frozenset({"tooling.priviq_generator", "tooling.spatialtrust_scenes"}),
    frozenset({"tooling.drawing"}),
    frozenset(
        {
            "suites.priviq",
            "suites.spatialtrust",
            "suites.confaide",
            "suites.privacylens",
            "suites.geoprivacy",
            "suites.decodingtrust",
        }
    ),
    frozenset({"judges", "models", "suite_runs"}),
    frozenset({"published"}),
    frozenset({"uncertainty"}),  # bootstrap and permutation tests, for every benchmark's tables
    frozenset(
        {
            "apportion",
            "exports",
            "json_files",
            "images",
            "formatting",
            "terminal_tables",
            "dataset_identity",
            "shipped",
            "agreement_measures",
            "distribution",
            "review_store",
            "rates",
        }
    ),
    frozenset({"runtime"}),
)
"""Top to bottom: a unit may import units of lower layers only (the two benchmarks, and the
units of one layer, never import each other)."""


GROUPS = frozenset({"suites", "tooling"})
"""Packages whose sub-packages are units of their own (``privbench.suites.priviq``)."""


def _unit(module: str) -> str:
    """The package or top-level module of ``privbench.x.y`` (``x``; ``x.y`` inside a group)."""
    parts = module.split(".")
    if len(parts) > 2 and parts[1] in GROUPS:
        return f"{parts[1]}.{parts[2]}"
    return parts[1] if len(parts) > 1 else "__init__"


def _module_name(path: Path) -> str:
    relative = path.relative_to(SRC.parent).with_suffix("")
    return ".".join(relative.parts).removesuffix(".__init__")


def _imports(path: Path) -> list[str]:
    """Every privbench module ``path`` imports, at module level or inside a function."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("privbench"):
            names.append(node.module)
        elif isinstance(node, ast.Import):
            names += [alias.name for alias in node.names if alias.name.startswith("privbench")]
    return names


def _layer(unit: str) -> int:
    for index, layer in enumerate(LAYERS):
        if unit in layer:
            return index
    raise AssertionError(f"{unit}: not in any layer of LAYERS (add it where it belongs)")


def test_every_unit_has_a_layer() -> None:
    units = {_unit(_module_name(path)) for path in SRC.rglob("*.py")} - {"__init__", *GROUPS}
    for unit in units:
        _layer(unit)


def test_imports_run_downward_only() -> None:
    upward = []
    for path in sorted(SRC.rglob("*.py")):
        source = _unit(_module_name(path))
        if source in {"__init__", *GROUPS}:
            continue
        for target in {_unit(name) for name in _imports(path)} - {source, "__init__"}:
            if _layer(target) <= _layer(source):
                upward.append(f"{path.relative_to(SRC)} imports privbench.{target}")
    assert upward == []


def test_the_check_sees_an_upward_import(tmp_path: Path) -> None:
    """The walk counts imports inside functions (a cycle dodged there is still a cycle)."""
    module = tmp_path / "m.py"
    module.write_text("def f():\n    from privbench.cli import app\n    return app\n")
    assert _imports(module) == ["privbench.cli"]


def _suite_importers(src: Path = SRC) -> set[str]:
    """Modules outside a benchmark's own folder, its tooling (``tooling/<benchmark>*``)
    and ``registry.py`` that import ``privbench.suites.<benchmark>``."""
    found = set()
    for path in sorted(src.rglob("*.py")):
        where = path.relative_to(src)
        parts = where.with_suffix("").parts
        if where.as_posix() == "registry.py" or parts[0] == "suites":
            continue
        for name in _imports(path):
            target = name.split(".")
            if len(target) < 3 or target[1] != "suites":
                continue
            if parts[0] == "tooling" and len(parts) > 1 and parts[1].startswith(target[2]):
                continue
            found.add(where.as_posix())
    return found


def test_only_the_registry_names_a_benchmark() -> None:
    """Generic code reaches benchmarks through :mod:`privbench.registry` (a new benchmark
    is then its folder and one registry line)."""
    assert sorted(_suite_importers()) == [], "go through privbench.registry"


def test_the_check_sees_a_generic_module_naming_a_benchmark(tmp_path: Path) -> None:
    """A generic module, or one suite's tooling, importing a benchmark is found; the
    registry, the benchmark's own folder and its own tooling are not."""
    sources = {
        "analysis/view.py": "from privbench.suites.priviq.log import priviq_log\n",
        "tooling/spatialtrust_scenes/x.py": "import privbench.suites.priviq.dataset\n",
        "tooling/priviq_generator/y.py": "from privbench.suites.priviq import dataset\n",
        "suites/priviq/z.py": "from privbench.suites.priviq.log import priviq_log\n",
        "registry.py": "from privbench.suites.spatialtrust.suite import SUITE\n",
    }
    for name, text in sources.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    assert _suite_importers(tmp_path) == {"analysis/view.py", "tooling/spatialtrust_scenes/x.py"}


def _type_names(path: Path) -> list[str]:
    """Classes and module-level type aliases (``Name = tuple[...]``) defined in ``path``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = [node.name for node in tree.body if isinstance(node, ast.ClassDef)]
    for node in tree.body:
        if (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Subscript)
            and node.targets[0].id[:1].isupper()
            and not node.targets[0].id.isupper()
        ):
            names.append(node.targets[0].id)
    return names


@pytest.mark.parametrize("name", ["Color", "Box", "Placed", "RunIdentity", "RunRecord"])
def test_one_definition_per_type_name(name: str) -> None:
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(SRC.rglob("*.py")):
        for defined in _type_names(path):
            where[defined].append(str(path.relative_to(SRC)))
    assert len(where.get(name, [])) <= 1, where[name]


def test_no_type_name_is_defined_twice() -> None:
    where: dict[str, list[str]] = defaultdict(list)
    for path in sorted(SRC.rglob("*.py")):
        for defined in _type_names(path):
            where[defined].append(str(path.relative_to(SRC)))
    assert {name: paths for name, paths in where.items() if len(paths) > 1} == {}


BENCHMARKS = sorted(path.parent.name for path in (SRC / "suites").glob("*/suite.py"))
"""Every benchmark's folder name (``priviq``), read from the tree."""

CLI_NAMING_A_BENCHMARK: frozenset[str] = frozenset(
    {
        "build.py",  # SpatialTrust's capture builder: that benchmark's own dataset tooling
        "main.py",  # the download group's line in `privbench --help`, which loads no benchmark
    }
)
"""Command-line modules that still name a benchmark, each for the reason beside it. The
eval, grade, generate and download commands are not among them: each benchmark declares
its own, and the command line builds them from the registry; help that says which
benchmark an option is for is filled in from the declarations (``cli/declared_help.py``)."""


def _names_a_benchmark(path: Path) -> bool:
    """Whether ``path``'s source names a benchmark anywhere (code, strings, docstrings;
    case and hyphens aside: ``Priv-IQ`` is ``priviq``)."""
    text = path.read_text(encoding="utf-8").lower().replace("-", "")
    return any(name in text for name in BENCHMARKS)


def test_the_eval_and_grade_commands_name_no_benchmark() -> None:
    assert BENCHMARKS, "no benchmark folder found"
    found = {p.name for p in (SRC / "cli").glob("*.py") if _names_a_benchmark(p)}
    assert sorted(found - CLI_NAMING_A_BENCHMARK) == [], "build the command from the registry"
    assert sorted(CLI_NAMING_A_BENCHMARK - found) == [], "no longer names a benchmark: unlist"
