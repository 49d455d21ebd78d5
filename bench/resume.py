"""Interrupt and resume: how many paid requests does a Ctrl-C cost?

500 Priv-IQ items are answered and judged against the loopback OpenAI-compatible server
(a separate process, 0.3 s latency per request, 16 model and 16 judge connections).
SIGINT is sent once ~40 % of the items are judged; the run is then continued with
``--resume``. Printed: requests before the signal, after it, sent by the resume, and the
requests paid twice (ideal: at most the calls in flight when the signal came, ≤ 16 per
endpoint). Run: ``.venv/bin/python bench/resume.py``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from helpers.loopback_server import process_stats, start_process  # noqa: E402

N_ITEMS = 500
LATENCY_S = 0.3
CONNECTIONS = 16
STOP_SHARE = 0.4


def _items(directory: Path) -> Path:
    (directory / "images").mkdir(parents=True)
    codes = ["VizPriv", "NER", "Law", "PET", "Know", "PrivRisk", "CntxPriv", "MultLing"]
    data = {}
    for i in range(N_ITEMS):
        name = f"v1_{i}.png"
        Image.new("RGB", (16, 16), (i % 255, 90, 140)).save(directory / "images" / name)
        data[f"v1_{i}"] = {
            "imagename": name,
            "question": f"Bench question {i}?",
            "answer": f"Reference {i}",
            "capability": [codes[i % len(codes)]],
        }
    (directory / "priv-IQ.json").write_text(json.dumps(data), encoding="utf-8")
    return directory


def _counts(port: int) -> tuple[int, int]:
    """(model requests, judge requests) received so far."""
    stats = process_stats(port)
    return int(str(stats["model"])), int(str(stats["judge"]))


def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="privbench-resume-"))
    data = _items(work / "data")
    server, port = start_process(LATENCY_S, "0.5")
    env = os.environ | {
        "BENCHMODEL_BASE_URL": f"http://127.0.0.1:{port}/v1",
        "BENCHMODEL_API_KEY": "none",
        "BENCHJUDGE_BASE_URL": f"http://127.0.0.1:{port}/v1",
        "BENCHJUDGE_API_KEY": "none",
    }
    logs = work / "logs"
    args = [sys.executable, "-m", "privbench", "eval", "priviq", "--data", str(data),
            "--model", "openai-api/benchmodel/m", "--judge", "openai-api/benchjudge/j",
            "--max-connections", str(CONNECTIONS), "--judge-connections", str(CONNECTIONS),
            "--log-dir", str(logs), "--json"]  # fmt: skip
    try:
        started = time.monotonic()
        run = subprocess.Popen(args, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        while _counts(port)[1] < STOP_SHARE * N_ITEMS:
            time.sleep(0.05)
        at_signal = _counts(port)
        run.send_signal(signal.SIGINT)
        signalled = time.monotonic()
        run.wait(timeout=60)
        stop_s = time.monotonic() - signalled
        before = _counts(port)
        (log,) = logs.glob("*.eval")
        resumed = subprocess.run(
            [sys.executable, "-m", "privbench", "eval", "priviq", "--resume", str(log),
             "--log-dir", str(logs), "--json"],
            env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        total_s = time.monotonic() - started
        after = _counts(port)
        document = json.loads(resumed.stdout)
        resent_model = after[0] - N_ITEMS  # checks are counted apart, as "check"
        resent_judge = after[1] - N_ITEMS
        print(f"items {N_ITEMS}, latency {LATENCY_S} s, {CONNECTIONS} connections per endpoint")
        print(f"exit code after SIGINT: {run.returncode}; stopped {stop_s:.1f} s after the signal")
        print(f"requests at the signal  model {at_signal[0]:4d}  judge {at_signal[1]:4d}")
        print(f"requests before resume  model {before[0]:4d}  judge {before[1]:4d}")
        print(
            f"requests by the resume  model {after[0] - before[0]:4d}  judge {after[1] - before[1]:4d}"
        )
        print(f"paid twice              model {resent_model:4d}  judge {resent_judge:4d}"
              f"  (ideal ≤ {CONNECTIONS} each: the calls in flight)")  # fmt: skip
        print(f"resumed run: status {document['status']}, items {document['counts']['items']}, "
              f"exit {resumed.returncode}; wall {total_s:.1f} s")  # fmt: skip
    finally:
        server.terminate()


if __name__ == "__main__":
    main()
