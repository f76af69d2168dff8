"""``check_p``: a runtime assertion with a formatted message (the primitive behind
``fgrad.experimental.checkify.check`` and ``check_error``).

Operands ``(ok, code, *payload)``: ``ok`` a boolean scalar (the check passes), ``code`` an
integer scalar choosing which of the ``sites`` failed, ``payload`` the array leaves of every
site's format arguments in order; the parameter ``debug`` marks a ``debug_check`` (nothing
happens outside `checkify`).  A `CheckSite` is a static message: the ``str.format``
template, the structure of its arguments, their avals and its kind (``"check"``, ``"nan"``,
``"oob"``, ``"div"``).

Outside `checkify` the check runs where it is: evaluated eagerly (or by a compiled program:
fgrad lets ``jit`` stage an unfunctionalized check, where JAX refuses to trace it) a failing
check raises `JaxRuntimeError`.  Inside `checkify` the interpreter reads the
``check`` equations of the traced program and turns them into error values instead.  The
primitive is effectful (never removed, merged or reordered); its JVP checks the primal
values; under ``vmap`` it becomes one check over the batch that reports the last failing
example (JAX's choice).

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.experimental import checkify
    >>> try:
    ...     checkify.check(fnp.asarray(-1.0) > 0, "x was {}", fnp.asarray(-1.0))
    ... except JaxRuntimeError as e:
    ...     print(e)
    x was -1.0 (`check` failed)
"""

from __future__ import annotations

import threading
from typing import Any, Sequence

import numpy as np

from ..core.array import ArrayImpl, ShapedArray, wrap
from ..core.constants import constant_like
from ..core.primitive import Primitive
from ..core.rules import defbatch, defjvp_rule
from ..tree_util import tree_flatten, tree_unflatten
from .elementwise import convert_element_type, ge, le_p, logical_and, logical_not, lt, select
from .indexing import gather
from .reductions import reduce_and_p, reduce_max_p
from .shape import bdim_to_front

__all__ = ["CheckSite", "INDEX_CHECKS", "JaxRuntimeError", "check_p", "check_start_index",
           "format_site", "oob_site"]

# what a failed check of each kind appends to its message (JAX's wording)
_SUFFIX = {"check": " (`check` failed)"}


class JaxRuntimeError(ValueError):
    """A failed ``checkify.check`` (or an error thrown by ``Error.throw``), as JAX's
    ``jax.errors.JaxRuntimeError``: a `ValueError`.

    Example::

        >>> issubclass(JaxRuntimeError, ValueError)
        True
    """


class CheckSite:
    """One static error message: ``fmt.format(*args, **kwargs)`` where ``(args, kwargs)``
    unflatten from ``tree`` and leaves of avals ``avals``; ``kind`` says which error set
    it belongs to.  Compared by identity (each traced check is its own site)."""

    __slots__ = ("kind", "fmt", "tree", "avals")

    def __init__(self, kind: str, fmt: str, tree: Any, avals: tuple) -> None:
        self.kind, self.fmt, self.tree, self.avals = kind, fmt, tree, tuple(avals)

    def __repr__(self) -> str:
        return f"CheckSite({self.kind}: {self.fmt!r})"


def format_site(site: CheckSite, leaves: Sequence[Any]) -> str:
    """The message of ``site`` with its argument leaves (Arrays or buffers).

    Example::

        >>> from fgrad.tree_util import tree_flatten
        >>> import numpy as np
        >>> leaves, tree = tree_flatten(((np.float64(2.0),), {}))
        >>> format_site(CheckSite("check", "got {}", tree, ()), leaves)
        'got 2.0 (`check` failed)'
    """
    text = site.fmt
    if site.tree is not None:
        args, kwargs = tree_unflatten(site.tree, [_as_array(v) for v in leaves])
        text = site.fmt.format(*args, **kwargs)
    return text + _SUFFIX.get(site.kind, "")


def _as_array(v):
    if isinstance(v, (ArrayImpl, bool, int, float, complex)):
        return v
    return wrap(v)


def _impl(xp, ok, code, *payload, sites, debug=False):
    if debug or bool(ok):  # a debug check runs only under checkify
        return []
    k = int(code)
    site = sites[k]
    start = sum(len(s.avals) for s in sites[:k])
    raise JaxRuntimeError(format_site(site, payload[start:start + len(site.avals)]))


def _abstract(ok, code, *payload, sites, debug=False):
    if ok.shape != () or ok.dtype != np.bool_:
        raise TypeError(f"check takes a scalar pred as argument, got {ok.str_short()}")
    return []


check_p = Primitive("check", _impl, _abstract, multiple_results=True, family="callback")
check_p.effectful = True


def _jvp(primals, tangents, *, sites, debug=False):
    check_p.bind(*primals, sites=sites, debug=debug)  # the primal values are checked
    return [], []


def _batch(axis_size, vals, dims, *, sites, debug=False):
    """One check over the batch: fails if any example fails, and reports the last failing
    example's code and payload (what JAX reports for ``checkify(vmap(f))``)."""
    ok, code, *payload = vals
    ok_d = dims[0]
    if ok_d is None:  # the predicate is not batched: pick example 0 of the rest
        index = None
    else:
        oks = bdim_to_front(ok, ok_d, axis_size)
        iota = constant_like(np.arange(axis_size, dtype=np.int64), oks)
        minus = constant_like(np.int64(-1), oks)
        last_bad = reduce_max_p.bind(select(logical_not(oks), iota, minus), axes=(0,))
        zero = constant_like(np.int64(0), oks)
        index = select(lt(last_bad, zero), zero, last_bad)
        ok = reduce_and_p.bind(oks, axes=(0,))
    picked = []
    for v, d in zip([code, *payload], dims[1:], strict=True):
        if d is None:
            picked.append(v)
            continue
        front = bdim_to_front(v, d, axis_size)
        if index is None:
            picked.append(gather(front, [], (("i", 0),)))
        else:
            picked.append(gather(front, [index], (("a", 0),)))
    check_p.bind(ok, *picked, sites=sites, debug=debug)
    return [], []


defjvp_rule(check_p, _jvp)
defbatch(check_p, _batch)


# ---- the start indices of dynamic slices, checked while checkify traces with index_checks --------

class _IndexChecks(threading.local):
    """``active`` > 0 while `checkify` traces a function with ``index_checks``: then
    ``lax.dynamic_slice``/``dynamic_update_slice`` record a (debug) check of each start index
    before clamping it, so the clamp is reported as JAX reports it."""

    active = 0


INDEX_CHECKS = _IndexChecks()
_ONE_ARG = tree_flatten(((0,), {}))[1]
_INT64 = ShapedArray((), np.dtype(np.int64))


def oob_site(shape: tuple, axis: int) -> CheckSite:
    """The message of an out-of-bounds index on ``axis`` of an array of ``shape`` (JAX's)."""
    return CheckSite("oob", f"out-of-bounds indexing for array of shape {tuple(shape)}: index {{}} is "
                            f"out of bounds for axis {axis} with size {shape[axis]}. ", _ONE_ARG, (_INT64,))


def check_start_index(start, shape: tuple, axis: int, size: int) -> None:
    """Record that a dynamic slice's ``start`` (negative ones already counted from the end)
    must lie in ``[0, shape[axis] - size]``; a debug check, so a program traced this way and
    reused outside checkify does nothing with it."""
    if isinstance(start, int):
        ok = np.bool_(False)  # a concrete start: only called when it is out of bounds
        start = np.int64(start)
    else:
        start = convert_element_type(start, np.dtype(np.int64))
        hi = constant_like(np.int64(shape[axis] - size), start)
        ok = logical_and(ge(start, constant_like(np.int64(0), start)), le_p.bind(start, hi))
    check_p.bind(ok, np.int64(0), start, sites=(oob_site(shape, axis),), debug=True)
