"""The elementwise functions of `fgrad.numpy` generated from the op specs.

Every spec in `fgrad.ops.specs` with a NumPy name and a primitive gets one wrapper per name
here (``fnp.arcsin`` binds ``asin_p``); aliases (``absolute``/``abs``) are the same function.
Unary wrappers of one-ufunc primitives have an eager fast path: outside any transform, on a
concrete array, with 64-bit types on, they call the ufunc directly (with NumPy's IEEE-value
warnings off).

>>> import fgrad.numpy as fnp
>>> fnp.arcsin(fnp.asarray(1.0)), fnp.absolute is fnp.abs
(Array(1.57079633, dtype=float64, weak_type=True), True)
"""

from __future__ import annotations

import functools

import numpy as np

from ..typing import Array, ArrayLike, Shaped

from ..core.array import ArrayImpl
from ..core import sharding_flow, x64_mode as _x64
from ..core.trace import EVAL_TRACE, state
from ..core.quiet import switch
from ..ops.elementwise import (XLA_ZERO_SIGNS, jax_face_bind, promote_args_inexact, promote_args_numeric)
from ..ops.xla_math import XLA_MATH
from .._config import flag
from ..ops.specs import SPEC_LIST, OpSpec
from . import _conventions
from . import _promotion_checks as _promotion
from ._arraylike import check_arraylike

# the name JAX's TypeError for a list argument gives where it is not the function's first name
_JAX_ERROR_NAME = {"abs": "absolute", "divide": "true_divide", "mod": "remainder", "fmax": "greater",
                   "fmin": "less"}

new_array = object.__new__


_SEQUENCES = (list, tuple)


def _unary(spec: OpSpec, name: str):
    prim = spec.prim
    bind = jax_face_bind(prim, _promoting(spec, prim.bind))
    # float-only (numeric-only) functions cast integer (bool) inputs first: no fast path then;
    # nor for complex operands of the ops whose zero signs are XLA's (`jax_face_bind`)
    fast_kinds = {"inexact": "fc", "numeric": "iufc"}.get(spec.promote, "biufc")
    if prim.name in XLA_ZERO_SIGNS:
        fast_kinds = fast_kinds.replace("c", "")
    # with the `xla_math` switch on, real floats take XLA's algorithm (`jax_face_bind`)
    xla_op = prim.name in XLA_MATH
    error_name = _JAX_ERROR_NAME.get(name, name)
    ufunc = getattr(prim, "ufunc", None)
    if ufunc is not None and getattr(prim, "may_warn", False):
        # eager fast path: no transform active and a concrete array -> call the ufunc directly,
        # with NumPy's IEEE-value warnings switched off around it (inlined: cheaper than `quiet`)
        set_state, ignore, reset_state = switch()

        def f(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
            if type(x) is ArrayImpl and not x._weak and state.trace is EVAL_TRACE and _x64.enabled \
                    and x._buf.dtype.kind in fast_kinds and not sharding_flow.live \
                    and not (xla_op and flag("xla_math") and x._buf.dtype.kind == "f"):
                w = new_array(ArrayImpl)
                w._weak = False
                token = set_state(ignore)
                try:
                    w._buf = ufunc(x._buf)
                finally:
                    reset_state(token)
                return w
            if type(x) is list or type(x) is tuple:
                check_arraylike(error_name, x)
            return bind(x)
    elif ufunc is not None:
        def f(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
            if type(x) is ArrayImpl and not x._weak and state.trace is EVAL_TRACE and _x64.enabled \
                    and x._buf.dtype.kind in fast_kinds and not sharding_flow.live \
                    and not (xla_op and flag("xla_math") and x._buf.dtype.kind == "f"):
                w = new_array(ArrayImpl)
                w._weak = False
                w._buf = ufunc(x._buf)
                return w
            if type(x) is list or type(x) is tuple:
                check_arraylike(error_name, x)
            return bind(x)
    else:
        def f(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
            if type(x) is list or type(x) is tuple:
                check_arraylike(error_name, x)
            return bind(x)

    f.__doc__ = f"Elementwise ``{name}`` (NumPy semantics; differentiable where defined)."
    return f


def _promoting(spec: OpSpec, bind):
    """``bind`` with the spec's operand promotion: float-only primitives take integer and bool
    operands in JAX's inexact dtype (`fgrad.ops.elementwise.promote_args_inexact`),
    numeric-only ones bools as int32 (`~.promote_args_numeric`)."""
    promote = {"inexact": promote_args_inexact, "numeric": promote_args_numeric}.get(spec.promote)
    if promote is None:
        return bind

    def promoting_bind(*args):
        return bind(*promote(*args))

    return promoting_bind


def _binary(spec: OpSpec, name: str):
    bind = _promoting(spec, spec.prim.bind)
    error_name = _JAX_ERROR_NAME.get(name, name)

    def f(x: ArrayLike, y: ArrayLike) -> Array:
        if type(x) in _SEQUENCES or type(y) in _SEQUENCES:
            check_arraylike(error_name, x, y)
        if _promotion.checking:
            _promotion.check_binary(name, x, y)
        return bind(x, y)

    f.__doc__ = f"Elementwise ``{name}`` with broadcasting (NumPy semantics)."
    return f


def _refusing(f, refusals: tuple):
    """``f`` raising the peer's error for an operand of a refused dtype kind (an op spec's
    ``numpy_refuses``: ``jnp.sign`` of a bool, ``jnp.hypot`` of a complex number, ...)."""

    @functools.wraps(f)
    def g(*args: ArrayLike) -> Array:
        for x in args:
            kind = _PY_KINDS.get(type(x)) or getattr(getattr(x, "dtype", None), "kind", "")
            for kinds, error, message in refusals:
                if kind and kind in kinds:
                    raise error(message.format(dtype=np.result_type(x).name))
        return f(*args)

    return g


_PY_KINDS = {bool: "b", int: "i", float: "f", complex: "c"}


def _generate() -> dict:
    out = {}
    for spec in SPEC_LIST:
        if not spec.numpy or not spec.generates("numpy") or spec.family not in ("unary", "binary"):
            continue
        f = (_unary if spec.family == "unary" else _binary)(spec, spec.numpy[0])
        if spec.numpy_refuses:
            f = _refusing(f, spec.numpy_refuses)
        if spec.numpy_rule:  # JAX's own definition (fgrad/numpy/_conventions.py)
            f = getattr(_conventions, spec.numpy_rule)(f, spec.numpy[0])
        f.__name__ = f.__qualname__ = spec.numpy[0]
        f.__module__ = __name__
        f.op_spec = spec
        for n in spec.numpy:
            out[n] = f
    return out


_FACES = _generate()
globals().update(_FACES)
__all__ = sorted(_FACES)
