"""A signature line's form (affray.events.signature), and how a reader takes the lines after the end line."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from affray.events.reader import read_bytes
from affray.events.signature import (
    MAX_SIGNATURE_BYTES,
    DamagedSignature,
    decode_signature,
    encode_signature,
    signed_message,
)
from affray.rulesets import vocabulary_for
from tests.strategies import example_log

KEY = bytes(range(32))
SIGNATURE = bytes(range(64))
HASH = "0123456789abcdef0123456789abcdef"


def _line(signer: str = "alice") -> bytes:
    return encode_signature(signer, KEY, SIGNATURE)


def test_the_message_is_the_label_the_end_hash_and_the_name() -> None:
    assert signed_message(HASH, "alice") == b"affray-log-signature-v1\n%s\nalice\n" % HASH.encode()


@pytest.mark.parametrize(
    ("end_hash", "signer"), [(HASH.upper(), "alice"), (HASH, "al\nice"), (HASH[1:], "a")]
)
def test_no_message_is_made_of_anything_but_a_hash_and_a_name(end_hash: str, signer: str) -> None:
    with pytest.raises(ValueError, match="not an end hash"):
        signed_message(end_hash, signer)


def test_a_line_is_laid_out_as_the_page_says() -> None:
    key, signature = "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=", _line().split(b'"signature":"')[1][:-2]
    assert _line() == b'{"signer":"alice","algorithm":"ed25519","key":"%s","signature":"%s"}' % (
        key.encode(),
        signature,
    )


def test_a_line_reads_back_as_written() -> None:
    held = decode_signature(_line())
    assert (held.signer, held.key_bytes, held.signature_bytes) == ("alice", KEY, SIGNATURE)


@pytest.mark.parametrize(
    ("line", "why"),
    [
        (_line().replace(b'"ed25519"', b'"rsa"'), "algorithm 'rsa' is not ed25519"),
        (_line().replace(b'"alice"', b'"../x"'), "is not a name"),
        (_line().replace(b'"key":"', b'"key":"A'), "key is not"),
        (_line().replace(b'"signature":"', b'"signature":"AAAA'), "signature is not the base64 of 64 bytes"),
        (_line().replace(b'{"signer"', b'{"signer" '), "not written as affray writes it"),
        (_line()[:-1] + b',"extra":1}', "not a signature"),
        (_line()[:-10], "not a signature"),
        (_line().replace(b'"alice"', b'"' + b"a" * MAX_SIGNATURE_BYTES + b'"'), "longer than"),
    ],
)
def test_a_damaged_line_is_refused_saying_why(line: bytes, why: str) -> None:
    with pytest.raises(DamagedSignature, match=why):
        decode_signature(line)


@pytest.fixture(scope="module")
def duel() -> bytes:
    return example_log("duel")


def test_a_reader_takes_the_signature_lines_after_the_end_line(duel: bytes) -> None:
    log = read_bytes(duel + _line("alice") + b"\n" + _line("bob") + b"\n", vocabulary_for)
    assert (log.problem, log.ended) == (None, True)


def test_a_damaged_signature_line_is_the_readers_problem(duel: bytes) -> None:
    log = read_bytes(duel + _line()[:-2] + b"\n", vocabulary_for)
    assert log.problem is not None
    assert log.problem.message.startswith("the signature line is damaged")


def test_a_signature_line_longer_than_its_bound_is_not_read_on(duel: bytes) -> None:
    log = read_bytes(duel + b'{"signer":"' + b"a" * (2 * MAX_SIGNATURE_BYTES) + b"\n", vocabulary_for)
    assert log.problem is not None
    assert "longer than the 1,024 bytes" in log.problem.message


def test_a_line_after_a_signature_line_follows_the_end_line(duel: bytes) -> None:
    log = read_bytes(duel + _line() + b"\n" + b"{}\n", vocabulary_for)
    assert log.problem is not None
    assert log.problem.message == "lines follow the end line"


def test_the_pages_example_is_what_the_golden_duel_signs() -> None:
    root = Path(__file__).resolve().parents[2]
    end = (root / "tests" / "golden" / "duel.jsonl").read_bytes().splitlines()[-1]
    page = (root / "docs" / "log-format.md").read_text()
    message = signed_message(hashlib.blake2b(end, digest_size=16).hexdigest(), "alice")
    assert "`" + message.decode().replace("\n", "\\n") + "` (63 bytes)" in page
    assert len(message) == 63
    assert f"the end line being\n`{end.decode()}`" in page
