"""Transforms as ops: custom rules and jit through every per-op check."""

from __future__ import annotations

from hypothesis.extra import numpy as hnp
import numpy as np

import fgrad
import fgrad.numpy as fnp

from ._base import Arg, F32, F64, OpRow, shapes_of, unary
from .control_flow import _np_while
from .lax import LAX

ROWS: list[OpRow] = []

# --------------------------------------------------------------------------------------
# transforms as ops: custom rules and jit run through every per-op check too


@fgrad.custom_jvp
def _log1pexp(x):
    return fnp.log1p(fnp.exp(x))


@_log1pexp.defjvp
def _log1pexp_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return _log1pexp(x), t * (1.0 / (1.0 + fnp.exp(-x)))


@fgrad.custom_vjp
def _sin_cvjp(x):
    return fnp.sin(x)


_sin_cvjp.defvjp(lambda x: (fnp.sin(x), fnp.cos(x)), lambda cos_x, g: (g * cos_x,))


def _jit_composite(x, y):
    return fnp.sin(x) * y + fnp.sum(x**2, axis=-1, keepdims=True) / 3.0


ROWS += [
    unary(
        "custom_jvp",
        fn=_log1pexp,
        ref=lambda x: np.log1p(np.exp(x)),
        lo=-4,
        hi=4,
        covers=("custom_jvp",),
        fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)},
    ),
    unary("custom_vjp", fn=_sin_cvjp, ref=np.sin, modes=("rev",), covers=("custom_vjp",)),
    OpRow(
        "jit",
        fgrad.jit(_jit_composite),
        lambda x, y: np.sin(x) * y + np.sum(x**2, axis=-1, keepdims=True) / 3.0,
        args=(Arg(), Arg()),
        shapes=shapes_of(2, min_dims=1),
        covers=("jit",),
        fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)},
    ),
    OpRow(
        "jit[while_loop]",
        fgrad.jit(
            lambda x: LAX.while_loop(lambda c: c[0] < 4, lambda c: (c[0] + 1, c[1] * 1.1 + 0.1), (0, x))[1]
        ),
        _np_while,
        modes=("fwd",),
        covers=("jit",),
        fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)},
    ),
    OpRow(
        "jit[cond]",
        fgrad.jit(lambda p, x: LAX.cond(p > 0, fnp.sin, fnp.cos, x)),
        lambda p, x: np.sin(x) if p > 0 else np.cos(x),
        args=(Arg(-1, 1, avoid=(0.0,), diff=False), Arg()),
        shapes=hnp.array_shapes(max_dims=2).map(lambda s: ((), s)),
        example_shapes=((), (3,)),
        covers=("jit",),
    ),
]


