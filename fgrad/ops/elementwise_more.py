"""Elementwise primitives added through the op specs (see DESIGN.md, "Adding an op").

``logaddexp2(x, y) = log2(2**x + 2**y)``, computed by NumPy's ufunc without overflow.  Its
derivative is ``2**(x - out)`` with respect to ``x`` (and symmetrically ``y``), written
like JAX's ``logaddexp`` rule: ``+inf`` replaced by 0 in both operands and the result, so
``logaddexp2(inf, inf)`` has gradient (1, 1) and ``(-inf, -inf)`` stays NaN.  Its faces
(`fgrad.numpy.logaddexp2`, `fgrad.torch.logaddexp2` and ``Tensor.logaddexp2``, the
``Logaddexp2Backward0`` node, the op-table row) come from its line in `fgrad.ops.specs`.
"""

from __future__ import annotations

import math

import numpy as np

from ..core.quiet import quiet
from ..core.rules import defjvp, defjvp_shared
from ..core.narrow_floats import dtype_kind
from .elementwise import complex_logaddexp, elementwise, eq, exp2, mul, select, sub

# CUDA template (fgrad/compile/cuda_codegen.py): NumPy's npy_logaddexp2, branch for branch
_LOG2E = "1.442695040888963407359924681001892137"


def _logaddexp2_impl(xp, x, y):
    if dtype_kind(xp.asarray(x).dtype) == "c" or dtype_kind(xp.asarray(y).dtype) == "c":
        return complex_logaddexp(xp, x, y, base2=True)
    return xp.logaddexp2(x, y)


logaddexp2_p = elementwise("logaddexp2", _logaddexp2_impl, kernel={"f": (
    "(({0} == {1}) ? ({0} + ({T})1) : "
    "(({0} - {1}) > 0 ? ({0} + log1p{f}(exp2{f}({1} - {0})) * ({T})" + _LOG2E + ") : "
    "(({0} - {1}) <= 0 ? ({1} + log1p{f}(exp2{f}({0} - {1})) * ({T})" + _LOG2E + ") : ({0} - {1}))))")})
logaddexp2_p.ufunc = None  # complex operands: compiled code calls the impl


def _finite_or_zero(x):
    """``x`` with ``+inf`` replaced by 0."""
    return select(eq(x, math.inf), 0.0, x)


def _logaddexp2_shared(out, x, y):
    return x, y, _finite_or_zero(out)


defjvp_shared(logaddexp2_p, _logaddexp2_shared,
              lambda t, s: mul(t, exp2(sub(_finite_or_zero(s[0]), s[2]))),
              lambda t, s: mul(t, exp2(sub(_finite_or_zero(s[1]), s[2]))))
# NumPy reports overflow in the intermediate terms; JAX and fgrad compute silently
logaddexp2_p.may_warn = True
logaddexp2_p.impl = quiet(logaddexp2_p.impl, 3)
logaddexp2_p.quiet_ufunc = None


def logaddexp2(x, y):
    """``log2(2**x + 2**y)`` elementwise.

    >>> import fgrad.numpy as fnp
    >>> logaddexp2(fnp.asarray(1.0), 1.0)
    Array(2., dtype=float64, weak_type=True)
    """
    return logaddexp2_p.bind(x, y)


# nextafter(x, y): the floating-point number after x in the direction of y.  It is x plus a
# step that is constant between binades, so its derivative is 1 in x and 0 in y (almost
# everywhere), as a slope through the sampled points shows.
nextafter_p = elementwise("nextafter", lambda xp, x, y: xp.nextafter(x, y),
                          kernel={"f": "nextafter{f}({0}, {1})"})
nextafter_p.ufunc = np.nextafter
defjvp(nextafter_p, lambda t, x, y: t, None)


def nextafter(x, y):
    """The next representable float after ``x`` towards ``y`` (``x`` itself when equal).

    >>> import fgrad.numpy as fnp
    >>> float(nextafter(fnp.asarray(1.0), 2.0) - 1.0) == float(fnp.finfo(fnp.float64).eps)
    True
    """
    return nextafter_p.bind(x, y)
