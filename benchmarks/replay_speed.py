"""Replay speed: read a large log (check the hash chain, decode) and fold it, against raw msgspec decoding.

The log is the melee of ``melee.py`` run to about ``--events`` events (200k by default; 0 for the whole
fight), written with ``encode_log`` to a temporary file and read back into memory once; or an existing log
given with ``--log``. Then, best of ``--repeat`` runs each, wall clock (``time.perf_counter``), gc on:

- replay: ``fold(read_bytes(data, rulesets.vocabulary_for, folding=True).events, vocabulary)``: split the
  lines, check the hash chain (format 2: one hash per block of 1,024 lines; ``--format 1``: every line's),
  every line's seq and time, decode each event with the members its fold reads
  (``Vocabulary.fold_decoder``: an attack without its rolls and derivation), fold them into the state;
- whole replay: the same with every member of every event decoded (``folding=False``), as ``affray
  replay`` and ``verify`` read;
- raw msgspec: ``msgspec.json.Decoder(vocabulary.union).decode_lines`` over the same event lines, with no
  chain and no fold;
- the split of the replay: the same steps timed alone with gc off (splitting, hashing, decoding, folding);
  the rest (``_Chain``'s suffix, seq and time checks and calls: the replay with gc off minus those steps);
  and the garbage collector's share (the replay with gc on minus the replay with gc off).

The target is a million events per second in replay.

    python benchmarks/replay_speed.py [--events N] [--repeat R] [--format 1|2] [--log PATH] [--json]
"""

from __future__ import annotations

import argparse
import gc
import json
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import msgspec
import msgspec.structs
from melee import (
    ENERGION,
    WHOLE_FIGHT_SECONDS,
    best_of,
    environment,
    melee_scenario,
    rate,
    seconds_for_events,
    timed,
)

from affray import rulesets
from affray.events.codec import BLOCK_LINES, block_hash, encode_log, format_of, line_hash
from affray.events.reader import LogFile, read_bytes
from affray.kernel.fold import digest, fold

TARGET = 1_000_000
_END_PREFIX = b'{"end":'


def replay(data: bytes, folding: bool = True) -> tuple[LogFile, Any]:
    """What a replay does: read the whole log (chain, seq, time, decode; with ``folding``, only what the
    fold reads) and fold its events.

    The log is returned too, so that freeing its events is not timed.
    """
    log = read_bytes(data, rulesets.vocabulary_for, folding=folding)
    if log.problem is not None:
        raise SystemExit(f"error: the log does not read cleanly: {log.problem}")
    return log, fold(log.events, log.vocabulary)


def without_gc(work: Callable[[], Any]) -> Callable[[], Any]:
    """``work`` with the garbage collector off while it runs."""

    def run() -> Any:
        gc.disable()
        try:
            return work()
        finally:
            gc.enable()

    return run


def make_log(events: int, folder: Path, format_version: int) -> tuple[bytes, str, float]:
    """Run the melee, write its log with encode_log in that format, read the file back; the bytes, live
    digest, run time.

    ``events`` 0 runs the whole melee, to the end of one side.
    """
    scenario = melee_scenario(seconds_for_events(events) if events else WHOLE_FIGHT_SECONDS)
    battle = ENERGION.battle(scenario)
    seconds, encounter = timed(battle.run)
    path = folder / "melee.jsonl"
    header = msgspec.structs.replace(ENERGION.header(scenario), format_version=format_version)
    path.write_bytes(encode_log(header, encounter.log))
    return path.read_bytes(), digest(encounter.state), seconds


def event_lines(data: bytes) -> list[bytes]:
    """The event lines of a log: everything between the header and the end line."""
    lines = data.split(b"\n")[1:]
    while lines and (not lines[-1] or lines[-1].startswith(_END_PREFIX)):
        lines.pop()
    return lines


def measure(data: bytes, repeat: int) -> dict[str, Any]:
    """Time the replay, raw msgspec, and each step of the replay alone.

    Nothing big is kept alive between measurements, so the collector sees only what the step makes.
    """
    lines = event_lines(data)
    count = len(lines)
    block = b"\n".join(lines)
    vocabulary = replay(data)[0].vocabulary
    decoder = msgspec.json.Decoder(vocabulary.union)
    decode = vocabulary.fold_decoder.decode

    replay_s, (_, state) = best_of(repeat, lambda: replay(data))
    replay_digest = digest(state)
    whole_s, (_, state) = best_of(repeat, lambda: replay(data, folding=False))
    if digest(state) != replay_digest:
        raise SystemExit("error: the whole replay and the replay that only folds end in different states")
    del state
    raw_s = best_of(repeat, lambda: len(decoder.decode_lines(block)))[0]
    replay_no_gc_s = best_of(repeat, without_gc(lambda: replay(data)))[0]

    def alone(work: Callable[[], Any]) -> float:
        return best_of(repeat, without_gc(work))[0]

    split_s = alone(lambda: data.split(b"\n"))
    split = {
        "split_lines": split_s,
        "hash_chain": max(alone(_chain_hashes(data)) - split_s, 0.0),
        "decode_events": alone(lambda: [decode(line) for line in lines]),
    }
    split["fold"] = _fold_alone(vocabulary.fold_decoder.decode_lines(block), vocabulary, repeat)
    split["chain_checks_and_calls"] = max(replay_no_gc_s - sum(split.values()), 0.0)
    split["garbage_collector"] = max(replay_s - replay_no_gc_s, 0.0)
    return {
        "benchmark": "replay_speed",
        "events": count,
        "log_bytes": len(data),
        "format_version": format_of(data[: data.index(b"\n")]),
        "repeat": repeat,
        "replay_seconds": replay_s,
        "replay_seconds_gc_off": replay_no_gc_s,
        "whole_replay_seconds": whole_s,
        "whole_replay_events_per_s": count / whole_s,
        "raw_msgspec_seconds": raw_s,
        "replay_events_per_s": count / replay_s,
        "raw_msgspec_events_per_s": count / raw_s,
        "ratio": raw_s / replay_s,
        "target_events_per_s": TARGET,
        "meets_target": count / replay_s >= TARGET,
        "split_seconds": split,
        "replay_digest": replay_digest,
        **environment(),
    }


def _chain_hashes(data: bytes) -> Callable[[], Any]:
    """What hashing the chain costs, with splitting the lines: every line (format 1), or every block of
    lines, joined with their newlines as a reader holds them (format 2)."""
    if format_of(data[: data.index(b"\n")]) < 2:
        return lambda: [line_hash(line) for line in data.split(b"\n")]

    def blocks() -> list[str]:
        lines = data.splitlines(keepends=True)
        starts = range(0, len(lines), BLOCK_LINES)
        return [block_hash(b"".join(lines[at : at + BLOCK_LINES])) for at in starts]

    return blocks


def _fold_alone(events: list[Any], vocabulary: Any, repeat: int) -> float:
    return best_of(repeat, without_gc(lambda: fold(events, vocabulary)))[0]


def report(r: dict[str, Any], generated: str) -> str:
    """The figures for people."""
    count = r["events"]
    verdict = "met" if r["meets_target"] else "not met"
    out = [
        f"replay_speed: {count:,} events, {r['log_bytes'] / 1e6:.1f} MB of JSON Lines, log format "
        f"{r['format_version']} ({generated})",
        f"best of {r['repeat']}, wall clock (perf_counter), gc on, Python {r['python']}, "
        f"msgspec {r['msgspec']}",
        f"  replay  read_bytes + fold            {r['replay_seconds']:8.3f} s  "
        f"{rate(count, r['replay_seconds']):>20}   (target {TARGET:,}/s: {verdict})",
        f"  whole   every member decoded         {r['whole_replay_seconds']:8.3f} s  "
        f"{rate(count, r['whole_replay_seconds']):>20}",
        f"  raw     Decoder(union).decode_lines  {r['raw_msgspec_seconds']:6.3f} s  "
        f"{rate(count, r['raw_msgspec_seconds']):>20}",
        f"  ratio   replay / raw msgspec = {r['ratio']:.3f}",
        "  where the replay's time goes (each step timed alone, best of each):",
    ]
    labels = {
        "split_lines": "split into lines",
        "hash_chain": "BLAKE2b of the chain",
        "decode_events": "decode what the fold reads",
        "fold": "fold (apply per event)",
        "chain_checks_and_calls": "rest (_Chain checks, calls)",
        "garbage_collector": "garbage collector",
    }
    for key, label in labels.items():
        seconds = r["split_seconds"][key]
        out.append(
            f"    {label:<32} {seconds:7.3f} s  {seconds / count * 1e6:6.2f} us/event  "
            f"{seconds / r['replay_seconds']:6.1%}"
        )
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    """Parse the options, make or read the log, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--events",
        type=int,
        default=200_000,
        help="about how many events (default 200000; 0 for the whole melee, 200k to 270k)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs of each measurement; the best counts")
    parser.add_argument(
        "--format", type=int, choices=(1, 2), default=2, help="the log format to write (default 2)"
    )
    parser.add_argument("--log", type=Path, help="replay this log instead of running the melee")
    parser.add_argument("--json", action="store_true", help="print one JSON line instead of the table")
    args = parser.parse_args(argv)
    if args.events < 0 or args.repeat < 1:
        parser.error("--events must be at least 0 and --repeat at least 1")
    live = None
    if args.log is not None:
        data = args.log.read_bytes()
        generated = str(args.log)
    else:
        with tempfile.TemporaryDirectory(prefix="affray-bench-") as folder:
            data, live, seconds = make_log(args.events, Path(folder), args.format)
        generated = f"the melee, simulated in {seconds:.1f} s, written with encode_log to a temporary file"
    result = measure(data, args.repeat)
    if live is not None:
        result["replayed_state_equals_live"] = result["replay_digest"] == live
        if not result["replayed_state_equals_live"]:
            raise SystemExit("error: the replayed state differs from the live state")
    print(json.dumps(result) if args.json else report(result, generated))
    return 0


if __name__ == "__main__":
    sys.exit(main())
