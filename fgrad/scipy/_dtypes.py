"""The result dtype of fgrad.scipy's functions: NumPy promotion among arrays, with Python
scalars (and weakly typed arrays, such as constants from Python numbers) not widening it,
as in JAX; integer and bool results become JAX's inexact dtype (`fgrad.core.inexact`:
float32 up to 32 bits, float64 for 64-bit integers).

Example::

    >>> import numpy as np, fgrad.numpy as fnp
    >>> inexact_dtype(fnp.ones(2, dtype=np.float32), 0.5)
    dtype('float32')
"""

from __future__ import annotations

import numpy as np
from ..core.inexact import inexact_join
from ..core.narrow_floats import dtype_kind as _dtype_kind
from ..core.narrow_floats import promote_types
from ..core.x64_mode import canonical_dtype

from ..core.array import get_aval


def _is_weak(x) -> bool:
    if isinstance(x, (bool, int, float, complex)):
        return True
    try:
        return bool(get_aval(x).weak_type)
    except TypeError:
        return False


def _dtype_of(x) -> np.dtype:
    if isinstance(x, (bool, int, float, complex)):
        return np.dtype(type(x))
    try:
        return get_aval(x).dtype
    except TypeError:
        return np.asarray(x).dtype


def _join(dtypes: list) -> np.dtype:
    """The strongly typed operands' common dtype on JAX's lattice (``int32`` and ``float32``
    give float32, where NumPy widens to float64)."""
    out = dtypes[0]
    for d in dtypes[1:]:
        out = promote_types(out, d)
    return out


def inexact_dtype(*xs, kinds: str = "f") -> np.dtype:
    """The common floating (or, with ``kinds="fc"``, complex) dtype of the arguments.

    Example::

        >>> inexact_dtype(1, 2)
        dtype('float64')
    """
    strong = [_dtype_of(x) for x in xs if not _is_weak(x)]
    weak = [_dtype_of(x) for x in xs if _is_weak(x)]
    dt = _join(strong) if strong else (np.result_type(*weak) if weak else np.dtype(np.float64))
    if weak and any(w.kind == "c" for w in weak) and _dtype_kind(dt) != "c" and "c" in kinds:
        dt = np.dtype(np.complex64) if dt == np.float32 else np.dtype(np.complex128)
    if _dtype_kind(dt) in "fc" and _dtype_kind(dt) in kinds:
        return dt
    if _dtype_kind(dt) == "c":
        raise TypeError(f"expected real floating-point arguments, got {dt}")
    # bool and integer operands: JAX's inexact dtype of their join (a Python bool is strong);
    # a weak float meeting strong integers: the default float
    target = inexact_join(strong + [w for w in weak if w.kind == "b"], [w for w in weak if w.kind != "b"])[0]
    return target if target is not None else canonical_dtype(np.float64)
