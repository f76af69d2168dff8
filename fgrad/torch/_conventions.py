"""PyTorch's numerical conventions at singular points, as fgrad definitions for the shim.

The functional face follows JAX: ``grad(jnp.sqrt)(0.)`` is ``inf``, the gradient of a norm
at the origin is NaN, ``clip`` splits its gradient at the boundary.  PyTorch picks finite
values at many of these points (``torch.norm`` has gradient 0 at the origin, binary
cross-entropy clamps its logs at -100, ``fmax`` sends a tie's gradient to the first
argument).  The shim's ops are *defined* by fgrad functions whose derivatives autograd takes
from the core's rules, so the shim gets PyTorch's conventions by defining its ops with the
functions below -- never by changing the shared primitives.

Each function is written with fgrad ops only (``where`` with a safe operand, or a
``custom_jvp`` whose rule is itself fgrad code), so higher derivatives (``create_graph``),
``vmap`` and ``jit`` work on them as on any other definition.

Example::

    >>> import numpy as np, fgrad
    >>> from fgrad.torch._conventions import root_zero_grad
    >>> float(fgrad.grad(lambda s: root_zero_grad(s, 2.0))(np.float64(0.0)))
    0.0
"""

from __future__ import annotations

import builtins
import math

from functools import partial

import numpy as np

import fgrad.numpy as fnp
from fgrad import lax
from fgrad.ops.cumulative import cumlogsumexp as _cumlogsumexp
from fgrad.ops.elementwise import div as _div, pow_ as _pow, select as _select, sign as _sign
from fgrad.ops import windowed as _windowed
from fgrad.transforms.ad import jvp
from fgrad.transforms.custom import SymbolicZero, custom_jvp

__all__ = [
    "root_zero_grad", "atan2", "clamp", "fmax", "fmin", "det", "binary_cross_entropy", "clamp_interior",
    "divide_or_nan", "slogdet", "abs", "abs_torch", "sign_torch", "softplus", "hypot", "logaddexp",
    "max_abs_unsplit",
    "euclidean_dist_mm", "mean", "xlogy", "xlog1py",
    "extremum_nan_evenly", "prod",
    "logit", "copysign", "pow", "logcumsumexp", "overwrite", "nan_on_linear_branch",
    "max_pool", "relu_select",
]

BCE_LOG_FLOOR = -100.0  # PyTorch clamps log(p) and log(1 - p) at -100 in binary_cross_entropy
BCE_GRAD_EPS = 1e-12  # ... and divides its gradient by max(p * (1 - p), 1e-12)


def mean(x, axes, keepdims: bool):
    """PyTorch's mean: the sum divided by the count, correctly rounded.

    >>> import numpy as np
    >>> bool(float(mean(np.array([1.0, 2.0, 4.0], np.float32), (0,), False)) == np.float32(7) / np.float32(3))
    True
    """
    n = 1
    for a in axes:
        n *= x.shape[a]
    return _div(fnp.sum(x, axis=axes, keepdims=keepdims), float(n))


def var(x, axes, correction: float, keepdims: bool):
    """PyTorch's variance: the squared deviations' sum over ``max(N - correction, 0)``, so
    no degrees of freedom left give ``0 / 0 = NaN`` or ``s / 0 = inf`` (JAX gives NaN).

    >>> import numpy as np
    >>> float(var(np.array([5.0, 6.0]), (0,), 3.0, False))
    inf
    """
    n = 1
    for a in axes:
        n *= x.shape[a]
    m = mean(x, axes, True)
    d = x - m
    sq = fnp.real(d * fnp.conj(d)) if fnp.result_type(x).kind == "c" else d * d
    return _div(fnp.sum(sq, axis=axes, keepdims=keepdims), float(builtins.max(n - correction, 0)))


def root_zero_grad(s, p: float = 2.0):
    """``s ** (1 / p)`` for ``s >= 0`` whose derivative is 0 (not inf/NaN) where ``s == 0``:
    PyTorch's convention for ``norm``/``std``/``cdist`` at zero.  A NaN ``s`` (the variance
    of one element with ``correction=1``, a NaN input) stays NaN, as in PyTorch.

    >>> import numpy as np, fgrad
    >>> float(root_zero_grad(np.float64(9.0), 2.0))
    3.0
    """
    zero = s == 0
    safe = fnp.where(zero, fnp.ones_like(s), s)
    root = fnp.sqrt(safe) if p == 2.0 else safe ** (1.0 / p)
    return fnp.where(zero, fnp.zeros_like(s), root)


@custom_jvp
def atan2(y, x):
    """``atan2(y, x)`` whose gradient at ``(0, 0)`` is ``(0, 0)`` as in PyTorch.

    >>> import numpy as np
    >>> round(float(atan2(np.float64(1.0), np.float64(1.0))), 4)
    0.7854
    """
    return lax.atan2(y, x)


@atan2.defjvp
def _atan2_jvp(primals, tangents):
    y, x = primals
    dy, dx = tangents
    d = x * x + y * y
    zero = d == 0
    inv = fnp.where(zero, fnp.zeros_like(d), 1.0 / fnp.where(zero, fnp.ones_like(d), d))
    return atan2(y, x), (x * dy - y * dx) * inv


@custom_jvp
def xlog1py(x, y):
    """``x * log1p(y)``, 0 where ``x == 0`` (a NaN ``y`` stays NaN), with PyTorch's
    derivatives: ``log1p(y)`` for ``x`` but 0 where ``x == 0 and y <= -1``, and ``x / (1 + y)``
    for ``y``.  A composite would give NaN for ``x`` at ``(0, y <= -1)``.

    >>> import numpy as np, fgrad
    >>> float(fgrad.grad(xlog1py)(np.float64(0.0), np.float64(-2.0)))
    0.0
    """
    zero = (x == 0) & ~fnp.isnan(y)
    return fnp.where(zero, fnp.zeros_like(x * y), x * fnp.log1p(fnp.where(zero, fnp.zeros_like(y), y)))


@xlog1py.defjvp
def _xlog1py_jvp(primals, tangents):
    x, y = primals
    tx, ty = tangents
    masked = (x == 0) & (y <= -1)
    dx = fnp.where(masked, fnp.zeros_like(y), fnp.log1p(fnp.where(masked, fnp.zeros_like(y), y)))
    return xlog1py(x, y), tx * dx + ty * (x / (1 + y))


@custom_jvp
def xlogy(x, y):
    """``x * log(y)``, 0 where ``x == 0`` (a NaN ``y`` stays NaN), with PyTorch's derivatives:
    ``log(y)`` for ``x`` but 0 where ``x == 0 and y <= 0``, and ``x / y`` for ``y`` -- except 0
    at ``(0, 0)`` where PyTorch's is NaN (a recorded deviation: ``kl_div``'s target gradient
    stays finite at target 0).  A composite would give 0 for ``x`` wherever ``x == 0``.

    >>> import numpy as np, fgrad
    >>> round(float(fgrad.grad(xlogy)(np.float64(0.0), np.float64(2.0))), 4)
    0.6931
    """
    zero = (x == 0) & ~fnp.isnan(y)
    return fnp.where(zero, fnp.zeros_like(x * y), x * fnp.log(fnp.where(zero, fnp.ones_like(y), y)))


@xlogy.defjvp
def _xlogy_jvp(primals, tangents):
    x, y = primals
    tx, ty = tangents
    masked = (x == 0) & (y <= 0)
    dx = fnp.where(masked, fnp.zeros_like(y), fnp.log(fnp.where(masked, fnp.ones_like(y), y)))
    x0 = (x == 0) & (y == 0)  # x / y, but 0 at (0, 0) (PyTorch: NaN): kl_div's target gradient stays finite
    dy = fnp.where(x0, fnp.zeros_like(x), x / fnp.where(x0, fnp.ones_like(y), y))
    return xlogy(x, y), tx * dx + ty * dy


@custom_jvp
def abs(x):  # noqa: A001 - PyTorch's name
    """``|x|`` whose derivative at 0 is ``sgn(0) = 0`` as in PyTorch (the core follows JAX:
    ``abs'(0) = 1``).  Complex ``x`` keeps the core's ``|z|`` (no kink off the origin).  The
    value is the core's ``abs`` (one primitive); the rule masks the core's tangent at 0.

    >>> import numpy as np, fgrad
    >>> float(fgrad.grad(abs)(np.float64(0.0)))
    0.0
    """
    return fnp.abs(x)


@abs.defjvp
def _abs_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    a, ta = jvp(fnp.abs, (x,), (t,))
    return a, fnp.where(x == 0, fnp.zeros_like(ta), ta)


def sign_torch(x):
    """``torch.sign`` of a real ``x``: the core's sign (JAX's), but +0 at NaN and at -0 as
    PyTorch's kernels (``(0 < x) - (x < 0)``) give; derivative 0 everywhere.

    >>> import numpy as np
    >>> sign_torch(np.array([np.nan, -2.0, 0.0, 3.0])).tolist()
    [0.0, -1.0, 0.0, 1.0]
    """
    s = _sign(x)  # the primitive (keeps a bool, as PyTorch)
    if not fnp.issubdtype(s.dtype, fnp.floating):
        return s
    return fnp.where((x != x) | (x == 0), fnp.zeros_like(s), s)


@custom_jvp
def abs_torch(x):
    """``torch.abs``: the core's ``|x|``, whose derivative is PyTorch's product ``grad * sgn(x)``:
    0 at 0 and, for real ``x``, 0 at NaN (``sign(nan) = 0`` in PyTorch), unless the gradient
    itself is NaN or infinite there (then NaN).  Norms keep `abs`, whose
    NaN propagates into their gradients as PyTorch's norms do.

    >>> import numpy as np, fgrad
    >>> float(fgrad.grad(abs_torch)(np.float64(np.nan)))
    0.0
    """
    return fnp.abs(x)


@abs_torch.defjvp
def _abs_torch_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    if not fnp.iscomplexobj(x):
        # PyTorch's ``grad * sgn(x)``: a product, so a NaN or infinite gradient at 0 or at a
        # NaN input gives NaN (a select gave 0), and one multiplication
        return fnp.abs(x), t * lax.stop_gradient(sign_torch(x)).astype(t.dtype)
    a, ta = jvp(fnp.abs, (x,), (t,))
    return a, fnp.where(x == 0, fnp.zeros_like(ta), ta)


@custom_jvp
def relu(x):
    """``max(x, 0)`` with PyTorch's values: ``relu(nan) = nan``, ``relu(-0.0) = -0.0``, every
    other non-positive input (``-inf`` too) gives ``+0`` (``x * (x > 0)`` would give ``-0``
    and NaN).  The derivative is PyTorch's ``threshold_backward``, a select: the gradient
    where ``not x <= 0`` (it passes at NaN), else 0 -- also for a NaN or infinite gradient
    (a product with a mask would give NaN there).

    >>> import numpy as np, fgrad
    >>> relu(np.array([-np.inf, -2.0, np.nan, 3.0]))
    Array([ 0.,  0., nan,  3.], dtype=float64)
    >>> float(fgrad.grad(relu)(np.float64(0.0)))
    0.0
    >>> float(fgrad.grad(lambda v: relu(v) * np.inf)(np.float64(-1.0)))
    0.0
    """
    # max(0, x) returns its second operand on a tie: relu(-0.0) = -0.0.  One ufunc, with the
    # zero passed as a constant array on the host (NumPy's vectorized loop; see
    # `core.executor.constant_operand`): 4x faster than the select it replaced for large
    # arrays (which was chosen when NumPy's scalar loop and the allocations made one ufunc
    # slower in the CNN training step)
    return fnp.maximum(0, x)


@relu.defjvp
def _relu_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    # one select_n, which the host programs' native kernels compute as a vector blend
    return relu(x), _select(x <= 0, 0.0, t)


# `relu` whose derivative is a select (now `relu` itself; kept for its callers' names)
relu_select = relu


@custom_jvp
def sigmoid(x):
    """PyTorch's ``sigmoid`` formula ``1 / (1 + exp(-x))``: one ``exp`` (``lax.logistic``'s
    stable form costs a ``logaddexp``, several times slower), and 0 below ``log`` of the
    smallest normal number (PyTorch's ``sigmoid(-100.)`` is 0 in float32).  The derivative
    is written with the output, ``y (1 - y)``.

    >>> import numpy as np
    >>> float(sigmoid(np.float32(0.0)))
    0.5
    """
    return 1 / (1 + fnp.exp(-x))


@sigmoid.defjvp
def _sigmoid_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    y = sigmoid(x)
    return y, t * (y * (1 - y))


def softplus(x):
    """``log(1 + exp(x))`` computed stably, with the derivative ``sigmoid(x)`` everywhere
    (also at 0, where ``log1p(exp(-|x|)) + max(x, 0)`` depends on the kink conventions of
    ``abs`` and ``maximum``).  Both ``where`` branches are finite for every ``x``.

    >>> import numpy as np, fgrad
    >>> float(fgrad.grad(softplus)(np.float64(0.0)))
    0.5
    """
    pos = x > 0
    return fnp.where(pos, x, fnp.zeros_like(x)) + fnp.log1p(fnp.exp(-fnp.where(pos, x, -x)))


@custom_jvp
def hypot(x, y):
    """``sqrt(x**2 + y**2)`` whose gradient is PyTorch's ``(x, y) / hypot(x, y)``: NaN at
    ``(0, 0)`` (the core follows JAX there).

    >>> import numpy as np
    >>> float(hypot(np.float64(3.0), np.float64(4.0)))
    5.0
    """
    return fnp.hypot(x, y)


@hypot.defjvp
def _hypot_jvp(primals, tangents):
    x, y = primals
    dx, dy = tangents
    h = hypot(x, y)
    return h, (x * dx + y * dy) / h


@custom_jvp
def logaddexp(x, y):
    """``log(exp(x) + exp(y))`` whose gradient is PyTorch's ``1 / (1 + exp(y - x))`` (and
    symmetric in ``y``): NaN where ``x == y == ±inf``, ``(1, 0)`` at ``(inf, finite)``.

    >>> import numpy as np
    >>> round(float(logaddexp(np.float64(0.0), np.float64(0.0))), 6)
    0.693147
    """
    return fnp.logaddexp(x, y)


@logaddexp.defjvp
def _logaddexp_jvp(primals, tangents):
    x, y = primals
    dx, dy = tangents
    return logaddexp(x, y), dx / (1 + fnp.exp(y - x)) + dy / (1 + fnp.exp(x - y))


@custom_jvp
def logaddexp2(x, y):
    """``log2(2**x + 2**y)`` whose gradient is PyTorch's ``1 / (1 + 2**(y - x))`` (and
    symmetric in ``y``): NaN where ``x == y == ±inf``, ``(1, 0)`` at ``(inf, finite)``.

    >>> import numpy as np
    >>> float(logaddexp2(np.float64(1.0), np.float64(1.0)))
    2.0
    """
    return fnp.logaddexp2(x, y)


@logaddexp2.defjvp
def _logaddexp2_jvp(primals, tangents):
    x, y = primals
    dx, dy = tangents
    return logaddexp2(x, y), dx / (1 + fnp.exp2(y - x)) + dy / (1 + fnp.exp2(x - y))


@custom_jvp
def max_abs_unsplit(d):
    """``max(|d|)`` over the last axis whose gradient gives *every* tied maximum the full
    ``sgn(d)`` (PyTorch's ``cdist(p=inf)``; ``vector_norm(ord=inf)`` splits ties instead).

    >>> import numpy as np
    >>> float(max_abs_unsplit(np.array([2.0, -3.0])))
    3.0
    """
    return fnp.max(fnp.abs(d), axis=-1)


@max_abs_unsplit.defjvp
def _max_abs_unsplit_jvp(primals, tangents):
    (d,), (dd,) = primals, tangents
    m = max_abs_unsplit(d)
    top = fnp.abs(d) == m[..., None]
    return m, fnp.sum(fnp.where(top, fnp.sign(d) * dd, fnp.zeros_like(dd)), axis=-1)


@custom_jvp
def euclidean_dist_mm(x1, x2):
    """Pairwise distances ``|x1_i - x2_j|`` over the last axis as PyTorch's ``cdist`` computes
    them for many points: one matrix product of ``[-2 x1, |x1|^2, 1]`` and ``[x2, 1, |x2|^2]``,
    clamped at 0, square-rooted; the derivative is ``(x1_i - x2_j) / d_ij`` (0 where
    ``d_ij = 0``), as PyTorch's ``_euclidean_dist_backward``.

    >>> import numpy as np
    >>> euclidean_dist_mm(np.array([[0.0, 0.0]]), np.array([[3.0, 4.0], [0.0, 0.0]])).tolist()
    [[5.0, 0.0]]
    """
    n1 = fnp.sum(x1 * x1, axis=-1, keepdims=True)
    n2 = fnp.sum(x2 * x2, axis=-1, keepdims=True)
    a = fnp.concatenate([x1 * -2.0, n1, fnp.ones_like(n1)], axis=-1)
    b = fnp.concatenate([x2, fnp.ones_like(n2), n2], axis=-1)
    return fnp.sqrt(fnp.maximum(fnp.matmul(a, fnp.swapaxes(b, -1, -2)), 0.0))


@euclidean_dist_mm.defjvp
def _euclidean_dist_mm_jvp(primals, tangents):
    (x1, x2), (t1, t2) = primals, tangents
    d = euclidean_dist_mm(x1, x2)
    # d(d_ij) = (x1_i - x2_j) . (t1_i - t2_j) / d_ij
    num = (fnp.sum(x1 * t1, axis=-1)[..., :, None] + fnp.sum(x2 * t2, axis=-1)[..., None, :]
           - fnp.matmul(t1, fnp.swapaxes(x2, -1, -2)) - fnp.matmul(x1, fnp.swapaxes(t2, -1, -2)))
    zero = d == 0
    return d, fnp.where(zero, fnp.zeros_like(num), num / fnp.where(zero, fnp.ones_like(d), d))


def _pytorch_minmax(pick, loses):
    """``pick(x, y)`` (NaN-propagating max or min) with PyTorch's gradient: the full gradient
    to each operand except where it loses (``loses(x, y)`` for ``x``), half to each at a tie
    -- so both operands get it where either is NaN (JAX gives neither)."""

    @custom_jvp
    def op(x, y):
        return pick(x, y)

    @op.defjvp
    def _jvp(primals, tangents):
        (x, y), (dx, dy) = primals, tangents
        tie = x == y
        wx = fnp.where(loses(x, y), 0.0, fnp.where(tie, 0.5, 1.0)).astype(dx.dtype)
        wy = fnp.where(loses(y, x), 0.0, fnp.where(tie, 0.5, 1.0)).astype(dy.dtype)
        return op(x, y), dx * wx + dy * wy

    return op


maximum = _pytorch_minmax(fnp.maximum, lambda x, y: x < y)
maximum.__doc__ = """``maximum`` with PyTorch's gradient: both operands get it at a NaN, ties split it.

>>> import numpy as np, fgrad
>>> fgrad.grad(maximum, argnums=(0, 1))(np.float64(np.nan), np.float64(1.0))
(Array(1., dtype=float64), Array(1., dtype=float64))
"""
minimum = _pytorch_minmax(fnp.minimum, lambda x, y: x > y)
minimum.__doc__ = """``minimum`` with PyTorch's gradient: both operands get it at a NaN, ties split it.

>>> import numpy as np, fgrad
>>> fgrad.grad(minimum, argnums=(0, 1))(np.float64(2.0), np.float64(2.0))
(Array(0.5, dtype=float64), Array(0.5, dtype=float64))
"""


def fmax(x, y):
    """``fmax`` whose gradient goes to ``x`` where ``x >= y`` or ``y`` is NaN (PyTorch).

    >>> import numpy as np
    >>> float(fmax(np.float64(1.0), np.float64(np.nan)))
    1.0
    """
    return fnp.where((x >= y) | fnp.isnan(y), x, y)


def fmin(x, y):
    """``fmin`` whose gradient goes to ``x`` where ``x <= y`` or ``y`` is NaN (PyTorch).

    >>> import numpy as np
    >>> float(fmin(np.float64(1.0), np.float64(2.0)))
    1.0
    """
    return fnp.where((x <= y) | fnp.isnan(y), x, y)


@partial(custom_jvp, nondiff_argnums=(1, 2))
def clamp(x, lo, hi):
    """PyTorch's ``clamp(x, lo, hi)`` for scalar bounds (``None``: no bound): NaN stays
    NaN, a NaN bound gives NaN, ``lo > hi`` gives ``hi``, and ``x`` itself where it equals a
    bound (``clamp(-0.0, min=0.0)`` is ``-0.0``: ``max``/``min`` return their second operand
    on a tie).  The gradient is PyTorch's: 1 on ``[lo, hi]`` (ends included), 0 outside and
    at NaN.

    >>> import numpy as np, fgrad
    >>> clamp(np.array([-np.inf, 0.5, np.inf, np.nan]), -1.0, 1.0).tolist()
    [-1.0, 0.5, 1.0, nan]
    >>> float(fgrad.grad(lambda v: clamp(v, -1.0, 1.0))(np.float64(1.0)))
    1.0
    """
    r = x
    if lo is not None:
        r = fnp.maximum(lo, r)
    if hi is not None:
        r = fnp.minimum(hi, r)
    return r


@clamp.defjvp
def _clamp_jvp(lo, hi, primals, tangents):
    (x,), (t,) = primals, tangents
    keep = None
    if lo is not None:
        keep = x >= lo
    if hi is not None:
        keep = x <= hi if keep is None else keep & (x <= hi)
    return clamp(x, lo, hi), fnp.where(keep, t, fnp.zeros_like(t))


def clamp_interior(x, lo, hi):
    """``clamp(x, lo, hi)`` whose gradient is 1 strictly inside ``(lo, hi)`` and 0 on and
    outside the boundary (``hardtanh``/``relu6``); NaN stays NaN.  ``lo``/``hi`` may be
    ``None``.

    >>> import numpy as np
    >>> clamp_interior(np.array([-2.0, 0.5, 2.0]), -1.0, 1.0).tolist()
    [-1.0, 0.5, 1.0]
    """
    r = x
    if hi is not None:
        r = fnp.where(x >= hi, fnp.zeros_like(x) + hi, r)
    if lo is not None:
        r = fnp.where(x <= lo, fnp.zeros_like(x) + lo, r)
    return r


def _adjugate_t(a):
    """The transposed adjugate (cofactor matrix) of square ``a``, finite for every matrix:
    from the SVD ``a = U diag(s) Vh``, ``adj(a) = det(U) det(Vh) Vh^H diag(prod_{j!=i} s_j) U^H``,
    so ``adj(a)^T = det(U) det(Vh) conj(U) diag(...) conj(Vh)`` (plain U, Vh for real ``a``)."""
    u, s, vh = fnp.linalg.svd(a, full_matrices=False)
    n = s.shape[-1]
    eye = fnp.eye(n, dtype=s.dtype)
    others = fnp.prod(s[..., None, :] * (1 - eye) + eye, axis=-1)  # prod over j != i
    sign = fnp.linalg.det(u) * fnp.linalg.det(vh)
    if fnp.iscomplexobj(a):
        u, vh = fnp.conj(u), fnp.conj(vh)
    cof = (u * others[..., None, :]) @ vh  # = adj(a)^T up to the sign
    return cof * sign[..., None, None]


@custom_jvp
def det(a):
    """``det(a)`` whose derivative ``adj(a)^T`` is finite at singular matrices (PyTorch's
    ``create_graph`` answer; the exact cofactor matrix, 0 only where rank < n - 1).

    >>> import numpy as np
    >>> round(float(det(np.array([[1.0, 2.0], [3.0, 4.0]]))), 12)
    -2.0
    """
    return fnp.linalg.det(a)


@det.defjvp
def _det_jvp(primals, tangents):
    (a,), (da,) = primals, tangents
    return det(a), fnp.sum(_adjugate_t(a) * da, axis=(-2, -1))


@custom_jvp
def binary_cross_entropy(p, y):
    """Elementwise ``-(y log p + (1 - y) log(1 - p))`` with both logs clamped at -100, as
    PyTorch computes it; the derivative in ``p`` is PyTorch's
    ``(p - y) / max(p (1 - p), 1e-12)`` (finite at p = 0 and 1), the derivative in ``y`` is
    the exact one of the clamped value.

    >>> import numpy as np
    >>> float(binary_cross_entropy(np.float64(0.0), np.float64(1.0)))
    100.0
    """
    log_p, log_q = _clamped_logs(p)
    return -(y * log_p + (1 - y) * log_q)


def _clamped_logs(p):
    """``max(log p, -100)`` and ``max(log(1 - p), -100)``, without evaluating log(0)."""
    floor = fnp.zeros_like(p) + BCE_LOG_FLOOR
    pos, below_one = p > 0, p < 1
    log_p = fnp.where(pos, fnp.maximum(fnp.log(fnp.where(pos, p, fnp.ones_like(p))), floor), floor)
    log_q = fnp.where(below_one, fnp.maximum(fnp.log1p(-fnp.where(below_one, p, fnp.zeros_like(p))), floor),
                      floor)
    return log_p, log_q


@binary_cross_entropy.defjvp
def _bce_jvp(primals, tangents):
    p, y = primals
    dp, dy = tangents
    log_p, log_q = _clamped_logs(p)
    out = -(y * log_p + (1 - y) * log_q)
    d_p = (p - y) / fnp.maximum(p * (1 - p), BCE_GRAD_EPS)
    d_y = log_q - log_p
    return out, d_p * dp + d_y * dy


def divide_or_nan(total, count):
    """``total / count`` whose value is NaN where ``count == 0`` (0/0, as PyTorch's mean of
    nothing) but whose gradient there is 0: the NaN is a constant, not a derivative.

    >>> import numpy as np
    >>> float(divide_or_nan(np.float64(6.0), np.float64(3.0)))
    2.0
    """
    empty = count == 0
    q = total / fnp.where(empty, fnp.ones_like(count), count)
    return q + lax.stop_gradient(fnp.where(empty, fnp.full_like(q, fnp.nan), fnp.zeros_like(q)))


@custom_jvp
def slogdet(a):
    """``(sign, log|det a|)`` whose ``logabsdet`` derivative at a singular matrix is
    ``adj(a)^T / 0`` (±inf where the cofactor is nonzero, as PyTorch) instead of NaN.

    >>> import numpy as np
    >>> round(float(slogdet(np.array([[2.0, 0.0], [0.0, 3.0]]))[1]), 4)
    1.7918
    """
    sign, logabsdet = fnp.linalg.slogdet(a)
    return sign, logabsdet


@slogdet.defjvp
def _slogdet_jvp(primals, tangents):
    (a,), (da,) = primals, tangents
    sign, logabsdet = slogdet(a)
    singular = (sign == 0)[..., None, None]
    safe = fnp.where(singular, fnp.eye(a.shape[-1], dtype=a.dtype) + fnp.zeros_like(a), a)
    inv_t = fnp.swapaxes(fnp.linalg.inv(safe), -1, -2)
    d = fnp.linalg.det(a)[..., None, None]
    grad = fnp.where(singular, _adjugate_t(a) / fnp.where(singular, d, fnp.ones_like(d)), inv_t)
    t = fnp.sum(grad * da, axis=(-2, -1))  # d log(det a) = tr(a^-1 da)
    if fnp.iscomplexobj(a):  # log|det| takes its real part, the phase sign = det/|det| turns by i Im
        return (sign, logabsdet), (sign * (1j * fnp.imag(t)).astype(sign.dtype), fnp.real(t))
    return (sign, logabsdet), (fnp.zeros_like(sign), t)


@partial(custom_jvp, nondiff_argnums=(1,))
def extremum_nan_evenly(x, is_max: bool):
    """Full ``max``/``min`` of ``x`` whose gradient is split evenly among the elements equal
    to the result -- and, when the result is NaN, among the NaN elements (PyTorch: the
    gradient of ``max([nan, 1.])`` is ``[1., 0.]``; the core gives NaN everywhere).

    >>> import numpy as np, fgrad
    >>> [float(v) for v in fgrad.grad(lambda x: extremum_nan_evenly(x, True))(np.array([np.nan, 1.0]))]
    [1.0, 0.0]
    """
    return fnp.max(x) if is_max else fnp.min(x)


@extremum_nan_evenly.defjvp
def _extremum_nan_evenly_jvp(is_max, primals, tangents):
    (x,), (dx,) = primals, tangents
    m = extremum_nan_evenly(x, is_max)
    hit = (x == m) | (fnp.isnan(x) & fnp.isnan(m))
    count = fnp.sum(hit).astype(x.dtype)
    return m, fnp.sum(fnp.where(hit, dx, fnp.zeros_like(dx))) / count


@partial(custom_jvp, nondiff_argnums=(1, 2))
def prod(x, axes: tuple, keepdims: bool):
    """``prod`` over ``axes`` with PyTorch's gradient: ``out / x`` where the input has no
    zero (so ``prod([-inf, -inf])`` and ``prod([nan, 1.])`` have NaN gradients, as in
    PyTorch), the product of the other elements everywhere when any element of the input is
    zero (PyTorch decides once for the whole input, not per reduced slice: a zero in one
    column makes the ``[1, inf]`` column's gradient ``[inf, 1]``, not NaN). The core uses
    the product of the other elements everywhere.

    >>> import numpy as np, fgrad
    >>> [float(v) for v in fgrad.grad(lambda x: prod(x, (0,), False))(np.array([2.0, 3.0]))]
    [3.0, 2.0]
    """
    return fnp.prod(x, axis=axes, keepdims=keepdims)


@prod.defjvp
def _prod_jvp(axes, keepdims, primals, tangents):
    (x,), (dx,) = primals, tangents
    out = prod(x, axes, keepdims)
    out_k = fnp.prod(x, axis=axes, keepdims=True)
    has_zero = fnp.any(x == 0)  # one decision for the whole input, as PyTorch's prod_backward
    one = fnp.ones_like(x)
    # each branch sees safe inputs where it is not selected, so its transpose stays finite
    x_div = fnp.where(has_zero, one, x)
    ratio = fnp.where(has_zero, fnp.ones_like(out_k), out_k) / x_div
    by_ratio = fnp.sum(dx * ratio, axis=axes, keepdims=keepdims)
    x_excl = fnp.where(has_zero, x, one)
    _, by_others = jvp(lambda v: fnp.prod(v, axis=axes, keepdims=keepdims), (x_excl,), (dx,))
    return out, fnp.where(has_zero, by_others, by_ratio)


@custom_jvp
def logit(x):
    """``log(x / (1 - x))`` whose derivative is PyTorch's ``1 / (x (1 - x))`` inside
    ``[0, 1]`` and NaN outside it (also at ±inf; the core's ``1/x + 1/(1 - x)`` is finite there).

    >>> import numpy as np, fgrad
    >>> float(fgrad.grad(logit)(np.float64(0.5))), float(fgrad.grad(logit)(np.float64(-1.0)))
    (4.0, nan)
    """
    return fnp.log(x) - fnp.log1p(-x)


@logit.defjvp
def _logit_jvp(primals, tangents):
    (x,), (dx,) = primals, tangents
    outside = (x < 0) | (x > 1) | fnp.isnan(x)
    safe = fnp.where(outside, fnp.full_like(x, 0.5), x)
    scale = fnp.where(outside, fnp.full_like(x, fnp.nan), 1 / (safe * (1 - safe)))
    return logit(x), dx * scale


@custom_jvp
def copysign(x, y):
    """``|x|`` with the sign of ``y``; PyTorch's gradient in ``x`` is ``out / x``: 0 at
    ``x = 0``, NaN at ``x = ±inf`` (the core gives ``±1``); none in ``y``.

    >>> import numpy as np, fgrad
    >>> g = fgrad.grad(copysign)
    >>> float(g(np.float64(0.0), np.float64(-1.0))), float(g(np.float64(np.inf), np.float64(1.0)))
    (0.0, nan)
    """
    return fnp.copysign(x, y)


@copysign.defjvp
def _copysign_jvp(primals, tangents):
    (x, y), (dx, _) = primals, tangents
    out = copysign(x, y)
    zero = x == 0
    ratio = fnp.where(zero, fnp.zeros_like(x), out / fnp.where(zero, fnp.ones_like(x), x))
    return out, dx * ratio


@custom_jvp
def pow(x, y):  # noqa: A001 - PyTorch's name
    """``x ** y`` whose gradient in ``y`` is PyTorch's ``out * log(x)``, 0 only where
    ``x == 0`` and ``y >= 0`` (so ``pow(0., -1.)`` has ``-inf``; the core gives NaN there, as
    JAX).  The gradient in ``x`` is the core's.

    >>> import numpy as np, fgrad
    >>> float(fgrad.grad(pow, argnums=1)(np.float64(0.0), np.float64(-1.0)))
    -inf
    """
    return _pow(x, y)  # the primitive: PyTorch raises integers to integer powers too


@pow.defjvp
def _pow_jvp(primals, tangents):
    (x, y), (dx, dy) = primals, tangents
    out = pow(x, y)
    _, by_base = jvp(lambda b: _pow(b, y), (x,), (dx,))
    zero = (x == 0) & (fnp.real(y) >= 0)
    log_x = fnp.log(fnp.where(zero, fnp.ones_like(x), x))
    by_exponent = dy * fnp.where(zero, fnp.zeros_like(out), out * log_x)
    return out, by_base + by_exponent


@partial(custom_jvp, nondiff_argnums=(1,))
def logcumsumexp(x, axis: int):
    """``log(cumsum(exp(x)))`` along ``axis`` whose gradient has PyTorch's NaNs: NaN where the
    result is ``-inf`` (a run of leading ``-inf``), where ``x`` is ``+inf``, and in the whole
    slice when the slice holds a NaN; a term of a later ``+inf`` result contributes 0.
    Elsewhere the gradient is the core's (``sum_{j >= i} g_j exp(x_i - r_j)``).

    >>> import numpy as np, fgrad
    >>> x = np.array([-np.inf, 0.0, 0.0])
    >>> fgrad.grad(lambda v: logcumsumexp(v, 0).sum())(x).tolist()
    [nan, 1.5, 0.5]
    """
    return _cumlogsumexp(x, axis)


@logcumsumexp.defjvp
def _logcumsumexp_jvp(axis, primals, tangents):
    (x,), (t,) = primals, tangents
    r = logcumsumexp(x, axis)
    if r.shape[axis] == 0:  # an empty slice: nothing to differentiate (no last element to read)
        return r, t
    pos_inf = x == fnp.inf
    # A +inf entry is taken out of the scan (its own gradient is NaN below); the results it
    # makes +inf take no share of the others' gradient, as in PyTorch's exp(log g - r) form.
    xs = fnp.where(pos_inf, fnp.full_like(x, -fnp.inf), x)
    ts = fnp.where(pos_inf, fnp.zeros_like(t), t)
    _, dr = jvp(lambda v: _cumlogsumexp(v, axis), (xs,), (ts,))
    dr = fnp.where(r == fnp.inf, fnp.zeros_like(dr), dr)
    last = lax.slice_in_dim(r, r.shape[axis] - 1, r.shape[axis], axis=axis)
    nan_at = (r == -fnp.inf) | pos_inf | fnp.isnan(last)
    nans = fnp.where(nan_at, fnp.full_like(r, fnp.nan), fnp.zeros_like(r))
    return r, dr + nans * t


@partial(custom_jvp, nondiff_argnums=(0,))
def overwrite(write, x, v, *arrays):
    """``write(x, v, arrays, "set")``: ``x`` with the values ``v`` written at the indices
    ``arrays`` (``write(x, v, arrays, mode)`` scatters with mode ``"set"`` or ``"add"``), with
    PyTorch's derivative where an index repeats: every written value gets the gradient at its
    destination, the one that lands last as well as those it overwrote (``IndexPutBackward0``
    gathers the gradient back), and ``x`` gets none at a written slot.  The core's scatter
    gives the overwritten values 0, the exact derivative of the value both libraries compute.

    >>> import numpy as np, fgrad, fgrad.numpy as fnp
    >>> def write(x, v, arrays, mode):
    ...     return fnp._scatter(x, tuple(arrays), v, mode)
    >>> i = np.array([1, 1])
    >>> fgrad.grad(lambda v: overwrite(write, np.zeros(3), v, i)[1] * 3.0)(np.array([1.0, 2.0])).tolist()
    [3.0, 3.0]
    """
    return write(x, v, arrays, "set")


def _overwrite_jvp(write, primals, tangents):
    x, v, *arrays = primals
    tx, tv = tangents[:2]
    out = overwrite(write, x, v, *arrays)
    if isinstance(tv, SymbolicZero):  # (zeros made here, on the primals' device)
        return out, tx if isinstance(tx, SymbolicZero) else write(tx, fnp.zeros_like(v), arrays, "set")
    if isinstance(tx, SymbolicZero):
        cleared = fnp.zeros_like(x)
    else:
        cleared = write(tx, fnp.zeros_like(tv), arrays, "set")
    return out, write(cleared, tv, arrays, "add")


overwrite.defjvp(_overwrite_jvp, symbolic_zeros=True)


@partial(custom_jvp, nondiff_argnums=(0,))
def nan_on_linear_branch(f, x):
    """``f(x)`` for an ELU-like ``f`` (linear for ``x > 0``) whose derivative at a NaN ``x``
    is the linear branch's slope, as PyTorch's ``elu_backward`` (it tests ``x <= 0``, false
    at NaN); elsewhere ``f``'s own derivative.

    >>> import numpy as np, fgrad
    >>> from fgrad.nn import elu
    >>> float(fgrad.grad(lambda v: nan_on_linear_branch(elu, v))(np.float64(np.nan)))
    1.0
    """
    return f(x)


@nan_on_linear_branch.defjvp
def _nan_on_linear_branch_jvp(f, primals, tangents):
    (x,), (t,) = primals, tangents
    _, dt = jvp(f, (fnp.where(x != x, fnp.ones_like(x), x),), (t,))
    return nan_on_linear_branch(f, x), dt


@partial(custom_jvp, nondiff_argnums=(1,))
def max_pool(x, window: tuple):
    """``reduce_window_max`` of ``x`` (``window``: its parameters as ``(name, value)`` pairs)
    whose derivative takes PyTorch's pick where the core's differs: in a window holding NaNs
    the last NaN (PyTorch's kernels keep ``val > max || isnan(val)``; the core, as ``argmax``,
    the first), and in a window whose cells are all ``-inf`` its first cell (PyTorch starts
    from it; the core from the padding, so the gradient was lost); elsewhere the first
    maximum, as both.

    >>> import numpy as np, fgrad
    >>> w = (("window_dimensions", (3,)), ("window_strides", (3,)), ("padding", ((0, 0),)),
    ...      ("base_dilation", (1,)), ("window_dilation", (1,)))
    >>> fgrad.grad(lambda v: max_pool(v, w).sum())(np.array([np.nan, 1.0, np.nan])).tolist()
    [0.0, 0.0, 1.0]
    """
    return _windowed.reduce_window_max_p.bind(x, **dict(window))


def max_pool_differs(xp, y):
    """Where a max pool's result ``y`` comes from a window in which PyTorch's pick is not the
    core's (see `max_pool`): NaN or ``-inf``."""
    return xp.isnan(y) | (y == -np.inf)


def max_pool_key(xp, x):
    """The key whose first maximum is PyTorch's pick in the windows `max_pool_differs` marks
    (float64, exact below 2**53 elements): on a NaN its flat position plus the size (the last
    NaN beats everything), on ``-inf`` minus its position (the first real cell beats the later
    ones and the padding's ``-inf``), ``-inf`` elsewhere."""
    n = math.prod(x.shape)
    position = xp.arange(n, dtype=np.float64).reshape(x.shape)  # (made on x's device)
    return xp.where(xp.isnan(x), position + n, xp.where(x == -np.inf, -position, -np.inf))


def argmax_nan_last(xp, flat):
    """Index along the last axis of PyTorch's pooling pick: the last NaN where there is one,
    else the first maximum (``xp``: NumPy, CuPy or ``fgrad.numpy``).

    >>> import numpy as np
    >>> argmax_nan_last(np, np.array([[np.nan, 3.0, np.nan, 1.0], [1.0, 3.0, 3.0, 0.0]])).tolist()
    [2, 1]
    """
    first = xp.argmax(flat, axis=-1)
    if flat.dtype.kind != "f":
        return first
    nan = xp.isnan(flat)
    last_nan = flat.shape[-1] - 1 - xp.argmax(nan[..., ::-1], axis=-1)
    return xp.where(xp.any(nan, axis=-1), last_nan, first)


@max_pool.defjvp
def _max_pool_jvp(window, primals, tangents):
    (x,), (t,) = primals, tangents
    params = dict(window)
    y = max_pool(x, window)
    first = _windowed.select_and_gather_add_p.bind(t, x, select="max", **params)
    picked = _windowed.select_and_gather_add_p.bind(t, max_pool_key(fnp, x), select="max", **params)
    return y, fnp.where(max_pool_differs(fnp, y), picked, first)
