"""What a grade run loads and starts that it never uses stays out of it.

Why: grading 146 answers spent longer starting and stopping than calling the judge
(bench/judge_throughput.py splits the two): OpenCV and phonenumbers loaded through
privbench's inspect entry point, and a last garbage collection at exit over every object
the run left. The run below is a real
``privbench grade priviq`` in a subprocess against the loopback judge; what it imported
and whether the exit collection was skipped are read at its exit, after its own
``atexit`` handlers. No timing is asserted.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from pathlib import Path

from helpers import JUDGE
from helpers.loopback_server import LoopbackServer

from privbench.runtime.gc_tuning import RUN_THRESHOLDS, command_process

UNUSED = ("cv2", "phonenumbers", "stdnum", "matplotlib", "seaborn", "scipy", "pingouin")
"""Packages a Priv-IQ grade run has no use for."""

DRIVER = f"""
import atexit, gc, json, sys

def report():
    loaded = sorted(name for name in {UNUSED!r} if name in sys.modules)
    print("STARTUP " + json.dumps({{"loaded": loaded, "frozen": gc.get_freeze_count()}}))

atexit.register(report)  # registered first: runs after every other handler
sys.argv = ["privbench", *sys.argv[1:]]
from privbench.cli import main
main()
"""


def grade_in_subprocess(
    server: LoopbackServer, priviq_dir: Path, predictions: Path, tmp_path: Path
) -> dict[str, object]:
    environment = os.environ | {"LOOPJUDGE_BASE_URL": server.base_url}
    environment["LOOPJUDGE_API_KEY"] = "sk-startup-test"
    options = ["--data", str(priviq_dir), "--predictions", str(predictions), "--judge", JUDGE]
    outputs = ["--out", str(tmp_path / "out"), "--log-dir", str(tmp_path / "logs")]
    result = subprocess.run(
        [sys.executable, "-c", DRIVER, "grade", "priviq", *options, "--json", *outputs],
        capture_output=True,
        text=True,
        check=False,
        env=environment,
        timeout=240,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    document = json.loads(result.stdout.splitlines()[0])
    assert (document["status"], document["counts"]["items"]) == ("complete", 4)
    line = next(text for text in result.stdout.splitlines() if text.startswith("STARTUP "))
    report: dict[str, object] = json.loads(line.removeprefix("STARTUP "))
    return report


def test_a_grade_run_loads_nothing_it_does_not_use(
    server: LoopbackServer, priviq_dir: Path, predictions: Path, tmp_path: Path
) -> None:
    report = grade_in_subprocess(server, priviq_dir, predictions, tmp_path)
    assert report["loaded"] == []
    assert isinstance(report["frozen"], int) and report["frozen"] > 0


def test_a_command_collects_less_often_and_not_at_exit() -> None:
    gc.unfreeze()
    before = gc.get_threshold()
    try:
        with command_process():
            assert gc.get_threshold() == RUN_THRESHOLDS
        assert gc.get_threshold() == before
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()  # this test process goes on
