"""Forwards that run an op's fgrad definition as one cached straight-line program.

Every shim op has an *fgrad definition* (a primitive's ``bind`` or a composite of fgrad ops)
that autograd differentiates.  `run_definition` computes the op's forward from that same
definition, so the numbers come from one place: the definition is staged once per
signature (the op's cache key -- the one its backward program is cached under -- and the
input shapes and dtypes) into a program of primitive implementations, compiled to
straight-line Python by the engine's executor (`fgrad.core.executor.straight_line`), and
run on the NumPy buffers.  Definitions that need concrete values (value-dependent shapes,
Python control flow on data) cannot be staged: their signature is remembered and they run
eagerly, one primitive at a time, with the same implementations.

Example::

    >>> import numpy as np
    >>> from fgrad.ops import elementwise as ew
    >>> run_definition(("rsqrt",), lambda x: ew.div(1.0, ew.sqrt(x)), [np.array([4.0, 16.0])], False)
    [array([0.5 , 0.25])]
"""

from __future__ import annotations

import numpy as np

from .._lru import LRU
from ..core.array import ArrayImpl, ShapedArray
from ..core.trace import new_trace
from ..core.executor import straight_line
from ..transforms.staging import StagingTrace
from ._device import cpu_default


_nd = np.ndarray


class _Forward:
    """A cached forward: ``run(xp, consts + bufs) -> list`` (None: run eagerly)."""

    __slots__ = ("run", "consts", "tick")

    def __init__(self, run, consts) -> None:
        self.run = run
        self.consts = consts
        self.tick = 0


_FORWARDS = LRU("autograd_cache_size")
_EAGER = _Forward(None, ())


def _stage(fn, bufs, multi: bool) -> _Forward:
    try:
        with cpu_default(), new_trace(StagingTrace, "fgrad.torch forward", partial=False) as tr:
            args = [tr.new_arg(ShapedArray(b.shape, b.dtype)) for b in bufs]
            out = fn(*args)
            outs = list(out) if multi else [out]
            jaxpr, consts = tr.to_jaxpr(outs)
    except Exception:  # noqa: BLE001 - the definition needs concrete values: run it eagerly
        return _EAGER
    consts = [c._buf if type(c) is ArrayImpl else c for c in consts]
    return _Forward(straight_line(jaxpr), consts)


def _owned(o, inputs):
    """``o`` as a NumPy array that owns its memory: not an input, not a view of an input or
    of a cached constant, writeable (a copy when needed)."""
    if type(o) is not _nd:
        return np.asarray(o)  # a NumPy or Python scalar: a new 0-d array
    if o.base is None and o.flags.writeable:
        for x in inputs:
            if o is x:
                return o.copy()
        return o
    if not o.flags.writeable:
        return o.copy()
    for x in inputs:
        if type(x) is _nd and np.may_share_memory(o, x):
            return o.copy()
    return o


def run_definition(key, fn, bufs, multi: bool):
    """The outputs (a list of NumPy arrays owning their memory) of ``fn`` on host buffers
    ``bufs``, through its cached program; None when ``fn`` must run eagerly (unstageable, or
    an unhashable key)."""
    sig = (key, tuple([(b.shape, b.dtype) for b in bufs]))
    try:
        fwd = _FORWARDS.get(sig)
    except TypeError:  # unhashable key
        return None
    if fwd is None:
        fwd = _FORWARDS[sig] = _stage(fn, bufs, multi)
    if fwd.run is None:
        return None
    inputs = [*fwd.consts, *bufs]
    return [_owned(o, inputs) for o in fwd.run(np, inputs)]
