"""Hypothesis strategies for the contract suite (affray.testing.contract): instances of any event kind,
drawn from its msgspec schema, for round trips of every kind of every vocabulary, whatever ruleset
defines it."""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec
import msgspec.inspect as mi
from hypothesis import strategies as st

_DECIMALS = st.decimals(min_value=-(10**6), max_value=10**6, places=3, allow_nan=False, allow_infinity=False)
_TEXT = st.text(max_size=12)


def _int(info: mi.IntType) -> st.SearchStrategy[int]:
    low = info.ge if info.ge is not None else (info.gt + 1 if info.gt is not None else -(10**6))
    high = info.le if info.le is not None else (info.lt - 1 if info.lt is not None else 10**6)
    return st.integers(min_value=low, max_value=high)


def _values(info: mi.Type) -> st.SearchStrategy[Any]:
    """The values of a field's type."""
    if isinstance(info, mi.Metadata):  # an annotated type (ActorId): its values are the type's
        return _values(info.type)
    strategy = _scalars(info)
    if strategy is None:
        strategy = _compounds(info)
    if strategy is None:
        raise TypeError(f"no strategy for {info!r}")
    return strategy


def _scalars(info: mi.Type) -> st.SearchStrategy[Any] | None:
    """The values of a type that holds no other, None for any other type."""
    if isinstance(info, mi.IntType):
        return _int(info)
    if isinstance(info, mi.StrType):
        return _TEXT if info.pattern is None else st.from_regex(info.pattern, fullmatch=True)
    if isinstance(info, mi.BoolType):
        return st.booleans()
    if isinstance(info, mi.DecimalType):
        return _DECIMALS
    if isinstance(info, mi.FloatType):
        return st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)
    if isinstance(info, mi.NoneType):
        return st.none()
    if isinstance(info, mi.LiteralType):
        return st.sampled_from(info.values)
    return None


def _compounds(info: mi.Type) -> st.SearchStrategy[Any] | None:
    """The values of a type made of others (a union, a container, a Struct), None for any other type."""
    if isinstance(info, mi.UnionType):
        return st.one_of(*(_values(t) for t in info.types))
    if isinstance(info, mi.TupleType):
        return st.tuples(*(_values(t) for t in info.item_types))
    if isinstance(info, mi.VarTupleType):
        return st.lists(_values(info.item_type), max_size=3).map(tuple)
    if isinstance(info, mi.ListType):
        return st.lists(_values(info.item_type), max_size=3)
    if isinstance(info, mi.DictType):
        return st.dictionaries(_values(info.key_type), _values(info.value_type), max_size=3)
    if isinstance(info, mi.StructType):
        return instances(info.cls)
    return None


@cache
def instances(kind: type) -> st.SearchStrategy[Any]:
    """Instances of the Struct ``kind``, every field drawn from its type (``seq`` and ``t`` natural)."""
    info = mi.type_info(kind)
    assert isinstance(info, mi.StructType)
    fields = {f.name: _field(f) for f in info.fields}
    return st.builds(kind, **fields)


def _field(field: mi.Field) -> st.SearchStrategy[Any]:
    if field.name in ("seq", "t"):
        return st.integers(min_value=1, max_value=10**6)
    values = _values(field.type)
    unset = (
        not field.required
        and field.default is msgspec.NODEFAULT
        and field.default_factory is msgspec.NODEFAULT
    )
    return values | st.just(msgspec.UNSET) if unset else values
