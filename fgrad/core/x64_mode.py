"""JAX's 64-bit switch (``jax_enable_x64``): whether 64-bit types exist.

fgrad starts with 64-bit types on (NumPy's dtypes; JAX with ``jax_enable_x64``).  With the
switch off (``fgrad.config.update("jax_enable_x64", False)``, ``fgrad.enable_x64(False)``
or ``JAX_ENABLE_X64=0`` at import) fgrad behaves as JAX does by default: every value is
*canonical*, i.e. float64, int64, uint64 and complex128 are narrowed to float32, int32,
uint32 and complex64.

Where the narrowing happens (one rule, applied at the few places values are born):

* `narrow_buffer` on every concrete array a primitive or a factory makes (`Primitive`'s
  implementations are wrapped while the switch is off, and `core.array.wrap` narrows);
* `narrow_aval` on every abstract value a primitive's shape/dtype rule gives, so traced
  programs (jit, the tape, linearize) agree with eager code;
* `requested_dtype` on dtypes users ask for: an explicit 64-bit dtype is narrowed with
  JAX's UserWarning.

Example::

    >>> import numpy as np
    >>> canonical_dtype(np.float64)   # 64-bit types on (the default)
    dtype('float64')
"""

from __future__ import annotations

import os
import sys
import warnings
from typing import Any

import numpy as np

__all__ = ["enabled", "canonical_dtype", "narrow_buffer", "narrow_aval", "narrow_operands", "narrow_scalar",
           "requested_dtype",
           "NARROWED"]

# whether 64-bit types exist; read as ``x64_mode.enabled`` (set by `set_enabled`)
enabled: bool = True

NARROWED: dict[np.dtype, np.dtype] = {
    np.dtype(np.float64): np.dtype(np.float32),
    np.dtype(np.int64): np.dtype(np.int32),
    np.dtype(np.uint64): np.dtype(np.uint32),
    np.dtype(np.complex128): np.dtype(np.complex64),
}

_listeners: list = []


def on_change(fn) -> None:
    """Call ``fn(enabled)`` whenever the switch changes (the modules that narrow register)."""
    _listeners.append(fn)


def set_enabled(value: bool) -> None:
    """Turn 64-bit types on or off (what ``config.update("jax_enable_x64", value)`` does)."""
    global enabled
    value = bool(value)
    if value == enabled:
        return
    enabled = value
    for fn in _listeners:
        fn(value)


def canonical_dtype(dtype: Any) -> np.dtype:
    """``dtype`` as the type values of it have now: 64-bit types narrowed while they are off.

    Example::

        >>> canonical_dtype("int32")
        dtype('int32')
    """
    dt = np.dtype(dtype)
    return dt if enabled else NARROWED.get(dt, dt)


def requested_dtype(dtype: Any, what: str) -> np.dtype:
    """A dtype asked for in ``what``: as is with 64-bit types on; narrowed while they are off,
    with JAX's UserWarning when the user asked for the 64-bit type explicitly (the ``dtype``
    argument of the fgrad function the user called; the type ``float``/``int``/``complex``
    itself is not an explicit request, and fgrad's own code narrows silently).

    Example::

        >>> requested_dtype(np.float32, "zeros")
        dtype('float32')
    """
    dt = np.dtype(dtype)
    if enabled:
        return dt
    to = NARROWED.get(dt)
    if to is None:
        return dt
    level = _explicit_request_level(dt)
    if level:
        warnings.warn(
            f"Explicitly requested dtype {dt.name} requested in {what} is not available, and "
            f"will be truncated to dtype {to.name}. To enable more dtypes, set the "
            "jax_enable_x64 configuration option or the JAX_ENABLE_X64 shell environment "
            "variable.", UserWarning, stacklevel=level)
    return to


_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_SCALAR_TYPES = (float, int, complex)


def _explicit_request_level(dt: np.dtype) -> int:
    """The warning's ``stacklevel`` (the user's line) if the user's call into fgrad passed
    ``dt`` as its ``dtype`` argument (``new_dtype``/``index_dtype`` in `fgrad.lax`; or is the
    scalar type ``fgrad.numpy.<dt>(x)``); 0 when fgrad's own code asked for it."""
    frame, level = sys._getframe(2), 3
    outer = None
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        outer, frame, level = frame, frame.f_back, level + 1
    if outer is None:
        return level - 1
    local = outer.f_locals
    asked = local.get("dtype", getattr(local.get("cls"), "dtype", None))
    if asked is None:  # lax's names for it (convert_element_type, argmax, bitcast_convert_type)
        asked = local.get("new_dtype", local.get("index_dtype"))
    if asked is None or any(asked is t for t in _SCALAR_TYPES):
        return 0
    try:
        return level - 1 if np.dtype(asked) == dt else 0
    except TypeError:
        return 0


def narrow_buffer(buf):
    """``buf`` (a backend buffer or NumPy scalar) with its 64-bit type narrowed (a copy only
    when narrowing)."""
    to = NARROWED.get(getattr(buf, "dtype", None))
    return buf if to is None else buf.astype(to)


_PY_INEXACT = {float: np.float32, complex: np.complex64}


def narrow_operands(args: tuple) -> tuple:
    """An implementation's operands as JAX computes with them while 64-bit types are off:
    NumPy arrays and scalars of 64-bit types narrowed (`narrow_buffer`), and Python floats
    and complex numbers made float32/complex64 where no operand has a dtype (beside an
    array, NumPy already rounds a Python scalar to the array's type).  Without this NumPy
    computed ``sin(np.pi)`` in float64 and rounded after: 1.2e-16 where JAX gives -8.7e-8.

    >>> narrow_operands((np.float64(0.5), 2.0))[0].dtype, narrow_operands((2.0,))[0].dtype
    (dtype('float32'), dtype('float32'))
    """
    has_dtype = False
    out = list(args)
    for i, a in enumerate(args):
        dt = getattr(a, "dtype", None)
        if dt is not None:
            has_dtype = True
            to = NARROWED.get(dt)
            if to is not None:
                out[i] = a.astype(to)
    if not has_dtype:
        out = [narrow_scalar(a) for a in out]
    return tuple(out)


def narrow_scalar(x):
    """A Python float or complex number as JAX computes with it while 64-bit types are off
    (float32/complex64); anything else as it is.

    >>> narrow_scalar(0.1).dtype, narrow_scalar(3)
    (dtype('float32'), 3)
    """
    to = _PY_INEXACT.get(type(x))
    return x if to is None else to(x)


def narrow_aval(aval):
    """An abstract value with its 64-bit dtype narrowed (same shape and weak type)."""
    to = NARROWED.get(getattr(aval, "dtype", None))
    if to is None:
        return aval
    return type(aval)(aval.shape, to, aval.weak_type)
