"""``affray verify LOG``: exit 0 on a sound log; exit 1 naming the first bad seq for every kind of tampering.

The log's lines are: the header (index 0), the event of seq N (index N), the end line (last).
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.cli.conftest import Affray, Result, call_main, rechain, run_process

K = 11
"""The seq the tampering aims at: an attack in the middle of the duel."""

LAST = -1
"""Stands for the seq of the log's last event."""

FAILED = re.compile(r"^FAILED: (?P<log>.+?\.jsonl): (?:line \d+ \()?seq (?P<seq>\d+)\b")
"""``FAILED: LOG: seq N: ...`` or ``FAILED: LOG: line L (seq N): ...``: the first seq named is the bad one."""

Lines = list[bytes]
Tamper = Callable[[Lines], bytes]


def _join(lines: Lines) -> bytes:
    return b"\n".join(lines) + b"\n"


def _bump_time(line: bytes) -> bytes:
    """The same line with its game time one millisecond later: a small, plausible edit."""
    edited, count = re.subn(rb'"t":(\d+)', lambda m: b'"t":%d' % (int(m[1]) + 1), line, count=1)
    assert count == 1
    return edited


def edit(lines: Lines) -> bytes:
    lines[K] = _bump_time(lines[K])
    return _join(lines)


def edit_last_event(lines: Lines) -> bytes:
    lines[-2] = _bump_time(lines[-2])
    return _join(lines)


def insert(lines: Lines) -> bytes:
    lines.insert(K, lines[5])
    return _join(lines)


def delete(lines: Lines) -> bytes:
    del lines[K]
    return _join(lines)


def duplicate(lines: Lines) -> bytes:
    lines.insert(K + 1, lines[K])
    return _join(lines)


def reorder(lines: Lines) -> bytes:
    lines[K], lines[K + 1] = lines[K + 1], lines[K]
    return _join(lines)


def cut_at_line_boundary(lines: Lines) -> bytes:
    return _join(lines[:K])


def cut_mid_line(lines: Lines) -> bytes:
    return _join(lines[:K]) + lines[K][: len(lines[K]) // 2]


def drop_end_line(lines: Lines) -> bytes:
    return _join(lines[:-1])


def _verify_tampered(affray: Affray, tmp_path: Path, duel_bytes: bytes, tamper: Tamper) -> Result:
    lines = duel_bytes.split(b"\n")[:-1]
    log = _tampered_path(tmp_path)
    log.write_bytes(tamper(lines))
    return affray("verify", log)


def _tampered_path(tmp_path: Path) -> Path:
    """Where _verify_tampered writes the tampered log."""
    return tmp_path / "tampered.jsonl"


def _named_seq(result: Result) -> int:
    assert result.code == 1, result
    match = FAILED.match(result.out)
    assert match is not None, result.out
    assert len(result.out.splitlines()) == 1, result.out
    return int(match["seq"])


def test_verify_accepts_a_fresh_log(affray: Affray, duel_log: Path) -> None:
    result = affray("verify", duel_log)
    assert result.code == 0, result
    assert result.out.startswith(f"ok: {duel_log}: ")
    assert result.err == ""


@pytest.mark.parametrize(
    ("tamper", "first_bad_seq"),
    [
        pytest.param(insert, K, id="line-inserted"),
        pytest.param(delete, K, id="line-deleted"),
        pytest.param(duplicate, K + 1, id="line-duplicated"),
        pytest.param(reorder, K, id="two-lines-reordered"),
        pytest.param(cut_at_line_boundary, K, id="cut-at-line-boundary"),
        pytest.param(cut_mid_line, K, id="cut-mid-line"),
        pytest.param(edit, K, id="line-edited"),
        pytest.param(edit_last_event, LAST, id="last-event-edited"),
    ],
)
def test_verify_names_the_first_bad_seq(
    affray: Affray, tmp_path: Path, duel_bytes: bytes, tamper: Tamper, first_bad_seq: int
) -> None:
    if first_bad_seq == LAST:
        first_bad_seq = duel_bytes.count(b"\n") - 2
    result = _verify_tampered(affray, tmp_path, duel_bytes, tamper)
    assert _named_seq(result) == first_bad_seq


def test_verify_fails_a_log_without_its_end_line(affray: Affray, tmp_path: Path, duel_bytes: bytes) -> None:
    events = duel_bytes.count(b"\n") - 2
    result = _verify_tampered(affray, tmp_path, duel_bytes, drop_end_line)
    assert _named_seq(result) == events + 1
    assert "cut short" in result.out


def test_verify_fails_an_edited_header(affray: Affray, tmp_path: Path, duel_bytes: bytes) -> None:
    def edit_header(lines: Lines) -> bytes:
        lines[0] = lines[0].replace(b'"seed":1130', b'"seed":1131', 1)
        return _join(lines)

    result = _verify_tampered(affray, tmp_path, duel_bytes, edit_header)
    assert result.code == 1, result
    assert result.out.startswith(f"FAILED: {_tampered_path(tmp_path)}: ")
    assert "header" in result.out


def test_verify_finds_a_rechained_edit_by_re_simulation(
    affray: Affray, tmp_path: Path, duel_bytes: bytes
) -> None:
    """An edit whose author also recomputed every hash still differs from what the scenario produces."""

    def edit_and_rechain(lines: Lines) -> bytes:
        lines[K] = _bump_time(lines[K])
        return rechain(lines[:-1])

    result = _verify_tampered(affray, tmp_path, duel_bytes, edit_and_rechain)
    assert result.code == 3  # whole: only the re-simulation tells it from a change of the rules
    assert result.out.startswith(f"CHANGED: {tmp_path}")
    assert f"(seq {K})" in result.out
    assert "or an edit was re-chained" in result.out


def test_verify_header_scenario_that_is_not_utf8_is_reported_without_traceback(
    tmp_path: Path, duel_bytes: bytes
) -> None:
    lines = duel_bytes.split(b"\n")[:-1]
    header = lines[0].replace(b'"name":"Duel at the ford"', b'"name":"Duel at the \x80ford"', 1)
    assert header != lines[0]
    log = tmp_path / "header-not-utf8.jsonl"
    log.write_bytes(rechain([header, *lines[1:-1]], format_version=2))
    result = run_process("verify", log)
    assert "Traceback" not in result.err
    assert result.code in (1, 2), result


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_verify_fails_any_single_byte_change(tmp_path: Path, duel_bytes: bytes, data: st.DataObject) -> None:
    """Whatever byte of an event or end line changes, verify fails with exit 1 and a FAILED line.

    The header is left out here: the next test changes its bytes.
    """
    header_end = duel_bytes.index(b"\n")
    position = data.draw(st.integers(header_end + 1, len(duel_bytes) - 1), label="position")
    byte = data.draw(st.integers(0, 255).filter(lambda b: b != duel_bytes[position]), label="byte")
    log = tmp_path / "flipped.jsonl"
    log.write_bytes(duel_bytes[:position] + bytes([byte]) + duel_bytes[position + 1 :])
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = call_main(["verify", log])
    assert code == 1, (out.getvalue(), err.getvalue())
    assert out.getvalue().startswith(f"FAILED: {log}: "), out.getvalue()


@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_verify_fails_any_single_byte_change_in_the_header(
    tmp_path: Path, duel_bytes: bytes, data: st.DataObject
) -> None:
    """Whatever byte of the header changes, the log is tampered with: exit 1 and a FAILED line at line 1."""
    position = data.draw(st.integers(0, duel_bytes.index(b"\n") - 1), label="position")
    byte = data.draw(st.integers(0, 255).filter(lambda b: b not in (duel_bytes[position], 10)), label="byte")
    log = tmp_path / "flipped.jsonl"
    log.write_bytes(duel_bytes[:position] + bytes([byte]) + duel_bytes[position + 1 :])
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = call_main(["verify", log])
    assert code == 1, (out.getvalue(), err.getvalue())
    assert out.getvalue().startswith(f"FAILED: {log}: line 1 (header)"), out.getvalue()


NOT_CHECKED = "not checked: the log is damaged before them, and a signature vouches only for a log"
"""What verify says of the signature lines of a log damaged before them."""


def _signed_and_damaged(affray: Affray, log: Path, *names: str) -> Lines:
    """The lines of ``log`` signed by each of ``names`` (keys made beside it) and then damaged at seq K
    (its time bumped: the chain breaks there); the file is written so."""
    for name in names:
        assert affray("keygen", name, "-o", log.parent).code == 0
        assert affray("sign", log, "--key", log.parent / f"{name}.key").code == 0
    lines = log.read_bytes().split(b"\n")[:-1]
    lines[K] = _bump_time(lines[K])
    log.write_bytes(_join(lines))
    return lines


def _named_seq_of_a_signed_log(result: Result) -> int:
    """The seq the FAILED line names, which the line on the signatures follows (and no other)."""
    assert result.code == 1, result
    match = FAILED.match(result.out)
    assert match is not None, result.out
    assert len(result.out.splitlines()) == 2, result.out
    assert result.out.splitlines()[1].startswith("signatures: "), result.out
    return int(match["seq"])


def test_verify_names_the_signers_of_a_log_damaged_before_its_signatures(
    affray: Affray, duel_log: Path
) -> None:
    _signed_and_damaged(affray, duel_log, "alice", "bob")
    result = affray("verify", duel_log)
    assert _named_seq_of_a_signed_log(result) == K
    said = f"signatures: 2 signature lines (alice, bob) {NOT_CHECKED} that is whole up to its end line"
    assert result.out.splitlines()[1] == said


def test_verify_says_nothing_of_signatures_of_an_unsigned_damaged_log(
    affray: Affray, tmp_path: Path, duel_bytes: bytes
) -> None:
    result = _verify_tampered(affray, tmp_path, duel_bytes, edit)
    assert _named_seq(result) == K  # the FAILED line alone
    assert "signature" not in result.out


def test_verify_escapes_the_name_of_a_signer_of_a_damaged_log(affray: Affray, duel_log: Path) -> None:
    lines = _signed_and_damaged(affray, duel_log, "alice")
    lines[-1] = lines[-1].replace(b'"signer":"alice"', b'"signer":"al\\u001b]0;PWNED\\u0007ice"')
    duel_log.write_bytes(_join(lines))
    result = affray("verify", duel_log)
    assert _named_seq_of_a_signed_log(result) == K
    assert "(al\\u001b]0;PWNED\\u0007ice)" in result.out
    assert "\x1b" not in result.out


def test_verify_says_trust_is_not_checked_for_a_signed_log_damaged_before_its_signatures(
    affray: Affray, duel_log: Path
) -> None:
    _signed_and_damaged(affray, duel_log, "alice")
    result = affray("verify", duel_log, "--trust", duel_log.parent / "alice.pub")
    assert _named_seq_of_a_signed_log(result) == K
    assert result.out.splitlines()[1].endswith("; so --trust is not checked either")
