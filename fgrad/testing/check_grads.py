"""Numerical checks of derivatives, in the spirit of ``jax.test_util.check_grads``.

`check_grads(f, args, order)` verifies, recursively up to ``order``:

* forward mode (``"fwd"``): ``jvp(f, args, v)`` against central finite differences
  ``(f(x + eps v) - f(x - eps v)) / 2 eps`` in a random direction ``v``;
* reverse mode (``"rev"``): ``vjp`` against forward mode through the dot-product identity
  ``<vjp(u), v> == <u, jvp(v)>`` (exact up to rounding), and against the finite difference
  ``<u, fd(v)>`` (so reverse mode is checked even when ``modes=("rev",)``).

Order ``k`` checks the derivatives of the derivative functions: ``(x, v) -> jvp(f, x, v)``
and ``x -> vjp(f, x)(u)``, so ``order=2`` covers forward-over-forward, reverse-over-forward,
forward-over-reverse and reverse-over-reverse.

Finite differences are always evaluated in float64 (float32 inputs are widened for them),
while the derivatives under test run in the inputs' own dtypes; with ``check_dtypes`` the
tangents and cotangents must keep those dtypes (float32 in, float32 out).

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.testing import check_grads
    >>> check_grads(lambda x: fnp.sin(x) * x, (fnp.asarray([0.3, 1.2]),), order=2)
"""

from __future__ import annotations

import functools

from typing import Any, Callable, Sequence

import numpy as np

from ..core.array import get_aval
from ..tree_util import flatten_arrays as tree_flatten, tree_unflatten

__all__ = ["check_grads", "check_jvp", "check_vjp", "numerical_jvp", "default_tolerance"]

# (atol, rtol) for comparing a derivative with its finite-difference estimate, and the step.
_GRAD_TOL = {np.dtype(np.float64): (1e-5, 1e-5), np.dtype(np.float32): (2e-3, 2e-3),
             np.dtype(np.float16): (5e-2, 5e-2)}
_EPS = {np.dtype(np.float64): 1e-4, np.dtype(np.float32): 1e-3, np.dtype(np.float16): 1e-2}


def _dtype(x) -> np.dtype:
    return get_aval(x).dtype


def _is_float(x) -> bool:
    return _dtype(x).kind in "fc"


def _float_dtypes(leaves) -> list:
    return [_dtype(x) for x in leaves if _is_float(x)]


def _lowest_precision(leaves) -> np.dtype:
    dts = _float_dtypes(leaves)
    if not dts:
        return np.dtype(np.float64)
    return min(dts, key=lambda d: np.finfo(d).bits)


def default_tolerance(leaves) -> tuple[float, float, float]:
    """``(eps, atol, rtol)`` for the least precise floating dtype among ``leaves`` (the
    inputs and outputs: a float32 output limits the finite differences' accuracy)."""
    dt = _lowest_precision(leaves)
    dt = dt if dt in _GRAD_TOL else np.dtype(np.float64)
    atol, rtol = _GRAD_TOL[dt]
    return _EPS[dt], atol, rtol


def _np64(x) -> np.ndarray:
    return np.asarray(np.asarray(x), dtype=np.float64)


def _asarray(x):
    from .. import numpy as fnp

    return fnp.asarray(x)


def _random_like(rng, x):
    """A random direction with ``x``'s shape and dtype (zeros for non-float leaves)."""
    av = get_aval(x)
    if av.dtype.kind not in "fc":
        return _asarray(np.zeros(av.shape, av.dtype))
    return _asarray(rng.standard_normal(av.shape).astype(av.dtype))


def _flat_outputs(out) -> list:
    return tree_flatten(out)[0]


def numerical_jvp(f: Callable, primals: Sequence, tangents: Sequence, eps: float) -> list:
    """Central finite difference of ``f`` at ``primals`` along ``tangents``, in float64.

    Returns one float64 numpy array per output leaf (None for non-float outputs)."""
    flat_p, tree = tree_flatten(tuple(primals))
    flat_t, tree_t = tree_flatten(tuple(tangents))
    if tree != tree_t:
        raise TypeError(f"numerical_jvp: primal structure {tree} differs from tangent structure {tree_t}")

    def at(step: float) -> list:
        leaves = []
        for p, t in zip(flat_p, flat_t, strict=False):
            if _is_float(p):
                leaves.append(_asarray(_np64(p) + step * _np64(t)))
            else:
                leaves.append(p)
        return _flat_outputs(f(*tree_unflatten(tree, leaves)))

    plus, minus = at(eps), at(-eps)
    res = []
    for a, b in zip(plus, minus, strict=False):
        if not _is_float(a):
            res.append(None)
        else:
            res.append((_np64(a) - _np64(b)) / (2.0 * eps))
    return res


def _fail(msg: str, err_msg: str, **values) -> None:
    lines = [f"{err_msg}: {msg}" if err_msg else msg]
    for k, v in values.items():
        lines.append(f"  {k} = {v!r}")
    raise AssertionError("\n".join(lines))


def _assert_close(actual, expected, atol, rtol, what: str, err_msg: str) -> None:
    a, e = _np64(actual), _np64(expected)
    if a.shape != e.shape:
        _fail(f"{what}: shape {a.shape} differs from the reference shape {e.shape}", err_msg)
    ok = np.isclose(a, e, atol=atol, rtol=rtol, equal_nan=True)
    if not np.all(ok):
        bad = np.argwhere(~ok)[:5].tolist() if a.ndim else []
        _fail(f"{what} does not match (atol={atol}, rtol={rtol}); max abs err "
              f"{np.max(np.abs(a - e)):.3g} at index {bad}", err_msg, actual=a, expected=e)


def _check_dtype(x, want: np.dtype, what: str, err_msg: str) -> None:
    got = _dtype(x)
    if got != want:
        _fail(f"{what} has dtype {got}, expected {want} (dtypes must be preserved)", err_msg)


def _inner(xs, ys) -> tuple[float, float]:
    """``sum_i <xs_i, ys_i>`` over float leaves, and the sum of |terms| (for tolerances)."""
    total, scale = 0.0, 0.0
    for x, y in zip(xs, ys, strict=False):
        if x is None or y is None:
            continue
        p = _np64(x) * _np64(y)
        total += float(np.sum(p))
        scale += float(np.sum(np.abs(p)))
    return total, scale


def check_jvp(f: Callable, args: Sequence, *, eps=None, atol=None, rtol=None, rng=None,
              tangents=None, err_msg: str = "", check_dtypes: bool = True,
              f_jvp: Callable | None = None) -> None:
    """Compare ``jvp(f, args, v)`` with a central finite difference along random ``v``
    (``f_jvp(primals, tangents) -> (out, tangent_out)`` in place of `fgrad.jvp` when given).

    Example::

        >>> import fgrad.numpy as jnp
        >>> from fgrad.testing import check_jvp
        >>> check_jvp(jnp.sin, (jnp.array([0.5, 1.0]),))
    """
    from ..transforms.ad import jvp

    rng = np.random.default_rng(0) if rng is None else rng
    args = tuple(args)
    flat, tree = tree_flatten(args)
    if tangents is None:
        tangents = tree_unflatten(tree, [_random_like(rng, x) for x in flat])
    out, t_out = (f_jvp or functools.partial(jvp, f))(args, tuple(tangents))
    direct = _flat_outputs(f(*args))
    flat_o, flat_to = _flat_outputs(out), _flat_outputs(t_out)
    d_eps, d_atol, d_rtol = default_tolerance(flat + flat_o)
    eps, atol, rtol = eps or d_eps, d_atol if atol is None else atol, d_rtol if rtol is None else rtol
    if len(flat_o) != len(flat_to):
        _fail(f"jvp returned {len(flat_o)} primal outputs but {len(flat_to)} tangent outputs", err_msg)
    num = numerical_jvp(f, args, tuple(tangents), eps)
    for i, (o, d, t, n) in enumerate(zip(flat_o, direct, flat_to, num, strict=False)):
        if get_aval(o).shape != get_aval(t).shape:
            _fail(f"jvp output {i}: tangent shape {get_aval(t).shape} != primal shape "
                  f"{get_aval(o).shape}", err_msg)
        if _is_float(o) and _is_float(d):
            da = get_aval(d).dtype
            _assert_close(o, d, 1e-6 if da == np.float32 else 1e-12, 1e-5 if da == np.float32 else 1e-10,
                          f"jvp primal output {i} vs f(*args)", err_msg)
        if n is None:
            continue
        if check_dtypes:
            _check_dtype(t, get_aval(o).dtype, f"jvp tangent output {i}", err_msg)
        _assert_close(t, n, atol, rtol, f"jvp tangent output {i} vs finite differences", err_msg)


def check_vjp(f: Callable, args: Sequence, *, eps=None, atol=None, rtol=None, rng=None,
              err_msg: str = "", check_dtypes: bool = True, against_jvp: bool = True,
              f_vjp: Callable | None = None) -> None:
    """Check ``vjp`` via ``<vjp(u), v> == <u, fd(v)>`` (finite differences) and, with
    ``against_jvp``, the exact identity ``<vjp(u), v> == <u, jvp(v)>`` (``f_vjp(*primals) ->
    (out, vjp_fn)`` in place of `fgrad.vjp` when given).

    Example::

        >>> import fgrad.numpy as jnp
        >>> from fgrad.testing import check_vjp
        >>> check_vjp(jnp.sin, (jnp.array([0.5, 1.0]),))
    """
    from ..transforms.ad import jvp, vjp

    rng = np.random.default_rng(0) if rng is None else rng
    args = tuple(args)
    flat, tree = tree_flatten(args)
    out, pullback = (f_vjp or functools.partial(vjp, f))(*args)
    flat_o, tree_o = tree_flatten(out)
    d_eps, d_atol, d_rtol = default_tolerance(flat + flat_o)
    eps, atol, rtol = eps or d_eps, d_atol if atol is None else atol, d_rtol if rtol is None else rtol
    us = [_random_like(rng, o) for o in flat_o]
    cts = pullback(tree_unflatten(tree_o, us))
    flat_ct, tree_ct = tree_flatten(cts)
    if tree_ct != tree:
        _fail(f"vjp returned cotangents of structure {tree_ct}, expected the inputs' {tree}", err_msg)
    for i, (x, c) in enumerate(zip(flat, flat_ct, strict=False)):
        if get_aval(c).shape != get_aval(x).shape:
            _fail(f"cotangent {i} has shape {get_aval(c).shape}, input has {get_aval(x).shape}", err_msg)
        if check_dtypes and _is_float(x):
            _check_dtype(c, _dtype(x), f"vjp cotangent {i}", err_msg)
    vs = [_random_like(rng, x) for x in flat]
    float_in = [v if _is_float(x) else None for x, v in zip(flat, vs, strict=False)]
    float_out = [u if _is_float(o) else None for o, u in zip(flat_o, us, strict=False)]
    lhs, s1 = _inner(flat_ct, float_in)
    if against_jvp:
        _, t_out = jvp(f, args, tree_unflatten(tree, vs))
        rhs, s2 = _inner(float_out, _flat_outputs(t_out))
        tight = 1e-4 if _lowest_precision(flat + flat_o) == np.float32 else 1e-9
        if not abs(lhs - rhs) <= tight * (max(s1, s2) + 1e-3):
            _fail("dot-product identity <vjp(u), v> == <u, jvp(v)> fails", err_msg,
                  vjp_side=lhs, jvp_side=rhs)
    num = numerical_jvp(f, args, tree_unflatten(tree, vs), eps)
    fd, s3 = _inner(float_out, num)
    if not abs(lhs - fd) <= atol + rtol * max(s1, s3):
        _fail(f"<vjp(u), v> does not match the finite difference <u, fd(v)> (atol={atol}, rtol={rtol})",
              err_msg, vjp_side=lhs, finite_difference=fd)


def check_grads(f: Callable, args: Sequence, order: int = 2, modes: Sequence[str] = ("fwd", "rev"),
                atol: float | None = None, rtol: float | None = None, eps: float | None = None,
                *, seed: int = 0, check_dtypes: bool = True, err_msg: str = "") -> None:
    """Check derivatives of ``f`` at ``args`` up to ``order`` in forward and/or reverse mode.

    ``args`` is a tuple of positional arguments (pytrees of arrays).  The signature follows
    ``jax.test_util.check_grads``: ``atol``/``rtol`` compare derivatives with finite
    differences and ``eps`` is the finite-difference step (defaults depend on the least
    precise float dtype among the inputs and outputs).  ``seed`` picks the random directions.
    Non-float leaves are held fixed.  Raises AssertionError naming the failing check (e.g.
    "JVP of VJP").

    Example::

        >>> import fgrad.numpy as fnp
        >>> check_grads(fnp.tanh, (fnp.asarray([0.1, -0.7]),), order=2, modes=("fwd", "rev"))
    """
    for m in modes:
        if m not in ("fwd", "rev"):
            raise ValueError(f"check_grads: unknown mode {m!r} (use 'fwd' and/or 'rev')")
    rng = np.random.default_rng(seed)
    _check_rec(f, tuple(args), order, tuple(modes), eps, atol, rtol, rng, check_dtypes, err_msg)


def _check_rec(f, args, order, modes, eps, atol, rtol, rng, check_dtypes, err_msg) -> None:
    from ..transforms.ad import jvp, vjp

    kw: dict[str, Any] = dict(eps=eps, atol=atol, rtol=rtol, rng=rng, check_dtypes=check_dtypes)
    flat, tree = tree_flatten(args)
    if "fwd" in modes:
        msg = f"JVP of {err_msg}" if err_msg else "JVP"
        tangents = tree_unflatten(tree, [_random_like(rng, x) for x in flat])
        check_jvp(f, args, tangents=tangents, err_msg=msg, **kw)
        if order > 1:
            def f_jvp(primals, tans):
                return jvp(f, tuple(primals), tuple(tans))

            _check_rec(f_jvp, (args, tuple(tangents)), order - 1, modes, eps, atol, rtol, rng,
                       check_dtypes, msg)
    if "rev" in modes:
        msg = f"VJP of {err_msg}" if err_msg else "VJP"
        check_vjp(f, args, err_msg=msg, against_jvp="fwd" in modes, **kw)
        if order > 1:
            out = f(*args)
            flat_o, tree_o = tree_flatten(out)
            us = tree_unflatten(tree_o, [_random_like(rng, o) for o in flat_o])

            def f_vjp(*a):
                return vjp(f, *a)[1](us)

            _check_rec(f_vjp, args, order - 1, modes, eps, atol, rtol, rng, check_dtypes, msg)
