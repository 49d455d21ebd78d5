"""privbench: measure how well (multimodal) language models handle privacy.

The Python API mirrors the command line: :func:`privbench.suites.priviq.api.grade_priviq` and
:func:`privbench.suites.priviq.api.eval_priviq` run inspect and return scores; the inspect tasks
are :func:`privbench.suites.priviq.task.priviq` and :func:`privbench.suites.priviq.task.priviq_grade`.
"""

__version__ = "0.1.0"
