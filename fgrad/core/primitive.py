"""`Primitive`: one operation and all of its rules in one place.

A primitive carries

* ``impl(xp, *buffers, **params)``  compute on backend buffers (``xp`` is numpy or cupy);
* ``abstract_eval(*avals, **params)``  output `ShapedArray` (or a list of them);
* ``jvp(primals, tangents, **params)``  forward-mode rule written with fgrad ops;
  a tangent of ``None`` is a symbolic zero.  Returns ``(primal_out, tangent_out)``;
* ``transpose(ct, *args, **params)``  only for linear primitives: ``args`` holds
  `UndefinedPrimal` for the linear inputs; returns one cotangent (or None) per input;
* ``batch(axis_size, args, dims, **params)``  the vmap rule; returns ``(out, out_dim)``;
* ``kernel`` (optional)  a template that makes the op fusible in jit.

`bind` hands the operation to the current trace.  At the bottom (no transform active),
the eval path runs ``impl`` directly: no abstract evaluation, no allocation beyond the
result wrapper.
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..backends import _BY_TYPE, backend_of_buffer
from .array import ArrayImpl, Tracer, escaped_tracer_error
from . import trace as _trace_mod
from .trace import EVAL_TRACE, state

PRIMITIVES: dict[str, "Primitive"] = {}


class Primitive:
    """An fgrad primitive.  See the module docstring for the rules it carries.

    Example::

        >>> sin_p = Primitive("sin", impl=lambda xp, x: xp.sin(x), abstract_eval=...)
        >>> sin_p.bind(x)  # doctest: +SKIP
    """

    def __init__(
        self,
        name: str,
        impl: Callable,
        abstract_eval: Callable,
        *,
        multiple_results: bool = False,
        family: str = "other",
    ) -> None:
        self.name = name
        self.impl = impl
        self.abstract_eval = abstract_eval
        self.multiple_results = multiple_results
        self.family = family
        self.jvp: Callable | None = None
        self.transpose: Callable | None = None
        self.batch: Callable | None = None
        self.kernel: Any = None
        self.linear = False  # linear in all array inputs (transpose rule present)
        self.dtype_cache: dict = {}
        if name in PRIMITIVES:
            raise ValueError(f"primitive {name!r} defined twice")
        PRIMITIVES[name] = self

    def __repr__(self) -> str:
        return self.name

    def bind(self, *args, **params):
        trace = state.trace
        if trace is EVAL_TRACE:
            return eval_primitive(self, args, params)
        return trace.process(self, args, params)


def eval_primitive(prim: Primitive, args, params):
    """Run ``prim.impl`` on the buffers of concrete arguments and wrap the result."""
    bufs = []
    xp = None
    for a in args:
        if type(a) is ArrayImpl:
            b = a._buf
            if xp is None:
                be = _BY_TYPE.get(type(b))
                xp = be.xp if be is not None else backend_of_buffer(b).xp
            bufs.append(b)
        elif isinstance(a, Tracer):
            raise escaped_tracer_error(a, prim.name)
        else:
            bufs.append(a)
    try:
        out = prim.impl(xp or np, *bufs, **params)
    except (ValueError, TypeError) as e:
        err = _abstract_error(prim, args, params)
        if err is None:
            raise
        raise err from e
    if prim.multiple_results:
        res = []
        for o in out:
            w = object.__new__(ArrayImpl)
            w._buf = o
            res.append(w)
        return res
    w = object.__new__(ArrayImpl)
    w._buf = out
    return w


def _abstract_error(prim: Primitive, args, params):
    """The shape/dtype rule's error (it names the op, the shapes and the fix) for arguments
    the implementation rejected; None if the rule accepts them.  Only runs on failure, so
    the eager path stays free of abstract evaluation."""
    from .array import get_aval

    try:
        prim.abstract_eval(*[get_aval(a) for a in args], **params)
    except (ValueError, TypeError) as err:
        return err
    return None


_trace_mod.eval_primitive = eval_primitive
