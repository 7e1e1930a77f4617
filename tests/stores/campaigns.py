"""What the store tests write into campaigns: the golden logs, and a log written as an encounter."""

from __future__ import annotations

from pathlib import Path

from affray.stores.sqlite import Campaign

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
DUEL = (GOLDEN / "duel.jsonl").read_bytes()


def write(campaign: Campaign, name: str, data: bytes) -> None:
    """The log ``data`` written into ``campaign`` as the whole encounter ``name``."""
    output = campaign.writer(name)
    for line in data.splitlines(keepends=True):
        output.write(line)
    output.commit()
