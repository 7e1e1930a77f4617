"""The contract every ruleset keeps, as a pytest suite that a ruleset's author runs from their own tests.

One scenario and seed give one log byte for byte; the live state is the fold of the log at every seq;
its logs verify, and tampering is caught; every die rolled is in the log, once and in order; every kind is
told and explained, and round-trips through the log's encoding; a players' copy of a log with every stream
sealed withholds every roll, folds to the log's state, is told, explained, drawn and shown, and catches a
sealed value changed since; its tables have names one can type; its
combatants can be played from outside affray (and such a run verifies), or it says why not; and every
command (run, battle with a sweep, odds, whatif --intent, adjudicate, timeline, view, regress, verify)
runs on its first sample as a user types it.

Subclass :class:`RulesetContract` in a test module, naming the ruleset and its sample scenario files, and
pytest collects every check of the contract for it (run on every sample where a check takes one)::

    from pathlib import Path

    from affray.testing.contract import RulesetContract

    class TestMyRuleset(RulesetContract):
        ruleset = "mine"  # its name (built in or installed), or the Ruleset value itself
        samples = [Path(__file__).parent / "duel.toml"]

A module's tables are checked by subclassing :class:`ModuleContract` the same way (``module = "mine"``).
affray's own tests run the built-in rulesets and modules through this suite (tests/contract/).
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, ClassVar

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from affray import rulesets
from affray.batch.odds import Sampling, recorded_odds
from affray.cli.odds import fight_odds
from affray.errors import AffrayError
from affray.events.base import Event, rolls_in
from affray.events.codec import ENCODER, encode_log, rechained
from affray.events.reader import LogFile, read_bytes
from affray.events.sealed import is_sealed, sealed_values
from affray.events.shared import RulingApplied, kind_of
from affray.events.vocabulary import Vocabulary
from affray.kernel.dice import Need, Stream
from affray.kernel.encounter import Encounter
from affray.kernel.fold import digest, fold
from affray.kernel.ruleset import Module, Reading, Ruleset
from affray.replays import page, timeline
from affray.replays.continuation import check_prefix, continued_scenario
from affray.replays.explain import explain, explain_all
from affray.replays.narrate import SHARED_TELLERS, narrate, tell
from affray.replays.redact import Seal, copy_difference, players_copy
from affray.replays.verify import fold_only, verify
from affray.replays.whatif import IntentChange, scenario_with
from affray.testing.strategies import instances

Rolled = tuple[str, int]
"""A roll as stream (``roller/purpose``) and draw."""


def _load(path: Path) -> tuple[Ruleset[Any, Any], Any]:
    return rulesets.load_scenario(path)


COMMANDS = ("run", "battle", "odds", "whatif", "adjudicate", "timeline", "view", "regress", "verify")
"""The commands the contract runs on a sample, as a user types them."""
ODDS_SECONDS = 10
"""The seconds of the first sample whose odds the contract works out at every roll."""
MOST_STEPS = 1_000_000
"""The most steps a run played from outside takes in the contract suite."""


def _log_of(path: Path) -> bytes:
    ruleset, scenario = _load(path)
    return encode_log(ruleset.header(scenario), ruleset.battle(scenario).run().log)


def _read(data: bytes) -> LogFile:
    """A log read back as ``affray`` reads it, with the registry's vocabularies."""
    return read_bytes(data, rulesets.vocabulary_for)


def _lines(data: bytes) -> list[bytes]:
    """The lines of a whole log, without newlines: header, events, end line."""
    return data[:-1].split(b"\n")


def _verifies(log: LogFile, path: Path) -> Any:
    return verify(log, lambda: rulesets.recorded(log.header, str(path)))


def _reading(ruleset: Ruleset[Any, Any], scenario: Any) -> Reading:
    return Reading(ruleset=ruleset, modules=tuple(rulesets.modules_of(scenario)))


def _rolls_made(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Rolled], list[Any]]:
    """Run a sample, noting every roll as it is made; those and the log."""
    made: list[Rolled] = []
    plain = Stream.roll

    def noted(self: Stream, expr: str, need: Need = None) -> Any:
        roll = plain(self, expr, need)
        made.append((roll.stream, roll.draw))
        return roll

    monkeypatch.setattr(Stream, "roll", noted)
    ruleset, scenario = _load(path)
    return made, ruleset.battle(scenario).run().log


def _logged(value: Any) -> list[Rolled]:
    """The rolls a logged value (an event as builtins) records."""
    if isinstance(value, dict):
        own = [(f"{value['roller']}/{value['purpose']}", value["draw"])] if "faces" in value else []
        return own + [roll for v in value.values() for roll in _logged(v)]
    if isinstance(value, list | tuple):
        return [roll for v in value for roll in _logged(v)]
    return []


def _with_ruling(path: Path, ruling: dict[str, Any]) -> tuple[Ruleset[Any, Any], Any]:
    """The sample's scenario with one more ruling, loaded as its ruleset loads a file."""
    ruleset, scenario = _load(path)
    raw = msgspec.json.decode(ENCODER.encode(scenario))
    raw["rulings"] = [*raw.get("rulings", []), ruling]
    return ruleset, ruleset.load(raw, str(path), path.parent)


def _sealed_copy(path: Path) -> tuple[LogFile, LogFile]:
    """A sample fought with every stream sealed (``[dice] sealed = ["*"]``): its log and the players'
    copy of it, read back as ``affray verify`` reads them."""
    ruleset, scenario = _load(path)
    raw = msgspec.json.decode(ENCODER.encode(scenario))
    raw["dice"] = {**raw.get("dice", {}), "sealed": ["*"]}
    sealed = ruleset.load(raw, str(path), path.parent)
    referee = _read(encode_log(ruleset.header(sealed), ruleset.battle(sealed).run().log))
    return referee, read_bytes(players_copy(referee, str(path)), rulesets.vocabulary_for, canonical=True)


def _intent_on(path: Path) -> tuple[Ruleset[Any, Any], dict[str, Any], list[Event], IntentChange]:
    """A sample's ruleset, scenario (as a mapping) and log, and a what-if's ``--intent``: its first
    combatant going first for its last from the first event on."""
    ruleset, scenario = _load(path)
    log = ruleset.battle(scenario).run().log
    ids = [c.id for c in scenario.combatants]
    change = IntentChange(log[0].seq, ids[0], "target", ids[-1], "the contract's order")
    return ruleset, msgspec.json.decode(ENCODER.encode(scenario)), log, change


def _affray(*args: str) -> int:
    """``affray ARGS`` in this process, with nothing to read on standard input: its exit status."""
    from affray.cli import main

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sys, "stdin", io.StringIO(""))
        try:
            main(list(args))
        except SystemExit as exc:
            return int(exc.code or 0)
    return 0


def _command_line(
    command: str, ruleset: Ruleset[Any, Any], scenario: Any, sample: Path, log: Path, folder: Path
) -> tuple[list[str], int]:
    """The arguments of ``command`` on ``sample`` (and ``log``, its log), and the exit status wanted."""
    ids = [c.id for c in scenario.combatants]
    lines: dict[str, list[str]] = {
        "run": ["run", str(sample), "-o", str(folder / "again.jsonl")],
        "battle": ["battle", str(sample), "--runs", "3", "--vary", "max_seconds=60,120"],
        "odds": [
            "odds",
            str(_written(folder / "first-seconds.jsonl", _first_seconds(ruleset, scenario, 5))),
            "--samples",
            "10",
            "--within",
            "50",
        ],
        "whatif": ["whatif", str(log), "--seq", "1", "--intent", f"{ids[0]}:target={ids[-1]}"],
        "adjudicate": [
            "adjudicate",
            str(_at_the_table(sample, ruleset, scenario, folder)),
            "--rolls",
            str(_rolled(log, ids[0], folder)),
            "-o",
            str(folder / "table.jsonl"),
        ],
        "timeline": ["timeline", str(log), "-o", str(folder / "timeline.png")],
        "view": ["view", str(log), "-o", str(folder / "view.html")],
        "regress": ["regress", str(log)],
        "verify": ["verify", str(log)],
    }
    args = lines[command]
    if command == "whatif":
        args += ["-o", str(folder / "whatif.jsonl")]
        return args, 0 if ruleset.standing_orders else 2
    return args, 0


def _first_seconds(ruleset: Ruleset[Any, Any], scenario: Any, seconds: int) -> bytes:
    """The log of the sample's first ``seconds`` (``odds`` fights on from every roll: a short log keeps
    the contract quick)."""
    short = msgspec.structs.replace(scenario, max_seconds=min(seconds, scenario.max_seconds))
    return encode_log(ruleset.header(short), ruleset.battle(short).run().log)


def _written(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def _at_the_table(sample: Path, ruleset: Ruleset[Any, Any], scenario: Any, folder: Path) -> Path:
    """A copy of ``sample`` in ``folder`` (with the files it names) whose first combatant's rolls are
    rolled at the table (``[dice] manual``)."""
    for name in ruleset.files(scenario):
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes((sample.parent / name).read_bytes())
    manual = f'manual = ["{scenario.combatants[0].id}/*"]'
    lines = sample.read_text().splitlines()
    if "[dice]" in lines:
        lines.insert(lines.index("[dice]") + 1, manual)
    else:
        lines += ["", "[dice]", manual]
    copy = folder / sample.name
    copy.write_text("\n".join(lines) + "\n")
    return copy


def _rolled(log: Path, combatant: str, folder: Path) -> Path:
    """A ``--rolls`` file of every roll ``combatant`` made in ``log``, as rolled there."""
    rolls = [roll for event in _read(log.read_bytes()).events for roll in rolls_in(event)]
    entered = [
        f'"{r.roller}/{r.purpose}#{r.draw}" = {list(r.faces) if len(r.faces) > 1 else r.faces[0]}'
        for r in rolls
        if r.roller == combatant
    ]
    path = folder / "rolled.toml"
    path.write_text("\n".join(entered) + "\n")
    return path


def _resolved(named: str | Ruleset[Any, Any]) -> Ruleset[Any, Any]:
    return named if isinstance(named, Ruleset) else rulesets.ruleset(named)


class _TablesContract:
    """The checks of the tables a ruleset or module shows (``affray rules``)."""

    def owner(self) -> Ruleset[Any, Any] | Module:
        """The ruleset or module under test."""
        raise NotImplementedError

    def test_tables_have_names_one_can_type_and_rows(self) -> None:
        """Table names are distinct, lower-case words with hyphens, and no table is empty."""
        tables = self.owner().tables()
        names = [table.name for table in tables]
        assert len(set(names)) == len(names)
        assert all(re.fullmatch(r"[a-z0-9][a-z0-9-]*", table_name) for table_name in names)
        assert all(table.rows for table in tables)

    def test_every_row_of_a_table_is_found_by_its_own_name(self) -> None:
        """Looking a row up by its name finds it."""
        for table in self.owner().tables():
            for row_name in table.names():
                assert row_name in table.matching(row_name).names()


class ModuleContract(_TablesContract):
    """The contract of a module; subclass it as ``TestMine`` with ``module`` set to its name (or value)."""

    module: ClassVar[str | Module]
    """The module: its name (built in, installed or registered), or the Module value itself."""

    def owner(self) -> Module:
        """The module under test."""
        return self.module if isinstance(self.module, Module) else rulesets.module(self.module)


class RulesetContract(_TablesContract):
    """The contract of a ruleset; subclass it as ``TestMine`` with ``ruleset`` and ``samples`` set.

    Every check that takes a sample runs on each; the odds are worked out for the first only (every roll
    of it fought again a few times), so put a short fight first. A Ruleset value (rather than a name) is
    registered while each of its tests runs."""

    ruleset: ClassVar[str | Ruleset[Any, Any]]
    """The ruleset: its name (built in, installed or registered), or the Ruleset value itself."""
    samples: ClassVar[Sequence[str | Path]]
    """Scenario files of the ruleset, each a fight that ends (a relative path is the working folder's)."""

    def owner(self) -> Ruleset[Any, Any]:
        """The ruleset under test."""
        return _resolved(self.ruleset)

    def pytest_generate_tests(self, metafunc: pytest.Metafunc) -> None:
        """Each check taking a ``sample`` once per sample; a ``kind`` once per kind of the vocabulary (all
        its modules on), the ``vocabulary`` with it; a ``ruled`` sample once per sample if the ruleset
        offers rulings."""
        paths = [Path(sample) for sample in self.samples]
        ids = [path.stem for path in paths]
        if "sample" in metafunc.fixturenames:
            metafunc.parametrize("sample", paths, ids=ids)
        if "ruled" in metafunc.fixturenames:
            if self.owner().rules_on:
                metafunc.parametrize("ruled", paths, ids=ids)
            else:
                skipped = pytest.mark.skip(reason="the ruleset offers no rulings (rules_on)")
                metafunc.parametrize("ruled", [pytest.param(None, id="none", marks=skipped)])
        if "kind" in metafunc.fixturenames:
            vocabulary = self.owner().vocabulary(self.owner().modules)
            kinds = [(kind, vocabulary) for kind in vocabulary.kinds]
            metafunc.parametrize(("kind", "vocabulary"), kinds, ids=[kind_of(kind) for kind, _ in kinds])

    @pytest.fixture(autouse=True)
    def _registered(self) -> Iterator[None]:
        """The Ruleset value given is the one its name finds while each test runs."""
        if not isinstance(self.ruleset, Ruleset):
            yield
            return
        try:
            before: Ruleset[Any, Any] | None = rulesets.ruleset(self.ruleset.name)
        except rulesets.UnknownRuleset:
            before = None
        rulesets.register(self.ruleset)
        yield
        rulesets.unregister(self.ruleset.name)
        if before is not None:
            rulesets.register(before)

    def test_it_has_samples_all_of_its_own(self) -> None:
        """There is a sample, and every sample is a scenario of this ruleset."""
        assert self.samples
        assert {_load(Path(sample))[0].name for sample in self.samples} == {self.owner().name}

    def test_one_scenario_and_seed_give_one_log_byte_for_byte(self, sample: Path) -> None:
        """Two runs of a sample write the same bytes."""
        assert _log_of(sample) == _log_of(sample)

    def test_the_live_state_is_the_fold_of_the_log_at_every_seq(
        self, sample: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Folding each event onto the state folded so far gives the live state right after it."""
        snapshots: list[str] = []
        plain = Encounter.__init__

        def watched(encounter: Encounter[Any], *args: Any, **kwargs: Any) -> None:
            plain(encounter, *args, **kwargs)
            encounter.sinks.append(lambda event: snapshots.append(digest(encounter.state)))

        monkeypatch.setattr(Encounter, "__init__", watched)
        ruleset, scenario = _load(sample)
        encounter = ruleset.battle(scenario).run()
        state = encounter.vocabulary.new_state()
        for event, live in zip(encounter.log, snapshots, strict=True):
            assert digest(fold([event], encounter.vocabulary, state)) == live, f"seq {event.seq}"

    def test_a_reading_that_only_folds_gives_the_state_of_the_whole_reading(self, sample: Path) -> None:
        """A sample's log read as ``affray state`` reads it, each kind decoded with the members its fold
        reads (``Part.folds``), folds to the state it folds to read whole."""
        data = _log_of(sample)
        folded = read_bytes(data, rulesets.vocabulary_for, folding=True)
        whole = _read(data)
        assert digest(fold(folded.events, folded.vocabulary)) == digest(fold(whole.events, whole.vocabulary))

    def test_a_run_keeping_no_log_hands_its_sinks_the_events_a_run_logs(self, sample: Path) -> None:
        """``keep_log=False`` keeps nothing but hands the sinks every event, and counts them."""
        ruleset, scenario = _load(sample)
        seen: list[Any] = []
        encounter = ruleset.battle(scenario).run(sinks=[seen.append], keep_log=False)
        logged = ruleset.battle(scenario).run().log
        assert (seen, encounter.log, encounter.count, encounter.last) == (logged, [], len(logged), logged[-1])

    def test_a_log_verifies_by_re_simulating_its_header(self, sample: Path) -> None:
        """``affray verify`` passes a sample's log."""
        assert _verifies(_read(_log_of(sample)), sample).ok

    def test_a_changed_line_is_caught_at_its_seq(self, sample: Path) -> None:
        """The last event told a millisecond later by hand, its chain left as it was: the chain no longer
        holds (in format 2, the end line disowns the block holding the event), and verify's re-simulation
        names the event, a damaged log."""
        lines = _lines(_log_of(sample))
        last = len(lines) - 2  # the last event (encounter_ended)

        def later(stamp: re.Match[bytes]) -> bytes:
            return b'"seq":%s,"t":%d' % (stamp.group(1), int(stamp.group(2) or 0) + 1)

        lines[last] = re.sub(rb'"seq":(\d+)(?:,"t":(\d+))?', later, lines[last], count=1)
        verdict = _verifies(_read(b"\n".join(lines) + b"\n"), sample)
        assert (verdict.ok, verdict.seq, verdict.finding) == (False, last, "damaged")
        assert verdict.message.startswith("differs from the re-simulation: "), verdict.message
        assert "the prev that the end line records" in verdict.message, verdict.message

    def test_a_rechained_forgery_is_caught_by_the_re_simulation(self, sample: Path) -> None:
        """The last event told a millisecond later, its chain re-hashed, fails at that event."""
        lines = _lines(_log_of(sample))
        last = len(lines) - 2  # the last event (encounter_ended)

        def later(stamp: re.Match[bytes]) -> bytes:
            return b'"seq":%s,"t":%d' % (stamp.group(1), int(stamp.group(2) or 0) + 1)

        lines[last] = re.sub(rb'"seq":(\d+)(?:,"t":(\d+))?', later, lines[last], count=1)
        verdict = _verifies(_read(rechained(lines[:-1])), sample)
        assert (verdict.ok, verdict.seq) == (False, last)

    def test_every_die_rolled_is_in_the_log_once(self, sample: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        """The rolls made are the rolls logged, and there are some."""
        made, log = _rolls_made(sample, monkeypatch)
        logged = [roll for event in log for roll in _logged(msgspec.to_builtins(event))]
        assert sorted(made) == sorted(logged)
        assert made

    def test_every_roll_is_logged_no_earlier_than_the_rolls_made_before_it(
        self, sample: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """The rolls are logged in the order they are made."""
        made, log = _rolls_made(sample, monkeypatch)
        seq_of = {roll: event.seq for event in log for roll in _logged(msgspec.to_builtins(event))}
        seqs = [seq_of[roll] for roll in made]
        assert seqs == sorted(seqs)

    def test_the_draws_of_each_stream_are_numbered_from_one(
        self, sample: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        """Each stream's draws are 1, 2, 3, ... as made."""
        made, _ = _rolls_made(sample, monkeypatch)
        for stream in {stream for stream, _ in made}:
            draws = [draw for s, draw in made if s == stream]
            assert draws == list(range(1, len(draws) + 1)), stream

    def test_every_event_of_a_sample_is_explained(self, sample: Path) -> None:
        """``affray explain`` has steps for every event."""
        ruleset, scenario = _load(sample)
        log = ruleset.battle(scenario).run().log
        reading = _reading(ruleset, scenario)
        for event in log:
            explained = explain(log, event.seq, reading)
            assert explained is not None
            assert explained.steps, event.seq

    def test_explaining_every_event_at_once_is_explaining_each(self, sample: Path) -> None:
        """One reading explaining them all explains each as alone."""
        ruleset, scenario = _load(sample)
        log = ruleset.battle(scenario).run().log
        reading = _reading(ruleset, scenario)
        assert list(explain_all(log, reading)) == [explain(log, event.seq, reading) for event in log]

    def test_each_frame_of_a_samples_page_shows_every_combatant_as_the_state_does(self, sample: Path) -> None:
        """``affray view``: the frames, each holding only who changed, add up at every event to every
        combatant as the fold shows it then (the page looks afresh only at those the event looked up)."""
        ruleset, scenario = _load(sample)
        log = ruleset.battle(scenario).run().log
        reading, header = _reading(ruleset, scenario), ruleset.header(scenario)
        drawn = page.fight(header, log, reading, "sample")
        stock = ruleset.display.stock(header.scenario)
        shown: dict[int, page.Seen | None] = {}
        told = tell(log, reading.vocabulary(), reading.tellers())
        for frame, (event, state, _) in zip(drawn.frames, told, strict=True):
            shown.update(frame.changed)
            for k, listed in enumerate(drawn.combatants):
                c = state.combatants.get(listed.id)
                now = None if c is None else page.seen(c, event.t, ruleset.display, reading.modules, stock)
                assert shown.get(k) == now, (event.seq, listed.id)

    def test_a_what_if_intent_becomes_a_standing_order_the_ruleset_loads_and_fights(
        self, sample: Path
    ) -> None:
        """``whatif --intent``: where the ruleset takes standing orders, the order it writes loads and
        the fight runs with it."""
        ruleset, raw, log, change = _intent_on(sample)
        if not ruleset.standing_orders:
            pytest.skip("the ruleset takes no standing orders")
        ordered = ruleset.load(scenario_with(raw, log, [change], lambda: ruleset), str(sample), sample.parent)
        assert ruleset.battle(ordered).run().log

    def test_a_what_if_intent_is_refused_where_the_ruleset_takes_no_standing_orders(
        self, sample: Path
    ) -> None:
        """``whatif --intent`` on a ruleset without standing orders is one error, written nowhere."""
        ruleset, raw, log, change = _intent_on(sample)
        if ruleset.standing_orders:
            pytest.skip("the ruleset takes standing orders")
        with pytest.raises(AffrayError, match="takes no standing orders"):
            scenario_with(raw, log, [change], lambda: ruleset)

    def test_a_samples_timeline_has_a_lane_per_combatant_and_every_span_within_the_fight(
        self, sample: Path
    ) -> None:
        """``affray timeline``: a lane per combatant, every span closed and every mark in the fight."""
        ruleset, scenario = _load(sample)
        log = ruleset.battle(scenario).run().log
        drawn = timeline.build(log, _reading(ruleset, scenario), scenario=ruleset.header(scenario).scenario)
        assert set(drawn.lanes) == {c.id for c in scenario.combatants}
        spans = [span for lane in drawn.lanes.values() for span in lane.spans] + drawn.rounds
        assert all(span.end is not None and 0 <= span.start <= span.end for span in spans)
        assert all(0 <= mark.at <= drawn.end for lane in drawn.lanes.values() for mark in lane.instants)

    def test_a_players_copy_withholds_every_roll_and_folds_to_the_state_the_log_does(
        self, sample: Path
    ) -> None:
        """``affray redact``: with every stream sealed, the copy holds no face nor total of any roll, reads
        canonically, and folds to the very state the referee's log folds to."""
        referee, copy = _sealed_copy(sample)
        verdict = fold_only(copy)
        assert verdict.ok, verdict.message
        assert verdict.final_digest == digest(fold(referee.events, referee.vocabulary))
        rolls = [roll for event in copy.events for roll in rolls_in(event)]
        assert all(is_sealed(roll.faces) and is_sealed(roll.total) for roll in rolls)
        assert verdict.sealed >= 2 * len(rolls)

    def test_a_players_copy_is_told_explained_drawn_and_shown(self, sample: Path) -> None:
        """``replay``, ``explain``, ``timeline`` and ``view`` read a players' copy, saying ``sealed`` where
        a value is withheld."""
        _, copy = _sealed_copy(sample)
        reading = rulesets.reading(copy.header, str(sample))
        lines = list(narrate(copy.events, reading.vocabulary(), reading.tellers()))
        rolled = [line for event, line in zip(copy.events, lines, strict=True) if rolls_in(event)]
        assert any("sealed" in line for line in rolled)
        assert not any('{"sealed"' in line for line in lines)
        for explained in explain_all(copy.events, reading):
            assert explained.steps[0].what == "sealed" or not sealed_values(copy.events[explained.seq - 1])
        drawn = timeline.build(copy.events, reading, scenario=copy.header.scenario)
        assert drawn.lanes
        assert page.fight(copy.header, copy.events, reading, "sample").frames

    def test_a_players_copy_is_its_log_redacted_and_a_sealed_value_changed_since_is_caught(
        self, sample: Path
    ) -> None:
        """``affray reveal``: the referee's log redacts to the copy; with one sealed roll changed (and the
        chain made to hold again), the difference is named at that roll's seq."""
        referee, copy = _sealed_copy(sample)
        seal = Seal(referee.header, referee.vocabulary, str(sample))
        difference, sealed = copy_difference(copy, referee, seal)
        assert difference == ""
        assert sealed > sum(map(sealed_values, copy.events))  # the header's seed too
        lines = _lines(encode_log(referee.header, referee.events))
        seq = next(e.seq for e in referee.events if rolls_in(e))
        lines[seq] = re.sub(
            rb'"total":(-?\d+)', lambda m: b'"total":%d' % (int(m[1]) + 1), lines[seq], count=1
        )
        changed = _read(rechained(lines[:-1]))
        difference, _ = copy_difference(copy, changed, seal)
        assert difference.startswith(f"line {seq + 1} (seq {seq}): ")
        assert "the value the referee's log holds is not the one the players' copy committed to" in difference

    def test_its_combatants_can_be_played_from_outside_or_it_says_why_not(self) -> None:
        """A ruleset offers seating (affray.envs, controllers from outside affray) or one line why not."""
        ruleset = self.owner()
        if ruleset.seating is None:
            assert ruleset.unseated
            assert "\n" not in ruleset.unseated
        else:
            assert not ruleset.unseated

    def test_a_sample_played_from_outside_is_a_log_that_verifies(self, sample: Path) -> None:
        """Every combatant of a sample played from outside, step by step, each answering the first of
        the legal options it is offered (what affray.envs does with an agent's action): the log
        verifies, its decisions taken from the log."""
        ruleset, scenario = _load(sample)
        seating = ruleset.seating
        if seating is None:
            pytest.skip(f"the ruleset offers no seating: {ruleset.unseated}")
        seated = seating.seated(scenario, seating.players(scenario))
        battle: Any = ruleset.battle(seated)
        questions = battle.step_outside()
        encounter = battle.start()
        for _ in range(MOST_STEPS):
            if questions.waiting is not None:
                legal = questions.waiting[1].legal()
                questions.answer(legal[0] if legal else None)
            elif encounter.finished.processed or encounter.peek() == float("inf"):
                break
            else:
                encounter.step()
        battle.close(encounter)
        verdict = _verifies(_read(encode_log(ruleset.header(seated), encounter.log)), sample)
        assert verdict.ok, verdict.message

    @pytest.mark.parametrize("command", COMMANDS)
    def test_every_command_runs_on_the_first_sample(
        self, command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """Each of affray's commands, as a user types it, on the first sample (a log of it made with
        ``run``): exit 0; ``whatif --intent`` on a ruleset without standing orders, one error line."""
        sample = Path(self.samples[0])
        ruleset, scenario = _load(sample)
        log = tmp_path / "sample.jsonl"
        assert _affray("run", str(sample), "-o", str(log)) == 0, capsys.readouterr().err
        args, want = _command_line(command, ruleset, scenario, sample, log, tmp_path)
        assert _affray(*args) == want, capsys.readouterr().err

    def test_every_kind_of_every_vocabulary_is_told(self) -> None:
        """Every kind, its modules' included, has a teller."""
        ruleset = self.owner()
        reading = Reading(ruleset=ruleset, modules=tuple(map(rulesets.module, ruleset.modules)))
        told = {**SHARED_TELLERS, **reading.tellers()}
        untold = [kind_of(kind) for kind in ruleset.vocabulary(ruleset.modules).kinds if kind not in told]
        assert not untold

    def test_every_event_of_a_sample_is_told_in_one_line(self, sample: Path) -> None:
        """``affray replay`` tells each event on one line."""
        ruleset, scenario = _load(sample)
        log = ruleset.battle(scenario).run().log
        reading = _reading(ruleset, scenario)
        lines = list(narrate(log, reading.vocabulary(), reading.tellers()))
        assert len(lines) == len(log)
        assert all("\n" not in line for line in lines)

    def test_the_header_lists_the_kinds_of_the_vocabulary_and_no_other(self, sample: Path) -> None:
        """The header's event versions name exactly the scenario's vocabulary."""
        ruleset, scenario = _load(sample)
        header = ruleset.header(scenario)
        assert set(header.event_versions) == {kind_of(k) for k in ruleset.vocabulary(scenario.modules).kinds}

    @staticmethod  # not a method: hypothesis refuses one @given test run on many instances
    @given(data=st.data())
    def test_every_kind_round_trips_through_the_logs_encoding(
        kind: Any, vocabulary: Vocabulary[Any], data: st.DataObject
    ) -> None:
        """Any instance of a kind encodes, decodes to itself, and encodes to the same line again."""
        event = data.draw(instances(kind))
        line = ENCODER.encode(event)
        decoded = vocabulary.decoder.decode(line)
        assert decoded == event
        assert ENCODER.encode(decoded) == line

    def test_a_miss_ruling_rules_on_the_first_outcome_and_is_recorded_after_it(self, ruled: Path) -> None:
        """A ruling that the first outcome misses makes it one, with a ``ruling_applied`` right after."""
        ruleset, scenario = _load(ruled)
        kind = ruleset.rules_on["outcome"]
        first = next(e for e in ruleset.battle(scenario).run().log if kind_of(type(e)) == kind)
        ruled_ruleset, ruled_scenario = _with_ruling(
            ruled, {"seq": first.seq, "outcome": "miss", "reason": "contract"}
        )
        log = ruled_ruleset.battle(ruled_scenario).run().log
        ruled_event: Any = log[first.seq - 1]
        record = log[first.seq]
        assert (kind_of(type(ruled_event)), ruled_event.outcome) == (kind, "miss")
        assert isinstance(record, RulingApplied)
        assert record.rules_on == first.seq

    def test_a_log_with_a_ruling_verifies(self, ruled: Path) -> None:
        """A log whose scenario has a combatant leave by ruling verifies."""
        combatant = _load(ruled)[1].combatants[0].id
        ruleset, scenario = _with_ruling(
            ruled, {"at": 0, "combatant": combatant, "leaves": True, "reason": "contract"}
        )
        log = _read(encode_log(ruleset.header(scenario), ruleset.battle(scenario).run().log))
        assert "ruling_applied" in {kind_of(type(e)) for e in log.events}
        assert _verifies(log, ruled).ok

    def test_a_sample_fought_on_from_its_middle_replays_its_first_half_then_draws_its_own(
        self, sample: Path
    ) -> None:
        """``affray battle LOG@N``: the rolls up to N entered, the later ones a new seed's."""
        log = _read(_log_of(sample))
        after = log.events[len(log.events) // 2].seq
        continued = continued_scenario(log, after, sample.name)
        ruleset, loaded = rulesets.load_mapping(continued, sample.name, None)
        check_prefix(ruleset, loaded, log, after, sample.name)
        again = ruleset.battle(msgspec.structs.replace(loaded, seed=loaded.seed + 1)).run().log
        assert [kind_of(type(e)) for e in again[:after]] == [kind_of(type(e)) for e in log.events[:after]]

    def test_the_first_samples_odds_run_from_its_opening_to_its_result_and_luck_accounts_for_the_change(
        self,
    ) -> None:
        """``affray odds`` of the first sample's first ``ODDS_SECONDS``: every roll a point, the last one
        the recorded result, luck and the rest adding up to each side's change of odds."""
        ruleset, scenario = _load(Path(self.samples[0]))
        log = _read(_first_seconds(ruleset, scenario, ODDS_SECONDS))
        report = fight_odds(log, "", "sample", Sampling(within=0.5, most=4, seed=1))
        assert len(report.rolls) == sum(len(rolls_in(e)) for e in log.events)
        assert report.rolls[-1].after == recorded_odds(report.winner, report.sides)
        for side in report.split:
            assert side.luck + side.rest == pytest.approx(side.final - side.opening)
