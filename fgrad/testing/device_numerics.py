"""Test references for what differs on a GPU (docs/gpu_numerics.md).

Two facts about a backend decide how a test compares its results with NumPy's:

* ``Backend.flushes_float32_subnormals``: float32 subnormal inputs and results of arithmetic
  are flushed to (sign-preserving) zero, as in CUDA code compiled with ``-ftz=true`` (cupy;
  JAX on GPUs too).  A NumPy reference for such a backend flushes float32 subnormal inputs
  and outputs the same way (`flush_subnormals`, `ftz_reference`; `ftz_nextafter` for the
  neighbours of a float when subnormals do not exist);
* ``Backend.rounds_like_numpy``: eager ops round exactly like NumPy's loops.  Where they do
  not (cupy's own kernels contract ``a*b+c`` into fma, its reductions sum in another order),
  eager and jit results may differ by a few ulps: `assert_equal_up_to_device_ulps` is exact
  on such a backend only up to ``ulps`` units in the last place, and exact elsewhere.

Only those differences are excused: a reference flushes nothing for float64, and an ulp
budget applies only on backends that say they need it.

Example::

    >>> import numpy as np
    >>> flush_subnormals(np.array([1e-40, -1e-40, 1.0], np.float32))
    array([ 0., -0.,  1.], dtype=float32)
"""

from __future__ import annotations

import numpy as np

from .. import backends
from ..tree_util import tree_leaves

F32 = np.dtype(np.float32)
_TINY32 = np.finfo(np.float32).tiny
_INT_OF = {2: np.int16, 4: np.int32, 8: np.int64}


def _backend(backend=None):
    return backends.default_backend() if backend is None else backends.get_backend(backend)


def flushes_float32_subnormals(backend=None) -> bool:
    """Whether ``backend`` (default: the default device's) flushes float32 subnormals.

    Example::

        >>> flushes_float32_subnormals("numpy")
        False
    """
    return bool(getattr(_backend(backend), "flushes_float32_subnormals", False))


def rounds_like_numpy(backend=None) -> bool:
    """Whether ``backend``'s (default: the default device's) eager ops round like NumPy.

    Example::

        >>> rounds_like_numpy("numpy")
        True
    """
    return bool(getattr(_backend(backend), "rounds_like_numpy", True))


def flush_subnormals(x):
    """``x`` with float32 (and complex64 parts') subnormals replaced by zeros of their sign;
    anything else is returned unchanged (only float32 arithmetic flushes under ``-ftz``).

    Example::

        >>> import numpy as np
        >>> flush_subnormals(np.float32(-1e-42)), flush_subnormals(np.float64(1e-310))
        (np.float32(-0.0), np.float64(1e-310))
    """
    if isinstance(x, (tuple, list)):
        return type(x)(flush_subnormals(v) for v in x)
    a = np.asarray(x)
    if a.dtype == np.complex64:
        return (flush_subnormals(a.real) + 1j * flush_subnormals(a.imag)).astype(np.complex64)
    if a.dtype != F32:
        return x
    sub = (a != 0) & (np.abs(a) < _TINY32)
    if not sub.any():
        return x
    out = np.where(sub, np.copysign(np.float32(0), a), a).astype(F32)
    return out[()] if out.ndim == 0 and not isinstance(x, np.ndarray) else out


def ftz_nextafter(x, y):
    """NumPy's ``nextafter`` for float32 without subnormals (CUDA's ``nextafterf`` under
    ``-ftz``): the float after 0 is the smallest normal number and the one before it 0.

    Example::

        >>> import numpy as np
        >>> float(ftz_nextafter(np.float32(0), np.float32(1))) == float(np.finfo(np.float32).tiny)
        True
    """
    x, y = flush_subnormals(np.asarray(x)), flush_subnormals(np.asarray(y))
    with np.errstate(all="ignore"):
        out = np.asarray(np.nextafter(x, y))
    if out.dtype != F32:
        return out
    sub = (out != 0) & (np.abs(out) < _TINY32)
    from_zero = np.broadcast_to(x == 0, out.shape)
    step_out = np.copysign(np.float32(_TINY32), out)  # 0 -> +-tiny
    step_in = np.copysign(np.float32(0), np.broadcast_to(x, out.shape))  # +-tiny -> +-0
    return np.where(sub, np.where(from_zero, step_out, step_in), out).astype(F32)


def ftz_spacing(x):
    """NumPy's ``spacing`` for float32 without subnormals: the distance to the next float away
    from zero as `ftz_nextafter` finds it (``spacing(0)`` is the smallest normal number);
    other dtypes get ``numpy.spacing``.

    Example::

        >>> import numpy as np
        >>> float(ftz_spacing(np.float32(-0.0))) == float(np.finfo(np.float32).tiny)
        True
    """
    x = np.asarray(x)
    if x.dtype != F32:
        return np.spacing(x)
    x = flush_subnormals(x)
    away = np.where(x < 0, np.float32(-np.inf), np.float32(np.inf)).astype(F32)
    with np.errstate(all="ignore"):
        out = flush_subnormals(ftz_nextafter(x, away) - x)
    return np.where(np.isinf(x), np.float32(np.nan), out).astype(F32)


def ftz_reference(fn, args, backend=None):
    """``fn(*args)`` (a NumPy reference) as a backend that flushes float32 subnormals computes
    it: subnormal float32 inputs and outputs flushed; plain ``fn(*args)`` elsewhere.

    Example::

        >>> import numpy as np
        >>> ftz_reference(np.ceil, [np.float32(1e-42)], backend="numpy")
        np.float32(1.0)
    """
    if not flushes_float32_subnormals(backend):
        return fn(*args)
    return flush_subnormals(fn(*[flush_subnormals(a) for a in args]))


def ulp_distance(a, b) -> np.ndarray:
    """How many representable floats lie between ``a`` and ``b`` (same float dtype), per
    element; 0 for equal values (``+0 == -0``) and for two NaNs, a huge number for a NaN
    against a number.

    Example::

        >>> import numpy as np
        >>> int(ulp_distance(np.float32(1), np.nextafter(np.float32(1), np.float32(2))))
        1
    """
    a, b = np.asarray(a), np.asarray(b)
    dt = np.result_type(a, b)
    if dt.kind != "f":
        return (a != b).astype(np.int64)
    a, b = np.broadcast_arrays(a.astype(dt), b.astype(dt))

    def ordered(v):
        i = v.view(_INT_OF[dt.itemsize]).astype(np.int64)
        return np.where(i < 0, -(i & ((1 << (8 * dt.itemsize - 1)) - 1)), i)

    d = np.abs(ordered(a) - ordered(b))
    nan_a, nan_b = np.isnan(a), np.isnan(b)
    d = np.where(nan_a & nan_b, 0, d)
    return np.where(nan_a ^ nan_b, np.iinfo(np.int64).max, d)


def assert_equal_up_to_device_ulps(actual, desired, ulps: int = 4, backend=None, err_msg: str = "") -> None:
    """``actual == desired`` exactly on a backend that rounds like NumPy; within ``ulps``
    units in the last place (of the values' float dtype) on one that does not (cupy: eager
    kernels contract fma, reductions sum in another order).  Arrays, pytrees of arrays and
    fgrad Arrays on any device are accepted.

    Example::

        >>> import numpy as np
        >>> assert_equal_up_to_device_ulps(np.ones(2), np.ones(2))
    """
    got, want = tree_leaves(actual), tree_leaves(desired)
    assert len(got) == len(want), f"{err_msg}: {len(got)} leaves vs {len(want)}"
    exact = rounds_like_numpy(backend)
    for g, w in zip(got, want):
        g, w = _on_host(g), _on_host(w)
        if exact or np.result_type(g, w).kind != "f":
            np.testing.assert_array_equal(g, w, err_msg=err_msg)
            continue
        assert np.shape(g) == np.shape(w), f"{err_msg}: shapes {np.shape(g)} vs {np.shape(w)}"
        d = ulp_distance(g, w)
        assert (d <= ulps).all(), (
            f"{err_msg}: more than {ulps} ulps apart (max {int(d.max())}) on a backend whose "
            f"eager ops do not round like NumPy:\n actual={g!r}\n desired={w!r}")


_SUM_ORDER_RTOL = {2: 1e-2, 4: 1e-5, 8: 1e-12}


def assert_equal_up_to_summation_order(actual, desired, rtol: float | None = None, backend=None,
                                       err_msg: str = "") -> None:
    """``actual == desired`` exactly on a backend that rounds like NumPy; on one that does not
    (cuBLAS's products and cupy's reductions add in another order), each leaf within ``rtol``
    of ``desired`` in norm: ``|actual - desired| <= rtol * |desired|`` (default by dtype:
    1e-5 for float32, 1e-12 for float64).  For products and sums, where cancellation makes a
    per-element ulp budget meaningless (a gradient entry near zero is many ulps off while the
    whole is exact to rounding).

    Example::

        >>> import numpy as np
        >>> assert_equal_up_to_summation_order(np.ones((2, 2)) @ np.ones(2), np.full(2, 2.0))
    """
    got, want = tree_leaves(actual), tree_leaves(desired)
    assert len(got) == len(want), f"{err_msg}: {len(got)} leaves vs {len(want)}"
    exact = rounds_like_numpy(backend)
    for g, w in zip(got, want):
        g, w = _on_host(g), _on_host(w)
        dt = np.result_type(g, w)
        if exact or dt.kind not in "fc":
            np.testing.assert_array_equal(g, w, err_msg=err_msg)
            continue
        assert np.shape(g) == np.shape(w), f"{err_msg}: shapes {np.shape(g)} vs {np.shape(w)}"
        np.testing.assert_array_equal(np.isfinite(g), np.isfinite(w), err_msg=err_msg)
        fin = np.isfinite(w)
        np.testing.assert_array_equal(g[~fin], w[~fin], err_msg=err_msg)
        wide = np.complex128 if dt.kind == "c" else np.float64
        part = np.dtype(dt).itemsize // (2 if dt.kind == "c" else 1)
        tol = rtol if rtol is not None else _SUM_ORDER_RTOL.get(part, 1e-5)
        diff = np.linalg.norm(g[fin].astype(wide) - w[fin].astype(wide))
        scale = np.linalg.norm(w[fin].astype(wide))
        assert diff <= tol * scale, (
            f"{err_msg}: relative difference {diff / scale if scale else diff:.3g} over {tol:g} on a "
            f"backend whose products and sums add in another order:\n actual={g!r}\n desired={w!r}")


def _on_host(x) -> np.ndarray:
    buf = getattr(x, "_buf", x)
    if hasattr(buf, "shape") and not isinstance(buf, (np.ndarray, np.generic)):
        return backends.to_host(buf)
    if isinstance(buf, np.ndarray) and type(buf) is not np.ndarray:  # a device subclass
        return backends.to_host(buf)
    return np.asarray(buf)


__all__ = ["assert_equal_up_to_device_ulps", "assert_equal_up_to_summation_order", "flush_subnormals",
           "flushes_float32_subnormals", "ftz_nextafter", "ftz_reference", "ftz_spacing", "rounds_like_numpy",
           "ulp_distance"]
