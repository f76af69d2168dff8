"""Op-table rows generated from the op specs (`fgrad.ops.specs`): each `Row` of a spec with a
`fgrad.numpy` face becomes an `OpRow` testing that face against NumPy's function of the
same name."""

from __future__ import annotations

from fgrad.ops.specs import SPEC_LIST, Domain, OpSpec, Row

import numpy as np

from ._base import (Arg, OpRow, binary, jax_promoted, near_half_integer, near_integer, unary, valid_mod,
                    valid_not_tied)

_AVOID = {"integers": near_integer, "half_integers": near_half_integer}
_VALID = {None: None, "not_tied": valid_not_tied, "mod": valid_mod}


def _arg(d: Domain) -> Arg:
    avoid = _AVOID.get(d.avoid, d.avoid) if isinstance(d.avoid, str) else d.avoid
    return Arg(d.lo, d.hi, kind=d.kind, avoid=avoid, margin=d.margin)


def _row(spec: OpSpec, row: Row) -> OpRow:
    name = row.name or spec.numpy[0]
    kw = {"grad": row.grad}
    if row.dtypes is not None:
        kw["dtypes"] = row.dtypes
    if row.other_dtypes:
        kw["other_dtypes"] = row.other_dtypes
    if row.specials:
        kw["specials"] = True
    if row.valid is not None:
        kw["valid"] = _VALID[row.valid]
    if row.fwd_tol is not None:
        kw["fwd_tol"] = row.fwd_tol
    if "[" in name:
        kw["covers"] = (f"numpy.{name.split('[')[0]}",)
    if spec.promote:  # the reference computes in JAX's operand dtypes (float32 for int32 inputs)
        kw["ref"] = jax_promoted(getattr(np, name.split("[")[0]), spec.promote)
    if spec.family == "unary":
        a = _arg(row.args[0] if row.args else Domain())
        return unary(name, lo=a.lo, hi=a.hi, avoid=a.avoid, **kw)
    args = tuple(_arg(d) for d in row.args) if row.args else (Arg(), Arg())
    return binary(name, args=args, **kw)


def spec_rows(family: str) -> list[OpRow]:
    """The rows of every spec of ``family`` (``"unary"``, ``"binary"``), in spec order."""
    return [_row(s, r) for s in SPEC_LIST if s.family == family and s.numpy for r in s.rows]
