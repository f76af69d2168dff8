"""Division as JAX computes it: XLA inverts a divisor once and multiplies.

XLA (JAX's compiler, on the CPU and GPU) rewrites ``x / y`` as ``x * (1 / y)`` when the divisor
is broadcast (``x / 3.0`` over an array, ``x / s`` for a scalar ``s``, ``e / e.sum(axis,
keepdims=True)`` in a softmax) or a compile-time constant (a Python scalar inside ``jit``;
``jnp.mean``'s and ``jnp.var``'s element counts, always, as those functions are jitted inside
JAX).  The quotient then is the product of ``x`` and the reciprocal rounded to the dtype -- up
to one ulp from the correctly rounded quotient, in about a third of float32 entries.  fgrad's
JAX face computes the same (``div`` with ``by_reciprocal=True``: float32/float64 quotients;
other dtypes divide), so programs print JAX's bits; two equal-shaped operands, and a 0-d
quotient by a Python scalar outside ``jit``, divide exactly, as in JAX.  The PyTorch face
divides exactly (as PyTorch does).

Example::

    >>> import fgrad.numpy as fnp
    >>> x = fnp.asarray([5.0], dtype=fnp.float32)
    >>> by_reciprocal = fnp.float32(5.0) * (fnp.float32(1.0) / fnp.float32(3.0))
    >>> bool((x / 3.0)[0] == by_reciprocal), bool(x[0] / 3.0 == by_reciprocal)  # broadcast; 0-d eager
    (True, False)
"""

from __future__ import annotations

import numpy as np

from ..core.array import ArrayImpl, Tracer, get_aval
from ..core.trace import EVAL_TRACE, state
from ..transforms.staging import StagingTrace

_PY_SCALARS = (int, float, np.integer, np.floating)


def _shape(a) -> tuple:
    if type(a) is ArrayImpl:
        return a._buf.shape
    if isinstance(a, Tracer):
        return get_aval(a).shape
    return np.shape(a)


def under_jit() -> bool:
    """Whether a ``jit`` (or another whole-program staging: loop and branch bodies) is tracing
    the current operation, so a Python scalar operand is a compile-time constant there.

    Example::

        >>> import fgrad
        >>> under_jit(), fgrad.jit(lambda x: x + under_jit())(0)
        (False, Array(1, dtype=int64, weak_type=True))
    """
    t = state.trace
    while t is not None and t is not EVAL_TRACE:
        if type(t) is StagingTrace and not t.partial:
            return True
        t = t.parent
    return False


def inverts_divisor(x, y) -> bool:
    """Whether XLA computes JAX's ``x / y`` as ``x * (1 / y)``: ``y`` is broadcast to the
    quotient's shape, or it is a Python/NumPy scalar under ``jit``.  (The dtype condition,
    float32/float64, is the implementation's.)

    Example::

        >>> import fgrad.numpy as fnp
        >>> inverts_divisor(fnp.ones(3), 2.0), inverts_divisor(fnp.ones(3), fnp.ones(3))
        (True, False)
    """
    sy = _shape(y)
    sx = _shape(x)
    if sy != sx:
        try:
            return np.broadcast_shapes(sx, sy) != sy
        except ValueError:  # the division itself reports the shapes
            return False
    return isinstance(y, _PY_SCALARS) and not isinstance(y, bool) and under_jit()
