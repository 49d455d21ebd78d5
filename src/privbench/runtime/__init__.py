"""The run machinery both benchmarks share, in one place.

* :mod:`.running` — run options, the inspect run, interrupt and ``--resume``;
* :mod:`.answers` — the model's answers kept until a run completes (a resume reuses them);
* :mod:`.judge_check` — models, judges and the reachability check before a run;
* :mod:`.judging` — asking a judge until its reply parses; fencing untrusted text;
* :mod:`.log_reading` — results read back from inspect logs;
* :mod:`.progress` — the progress line; :mod:`.output_dirs` — writable outputs first;
* :mod:`.gc_tuning` — fewer GC pauses during a run;
* :mod:`.errors` — one-line user errors; :mod:`.redaction` — no API key in any output.
"""
