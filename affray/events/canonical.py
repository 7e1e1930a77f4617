"""The one form affray writes a log line in, so that verify can hold every line to it.

A reader decodes a line into a typed value, and decoding forgives: it ignores an extra member, reads
``3.2e1`` as 32, takes the last of two equal keys. A forger who re-chains the hashes could hide such edits
from a check that compares decoded values, so verify compares bytes instead: a line must be exactly what
encoding its value gives, except that a member whose field came later, with a default, may be missing from
a line written before it existed.
"""

from __future__ import annotations

import functools

import msgspec

_MEMBERS = msgspec.json.Decoder(dict[str, msgspec.Raw])


@functools.cache
def _defaults(kind: type[msgspec.Struct], encoder: msgspec.json.Encoder) -> dict[str, bytes]:
    """Each defaulted field's encoded default, by the name it is written under."""
    defaults: dict[str, bytes] = {}
    for field in msgspec.structs.fields(kind):
        if field.default is msgspec.UNSET:
            continue  # an unset field is never written
        if field.default is not msgspec.NODEFAULT:
            defaults[field.encode_name] = encoder.encode(field.default)
        elif field.default_factory is not msgspec.NODEFAULT:
            defaults[field.encode_name] = encoder.encode(field.default_factory())
    return defaults


def canonical(line: bytes, value: msgspec.Struct, encoder: msgspec.json.Encoder) -> bytes:
    """The bytes ``line`` must be to be what affray writes for ``value``: its encoding, less the members with
    their default value that ``line`` does not have. Members ``line`` adds are not in it."""
    written = _MEMBERS.decode(line)
    defaults = _defaults(type(value), encoder)
    members = _MEMBERS.decode(encoder.encode(value))
    kept = [
        b'"%s":%s' % (name.encode(), bytes(raw))
        for name, raw in members.items()
        if name in written or defaults.get(name) != bytes(raw)
    ]
    return b"{" + b",".join(kept) + b"}"


def is_canonical(
    line: bytes, value: msgspec.Struct, encoder: msgspec.json.Encoder, tail: bytes = b""
) -> bool:
    """Whether ``line`` is what affray writes for ``value``, followed by ``tail`` (an event's ``prev``
    member and closing brace, say); a line that does not even parse as members is not."""
    try:
        form = canonical(line, value, encoder)
    except (msgspec.DecodeError, RecursionError):
        return False
    return line == (form[:-1] + tail if tail else form)
