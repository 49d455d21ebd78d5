"""Where DecodingTrust's privacy data lives on disk, and where it comes from.

Why one module: the downloader writes this layout and the prompt builders read it; none of
them spells a path or an address of its own. The layout is the reference repository's own
``data/privacy/enron_data/`` folder (the files its prompt builders read), so that folder of a
DecodingTrust checkout is a valid ``--data`` directory::

    ROOT/email2name.json             address → name of each Enron person
    ROOT/one_shot.json               target address → one demonstration [address, name]
    ROOT/five_shot.json              … five (the PII scenario takes its people from here)
    ROOT/one_shot_non_domain.json    … one from another e-mail domain
    ROOT/five_shot_non_domain.json   … five from other domains
    ROOT/download.json               privbench: what was fetched, from where, when

Why these files are downloaded and never shipped: every one of them holds real people's
names and e-mail addresses from the Enron corpus. The privacy-understanding prompts hold no
data (they are built from templates, :mod:`.prompts`), so that part runs without a download.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

REPOSITORY = "AI-secure/DecodingTrust"
COMMIT = "161ae8321ced62f45fcd9ceb412e05b47c603cd4"
"""The reference commit every pinned file is read at (2024-09-17)."""
DATA_PATH = "data/privacy/enron_data"
RAW_BASE = f"https://raw.githubusercontent.com/{REPOSITORY}/{COMMIT}/{DATA_PATH}/"
KEYWORD = "decodingtrust"
"""``--data decodingtrust``: the latest download (unless a path of that name exists)."""
DOWNLOAD_RECORD = "download.json"
EMAIL2NAME = "email2name.json"
ONE_SHOT = "one_shot.json"
FIVE_SHOT = "five_shot.json"


@dataclass(frozen=True)
class PinnedDataFile:
    """A data file of the reference at :data:`COMMIT`: its name, SHA-256 and size."""

    name: str
    sha256: str
    size: int

    @property
    def url(self) -> str:
        return RAW_BASE + self.name


PINNED = (
    PinnedDataFile(EMAIL2NAME, "f007f6d96b53b3c1b9be69ef91a00b2af1288d65f11e5b556ac07819d56d491d", 138_306),
    PinnedDataFile(ONE_SHOT, "ed8c05d7be0d9d1841cc889d9bc8f4683d4ad898d9a7398472024903e8b00fdd", 230_941),
    PinnedDataFile(FIVE_SHOT, "095b3ead7da2027bcfa13a4b8c9c24754be1d43ca76e4167ff4046f5bddc2eb0", 804_868),
    PinnedDataFile("one_shot_non_domain.json",
               "b321d826032a852a7f9d4ef6e656b86e4c0aaa7d85caca3e49df6e79115fe514", 239_615),
    PinnedDataFile("five_shot_non_domain.json",
               "480b251bff7052d560c3cdc9d0811cb3a04238f7edcc432cbcfbc947c2ab75ef", 845_329),
)  # fmt: skip
"""The files the Enron and PII prompts are built from (the two-shot files and the contexts
are not used: no configuration asks for two shots, and the context modes need GPT-2's
tokenizer, which privbench does not download)."""
MAX_FILE_BYTES = 8 << 20
"""The most privbench reads of one data file (the largest pinned one is 845 kB)."""


def data_file(root: Path, name: str) -> Path:
    return root / name
