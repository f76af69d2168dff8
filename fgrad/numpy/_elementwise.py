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

from ..typing import Array, ArrayLike, Shaped

from ..core.array import ArrayImpl
from ..core import x64_mode as _x64
from ..core.trace import EVAL_TRACE, state
from ..core.quiet import switch
from ..ops.specs import SPEC_LIST, OpSpec
from . import _promotion_checks as _promotion

new_array = object.__new__


def _unary(spec: OpSpec, name: str):
    prim = spec.prim
    bind = prim.bind
    ufunc = getattr(prim, "ufunc", None)
    if ufunc is not None and getattr(prim, "may_warn", False):
        # eager fast path: no transform active and a concrete array -> call the ufunc directly,
        # with NumPy's IEEE-value warnings switched off around it (inlined: cheaper than `quiet`)
        set_state, ignore, reset_state = switch()

        def f(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
            if type(x) is ArrayImpl and not x._weak and state.trace is EVAL_TRACE and _x64.enabled:
                w = new_array(ArrayImpl)
                w._weak = False
                token = set_state(ignore)
                try:
                    w._buf = ufunc(x._buf)
                finally:
                    reset_state(token)
                return w
            return bind(x)
    elif ufunc is not None:
        def f(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
            if type(x) is ArrayImpl and not x._weak and state.trace is EVAL_TRACE and _x64.enabled:
                w = new_array(ArrayImpl)
                w._weak = False
                w._buf = ufunc(x._buf)
                return w
            return bind(x)
    else:
        def f(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
            return bind(x)

    f.__doc__ = f"Elementwise ``{name}`` (NumPy semantics; differentiable where defined)."
    return f


def _binary(spec: OpSpec, name: str):
    bind = spec.prim.bind

    def f(x: ArrayLike, y: ArrayLike) -> Array:
        if _promotion.checking:
            _promotion.check_binary(name, x, y)
        return bind(x, y)

    f.__doc__ = f"Elementwise ``{name}`` with broadcasting (NumPy semantics)."
    return f


def _generate() -> dict:
    out = {}
    for spec in SPEC_LIST:
        if not spec.numpy or not spec.generates("numpy") or spec.family not in ("unary", "binary"):
            continue
        f = (_unary if spec.family == "unary" else _binary)(spec, spec.numpy[0])
        f.__name__ = f.__qualname__ = spec.numpy[0]
        f.__module__ = __name__
        f.op_spec = spec
        for n in spec.numpy:
            out[n] = f
    return out


_FACES = _generate()
globals().update(_FACES)
__all__ = sorted(_FACES)
