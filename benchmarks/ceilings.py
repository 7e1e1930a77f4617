"""The most a kernel event and a replayed event can be in this Python: stand-ins for format 2, measured.

Issue 23 asks for the kernel at a third of bare SimPy and a replay of a million events a second. These
two stand-ins keep only what such an event cannot do without, written as tightly as we can, so that
their figures bound what any affray of this design could reach on this machine:

- **kernel**: 20 SimPy processes, each striking a blow per gap: a d100 hit roll from a BLAKE2b-512
  stream giving eight words a hash (``blake2b-ctr-v2``'s way), its quality looked up by roll, a parry
  roll for a blow that would land, one flat event of integers (thousandths) recording both rolls and
  their draws, built once and folded by updating two combatants' counters in place, and the event kept
  in a list. No controller, no checks, no derivation records, no ruleset dispatch. Against bare SimPy
  timeouts, as ``kernel_melee.py`` measures.
- **replay**: 200,000 such events as JSON arrays (about 100 bytes a line), their hash chained per block
  of 1,024 lines (one BLAKE2b call a block), read back by checking each block's hash, decoding each block
  with msgspec into array-like Structs and folding them into counters, with the seq and time checks; and
  the same events as JSON objects, each member named as affray's lines name them (about 230 bytes): what
  a line that reads as it says costs against an array.
- **number types**: the attack lines of the melee of ``melee.py`` (about ``--events`` events) decoded as
  affray writes them today (nested records of decimals), and the same facts written flat, once with
  decimals and once with integers in thousandths: which of the two changes is what a faster decode needs.

Best of ``--repeat`` runs, side by side in this process. Neither stand-in is a log format or a kernel of
affray's: they are the floor under format 2's design (benchmarks/README.md, "What is left").

    python benchmarks/ceilings.py [--events N] [--repeat R] [--json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import struct
import time
from collections.abc import Callable, Generator
from decimal import Decimal
from typing import Any

import msgspec
import simpy
from melee import ENERGION, melee_scenario, seconds_for_events

from affray.events.codec import ENCODER
from affray.events.energion.kinds import AttackResolved

KERNEL_GOAL = 1 / 3
REPLAY_GOAL = 1_000_000
BLOCK = 1024
FIGHTERS = 20


class Blow(msgspec.Struct, kw_only=True, frozen=True, gc=False, array_like=True, tag="attack_resolved"):
    """A melee blow as one flat event of integers (thousandths): both rolls with their draws."""

    seq: int
    t: int
    attacker: str
    target: str
    weapon: str
    chance: int
    armor: int
    hit_roll: int
    hit_draw: int
    quality: int
    parry_roll: int | None = None
    parry_draw: int | None = None
    parry_chance: int | None = None
    outcome: str
    damage: int | None = None


class BlowObject(
    Blow, frozen=True, array_like=False, tag="attack_resolved", tag_field="kind", omit_defaults=True
):
    """The same blow as a JSON object, each member named, the members at their default left out."""


class Stream:
    """A d100 stream drawing eight 64-bit words from each BLAKE2b-512 hash of its name and counter."""

    __slots__ = ("base", "draws", "words")

    def __init__(self, name: str) -> None:
        self.base = hashlib.blake2b(name.encode(), digest_size=64)
        self.draws = 0
        self.words: list[int] = []

    def d100(self) -> int:
        """One face of a d100 (the modulo bias does not matter to a timing)."""
        if not self.words:
            hashed = self.base.copy()
            hashed.update(self.draws.to_bytes(8, "little"))
            self.words = list(struct.unpack("<8Q", hashed.digest()))
        self.draws += 1
        return self.words.pop() % 100 + 1


class Counters:
    """What the fold keeps of a fighter."""

    __slots__ = ("attacked_ms", "attacks", "damage_taken", "hits")

    def __init__(self) -> None:
        self.attacks = self.attacked_ms = self.damage_taken = self.hits = 0


def _fighter(
    env: simpy.Environment,
    me: str,
    foe: str,
    fold: dict[str, Counters],
    log: list[Blow],
    gap: int,
    count: int,
) -> Generator[Any, Any, None]:
    hits, parries = Stream(f"{me}/hit"), Stream(f"{me}/parry")
    qualities: dict[int, int] = {}
    attacker, defender = fold[me], fold[foe]
    for _ in range(count):
        roll = hits.d100()
        quality = qualities.get(roll)
        if quality is None:
            quality = qualities[roll] = 62_500 - roll * 1000
        parry = parries.d100() if quality > 0 else None
        parried = parry is not None and parry <= 25
        damage = 11_250 if quality > 0 and not parried else None
        outcome = "parried" if parried else "hit" if damage else "miss"
        blow = Blow(
            seq=len(log) + 1,
            t=int(env.now),
            attacker=me,
            target=foe,
            weapon="Sword, Long",
            chance=82_500,
            armor=20_000,
            hit_roll=roll,
            hit_draw=hits.draws,
            quality=quality,
            parry_roll=parry,
            parry_draw=None if parry is None else parries.draws,
            parry_chance=None if parry is None else 25_000,
            outcome=outcome,
            damage=damage,
        )
        attacker.attacks += 1
        attacker.attacked_ms = blow.t
        if damage is not None:
            attacker.hits += 1
            defender.damage_taken += damage
        log.append(blow)
        yield env.timeout(gap)


def _ticker(env: simpy.Environment, gap: int, count: int) -> Generator[Any, Any, None]:
    for _ in range(count):
        yield env.timeout(gap)


def kernel_stand_in(events: int) -> tuple[float, list[Blow]]:
    """Seconds for ``events`` blows of the stand-in kernel, and its log."""
    env = simpy.Environment()
    fold = {f"f{i}": Counters() for i in range(FIGHTERS)}
    log: list[Blow] = []
    for i in range(FIGHTERS):
        foe = f"f{(i + FIGHTERS // 2) % FIGHTERS}"
        env.process(_fighter(env, f"f{i}", foe, fold, log, 1000 + 37 * i, events // FIGHTERS))
    started = time.perf_counter()
    env.run()
    return time.perf_counter() - started, log


def bare_simpy(events: int) -> float:
    """Seconds for ``events`` bare SimPy timeouts among 20 processes."""
    env = simpy.Environment()
    for i in range(FIGHTERS):
        env.process(_ticker(env, 1000 + 37 * i, events // FIGHTERS))
    started = time.perf_counter()
    env.run()
    return time.perf_counter() - started


def written(log: list[Blow], kind: type[Blow] = Blow) -> bytes:
    """The blows as JSON arrays (or as ``kind``), a line each, a block line after every ``BLOCK`` lines
    chaining them."""
    encode = msgspec.json.Encoder().encode
    if kind is not Blow:
        log = [kind(**msgspec.structs.asdict(blow)) for blow in log]
    parts, chained = [], b"\0" * 32
    for first in range(0, len(log), BLOCK):
        block = b"".join(encode(blow) + b"\n" for blow in log[first : first + BLOCK])
        chained = hashlib.blake2b(chained + block, digest_size=32).digest()
        parts += [block, b'{"block":%d,"hash":"%s"}\n' % (first // BLOCK, chained.hex().encode())]
    return b"".join(parts)


class BlockLine(msgspec.Struct):
    """A block line: its number and the chained hash of the lines before it."""

    block: int
    hash: str


def replay_stand_in(data: bytes, kind: type[Blow] = Blow) -> dict[str, Counters]:
    """Check the block chain, decode (as ``kind``) and fold every event of ``data``."""
    blows = msgspec.json.Decoder(kind)
    blocks = msgspec.json.Decoder(BlockLine)
    fold = {f"f{i}": Counters() for i in range(FIGHTERS)}
    chained, start, seq, t = b"\0" * 32, 0, 0, 0
    while (marker := data.find(b'{"block":', start)) >= 0:
        end = data.index(b"\n", marker)
        block = data[start:marker]
        chained = hashlib.blake2b(chained + block, digest_size=32).digest()
        if blocks.decode(data[marker:end]).hash != chained.hex():
            raise SystemExit("error: a block does not chain")
        for blow in blows.decode_lines(block):
            seq += 1
            if blow.seq != seq or blow.t < t:
                raise SystemExit(f"error: seq {seq} is out of order")
            t = blow.t
            attacker = fold[blow.attacker]
            attacker.attacks += 1
            attacker.attacked_ms = t
            if blow.damage is not None:
                attacker.hits += 1
                fold[blow.target].damage_taken += blow.damage
        start = end + 1
    return fold


def _flat_blow(name: str, figure: type[Any]) -> type[Any]:
    """A plain blow's facts as one flat Struct, each of its figures of type ``figure``."""
    optional = figure | None
    fields = [
        *[(n, int) for n in ("seq", "t")],
        *[(n, str) for n in ("attacker", "target", "weapon")],
        *[(n, figure) for n in ("skill", "bonus", "hit_chance")],
        ("armor", str),
        *[(n, int) for n in ("weapon_type", "armor_value", "shield_bonus", "hit_roll", "hit_draw")],
        ("quality", figure),
        ("outcome", str),
        ("parry_device", str | None, None),
        ("parry_chance", optional, None),
        *[(n, int | None, None) for n in ("parry_roll", "parry_draw", "base")],
        *[
            (n, optional, None)
            for n in ("strength_bonus", "weapon_bonus", "potential", "multiplier", "damage")
        ],
    ]
    return msgspec.defstruct(name, fields, kw_only=True, gc=False, tag="attack_resolved", tag_field="kind")


FlatDecimals = _flat_blow("FlatDecimals", Decimal)
"""A plain blow's facts flat, its figures as decimals."""
FlatThousandths = _flat_blow("FlatThousandths", int)
"""The same facts, each figure an integer of thousandths."""


def flat(attack: AttackResolved, figure: Callable[[Decimal], Any], kind: type[Any]) -> Any:
    """A plain blow's facts as ``kind``, each figure made by ``figure``."""
    hit, parry, damage = attack.hit, attack.parry, attack.damage
    facts: dict[str, Any] = {
        **{name: getattr(attack, name) for name in ("seq", "t", "attacker", "target", "weapon", "outcome")},
        **{name: getattr(hit, name) for name in ("armor", "weapon_type", "armor_value", "shield_bonus")},
        **{name: figure(getattr(hit, name)) for name in ("skill", "bonus", "hit_chance", "quality")},
        "hit_roll": hit.roll.total,
        "hit_draw": hit.roll.draw,
    }
    if parry is not None:
        facts |= {"parry_device": parry.device, "parry_chance": figure(parry.chance)}
        facts |= {"parry_roll": parry.roll.total, "parry_draw": parry.roll.draw}
    if damage is not None:
        named = ("strength_bonus", "weapon_bonus", "potential", "multiplier", "damage")
        facts |= {"base": damage.base, **{name: figure(getattr(damage, name)) for name in named}}
    return kind(**facts)


def number_types(events: int, repeat: int) -> dict[str, float]:
    """Attack lines decoded a second: today's, flat with decimals, flat with integers in thousandths."""
    log = ENERGION.battle(melee_scenario(seconds_for_events(events))).run().log
    attacks = [e for e in log if type(e) is AttackResolved and e.hit.ranged is None and not e.hit.modifiers]

    def thousandths(value: Decimal) -> int:
        return int(value * 1000)

    forms = {
        "today": (AttackResolved, [ENCODER.encode(a) for a in attacks]),
        "flat_decimals": (FlatDecimals, [ENCODER.encode(flat(a, Decimal, FlatDecimals)) for a in attacks]),
        "flat_thousandths": (
            FlatThousandths,
            [ENCODER.encode(flat(a, thousandths, FlatThousandths)) for a in attacks],
        ),
    }
    fastest = dict.fromkeys(forms, float("inf"))
    for _ in range(repeat):  # the forms in turn, so that the machine's drift falls on each alike
        for name, (kind, lines) in forms.items():
            fastest[name] = min(fastest[name], best(1, decode_each, msgspec.json.Decoder(kind).decode, lines))
    return {name: len(attacks) / seconds for name, seconds in fastest.items()}


def decode_each(decode: Callable[[bytes], Any], lines: list[bytes]) -> None:
    """Decode every line, keeping none."""
    for line in lines:
        decode(line)


def best(repeat: int, work: Any, *args: Any) -> float:
    """The least seconds of ``repeat`` runs of ``work(*args)``."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work(*args)
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> None:
    """Measure both stand-ins and print them against their goals."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    kernel = min(kernel_stand_in(args.events)[0] for _ in range(args.repeat))
    simpy_s = min(bare_simpy(args.events) for _ in range(args.repeat))
    _, log = kernel_stand_in(args.events)
    data = written(log)
    replay = best(args.repeat, replay_stand_in, data)
    objects = written(log, BlowObject)
    replay_objects = best(args.repeat, replay_stand_in, objects, BlowObject)
    events = len(log)
    decoded = number_types(args.events, args.repeat)
    figures = {
        "events": events,
        "kernel_per_s": events / kernel,
        "simpy_per_s": events / simpy_s,
        "kernel_ratio": simpy_s / kernel,
        "replay_per_s": events / replay,
        "bytes_per_line": len(data) / events,
        "replay_objects_per_s": events / replay_objects,
        "bytes_per_object_line": len(objects) / events,
        "attack_lines_decoded_per_s": decoded,
    }
    if args.json:
        print(json.dumps(figures))
        return
    ratio, rate = figures["kernel_ratio"], figures["replay_per_s"]
    kernel_verdict = "within reach" if ratio >= KERNEL_GOAL else "out of reach"
    replay_verdict = "within reach" if rate >= REPLAY_GOAL else "out of reach"
    print(f"ceilings: {events:,} blows, best of {args.repeat}")
    print(
        f"  kernel stand-in {figures['kernel_per_s']:11,.0f} /s"
        f"   bare SimPy {figures['simpy_per_s']:11,.0f} /s"
        f"   ratio {ratio:.3f} (goal {KERNEL_GOAL:.3f}: {kernel_verdict})"
    )
    print(
        f"  replay stand-in {rate:11,.0f} /s   ({figures['bytes_per_line']:.0f} bytes a line;"
        f" goal {REPLAY_GOAL:,}: {replay_verdict})"
    )
    print(
        f"  the same as objects {figures['replay_objects_per_s']:11,.0f} /s   "
        f"({figures['bytes_per_object_line']:.0f} bytes a line)"
    )
    print(
        f"  the melee's attack lines decoded: today's {decoded['today']:,.0f} /s, flat with decimals"
        f" {decoded['flat_decimals']:,.0f} /s, flat with integers in thousandths"
        f" {decoded['flat_thousandths']:,.0f} /s"
    )


if __name__ == "__main__":
    main()
