"""``affray keygen``, ``affray sign`` and ``affray verify``'s signatures: who signed a log, and that it is
unchanged since (docs/log-format.md, "Signatures")."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import stat
from pathlib import Path

import pytest

from tests.cli.conftest import DUEL, ROOT, Affray, assert_user_error, rechain
from tests.cli.test_startup import loaded

FORMAT_1_DUEL = ROOT / "tests" / "corpus" / "format-1-last" / "duel.jsonl"
"""The duel's log in format 1, which chains every line."""
SIGNED_BY = re.compile(r"^signed by (\w+) \(ed25519 key SHA256:[A-Za-z0-9+/]{43}\): the signature holds$")


def _keygen(affray: Affray, folder: Path, name: str) -> Path:
    """A new key pair for ``name`` in ``folder``; the private key's path."""
    result = affray("keygen", name, "-o", folder)
    assert result.code == 0, result
    return folder / f"{name}.key"


def _signed(affray: Affray, log: Path, *names: str) -> Path:
    """``log`` signed by each of ``names`` in turn (keys made beside it); the log."""
    for name in names:
        result = affray("sign", log, "--key", _keygen(affray, log.parent, name))
        assert result.code == 0, result
    return log


def _lines(log: Path) -> list[bytes]:
    return log.read_bytes().splitlines()


def _failed_signature(out: str, name: str) -> bool:
    return any(
        line.startswith("FAILED: ") and f"signed by {name} " in line and "does not hold" in line
        for line in out.splitlines()
    )


def test_keygen_makes_a_private_key_only_its_owner_may_read(affray: Affray, tmp_path: Path) -> None:
    key = _keygen(affray, tmp_path, "alice")
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    assert key.read_bytes().startswith(b"-----BEGIN PRIVATE KEY-----\n")


def test_keygen_writes_the_public_key_as_one_openssh_line(affray: Affray, tmp_path: Path) -> None:
    _keygen(affray, tmp_path, "alice")
    assert re.fullmatch(r"ssh-ed25519 AAAA[A-Za-z0-9+/=]+ alice\n", (tmp_path / "alice.pub").read_text())


def test_keygen_never_writes_over_a_key(affray: Affray, tmp_path: Path) -> None:
    key = _keygen(affray, tmp_path, "alice")
    before = key.read_bytes()
    assert_user_error(affray("keygen", "alice", "-o", tmp_path), "alice.key", "already has that name")
    assert key.read_bytes() == before


def test_keygen_never_writes_through_a_link(affray: Affray, tmp_path: Path) -> None:
    (tmp_path / "alice.pub").symlink_to(tmp_path / "elsewhere")
    assert_user_error(affray("keygen", "alice", "-o", tmp_path), "alice.pub", "already has that name")
    assert not (tmp_path / "elsewhere").exists()
    assert not (tmp_path / "alice.key").exists()


@pytest.mark.parametrize("name", ["../alice", "", ".hidden", "-o", "a" * 65, "al ice", "\x1b[31m"])
def test_keygen_refuses_a_name_that_is_no_signers_name(affray: Affray, tmp_path: Path, name: str) -> None:
    assert_user_error(affray("keygen", name, "-o", tmp_path), "not a signer's name")
    assert list(tmp_path.iterdir()) == []


def test_keygen_refuses_a_folder_that_does_not_exist(affray: Affray, tmp_path: Path) -> None:
    assert_user_error(affray("keygen", "alice", "-o", tmp_path / "none"), "none", "no such folder")


def test_a_signed_log_verifies_naming_its_signer(affray: Affray, duel_log: Path) -> None:
    result = affray("verify", _signed(affray, duel_log, "alice"))
    assert result.code == 0, result
    assert SIGNED_BY.fullmatch(result.out.splitlines()[-1])
    assert "signed by alice " in result.out


def test_signing_appends_one_line_after_the_end_line(affray: Affray, duel_log: Path) -> None:
    before = duel_log.read_bytes()
    after = _signed(affray, duel_log, "alice").read_bytes()
    assert after.startswith(before)
    assert after[len(before) :].startswith(b'{"signer":"alice","algorithm":"ed25519","key":"')
    assert after.count(b"\n") == before.count(b"\n") + 1


def test_two_signers_are_each_named(affray: Affray, duel_log: Path) -> None:
    result = affray("verify", _signed(affray, duel_log, "alice", "bob"))
    assert result.code == 0, result
    named = [SIGNED_BY.fullmatch(line) for line in result.out.splitlines()[1:]]
    assert [found.group(1) for found in named if found] == ["alice", "bob"]


def test_a_signer_signs_a_log_once(affray: Affray, duel_log: Path) -> None:
    _signed(affray, duel_log, "alice")
    result = affray("sign", duel_log, "--key", duel_log.parent / "alice.key")
    assert_user_error(result, "already signed by alice")


def test_a_changed_and_rechained_log_fails_at_the_signature(affray: Affray, duel_log: Path) -> None:
    *lines, _end, signature = _lines(_signed(affray, duel_log, "alice"))
    # seq 11, brenna's first blow at 7.333 s, a millisecond later: the next event is at 11.666 s
    lines[11] = re.sub(rb'"t":(\d+)', lambda m: b'"t":%d' % (int(m[1]) + 1), lines[11], count=1)
    duel_log.write_bytes(rechain(lines) + signature + b"\n")
    result = affray("verify", duel_log)
    assert result.code == 1, result
    assert _failed_signature(result.out, "alice")


def test_an_extended_log_fails_at_the_signature(affray: Affray, duel_log: Path) -> None:
    *lines, _end, signature = _lines(_signed(affray, duel_log, "alice"))
    extra = re.sub(rb'"seq":\d+', b'"seq":%d' % len(lines), lines[-1], count=1)
    duel_log.write_bytes(rechain([*lines, extra]) + signature + b"\n")
    result = affray("verify", duel_log)
    assert result.code == 1, result
    assert _failed_signature(result.out, "alice")


def test_a_signature_moved_to_another_log_fails(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    other = tmp_path / "skirmish.jsonl"
    assert affray("run", DUEL, "--seed", "7", "-o", other).code == 0
    signature = _lines(_signed(affray, duel_log, "alice"))[-1]
    other.write_bytes(other.read_bytes() + signature + b"\n")
    result = affray("verify", other)
    assert result.code == 1, result
    assert _failed_signature(result.out, "alice")


def test_a_signer_under_another_name_fails(affray: Affray, duel_log: Path) -> None:
    *lines, signature = _lines(_signed(affray, duel_log, "alice"))
    duel_log.write_bytes(b"\n".join([*lines, signature.replace(b'"alice"', b'"alicf"')]) + b"\n")
    result = affray("verify", duel_log)
    assert result.code == 1, result
    assert _failed_signature(result.out, "alicf")


def test_a_trusted_signer_holds(affray: Affray, duel_log: Path) -> None:
    _signed(affray, duel_log, "alice")
    result = affray("verify", duel_log, "--trust", duel_log.parent / "alice.pub")
    assert result.code == 0, result
    assert "by a trusted key (" in result.out.splitlines()[-1]


def test_a_signer_whose_key_is_not_trusted_fails(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    _signed(affray, duel_log, "alice")
    (tmp_path / "keys").mkdir()
    _keygen(affray, tmp_path / "keys", "alice")
    result = affray("verify", duel_log, "--trust", tmp_path / "keys" / "alice.pub")
    assert result.code == 1, result
    assert "FAILED: " in result.out
    assert "not one of the trusted keys" in result.out


def test_trusting_keys_fails_a_log_no_one_signed(affray: Affray, duel_log: Path, tmp_path: Path) -> None:
    _keygen(affray, tmp_path, "alice")
    result = affray("verify", duel_log, "--trust", tmp_path / "alice.pub")
    assert result.code == 1, result
    assert "the log is not signed" in result.out


def test_a_required_signer_who_signed_holds(affray: Affray, duel_log: Path) -> None:
    _signed(affray, duel_log, "alice", "bob")
    result = affray("verify", duel_log, "--require", duel_log.parent / "bob.pub")
    assert result.code == 0, result


def test_a_required_signers_line_removed_is_caught(affray: Affray, duel_log: Path) -> None:
    # two signed; bob's line is cut off the end: alice's still holds, and only --require can tell
    *lines, _bobs = _lines(_signed(affray, duel_log, "alice", "bob"))
    duel_log.write_bytes(b"\n".join(lines) + b"\n")
    assert affray("verify", duel_log).code == 0
    result = affray("verify", duel_log, "--require", duel_log.parent / "bob.pub")
    assert result.code == 1, result
    assert "bob.pub has not signed it (--require)" in result.out


def test_a_damaged_signature_line_is_a_user_error(affray: Affray, duel_log: Path) -> None:
    *lines, signature = _lines(_signed(affray, duel_log, "alice"))
    duel_log.write_bytes(b"\n".join([*lines, signature.replace(b'"key":"', b'"key":"!')]) + b"\n")
    assert_user_error(affray("verify", duel_log), "duel.jsonl: line 34", "signature line is damaged")


def test_a_damaged_signature_line_stops_signing(affray: Affray, duel_log: Path) -> None:
    *lines, signature = _lines(_signed(affray, duel_log, "alice"))
    damaged = b"\n".join([*lines, signature[:-3]]) + b"\n"
    duel_log.write_bytes(damaged)
    result = affray("sign", duel_log, "--key", _keygen(affray, duel_log.parent, "bob"))
    assert_user_error(result, "line 34", "signature line is damaged")
    assert duel_log.read_bytes() == damaged


def test_a_line_after_the_signatures_is_a_line_after_the_end(affray: Affray, duel_log: Path) -> None:
    lines = _lines(_signed(affray, duel_log, "alice"))
    duel_log.write_bytes(b"\n".join([*lines, lines[3]]) + b"\n")
    result = affray("verify", duel_log)
    assert result.code == 1, result
    assert "line 35 (seq 32): lines follow the end line" in result.out


def test_the_signatures_before_a_line_after_them_are_checked_and_said(affray: Affray, duel_log: Path) -> None:
    # the log is whole up to its end line, which alice signed; the line after her signature fails it
    lines = _lines(_signed(affray, duel_log, "alice"))
    duel_log.write_bytes(b"\n".join([*lines, b'{"x":1}']) + b"\n")
    result = affray("verify", duel_log, "--trust", duel_log.parent / "alice.pub")
    assert result.code == 1, result
    assert result.out.splitlines()[0].endswith("line 35 (seq 32): lines follow the end line")
    assert "signed by alice " in result.out
    assert "the signature holds, by a trusted key" in result.out


def test_other_commands_read_a_signed_log(affray: Affray, duel_log: Path) -> None:
    result = affray("replay", _signed(affray, duel_log, "alice", "bob"))
    assert result.code == 0, result
    assert result.err == ""


def test_a_log_without_an_end_line_is_not_signed(affray: Affray, duel_log: Path) -> None:
    cut = b"\n".join(_lines(duel_log)[:-1]) + b"\n"
    duel_log.write_bytes(cut)
    result = affray("sign", duel_log, "--key", _keygen(affray, duel_log.parent, "alice"))
    assert_user_error(result, "no end line", "only a whole log is signed")
    assert duel_log.read_bytes() == cut


def test_a_log_whose_chain_breaks_is_not_signed(affray: Affray, duel_log: Path) -> None:
    # format 1 chains every line, so the line changed is the one named
    lines = _lines(FORMAT_1_DUEL)
    lines[5] = lines[5].replace(b'"seq":5,', b'"seq":5, ')
    duel_log.write_bytes(b"\n".join(lines) + b"\n")
    result = affray("sign", duel_log, "--key", _keygen(affray, duel_log.parent, "alice"))
    assert_user_error(result, "line 6 (seq 5): this line was changed", "only a whole log is signed")
    assert duel_log.read_bytes() == b"\n".join(lines) + b"\n"


def test_a_log_whose_block_no_longer_chains_is_not_signed(affray: Affray, duel_log: Path) -> None:
    # format 2 chains blocks of 256 lines: the duel's one block is named, from its first line
    lines = _lines(duel_log)
    lines[5] = lines[5].replace(b'"seq":5,', b'"seq":5, ')
    duel_log.write_bytes(b"\n".join(lines) + b"\n")
    result = affray("sign", duel_log, "--key", _keygen(affray, duel_log.parent, "alice"))
    assert_user_error(
        result,
        "line 2 (seq 1): lines 2 to 32 (seqs 1 to 31) were changed: their hash no longer matches the prev "
        "that the end line records",
        "only a whole log is signed",
    )
    assert duel_log.read_bytes() == b"\n".join(lines) + b"\n"


def test_signing_keeps_the_logs_mode_and_leaves_nothing_beside_it(affray: Affray, duel_log: Path) -> None:
    duel_log.chmod(0o640)
    key = _keygen(affray, duel_log.parent, "alice")
    assert affray("sign", duel_log, "--key", key).code == 0
    assert stat.S_IMODE(duel_log.stat().st_mode) == 0o640
    assert sorted(p.name for p in duel_log.parent.iterdir()) == ["alice.key", "alice.pub", "duel.jsonl"]


def test_signing_refuses_a_link(affray: Affray, duel_log: Path) -> None:
    link = duel_log.parent / "link.jsonl"
    link.symlink_to(duel_log)
    result = affray("sign", link, "--key", _keygen(affray, duel_log.parent, "alice"))
    assert_user_error(result, "link.jsonl", "is a link")
    assert link.is_symlink()


def test_a_campaigns_encounter_is_signed_where_it_is(affray: Affray, duel_log: Path) -> None:
    campaign = duel_log.parent / "campaign.sqlite"
    assert affray("import", duel_log, "-o", campaign).code == 0
    result = affray("sign", f"{campaign}#duel", "--key", _keygen(affray, duel_log.parent, "alice"))
    assert result.code == 0, result
    assert SIGNED_BY.fullmatch(affray("verify", f"{campaign}#duel").out.splitlines()[1])


def test_a_signed_log_imported_and_exported_is_the_same_file_byte_for_byte(
    affray: Affray, duel_log: Path
) -> None:
    _signed(affray, duel_log, "alice", "bob")
    campaign, back = duel_log.parent / "campaign.sqlite", duel_log.parent / "back.jsonl"
    assert affray("import", duel_log, "-o", campaign).code == 0
    assert affray("export", f"{campaign}#duel", "-o", back).code == 0
    assert back.read_bytes() == duel_log.read_bytes()


def test_an_encounter_signed_twice_by_one_name_is_refused_and_unchanged(
    affray: Affray, duel_log: Path
) -> None:
    campaign = duel_log.parent / "campaign.sqlite"
    assert affray("import", duel_log, "-o", campaign).code == 0
    key = _keygen(affray, duel_log.parent, "alice")
    assert affray("sign", f"{campaign}#duel", "--key", key).code == 0
    before = affray("export", f"{campaign}#duel", "-o", duel_log.parent / "once.jsonl")
    assert before.code == 0
    assert_user_error(affray("sign", f"{campaign}#duel", "--key", key), "already signed by alice")
    assert affray("export", f"{campaign}#duel", "-o", duel_log.parent / "twice.jsonl").code == 0
    assert (duel_log.parent / "twice.jsonl").read_bytes() == (duel_log.parent / "once.jsonl").read_bytes()


def test_a_changed_encounter_fails_at_the_signature_it_keeps(affray: Affray, duel_log: Path) -> None:
    _signed(affray, duel_log, "alice")
    lines = _lines(duel_log)
    changed = duel_log.with_name("changed.jsonl")
    # brenna's third blow (seq 13, a miss) rolled 98: recorded as 21, with the chain mended
    changed.write_bytes(
        rechain([line.replace(b'"total":98', b'"total":21') for line in lines[:-2]]) + lines[-1] + b"\n"
    )
    campaign = duel_log.parent / "campaign.sqlite"
    assert affray("import", changed, "-o", campaign).code == 0
    result = affray("verify", f"{campaign}#changed")
    assert result.code == 1, result
    assert _failed_signature(result.out, "alice")


def test_a_missing_key_file_is_a_user_error(affray: Affray, duel_log: Path) -> None:
    result = affray("sign", duel_log, "--key", duel_log.parent / "nobody.key")
    assert_user_error(result, "nobody.key", "no such file")


def test_a_private_key_others_may_read_is_refused(affray: Affray, duel_log: Path) -> None:
    key = _keygen(affray, duel_log.parent, "alice")
    key.chmod(0o644)
    assert_user_error(affray("sign", duel_log, "--key", key), "alice.key", "others may read", "0644")


def test_a_missing_trusted_key_file_is_a_user_error(affray: Affray, duel_log: Path) -> None:
    result = affray("verify", duel_log, "--trust", duel_log.parent / "nobody.pub")
    assert_user_error(result, "nobody.pub", "no such file")


def test_a_signature_line_longer_than_its_bound_is_a_user_error(affray: Affray, duel_log: Path) -> None:
    duel_log.write_bytes(duel_log.read_bytes() + b'{"signer":"' + b"a" * 5000 + b'"}\n')
    assert_user_error(affray("verify", duel_log), "line 34", "longer than the 1,024 bytes")


def test_a_public_key_given_to_sign_with_is_a_user_error(affray: Affray, duel_log: Path) -> None:
    _keygen(affray, duel_log.parent, "alice")
    result = affray("sign", duel_log, "--key", duel_log.parent / "alice.pub")
    assert_user_error(result, "--key", "alice.pub", "not a private key in PEM form")


def test_a_private_key_given_to_trust_is_a_user_error(affray: Affray, duel_log: Path) -> None:
    key = _keygen(affray, duel_log.parent, "alice")
    result = affray("verify", duel_log, "--trust", key)
    assert_user_error(result, "--trust", "alice.key", "not an OpenSSH public key")


def test_a_key_file_named_as_no_signer_needs_a_name(affray: Affray, duel_log: Path) -> None:
    key = _keygen(affray, duel_log.parent, "alice")
    renamed = key.rename(duel_log.parent / "my key.pem")
    assert_user_error(affray("sign", duel_log, "--key", renamed), "give one with --name")


def test_a_log_is_signed_under_the_name_given(affray: Affray, duel_log: Path) -> None:
    key = _keygen(affray, duel_log.parent, "alice")
    assert affray("sign", duel_log, "--key", key, "--name", "referee").code == 0
    result = affray("verify", duel_log)
    assert result.code == 0, result
    assert result.out.splitlines()[-1].startswith("signed by referee ")


def test_a_run_does_not_load_the_cryptography_library(tmp_path: Path) -> None:
    modules = loaded("run", DUEL, "-o", tmp_path / "duel.jsonl")
    assert "cryptography" not in modules
    assert "affray.cli.keys" not in modules


def test_verifying_an_unsigned_log_does_not_load_the_cryptography_library(duel_log: Path) -> None:
    assert "cryptography" not in loaded("verify", duel_log)


def test_a_private_key_made_under_an_open_umask_is_still_0600(affray: Affray, tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        key = _keygen(affray, tmp_path, "alice")
    finally:
        os.umask(old)
    assert stat.S_IMODE(key.stat().st_mode) == 0o600


def test_a_signature_checks_by_the_pages_recipe_alone(affray: Affray, duel_log: Path) -> None:
    """docs/log-format.md, "Signatures": the end line's BLAKE2b-16, the label and the name, Ed25519."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    *_, end, line = _lines(_signed(affray, duel_log, "alice"))
    held = json.loads(line)
    end_hash = hashlib.blake2b(end, digest_size=16).hexdigest()
    message = f"affray-log-signature-v1\n{end_hash}\n{held['signer']}\n".encode()
    key = Ed25519PublicKey.from_public_bytes(base64.b64decode(held["key"]))
    key.verify(base64.b64decode(held["signature"]), message)  # raises InvalidSignature if it does not hold
