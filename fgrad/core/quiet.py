"""Floating-point error reports switched off inside fgrad's own computations.

IEEE special values are valid inputs and results: ``log(0) = -inf``, ``1/0 = inf``, ``0/0 = nan``,
overflow to ``inf`` and NaN propagation.  JAX computes them silently; NumPy reports each as a
``RuntimeWarning`` unless its error state says "ignore".  fgrad runs its implementations,
its fast paths and its generated programs with that state set to ignore, and restores the
caller's state afterwards (user code outside fgrad keeps NumPy's behaviour).

``np.errstate`` costs about a microsecond per use, as much as a small ufunc call, so when NumPy
keeps its error state in a context variable (NumPy 2) these helpers set that variable
directly (two context-variable operations); otherwise they fall back to ``np.errstate``.
"""

from __future__ import annotations

import functools
from typing import Callable

import numpy as np

try:  # NumPy >= 2: the error state is a context variable holding an opaque "extobj"
    from numpy._core._ufunc_config import _extobj_contextvar as _STATE

    with np.errstate(all="ignore"):
        _IGNORE = _STATE.get()
except (ImportError, AttributeError):  # pragma: no cover - NumPy 1.x
    _STATE = None
    _IGNORE = None


def switch() -> tuple:
    """``(set, ignore, reset)`` for hot paths that inline the switch instead of calling through
    `quiet`: ``token = set(ignore)``, compute, then ``reset(token)`` (in a ``finally``).

    >>> set_, ignore, reset = switch()
    >>> token = set_(ignore)
    >>> reset(token)
    """
    if _STATE is None:  # pragma: no cover - NumPy 1.x: the (global) error state, restored after
        return (lambda value: np.seterr(**value)), {"all": "ignore"}, (lambda old: np.seterr(**old))
    return _STATE.set, _IGNORE, _STATE.reset


def quiet(fn: Callable, nargs: int | None = None) -> Callable:
    """``fn`` run with NumPy's floating-point error reports off (results are unchanged).
    ``nargs`` (1, 2 or 3) makes a faster wrapper for a function always called with that
    many positional arguments (generated programs).

    >>> import numpy as np
    >>> quiet(np.log)(np.zeros(2))
    array([-inf, -inf])
    """
    if _STATE is None:  # pragma: no cover - NumPy 1.x

        @functools.wraps(fn)
        def slow(*args, **kwargs):
            with np.errstate(all="ignore"):
                return fn(*args, **kwargs)

        return slow
    set_state, ignore, reset_state = _STATE.set, _IGNORE, _STATE.reset

    if nargs == 1:
        def run1(a):
            token = set_state(ignore)
            try:
                return fn(a)
            finally:
                reset_state(token)

        return functools.wraps(fn)(run1)
    if nargs == 2:
        def run2(a, b):
            token = set_state(ignore)
            try:
                return fn(a, b)
            finally:
                reset_state(token)

        return functools.wraps(fn)(run2)
    if nargs == 3:
        def run3(a, b, c):
            token = set_state(ignore)
            try:
                return fn(a, b, c)
            finally:
                reset_state(token)

        return functools.wraps(fn)(run3)

    @functools.wraps(fn)
    def run(*args, **kwargs):
        token = set_state(ignore)
        try:
            return fn(*args, **kwargs)
        finally:
            reset_state(token)

    return run


__all__ = ["quiet", "switch"]
