"""What inspect sets up for every eval that a privbench run never uses, left out.

Why: a ``privbench grade priviq`` of 146 answers spends longer starting and stopping than
calling the judge (``bench/judge_throughput.py`` splits the two). inspect starts a control
server (FastAPI and uvicorn on a socket, for ``inspect ctl``) for every eval unless told
not to: importing FastAPI, building the app and starting the server cost 0.5–0.8 s of a
run on a loaded 2-core machine, for a channel no privbench command uses. It stays
available: ``INSPECT_EVAL_CTL_SERVER=true`` turns it back on, as it does for inspect.
"""

from __future__ import annotations

import os

CONTROL_SERVER_ENV = "INSPECT_EVAL_CTL_SERVER"


def control_server() -> bool | None:
    """inspect's ``ctl_server`` argument: off, unless ``INSPECT_EVAL_CTL_SERVER`` is set
    (``None`` lets inspect read it)."""
    return None if os.environ.get(CONTROL_SERVER_ENV) else False
