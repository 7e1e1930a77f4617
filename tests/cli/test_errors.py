"""Every user error: exit 2, exactly one ``error:`` line on stderr naming the file and the field or line.

Scenario mistakes are made by editing one line of examples/duel.toml, so each case differs from a
scenario that runs by exactly the mistake under test.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import msgspec
import pytest

from affray.cli import _quoted_briefly
from tests.cli.conftest import DUEL, Affray, assert_user_error, rechain, run_process
from tests.handlers.energion import fighter, scenario_toml
from tests.strategies import read_path

DUEL_TEXT = DUEL.read_text()


def _line_of(text: str, needle: str) -> int:
    """The 1-based line number of the first line holding ``needle``."""
    for number, line in enumerate(text.splitlines(), start=1):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in the scenario")


def _mutated(tmp_path: Path, old: str, new: str) -> Path:
    assert DUEL_TEXT.count(old) >= 1, old
    path = tmp_path / "scenario.toml"
    path.write_text(DUEL_TEXT.replace(old, new, 1))
    return path


# (id, text in duel.toml, replacement, what the error line must name besides the file)
SCENARIO_MISTAKES = [
    pytest.param("skill = 70", 'skill = "high"', ["$.combatants[0].skill", "int"], id="wrong-type"),
    pytest.param("ST = 115", "ST = 400", ["$.combatants[0].stats.ST", "300"], id="stat-out-of-range"),
    pytest.param("skill = 70", "skill = 70\nluck = 3", ["$.combatants[0]", "luck"], id="unknown-field"),
    pytest.param("seed = 1130", "seed = 1130\nfoo = 1", ["$:", "foo"], id="unknown-top-level-field"),
    pytest.param('side = "raiders"', 'side = "ford"', ["$.combatants:", "side"], id="only-one-side"),
    pytest.param('id = "gorm"', 'id = "brenna"', ["$.combatants[1].id", "'brenna'"], id="duplicate-ids"),
    pytest.param(
        "damage_points = 32\n", "", ["$.combatants[0]", "damage_points"], id="missing-required-field"
    ),
    pytest.param(
        'readiness = "unready"',
        'readiness = "sheathed"',
        [
            "$.combatants[1].weapons[0].readiness",
            "sheathed",
            "expected one of 'at_hand', 'in_hand', 'unready'",
        ],
        id="bad-enum-value",
    ),
    pytest.param(
        "skill = 70",
        'skill = 70\ncontroller = "tactical"',
        ["$.combatants[0].controller", "'tactical'", "none of auto, nearest, tactician, external"],
        id="unknown-controller",
    ),
    pytest.param(
        "max_seconds = 120",
        "max_second = 120",
        ["$:", "`max_second`", "did you mean `max_seconds`?"],
        id="typo",
    ),
    pytest.param(
        'name = "Sword, Long"',
        'name = "Lightsaber"',
        ["$.combatants[0].weapons[0].name", "Lightsaber"],
        id="unknown-weapon",
    ),
    pytest.param(
        'armor = "Chain Suit"',
        'armor = "Mithril"',
        ["$.combatants[0].armor", "Mithril"],
        id="unknown-armor",
    ),
    pytest.param(
        'shield = "Buckler"',
        'shield = "Tower"',
        ["$.combatants[0].shield", "Tower"],
        id="unknown-shield",
    ),
    pytest.param(
        'name = "Sword, Long"',
        'name = "Axe, 2 hand"',
        ["$.combatants[0].shield", "both hands"],
        id="shield-with-two-handed-weapon",
    ),
]


@pytest.mark.parametrize(("old", "new", "names"), SCENARIO_MISTAKES)
def test_scenario_mistake_is_one_error_line_naming_file_and_field(
    affray: Affray, tmp_path: Path, old: str, new: str, names: list[str]
) -> None:
    scenario = _mutated(tmp_path, old, new)
    out = tmp_path / "out.jsonl"
    assert_user_error(affray("run", scenario, "-o", out), str(scenario), *names)


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        pytest.param(
            'name = "Sword, Long"', 'name = "Lightsaber"', "$.combatants[0].weapons[0].name", id="weapon"
        ),
        pytest.param('armor = "Chain Suit"', 'armor = "Mithril"', "$.combatants[0].armor", id="armor"),
        pytest.param('shield = "Buckler"', 'shield = "Tower"', "$.combatants[0].shield", id="shield"),
    ],
)
def test_unknown_table_name_is_one_error_line_naming_its_field(
    affray: Affray, tmp_path: Path, old: str, new: str, field: str
) -> None:
    scenario = _mutated(tmp_path, old, new)
    unknown = new.split('"')[1]
    assert_user_error(affray("run", scenario, "-o", tmp_path / "out.jsonl"), field, "unknown", repr(unknown))


def test_scenario_mistake_writes_no_log(affray: Affray, tmp_path: Path) -> None:
    scenario = _mutated(tmp_path, "ST = 115", "ST = 400")
    out = tmp_path / "out.jsonl"
    assert affray("run", scenario, "-o", out).code == 2
    assert not out.exists()


def test_invalid_toml_is_one_error_line_naming_file_and_line(affray: Affray, tmp_path: Path) -> None:
    scenario = _mutated(tmp_path, "skill = 70", "skill = 70 70")
    line = _line_of(DUEL_TEXT, "skill = 70")
    assert_user_error(affray("run", scenario, "-o", tmp_path / "o.jsonl"), str(scenario), f"line {line}")


def test_scenario_that_is_not_utf8_is_one_error_line(affray: Affray, tmp_path: Path) -> None:
    scenario = tmp_path / "binary.toml"
    scenario.write_bytes(b"\xff\xfe\x00")
    assert_user_error(affray("run", scenario, "-o", tmp_path / "o.jsonl"), str(scenario), "UTF-8")


def test_missing_scenario_file_is_one_error_line(affray: Affray, tmp_path: Path) -> None:
    scenario = tmp_path / "nowhere.toml"
    assert_user_error(affray("run", scenario, "-o", tmp_path / "o.jsonl"), str(scenario), "no such file")


def test_scenario_that_is_a_directory_is_one_error_line(affray: Affray, tmp_path: Path) -> None:
    assert_user_error(affray("run", tmp_path, "-o", tmp_path / "o.jsonl"), str(tmp_path), "directory")


def test_output_in_a_missing_directory_is_one_error_line(affray: Affray, tmp_path: Path) -> None:
    out = tmp_path / "no" / "such" / "dir" / "o.jsonl"
    assert_user_error(affray("run", DUEL, "-o", out), str(out), "cannot write")


# Manual dice: the referee supplied fewer rolls than the fight needs.
MANUAL_DICE = 'seed = 1130\ndice = { source = "manual", rolls = [1, 8, 50, 50] }'


def test_manual_dice_running_out_names_the_missing_roll_and_when(tmp_path: Path) -> None:
    scenario = _mutated(tmp_path, "seed = 1130", MANUAL_DICE)
    result = run_process("run", scenario, "-o", tmp_path / "o.jsonl")
    assert_user_error(
        result,
        str(scenario),
        "ran out",
        "roll 5",
        "a d100 for brenna's hit roll",
        "4 were given",
        "wanted at ",
    )


def test_a_top_level_key_after_the_combatants_says_where_it_belongs(affray: Affray, tmp_path: Path) -> None:
    # TOML reads a bare key after [[combatants]] as a key of the last combatant
    scenario = tmp_path / "scenario.toml"
    scenario.write_text(DUEL_TEXT.replace("max_seconds = 120\n", "") + "max_seconds = 120\n")
    assert_user_error(
        affray("run", scenario, "-o", tmp_path / "o.jsonl"),
        "$.combatants[1]: object contains unknown field `max_seconds`",
        "TOML puts a key written after [[combatants]] inside the last of them",
        "belongs at the top of the file, above the first [[combatants]]",
    )


def test_an_option_after_the_combatants_says_it_belongs_under_its_table(
    affray: Affray, tmp_path: Path
) -> None:
    scenario = tmp_path / "scenario.toml"
    scenario.write_text(DUEL_TEXT + "hit_locations = true\n")
    assert_user_error(
        affray("run", scenario, "-o", tmp_path / "o.jsonl"), "`hit_locations` belongs under [options]"
    )


def test_manual_dice_running_out_keeps_the_partial_log_readable(tmp_path: Path) -> None:
    scenario = _mutated(tmp_path, "seed = 1130", MANUAL_DICE)
    out = tmp_path / "o.jsonl"
    result = run_process("run", scenario, "-o", out)
    kept = tmp_path / "o.jsonl.partial"
    assert f"the log so far is kept in {kept}" in result.err
    assert not out.exists(), "a failed run does not take the log's name"
    log = read_path(kept)
    assert log.events, "the events before the missing roll are kept"
    assert not log.ended
    assert log.problem is not None
    assert "cut short: no end line" in log.problem.message


def test_manual_dice_running_out_leaves_a_log_that_fails_verification(affray: Affray, tmp_path: Path) -> None:
    scenario = _mutated(tmp_path, "seed = 1130", MANUAL_DICE)
    out = tmp_path / "o.jsonl"
    assert run_process("run", scenario, "-o", out).code == 2
    result = affray("verify", tmp_path / "o.jsonl.partial")
    assert result.code == 1
    assert "cut short" in result.out


def test_failed_run_closes_its_log_file(tmp_path: Path) -> None:
    scenario = _mutated(tmp_path, "seed = 1130", MANUAL_DICE)
    result = run_process("run", scenario, "-o", tmp_path / "o.jsonl", python_flags=["-X", "dev"])
    assert "ResourceWarning" not in result.err
    assert_user_error(result)


def test_bad_dice_expression_names_its_field_and_writes_no_log(tmp_path: Path) -> None:
    scenario = _mutated(tmp_path, 'perception = "1d10"', 'perception = "banana"')
    out = tmp_path / "o.jsonl"
    assert_user_error(run_process("run", scenario, "-o", out), str(scenario), "$.combatants[0].perception")
    assert not out.exists()


MAGE_DUEL = DUEL.parent / "mage-duel.toml"


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        pytest.param('damage = "2d10"', 'damage = "fire"', "$.combatants[2].spells[0].damage", id="damage"),
        pytest.param(
            'preparation = "1d2"',
            'preparation = "soon"',
            "$.combatants[2].spells[0].preparation",
            id="preparation",
        ),
        pytest.param(
            'damage = "1d10"',
            'damage = "1d10+"',
            "$.combatants[0].spells[1].damage",
            id="second-spell-damage",
        ),
    ],
)
def test_bad_spell_dice_expression_names_its_field_and_writes_no_log(
    affray: Affray, tmp_path: Path, old: str, new: str, field: str
) -> None:
    text = MAGE_DUEL.read_text()
    assert text.count(old) == 1, old
    scenario = tmp_path / "mage.toml"
    scenario.write_text(text.replace(old, new))
    out = tmp_path / "o.jsonl"
    assert_user_error(affray("run", scenario, "-o", out), str(scenario), field, "dice expression")
    assert not out.exists()


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        pytest.param("casting_seconds = 6", "casting_seconds = 11", "casting_seconds", id="casting-too-long"),
        pytest.param("casting_seconds = 6", "casting_seconds = 0", "casting_seconds", id="casting-zero"),
        pytest.param("range_m = 40", "range_m = 0", "range_m", id="range-zero"),
    ],
)
def test_spell_field_out_of_bounds_is_one_error_line(
    affray: Affray, tmp_path: Path, old: str, new: str, field: str
) -> None:
    # rule E23: casting times run from one to ten seconds
    scenario = tmp_path / "mage.toml"
    scenario.write_text(MAGE_DUEL.read_text().replace(old, new, 1))
    assert_user_error(
        affray("run", scenario, "-o", tmp_path / "o.jsonl"),
        str(scenario),
        f"$.combatants[0].spells[0].{field}",
    )


@pytest.mark.parametrize("value", ["-5", "inf", "nan"])
def test_impossible_reaction_time_is_one_error_line(tmp_path: Path, value: str) -> None:
    scenario = _mutated(tmp_path, "reaction = 2", f"reaction = {value}")
    result = run_process("run", scenario, "-o", tmp_path / "o.jsonl")
    assert_user_error(result, str(scenario), "$.combatants[1].reaction")


# Logs that are not affray logs, given to each command that reads a log.
LOG_COMMANDS = ["replay", "state", "verify", "lineage"]


def _not_a_log(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / f"{kind}.jsonl"
    if kind == "scenario":
        path.write_text(DUEL_TEXT)
    elif kind == "random":
        path.write_bytes(random.Random(kind).randbytes(512))
    elif kind == "empty":
        path.write_bytes(b"")
    elif kind == "other-json":
        path.write_text('{"hello": "world"}\n')
    return path


@pytest.mark.parametrize("command", LOG_COMMANDS)
@pytest.mark.parametrize("kind", ["scenario", "random", "empty", "other-json"])
def test_file_that_is_not_a_log_is_one_error_line(
    affray: Affray, tmp_path: Path, command: str, kind: str
) -> None:
    log = _not_a_log(tmp_path, kind)
    result = affray(command, log)
    assert_user_error(result, str(log), "not an affray log")
    assert result.out == ""


@pytest.mark.parametrize("command", LOG_COMMANDS)
def test_missing_log_is_one_error_line(affray: Affray, tmp_path: Path, command: str) -> None:
    log = tmp_path / "nowhere.jsonl"
    assert_user_error(affray(command, log), str(log), "no such file")


@pytest.mark.parametrize("command", LOG_COMMANDS)
def test_log_that_is_a_directory_is_one_error_line(affray: Affray, tmp_path: Path, command: str) -> None:
    assert_user_error(affray(command, tmp_path), str(tmp_path), "directory")


@pytest.mark.parametrize("command", ["replay", "state"])
def test_a_broken_log_is_shown_up_to_the_break_with_one_warning_naming_it(
    affray: Affray, tmp_path: Path, duel_bytes: bytes, command: str
) -> None:
    lines = duel_bytes.split(b"\n")
    lines[10], lines[11] = lines[11], lines[10]
    log = tmp_path / "swapped.jsonl"
    log.write_bytes(b"\n".join(lines))
    result = affray(command, log)
    assert result.code == 0, result
    [warning] = result.err_lines
    assert warning.startswith(f"warning: {log}: line 11 (seq 10): ")
    assert warning.endswith(
        f"{'told' if command == 'replay' else 'folded'} the 9 events before it (affray verify tells more)"
    )


def test_a_broken_log_is_told_up_to_its_last_good_event(
    affray: Affray, tmp_path: Path, duel_bytes: bytes
) -> None:
    lines = duel_bytes.split(b"\n")
    lines[10], lines[11] = lines[11], lines[10]
    log = tmp_path / "swapped.jsonl"
    log.write_bytes(b"\n".join(lines))
    told = affray("replay", log).out.splitlines()
    assert told[-1].split()[2] == "#9"


def _orphan_log(tmp_path: Path, duel_bytes: bytes) -> Path:
    """The duel minus its first event, renumbered and re-chained: seq 2 acts for one who never joined."""
    header, _first_join, *rest = duel_bytes.split(b"\n")[:-2]
    renumbered = [re.sub(rb'"seq":\d+', b'"seq":%d' % seq, line, count=1) for seq, line in enumerate(rest, 1)]
    log = tmp_path / "orphan.jsonl"
    log.write_bytes(rechain([header, *renumbered]))
    return log


@pytest.mark.parametrize("command", ["replay", "state"])
def test_log_that_chains_but_cannot_be_folded_is_one_error_line(
    tmp_path: Path, duel_bytes: bytes, command: str
) -> None:
    log = _orphan_log(tmp_path, duel_bytes)
    assert_user_error(run_process(command, log), str(log), "seq 2")


def test_verify_names_the_seq_that_cannot_be_folded(
    affray: Affray, tmp_path: Path, duel_bytes: bytes
) -> None:
    lines = duel_bytes.split(b"\n")[:-2]
    seq = next(k for k, line in enumerate(lines) if line.startswith(b'{"kind":"perceived"'))
    lines[seq] = re.sub(rb'"combatant":"[^"]*"', b'"combatant":"nobody"', lines[seq], count=1)
    log = tmp_path / "stranger.jsonl"
    log.write_bytes(rechain(lines))
    result = affray("verify", log)
    assert result.code == 1
    assert result.out.startswith(f"FAILED: {log}: line {seq + 1} (seq {seq}): cannot be folded: ")
    assert "nobody" in result.out


@pytest.mark.parametrize(
    ("args", "names"),
    [
        pytest.param(["run", "--bogus"], ["--bogus"], id="unknown-option"),
        pytest.param(["bogus"], ["bogus"], id="unknown-command"),
        pytest.param(["run", str(DUEL)], ["--output"], id="missing-output"),
        pytest.param(["replay"], ["LOG"], id="missing-argument"),
        pytest.param(
            [],
            [
                "no command given",
                "adjudicate, battle, diff, encounters, explain, export, heal, import, keygen, lineage, odds, "
                "redact, regress, replay, reveal, rules, run, seed, sign, state, timeline, verify, view, "
                "whatif",
            ],
            id="no-command",
        ),
        pytest.param(["-v"], ["Missing command"], id="options-only"),
    ],
)
def test_command_line_mistake_is_one_error_line(affray: Affray, args: list[str], names: list[str]) -> None:
    assert_user_error(affray(*args), *names)


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["run", "nowhere.toml", "-o", "o.jsonl"], id="missing-scenario"),
        pytest.param(["replay", str(DUEL)], id="scenario-as-log"),
        pytest.param(["run", "--bogus"], id="unknown-option"),
    ],
)
def test_user_error_in_a_real_process_has_no_traceback(tmp_path: Path, args: list[str]) -> None:
    result = run_process(*args, cwd=tmp_path)
    assert "Traceback" not in result.err
    assert_user_error(result)


def test_verbose_run_logs_each_kernel_step_with_seq_and_t(tmp_path: Path) -> None:
    out = tmp_path / "duel.jsonl"
    result = run_process("--verbose", "run", DUEL, "-o", out)
    assert result.code == 0, result
    events = read_path(out).events
    steps = [line for line in result.err_lines if "emit" in line]
    assert len(steps) == len(events)
    for line, event in zip(steps, events, strict=True):
        assert re.search(rf"\bseq={event.seq}\b", line), line
        assert re.search(rf"\bt={event.t}\b", line), line


def test_verbose_verify_logs_the_steps_of_its_re_simulation(duel_log: Path) -> None:
    result = run_process("-v", "verify", duel_log)
    assert result.code == 0, result
    steps = [line for line in result.err_lines if "emit" in line]
    assert len(steps) == len(read_path(duel_log).events)


def test_short_verbose_flag_logs_kernel_steps(tmp_path: Path) -> None:
    result = run_process("-v", "run", DUEL, "-o", tmp_path / "duel.jsonl")
    assert result.code == 0, result
    assert "seq=1 " in result.err


def test_run_without_verbose_logs_nothing(tmp_path: Path) -> None:
    result = run_process("run", DUEL, "-o", tmp_path / "duel.jsonl")
    assert result.code == 0, result
    assert result.err == ""


def test_verbose_in_process_logs_to_the_current_stderr_every_time(tmp_path: Path) -> None:
    script = (
        "import contextlib, io, sys\n"
        "from affray.cli import main\n"
        "for name in ('a', 'b'):\n"
        "    err = io.StringIO()\n"
        "    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):\n"
        "        main(['-v', 'run', sys.argv[1], '-o', name + '.jsonl'])\n"
        "    print(name, err.getvalue().count('emit'))\n"
    )
    completed = subprocess.run(
        [sys.executable, "-c", script, str(DUEL)], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    counts = dict(line.split() for line in completed.stdout.splitlines())
    assert counts["a"] != "0", completed
    assert counts["b"] == counts["a"]


# -- the special_damage module's scenario mistakes (rules S5, S6, S10) ------------------------------------

ROBOTS_TEXT = (Path(__file__).resolve().parents[2] / "examples" / "robots.toml").read_text()


def _robots_mutated(tmp_path: Path, old: str, new: str) -> Path:
    assert ROBOTS_TEXT.count(old) >= 1, old
    path = tmp_path / "scenario.toml"
    path.write_text(ROBOTS_TEXT.replace(old, new, 1))
    return path


SPECIAL_MISTAKES = [
    pytest.param(
        'modules = ["special_damage"]', 'modules = ["critical_hits"]', ["$.modules[0]"], id="unknown-module"
    ),
    pytest.param(
        'modules = ["special_damage"]',
        "modules = []",
        ["$.combatants[3].kind", 'modules = ["special_damage"]'],
        id="robot-without-module",
    ),
    pytest.param(
        'target = "sentry-1"', 'target = "sentry-9"', ["$.rulings[0].target", "sentry-9"], id="ruling"
    ),
    pytest.param(
        'equipment = [{ name = "medkit" }',
        'programs = [{ name = "Analysis", level = 1 }]\nequipment = [{ name = "medkit" }',
        ["$.combatants[0].programs", "only a computer"],
        id="programs-on-a-living-raider",
    ),
    pytest.param(
        'priority_targets = ["vault-mind"]',
        'priority_targets = ["vault-brain"]',
        ["$.combatants[0].priority_targets[0]", "vault-brain"],
        id="priority-target-unknown",
    ),
]


@pytest.mark.parametrize(("old", "new", "names"), SPECIAL_MISTAKES)
def test_special_damage_scenario_mistake_is_one_error_line(
    affray: Affray, tmp_path: Path, old: str, new: str, names: list[str]
) -> None:
    scenario = _robots_mutated(tmp_path, old, new)
    assert_user_error(affray("run", scenario, "-o", tmp_path / "out.jsonl"), str(scenario), *names)


def test_rulings_without_the_module_are_one_error_line(affray: Affray, tmp_path: Path) -> None:
    # S10: a ruling alters special damage; with no module (and no robots) there is nothing to alter
    ruling = '\n[[rulings]]\ntarget = "gorm"\nreason = "x"\n'
    path = tmp_path / "scenario.toml"
    path.write_text(DUEL_TEXT + ruling)
    assert_user_error(affray("run", path, "-o", tmp_path / "out.jsonl"), str(path), "$.rulings[0]")


def test_manual_rolls_left_over_are_reported_as_a_warning(affray: Affray, tmp_path: Path) -> None:
    # Two prepared fighters whose every roll is a d100 hit or parry roll; 40 faces of 90 are more than a
    # 10 s fight uses, and the referee is told how many were left over.
    scenario = tmp_path / "manual.toml"
    a = fighter("a", "x", prepared=True)
    b = fighter("b", "y", prepared=True, position=[1, 0])
    scenario.write_text(scenario_toml(a, b, rolls=[90] * 40, max_seconds=10))
    out = tmp_path / "manual.jsonl"
    result = affray("run", scenario, "-o", out)
    assert result.code == 0, result
    used = sum(len(_faces(event)) for event in read_path(out).events)
    assert 0 < used < 40
    assert (
        result.err.strip()
        == f"warning: {scenario}: {40 - used} of the manual rolls ($.dice.rolls) were not used"
    )


def _faces(event: object) -> list[int]:
    """Every die face recorded in an event."""
    found: list[int] = []

    def walk(value: object) -> None:
        if isinstance(value, dict):
            if {"expr", "faces", "total"} <= value.keys():
                found.extend(value["faces"])
                return
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(msgspec.to_builtins(event))
    return found


def test_a_flag_value_is_quoted_at_most_a_few_dozen_characters(affray: Affray, duel_log: Path) -> None:
    result = affray("heal", duel_log, "--days", "9" * 500, "-o", duel_log.with_name("healed.jsonl"))
    assert_user_error(result, "--days")
    assert "9" * 41 not in result.err


def test_the_text_between_two_values_click_quotes_is_not_cut_as_a_value() -> None:
    message = f"Invalid value for 'LOG': {'a' * 60}.sqlite#: name the encounter after the '#'"
    assert _quoted_briefly(message) == message
