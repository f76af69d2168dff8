"""Structured cases for ``tools/jax_fuzz.py``: functions with parameters (``lax`` ops with
windows, modes and keys, ``jnp`` reductions with ``where=``/``dtype=``, ``jnp.linalg``,
special functions at edge points), each with its own input sampler.

A case is ``name -> (sample, fn)``: ``sample(rng, float_dtype)`` returns the host inputs
(NumPy arrays, or Python scalars passed as weak values) and ``fn(face, *inputs)`` calls
``face`` (``jax`` or ``fgrad``). The first input is the one ``grad`` differentiates, so it
is a float array wherever a derivative exists. Example::

    python tools/jax_fuzz.py --only lax.reduce_window_max,linalg.slogdet --modes all
"""

from __future__ import annotations

import numpy as np

# values where special functions and their derivatives change behaviour
EDGE_POINTS = [0.0, -0.0, 1.0, -1.0, 2.0, 0.5, -0.5, 1e-30, -1e-30, 1e30, -1e30, 40.0, -40.0,
               np.inf, -np.inf, np.nan, 3.0, -2.0, 1.0 - 1e-7, 1e-300]


def _f(rng, dtype, *shape, scale=2.0):
    return (rng.standard_normal(shape) * scale).astype(dtype)


def _edge(rng, dtype, n=4):
    return np.asarray(rng.choice(np.asarray(EDGE_POINTS), n)).astype(dtype)


def _wellposed(rng, dtype, n=3):
    """A square matrix far from singular (random plus ``n`` times the identity)."""
    return (rng.standard_normal((n, n)) + n * np.eye(n)).astype(dtype)


def _gather_numbers(face):
    lax = face.lax
    return lax.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))


def _scatter_numbers(face):
    lax = face.lax
    return lax.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,),
                                       scatter_dims_to_operand_dims=(0,))


def _sym(face, x):
    return x @ x.T + x.shape[0] * face.numpy.eye(x.shape[0], dtype=x.dtype)


def _sign_fixed(face, v):
    """Eigen/singular vectors up to sign: each column's largest entry made positive."""
    jnp = face.numpy
    pick = jnp.take_along_axis(v, jnp.argmax(jnp.abs(v), axis=0)[None], axis=0)
    return v * jnp.sign(pick)


def _lax_cases():
    c = {}
    c["lax.reduce_window_max"] = (
        lambda r, d: [_f(r, d, 4, 5)],
        lambda m, x: m.lax.reduce_window(x, -m.numpy.inf, m.lax.max, (2, 2), (1, 2), "SAME"))
    c["lax.reduce_window_add_dilated"] = (
        lambda r, d: [_f(r, d, 5, 6)],
        lambda m, x: m.lax.reduce_window(x, 0.0, m.lax.add, (2, 3), (2, 1), ((1, 0), (0, 2)),
                                         base_dilation=(1, 2), window_dilation=(2, 1)))
    c["lax.reduce_window_min_valid"] = (
        lambda r, d: [_f(r, d, 3, 7)],
        lambda m, x: m.lax.reduce_window(x, m.numpy.inf, m.lax.min, (1, 3), (1, 2), "VALID"))
    c["lax.select_n_bool"] = (
        lambda r, d: [_f(r, d, 2, 3), _f(r, d, 2, 3), r.integers(0, 2, (2, 3)).astype(bool)],
        lambda m, x, y, p: m.lax.select_n(p, x, y))
    c["lax.select_n_int3"] = (
        lambda r, d: [_f(r, d, 4), _f(r, d, 4), _f(r, d, 4), r.integers(0, 3, (4,)).astype(np.int32)],
        lambda m, x, y, z, p: m.lax.select_n(p, x, y, z))
    c["lax.select_n_scalar_pred"] = (
        lambda r, d: [_f(r, d, 3), _f(r, d, 3), np.asarray(bool(r.integers(0, 2)))],
        lambda m, x, y, p: m.lax.select_n(p, x, y))
    c["lax.clamp"] = (
        lambda r, d: [_f(r, d, 5), _f(r, d, 5) - 1, _f(r, d, 5) + 1],
        lambda m, x, lo, hi: m.lax.clamp(lo, x, hi))
    c["lax.clamp_scalar_bounds"] = (
        lambda r, d: [_f(r, d, 2, 3), np.asarray(-0.5, d), np.asarray(0.7, d)],
        lambda m, x, lo, hi: m.lax.clamp(lo, x, hi))
    c["lax.clamp_crossed_bounds"] = (  # min > max: XLA gives max
        lambda r, d: [_f(r, d, 4)],
        lambda m, x: m.lax.clamp(m.numpy.asarray(1.0, x.dtype), x, m.numpy.asarray(-1.0, x.dtype)))
    c["lax.clamp_at_bounds"] = (  # ties: the derivative at a bound
        lambda r, d: [np.asarray([-1.0, 1.0, 0.0, 2.0], d)],
        lambda m, x: m.lax.clamp(m.numpy.asarray(-1.0, x.dtype), x, m.numpy.asarray(1.0, x.dtype)))
    c["lax.rem_float"] = (
        lambda r, d: [_f(r, d, 6), _f(r, d, 6)],
        lambda m, x, y: m.lax.rem(x, y))
    c["lax.rem_int"] = (
        lambda r, d: [r.integers(-9, 10, (6,)).astype(np.int32), r.integers(1, 5, (6,)).astype(np.int32)
                      * r.choice([-1, 1], 6).astype(np.int32)],
        lambda m, x, y: m.lax.rem(x, y))
    for op in ("cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp"):
        for reverse in (False, True):
            c[f"lax.{op}{'_reverse' if reverse else ''}"] = (
                lambda r, d: [_f(r, d, 3, 4, scale=1.0)],
                lambda m, x, op=op, reverse=reverse: getattr(m.lax, op)(x, axis=1, reverse=reverse))
    c["lax.cummax_ties"] = (  # equal values: which one the derivative goes to
        lambda r, d: [np.asarray([1.0, 3.0, 3.0, 2.0, 3.0], d)],
        lambda m, x: m.lax.cummax(x, reverse=False))
    c["lax.cumsum_int_reverse"] = (
        lambda r, d: [r.integers(-5, 6, (2, 4)).astype(np.int32)],
        lambda m, x: m.lax.cumsum(x, axis=0, reverse=True))
    c["lax.sort_two_operands"] = (
        lambda r, d: [_f(r, d, 6), r.integers(-3, 3, (6,)).astype(np.float32).astype(d)],
        lambda m, x, k: m.lax.sort((k, x), num_keys=1))
    c["lax.sort_two_keys"] = (
        lambda r, d: [_f(r, d, 2, 6), r.integers(0, 2, (2, 6)).astype(np.int32),
                      r.integers(0, 3, (2, 6)).astype(np.int32)],
        lambda m, x, k1, k2: m.lax.sort((k1, k2, x), dimension=1, num_keys=2))
    c["lax.sort_ties_nan"] = (
        lambda r, d: [np.asarray([2.0, np.nan, -0.0, 0.0, 2.0, -np.inf], d), _f(r, d, 6)],
        lambda m, k, x: m.lax.sort((k, x), num_keys=1))
    c["lax.argsort_stable"] = (
        lambda r, d: [r.integers(0, 3, (7,)).astype(d)],
        lambda m, x: m.numpy.argsort(x, stable=True))
    c["lax.top_k"] = (
        lambda r, d: [_f(r, d, 2, 5)],
        lambda m, x: m.lax.top_k(x, 3))
    c["lax.dynamic_slice_oob"] = (
        lambda r, d: [_f(r, d, 5, 4), np.int32(r.integers(-7, 9)), np.int32(r.integers(-3, 6))],
        lambda m, x, i, j: m.lax.dynamic_slice(x, (i, j), (3, 2)))
    c["lax.dynamic_update_slice_oob"] = (
        lambda r, d: [_f(r, d, 5, 4), _f(r, d, 2, 3), np.int32(r.integers(-6, 8)),
                      np.int32(r.integers(-3, 6))],
        lambda m, x, u, i, j: m.lax.dynamic_update_slice(x, u, (i, j)))
    c["lax.dynamic_index_in_dim_neg"] = (
        lambda r, d: [_f(r, d, 5, 2), np.int32(r.integers(-8, 8))],
        lambda m, x, i: m.lax.dynamic_index_in_dim(x, i, axis=0, keepdims=False))
    for mode in ("clip", "fill", "promise_in_bounds"):
        c[f"lax.gather_{mode}"] = (
            lambda r, d, mode=mode: [_f(r, d, 5, 3), r.integers(-3 if mode != "promise_in_bounds" else 0,
                                                                7 if mode != "promise_in_bounds" else 4,
                                                                (4, 1)).astype(np.int32)],
            lambda m, x, idx, mode=mode: m.lax.gather(x, idx, _gather_numbers(m), (1, 3), mode=mode))
    for mode in ("clip", "fill"):
        for combine in ("scatter_add", "scatter_mul", "scatter_max", "scatter_min", "scatter"):
            unique = combine == "scatter"
            c[f"lax.{combine}_{mode}"] = (
                lambda r, d, unique=unique: [
                    _f(r, d, 5, 3), _f(r, d, 4, 3),
                    (r.permutation(np.arange(-2, 7))[:4] if unique else r.integers(-2, 7, 4))
                    .astype(np.int32)[:, None]],
                lambda m, x, u, idx, combine=combine, mode=mode: getattr(m.lax, combine)(
                    x, idx, u, _scatter_numbers(m), mode=mode))
    for method in ("get", "set", "add", "multiply", "min", "max"):
        for mode in ("clip", "drop", "fill"):
            if method != "get" and mode == "fill" or method == "get" and mode == "drop":
                continue
            c[f"at.{method}_{mode}"] = (
                lambda r, d, method=method: [
                    _f(r, d, 6), _f(r, d, 4),
                    (r.permutation(np.arange(-8, 9))[:4] if method == "set" else r.integers(-8, 9, 4))
                    .astype(np.int32)],
                lambda m, x, u, idx, method=method, mode=mode: (
                    x.at[idx].get(mode=mode, fill_value=-7.0) if method == "get"
                    else getattr(x.at[idx], method)(u, mode=mode)))
    c["numpy.take_wrap"] = (
        lambda r, d: [_f(r, d, 3, 4), r.integers(-9, 9, (5,)).astype(np.int32)],
        lambda m, x, idx: m.numpy.take(x, idx, axis=1, mode="wrap"))
    c["numpy.take_along_axis_fill"] = (
        lambda r, d: [_f(r, d, 3, 4), r.integers(-6, 6, (3, 2)).astype(np.int32)],
        lambda m, x, idx: m.numpy.take_along_axis(x, idx, axis=1, mode="fill", fill_value=np.nan))
    return c


def _numpy_cases():
    c = {}

    def mask(r, *shape):
        return r.integers(0, 2, shape).astype(bool)
    for fn in ("sum", "prod", "mean", "var", "std", "nansum", "nanmean", "any", "all"):
        c[f"numpy.{fn}_where"] = (
            lambda r, d: [_f(r, d, 3, 4), mask(r, 3, 4)],
            lambda m, x, w, fn=fn: getattr(m.numpy, fn)(x, axis=1, where=w))
    for fn in ("max", "min"):
        c[f"numpy.{fn}_where_initial"] = (
            lambda r, d: [_f(r, d, 3, 4), mask(r, 3, 4)],
            lambda m, x, w, fn=fn: getattr(m.numpy, fn)(x, axis=0, where=w, initial=0.5))
    c["numpy.std_ddof_where"] = (
        lambda r, d: [_f(r, d, 2, 5), mask(r, 2, 5)],
        lambda m, x, w: m.numpy.std(x, axis=-1, ddof=1, where=w, keepdims=True))
    c["numpy.mean_where_all_false"] = (
        lambda r, d: [_f(r, d, 2, 3)],
        lambda m, x: m.numpy.mean(x, axis=1, where=m.numpy.zeros((2, 3), bool)))
    for fn, dt in (("sum", "int32"), ("sum", "float32"), ("mean", "float32"), ("prod", "float32"),
                   ("cumsum", "float32"), ("cumsum", "int32"), ("cumprod", "float32"), ("mean", "int32"),
                   ("var", "float32"), ("sum", "complex64"), ("nancumsum", "float32"), ("trace", "float32")):
        c[f"numpy.{fn}_dtype_{dt}"] = (
            lambda r, d: [_f(r, d, 3, 4)],
            lambda m, x, fn=fn, dt=dt: getattr(m.numpy, fn)(x, dtype=dt))
        c[f"numpy.{fn}_int_dtype_{dt}"] = (
            lambda r, d: [r.integers(-5, 6, (3, 4)).astype(np.int32)],
            lambda m, x, fn=fn, dt=dt: getattr(m.numpy, fn)(x, dtype=dt))
    c["numpy.sum_bool_promote"] = (
        lambda r, d: [mask(r, 3, 4)],
        lambda m, x: m.numpy.sum(x, axis=0))
    c["numpy.average_weights"] = (
        lambda r, d: [_f(r, d, 3, 4), np.abs(_f(r, d, 4)) + 0.1],
        lambda m, x, w: m.numpy.average(x, axis=1, weights=w, returned=True))
    c["nn.softmax_where"] = (
        lambda r, d: [_f(r, d, 3, 4), mask(r, 3, 4) | np.eye(3, 4, dtype=bool)],
        lambda m, x, w: m.nn.softmax(x, axis=1, where=w))
    c["nn.logsumexp_where"] = (
        lambda r, d: [_f(r, d, 3, 4), mask(r, 3, 4)],
        lambda m, x, w: m.scipy.special.logsumexp(x, axis=1, where=w))
    c["special.logsumexp_b_sign"] = (
        lambda r, d: [_f(r, d, 2, 4), _f(r, d, 2, 4)],
        lambda m, x, b: m.scipy.special.logsumexp(x, axis=1, b=b, return_sign=True))
    c["numpy.linalg_norm_where_like"] = (
        lambda r, d: [_f(r, d, 3, 4)],
        lambda m, x: m.numpy.linalg.norm(m.numpy.where(x > 0, x, 0.0), axis=1))
    return c


def _linalg_cases():
    c = {}
    la = "numpy.linalg"
    sq = _wellposed
    c["linalg.det"] = (lambda r, d: [sq(r, d)], lambda m, x: m.numpy.linalg.det(x))
    c["linalg.slogdet"] = (lambda r, d: [_f(r, d, 3, 3)], lambda m, x: tuple(m.numpy.linalg.slogdet(x)))
    c["linalg.inv"] = (lambda r, d: [sq(r, d)], lambda m, x: m.numpy.linalg.inv(x))
    c["linalg.solve"] = (lambda r, d: [sq(r, d), _f(r, d, 3, 2)], lambda m, a, b: m.numpy.linalg.solve(a, b))
    c["linalg.solve_vector"] = (lambda r, d: [_f(r, d, 3), sq(r, d)],
                                lambda m, b, a: m.numpy.linalg.solve(a, b))
    c["linalg.cholesky"] = (lambda r, d: [_f(r, d, 3, 3)], lambda m, x: m.numpy.linalg.cholesky(_sym(m, x)))
    c["linalg.cholesky_upper"] = (lambda r, d: [_f(r, d, 3, 3)],
                                  lambda m, x: m.numpy.linalg.cholesky(_sym(m, x), upper=True))
    c["linalg.eigvalsh"] = (lambda r, d: [_f(r, d, 3, 3)], lambda m, x: m.numpy.linalg.eigvalsh(x + x.T))
    c["linalg.eigh_vectors"] = (lambda r, d: [_f(r, d, 3, 3)],
                                lambda m, x: _sign_fixed(m, m.numpy.linalg.eigh(x + x.T)[1]))
    c["linalg.eigh_lower_false"] = (lambda r, d: [_f(r, d, 3, 3)],
                                    lambda m, x: m.numpy.linalg.eigh(x, UPLO="U")[0])
    c["linalg.svd_values"] = (lambda r, d: [_f(r, d, 3, 2)],
                              lambda m, x: m.numpy.linalg.svd(x, compute_uv=False))
    c["linalg.svd_vectors"] = (lambda r, d: [_f(r, d, 3, 2)],
                               lambda m, x: _sign_fixed(m, m.numpy.linalg.svd(x, full_matrices=False)[0]))
    c["linalg.qr_r"] = (lambda r, d: [_f(r, d, 4, 3)],
                        lambda m, x: m.numpy.abs(m.numpy.linalg.qr(x)[1]))
    c["linalg.qr_q"] = (lambda r, d: [_f(r, d, 3, 3)],
                        lambda m, x: _sign_fixed(m, m.numpy.linalg.qr(x)[0]))
    c["linalg.pinv"] = (lambda r, d: [_f(r, d, 3, 2)], lambda m, x: m.numpy.linalg.pinv(x))
    c["linalg.matrix_power3"] = (lambda r, d: [_f(r, d, 3, 3, scale=0.7)],
                                 lambda m, x: m.numpy.linalg.matrix_power(x, 3))
    c["linalg.matrix_power_neg2"] = (lambda r, d: [sq(r, d)], lambda m, x: m.numpy.linalg.matrix_power(x, -2))
    for ordr in (None, 1, 2, -1, -2, np.inf, -np.inf, "fro", "nuc"):
        c[f"linalg.norm_matrix_{ordr}"] = (lambda r, d: [_f(r, d, 3, 3)],
                                           lambda m, x, o=ordr: m.numpy.linalg.norm(x, ord=o))
    for ordr in (None, 0, 1, 3, 0.5, np.inf, -np.inf, -1):
        c[f"linalg.norm_vector_{ordr}"] = (lambda r, d: [_f(r, d, 4)],
                                           lambda m, x, o=ordr: m.numpy.linalg.norm(x, ord=o))
    c["linalg.norm_vector_at_zero"] = (lambda r, d: [np.zeros(3, d)], lambda m, x: m.numpy.linalg.norm(x))
    c["linalg.lstsq"] = (lambda r, d: [_f(r, d, 4, 2), _f(r, d, 4)],
                         lambda m, a, b: m.numpy.linalg.lstsq(a, b)[0])
    c["linalg.matrix_rank"] = (lambda r, d: [_f(r, d, 3, 3)], lambda m, x: m.numpy.linalg.matrix_rank(x))
    c["linalg.cond"] = (lambda r, d: [sq(r, d)], lambda m, x: m.numpy.linalg.cond(x))
    c["linalg.tensorsolve"] = (lambda r, d: [sq(r, d, 4).reshape(2, 2, 4), _f(r, d, 2, 2)],
                               lambda m, a, b: m.numpy.linalg.tensorsolve(a, b))
    c["linalg.multi_dot"] = (lambda r, d: [_f(r, d, 2, 3), _f(r, d, 3, 4), _f(r, d, 4, 2)],
                             lambda m, a, b, cc: m.numpy.linalg.multi_dot([a, b, cc]))
    c["linalg.eigvals_sym"] = (lambda r, d: [_f(r, d, 3, 3)],
                               lambda m, x: m.numpy.sort(m.numpy.real(m.numpy.linalg.eigvals(x + x.T))))
    c["scipy.linalg.expm"] = (lambda r, d: [_f(r, d, 3, 3, scale=0.5)], lambda m, x: m.scipy.linalg.expm(x))
    c["scipy.linalg.solve_triangular"] = (
        lambda r, d: [_f(r, d, 3, 2), sq(r, d)],
        lambda m, b, a: m.scipy.linalg.solve_triangular(a, b, lower=True))
    c["scipy.linalg.lu_factor_solve"] = (
        lambda r, d: [sq(r, d), _f(r, d, 3)],
        lambda m, a, b: m.scipy.linalg.lu_solve(m.scipy.linalg.lu_factor(a), b))
    del la
    return c


SPECIAL_UNARY_EDGE = ["gammaln", "digamma", "erf", "erfc", "erfinv", "expit", "logit", "ndtr", "ndtri",
                      "log_ndtr", "i0e", "i1e", "i0", "i1", "entr", "xlogy_self", "spence", "gamma", "rgamma",
                      "erfcx", "expm1_", "log1p_", "sinc_", "softplus_", "log_sigmoid_", "sqrt_", "cbrt_",
                      "arcsin_", "arctanh_", "arccosh_", "logaddexp_self"]
SPECIAL_BINARY_EDGE = ["xlogy", "xlog1py", "betaln", "gammainc", "gammaincc", "rel_entr", "kl_div", "zeta"]


def _special_fn(m, name):
    sp = m.scipy.special
    jnp = m.numpy
    extra = {"xlogy_self": lambda x: sp.xlogy(x, x), "expm1_": jnp.expm1, "log1p_": jnp.log1p,
             "sinc_": jnp.sinc, "softplus_": m.nn.softplus, "log_sigmoid_": m.nn.log_sigmoid,
             "sqrt_": jnp.sqrt, "cbrt_": jnp.cbrt, "arcsin_": jnp.arcsin, "arctanh_": jnp.arctanh,
             "arccosh_": jnp.arccosh, "logaddexp_self": lambda x: jnp.logaddexp(x, x)}
    return extra.get(name) or getattr(sp, name)


def _special_cases():
    c = {}
    for name in SPECIAL_UNARY_EDGE:
        c[f"edge.{name}"] = (lambda r, d: [_edge(r, d)],
                             lambda m, x, name=name: _special_fn(m, name)(x))
    for name in SPECIAL_BINARY_EDGE:
        c[f"edge.{name}"] = (lambda r, d: [_edge(r, d), _edge(r, d)],
                             lambda m, x, y, name=name: _special_fn(m, name)(x, y))
    return c


def _loop_body(m, c, x):
    return m.numpy.sin(c) * x + c * 0.5


def _round22_cases():
    """fft, cumulative ops, sorting, segment sums, interpolation, polynomials, windows,
    control flow under transformations, and reparameterized random draws (round 22)."""
    c = {}
    for fn in ("fft", "ifft", "rfft", "hfft"):
        c[f"fft.{fn}"] = (lambda r, d: [_f(r, d, 2, 6)],
                          lambda m, x, fn=fn: m.numpy.real(getattr(m.numpy.fft, fn)(x, axis=-1)))
    c["fft.irfft_n"] = (lambda r, d: [_f(r, d, 5)], lambda m, x: m.numpy.fft.irfft(x, n=7))
    c["fft.fft2_norm_ortho"] = (lambda r, d: [_f(r, d, 3, 4)],
                                lambda m, x: m.numpy.abs(m.numpy.fft.fft2(x, norm="ortho")))
    c["fft.fftshift"] = (lambda r, d: [_f(r, d, 5)], lambda m, x: m.numpy.fft.fftshift(x * x))
    for fn in ("cumsum", "cumprod", "cummax", "cummin", "cumlogsumexp"):
        c[f"lax.{fn}_reverse"] = (lambda r, d: [_f(r, d, 3, 5)],
                                  lambda m, x, fn=fn: getattr(m.lax, fn)(x, axis=1, reverse=True))
    c["numpy.nancumprod"] = (lambda r, d: [np.where(_f(r, d, 6) > 1.5, np.nan, _f(r, d, 6)).astype(d)],
                             lambda m, x: m.numpy.nancumprod(x))
    c["numpy.diff_prepend"] = (lambda r, d: [_f(r, d, 2, 5)],
                               lambda m, x: m.numpy.diff(x, n=2, axis=1, prepend=1.0))
    c["numpy.sort_descending"] = (lambda r, d: [_f(r, d, 3, 4)],
                                  lambda m, x: m.numpy.sort(x, axis=0, descending=True))
    c["numpy.partition"] = (lambda r, d: [_f(r, d, 7)], lambda m, x: m.numpy.partition(x, 3)[3:])
    c["numpy.argsort_take"] = (lambda r, d: [_f(r, d, 6)],
                               lambda m, x: m.numpy.take(x, m.numpy.argsort(x, stable=True)) * x)
    c["numpy.searchsorted"] = (lambda r, d: [np.sort(_f(r, d, 6)), _f(r, d, 4)],
                               lambda m, a, v: m.numpy.searchsorted(a, v, side="right"))
    c["numpy.quantile_linear"] = (lambda r, d: [_f(r, d, 7)],
                                  lambda m, x: m.numpy.quantile(x, m.numpy.asarray([0.1, 0.5, 0.9])))
    c["numpy.median_axis"] = (lambda r, d: [_f(r, d, 3, 4)], lambda m, x: m.numpy.median(x, axis=1))
    for seg in ("segment_sum", "segment_max", "segment_min", "segment_prod"):
        c[f"ops.{seg}"] = (lambda r, d: [_f(r, d, 6), r.integers(0, 4, 6).astype(np.int32)],
                           lambda m, x, ids, seg=seg: getattr(m.ops, seg)(x, ids, num_segments=4))
    c["numpy.interp"] = (lambda r, d: [_f(r, d, 5), np.sort(_f(r, d, 6)), _f(r, d, 6)],
                         lambda m, x, xp, fp: m.numpy.interp(x, xp, fp, left=-9.0))
    c["numpy.interp_fp_grad"] = (lambda r, d: [_f(r, d, 6), np.sort(_f(r, d, 6)), _f(r, d, 5)],
                                 lambda m, fp, xp, x: m.numpy.interp(x, xp, fp))
    c["numpy.polyval"] = (lambda r, d: [_f(r, d, 4), _f(r, d, 3)],
                          lambda m, p, x: m.numpy.polyval(p, x))
    c["numpy.polymul_polyder"] = (lambda r, d: [_f(r, d, 3), _f(r, d, 4)],
                                  lambda m, p, q: m.numpy.polyder(m.numpy.polymul(p, q), 2))
    c["numpy.polyint"] = (lambda r, d: [_f(r, d, 4)], lambda m, p: m.numpy.polyint(p, k=1.5))
    c["numpy.roots_real"] = (lambda r, d: [np.asarray([1.0, -6.0, 11.0, -6.0], d) + _f(r, d, 4, scale=0.01)],
                             lambda m, p: m.numpy.sort(m.numpy.real(m.numpy.roots(p, strip_zeros=False))))
    for win in ("hanning", "hamming", "blackman", "bartlett"):
        c[f"numpy.{win}"] = (lambda r, d: [_f(r, d, 7)],
                             lambda m, x, win=win: x * getattr(m.numpy, win)(7))
    c["numpy.kaiser"] = (lambda r, d: [_f(r, d, 6)], lambda m, x: x * m.numpy.kaiser(6, 3.5))
    c["lax.scan_carry"] = (lambda r, d: [_f(r, d, 5), _f(r, d, 2)],
                           lambda m, xs, c0: m.lax.scan(lambda c, x: (_loop_body(m, c, x),) * 2, c0[0], xs))
    c["lax.scan_reverse_unroll"] = (
        lambda r, d: [_f(r, d, 6, 2)],
        lambda m, xs: m.lax.scan(lambda c, x: (c * m.numpy.cos(x) + x, c), m.numpy.zeros(2, xs.dtype), xs,
                                 reverse=True, unroll=2))
    c["lax.cond_branch"] = (lambda r, d: [_f(r, d, 3)],
                            lambda m, x: m.lax.cond(m.numpy.sum(x) > 0, m.numpy.sin, lambda v: v ** 3, x))
    c["lax.switch"] = (lambda r, d: [_f(r, d, 3), np.int32(r.integers(-1, 4))],
                       lambda m, x, i: m.lax.switch(i, [m.numpy.exp, m.numpy.tanh, lambda v: -v], x))
    c["lax.fori_loop"] = (lambda r, d: [_f(r, d, 3)],
                          lambda m, x: m.lax.fori_loop(0, 4, lambda i, c: _loop_body(m, c, x + i), x))
    c["lax.while_loop_value"] = (
        lambda r, d: [_f(r, d, 3)],
        lambda m, x: m.lax.while_loop(lambda c: c[0] < 5, lambda c: (c[0] + 1, c[1] * 0.9 + 0.1), (0, x))[1])
    c["lax.associative_scan"] = (lambda r, d: [_f(r, d, 7)],
                                 lambda m, x: m.lax.associative_scan(m.numpy.logaddexp, x))
    c["lax.map"] = (lambda r, d: [_f(r, d, 4, 2)],
                    lambda m, x: m.lax.map(lambda v: m.numpy.prod(v) + m.numpy.sin(v[0]), x))
    c["random.normal_reparam"] = (
        lambda r, d: [np.abs(_f(r, d, 3)) + 0.1, _f(r, d, 3)],
        lambda m, scale, loc: loc + scale * m.random.normal(m.random.key(3), (3,), scale.dtype))
    for dist in ("gamma", "beta_a", "dirichlet"):
        c[f"random.{dist}_grad"] = (
            lambda r, d: [np.abs(_f(r, d, 3)) + 0.3],
            lambda m, a, dist=dist: (
                m.random.gamma(m.random.key(5), a, dtype=a.dtype) if dist == "gamma" else
                m.random.beta(m.random.key(5), a, 2.0, dtype=a.dtype) if dist == "beta_a" else
                m.random.dirichlet(m.random.key(5), a, dtype=a.dtype)))
    c["random.uniform_minval"] = (
        lambda r, d: [_f(r, d, 3), np.abs(_f(r, d, 3)) + 1.0],
        lambda m, lo, w: m.random.uniform(m.random.key(1), (3,), lo.dtype, minval=lo, maxval=lo + w))
    return c


def _spd(face, x):
    """A symmetric positive definite matrix from ``x`` (``x x^T + n I``)."""
    return x @ x.T + x.shape[0] * face.numpy.eye(x.shape[0], dtype=x.dtype)


def _round23_cases():
    """lax.linalg, jax.scipy.linalg decompositions, jax.scipy.signal, jax.scipy.stats (weak
    types of Python parameters, dirichlet's first-axis categories), nn.initializers and set
    operations (round 23)."""
    c = {}
    c["lax.linalg.cholesky"] = (lambda r, d: [_f(r, d, 3, 3)], lambda m, x: m.lax.linalg.cholesky(_spd(m, x)))
    c["lax.linalg.triangular_solve"] = (
        lambda r, d: [_f(r, d, 2, 3), _wellposed(r, d)],
        lambda m, b, a: m.lax.linalg.triangular_solve(a, b, left_side=False, lower=True))
    c["lax.linalg.eigh_values"] = (lambda r, d: [_f(r, d, 3, 3)],
                                   lambda m, x: m.lax.linalg.eigh(_sym(m, x))[1])
    c["lax.linalg.qr_r_abs"] = (lambda r, d: [_wellposed(r, d)],
                                lambda m, x: m.numpy.abs(m.lax.linalg.qr(x)[1]))
    c["scipy.linalg.sqrtm_spd"] = (lambda r, d: [_f(r, d, 3, 3, scale=0.5)],
                                   lambda m, x: m.numpy.real(m.scipy.linalg.sqrtm(_spd(m, x))))
    c["scipy.linalg.polar_p"] = (lambda r, d: [_wellposed(r, d)], lambda m, x: m.scipy.linalg.polar(x)[1])
    c["scipy.linalg.cho_solve"] = (
        lambda r, d: [_f(r, d, 3), _f(r, d, 3, 3)],
        lambda m, b, x: m.scipy.linalg.cho_solve(m.scipy.linalg.cho_factor(_spd(m, x)), b))
    c["scipy.linalg.eigh_tridiagonal"] = (
        lambda r, d: [_f(r, d, 4), _f(r, d, 3)],
        lambda m, dg, e: m.scipy.linalg.eigh_tridiagonal(dg, e, eigvals_only=True))
    c["scipy.linalg.expm_frechet"] = (
        lambda r, d: [_f(r, d, 3, 3, scale=0.5), _f(r, d, 3, 3, scale=0.5)],
        lambda m, a, e: m.scipy.linalg.expm_frechet(a, e, compute_expm=False))
    c["scipy.linalg.schur_diag"] = (
        lambda r, d: [_f(r, d, 3, 3)],
        lambda m, x: m.numpy.sort(m.numpy.diag(m.scipy.linalg.schur(_sym(m, x))[0])))
    for mode in ("full", "same", "valid"):
        c[f"scipy.signal.convolve_{mode}"] = (
            lambda r, d: [_f(r, d, 6), _f(r, d, 3)],
            lambda m, x, k, mode=mode: m.scipy.signal.convolve(x, k, mode=mode))
        c[f"scipy.signal.correlate2d_{mode}"] = (
            lambda r, d: [_f(r, d, 4, 5), _f(r, d, 2, 3)],
            lambda m, x, k, mode=mode: m.scipy.signal.correlate2d(x, k, mode=mode))
    for dist, call in (("poisson.logpmf", lambda st, x: st.poisson.logpmf(3, x)),
                       ("norm.logpdf", lambda st, x: st.norm.logpdf(x, 0.5, 2.0)),
                       ("gamma.cdf", lambda st, x: st.gamma.cdf(x, 1.5)),
                       ("t.logpdf", lambda st, x: st.t.logpdf(x, 3.0)),
                       ("uniform.cdf", lambda st, x: st.uniform.cdf(x, -1.0, 2.0))):
        c[f"scipy.stats.{dist}_weak"] = (lambda r, d: [float(abs(r.standard_normal())) + 0.1],
                                         lambda m, x, call=call: call(m.scipy.stats, x))
    c["scipy.stats.dirichlet_batch"] = (
        lambda r, d: [np.asarray(r.dirichlet(np.ones(3), 4).T, d), np.abs(_f(r, d, 3)) + 0.5],
        lambda m, x, a: m.scipy.stats.dirichlet.logpdf(x, a))
    for init in ("glorot_normal", "he_uniform", "lecun_normal", "orthogonal"):
        c[f"nn.initializers.{init}"] = (
            lambda r, d: [_f(r, d, 3, 4)],
            lambda m, x, init=init: x * getattr(m.nn.initializers, init)()(m.random.key(7), (3, 4), x.dtype))
    for op in ("union1d", "intersect1d", "setdiff1d", "setxor1d"):
        c[f"numpy.{op}"] = (lambda r, d: [np.round(_f(r, d, 6)), np.round(_f(r, d, 5))],
                            lambda m, a, b, op=op: getattr(m.numpy, op)(a, b))
    c["numpy.isin"] = (lambda r, d: [np.round(_f(r, d, 6)), np.round(_f(r, d, 4))],
                       lambda m, a, b: m.numpy.where(m.numpy.isin(a, b), a, 0.0))
    return c


CASES = {**_lax_cases(), **_numpy_cases(), **_linalg_cases(), **_special_cases(), **_round22_cases(),
         **_round23_cases()}


ACTIVATIONS = ["relu", "relu6", "sigmoid", "softplus", "soft_sign", "silu", "log_sigmoid", "elu",
               "leaky_relu", "hard_tanh", "celu", "selu", "gelu", "glu", "hard_sigmoid", "hard_silu",
               "sparse_plus", "squareplus", "mish", "tanh"]


def _round24_cases():
    """jax.nn activations at edge points, attention with masks, one_hot, more special
    functions, rounding ties, integer division and shifts by edge operands, searchsorted
    methods, histograms, take/pad modes and singular linear algebra (round 24)."""
    c = {}
    for act in ACTIVATIONS:
        c[f"nn.{act}_edge"] = (lambda r, d: [_edge(r, d, 6)],
                               lambda m, x, act=act: getattr(m.nn, act)(x))
    c["nn.dot_product_attention_mask_bias"] = (
        lambda r, d: [_f(r, d, 1, 3, 2, 4), _f(r, d, 1, 4, 2, 4), _f(r, d, 1, 4, 2, 4), _f(r, d, 1, 2, 3, 4),
                      r.integers(0, 2, (1, 2, 3, 4)).astype(bool) | np.eye(3, 4, dtype=bool)],
        lambda m, q, k, v, bias, mask: m.nn.dot_product_attention(q, k, v, bias=bias, mask=mask))
    c["nn.dot_product_attention_causal"] = (
        lambda r, d: [_f(r, d, 2, 4, 1, 3), _f(r, d, 2, 4, 1, 3), _f(r, d, 2, 4, 1, 3)],
        lambda m, q, k, v: m.nn.dot_product_attention(q, k, v, is_causal=True, scale=0.7))
    c["nn.one_hot_edge"] = (lambda r, d: [r.integers(-2, 5, (5,)).astype(np.int32)],
                            lambda m, i: m.nn.one_hot(i, 3))
    c["nn.one_hot_float_axis0"] = (lambda r, d: [np.asarray([0.0, 1.7, -1.0, 2.0, np.nan], d)],
                                   lambda m, i: m.nn.one_hot(i, 3, axis=0))
    for name in ("poch_", "bernoulli_", "gammasgn", "hyp1f1_"):
        c[f"edge.{name}"] = (lambda r, d: [_edge(r, d)],
                             lambda m, x, name=name: (
                                 m.scipy.special.poch(x, 2.5) if name == "poch_" else
                                 m.scipy.special.hyp1f1(1.5, 2.0, x) if name == "hyp1f1_" else
                                 x * m.scipy.special.bernoulli(6)[3] if name == "bernoulli_" else
                                 m.scipy.special.gammasgn(x)))
    c["special.logsumexp_b_zero"] = (
        lambda r, d: [_f(r, d, 2, 3), np.asarray([[0.0, 1.0, -1.0], [0.0, 0.0, 0.0]], d)],
        lambda m, x, b: m.scipy.special.logsumexp(x, axis=1, b=b, return_sign=True))
    for fn in ("round", "around", "fix", "rint"):
        c[f"numpy.{fn}_ties"] = (lambda r, d: [np.asarray([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.25, -0.0], d)],
                                 lambda m, x, fn=fn: getattr(m.numpy, fn)(x * 1.0))
    c["numpy.round_decimals_ties"] = (lambda r, d: [np.asarray([0.125, 0.375, -2.675, 1.005, 12345.5], d)],
                                      lambda m, x: m.numpy.round(x, 2))
    for fn in ("floor_divide", "remainder", "fmod", "divmod"):
        c[f"numpy.{fn}_int_edge"] = (
            lambda r, d: [r.integers(-7, 8, (8,)).astype(np.int32),
                          r.choice([-3, -1, 0, 1, 2], 8).astype(np.int32)],
            lambda m, x, y, fn=fn: getattr(m.numpy, fn)(x, y))
    c["numpy.floor_divide_float_edge"] = (lambda r, d: [_edge(r, d, 6), _edge(r, d, 6)],
                                          lambda m, x, y: m.numpy.floor_divide(x, y))
    for fn in ("left_shift", "right_shift"):
        c[f"numpy.{fn}_edge"] = (lambda r, d: [r.integers(-9, 9, (6,)).astype(np.int8),
                                               np.asarray([0, 1, 7, 8, 9, -1], np.int8)],
                                 lambda m, x, s, fn=fn: getattr(m.numpy, fn)(x, s))
    c["numpy.bitwise_uint_python"] = (lambda r, d: [r.integers(0, 255, (4,)).astype(np.uint8)],
                                      lambda m, x: (m.numpy.bitwise_and(x, 255), m.numpy.bitwise_xor(x, 3),
                                                    m.numpy.invert(x)))
    c["numpy.uint_python_promotion"] = (lambda r, d: [r.integers(0, 9, (3,)).astype(np.uint16)],
                                        lambda m, x: (x + 3, x * 2.5, x - 1))
    for method in ("scan", "scan_unrolled", "sort", "compare_all"):
        c[f"numpy.searchsorted_{method}"] = (
            lambda r, d: [np.sort(np.round(_f(r, d, 7))), np.asarray([np.nan, -np.inf, 0.0, 1.0], d)],
            lambda m, a, v, method=method: m.numpy.searchsorted(a, v, side="left", method=method))
    c["numpy.histogram"] = (lambda r, d: [_f(r, d, 9)],
                            lambda m, x: m.numpy.histogram(x, bins=4, range=(-2.0, 2.0))[0])
    c["numpy.bincount_length"] = (lambda r, d: [r.integers(0, 5, (7,)).astype(np.int32), _f(r, d, 7)],
                                  lambda m, i, w: m.numpy.bincount(i, weights=w, length=4))
    c["numpy.digitize_right"] = (lambda r, d: [_f(r, d, 6), np.asarray([-1.0, 0.0, 1.0], d)],
                                 lambda m, x, b: m.numpy.digitize(x, b, right=True))
    for mode in ("clip", "fill", "wrap"):
        c[f"numpy.take_{mode}_grad"] = (lambda r, d: [_f(r, d, 5), r.integers(-7, 8, (6,)).astype(np.int32)],
                                        lambda m, x, i, mode=mode: m.numpy.take(x, i, mode=mode) * 2.0)
    for mode in ("reflect", "symmetric", "edge", "wrap", "linear_ramp", "maximum", "minimum", "mean"):
        c[f"numpy.pad_{mode}"] = (lambda r, d: [_f(r, d, 3, 4)],
                                  lambda m, x, mode=mode: m.numpy.pad(x, ((1, 2), (3, 1)), mode=mode))
    c["linalg.det_singular"] = (lambda r, d: [np.asarray([[1.0, 2.0], [2.0, 4.0]], d) + 0 * _f(r, d, 2, 2)],
                                lambda m, x: m.numpy.linalg.det(x))
    c["linalg.slogdet_singular"] = (lambda r, d: [np.asarray([[1.0, 2.0], [2.0, 4.0]], d)],
                                    lambda m, x: tuple(m.numpy.linalg.slogdet(x)))
    c["linalg.matrix_rank_deficient"] = (lambda r, d: [np.outer(_f(r, d, 3), _f(r, d, 4)).astype(d)],
                                         lambda m, x: m.numpy.linalg.matrix_rank(x))
    c["linalg.pinv_deficient"] = (lambda r, d: [np.outer(_f(r, d, 3), _f(r, d, 2)).astype(d)],
                                  lambda m, x: m.numpy.linalg.pinv(x))
    c["linalg.tensorinv"] = (lambda r, d: [_wellposed(r, d, 4).reshape(4, 2, 2)],
                             lambda m, x: m.numpy.linalg.tensorinv(x, ind=1))
    c["linalg.matrix_power_neg1"] = (lambda r, d: [_wellposed(r, d)],
                                     lambda m, x: m.numpy.linalg.matrix_power(x, -1))
    c["linalg.cond_ord"] = (lambda r, d: [_wellposed(r, d)], lambda m, x: m.numpy.linalg.cond(x, p="fro"))
    return c


CASES.update(_round24_cases())


STATS_CONTINUOUS = {  # name -> (sampler of x, extra parameters as Python floats)
    "norm": ("real", ()), "cauchy": ("real", ()), "logistic": ("real", ()), "laplace": ("real", ()),
    "gennorm": ("real", (1.5,)), "t": ("real", (3.0,)), "expon": ("positive", ()),
    "gamma": ("positive", (1.5,)), "chi2": ("positive", (3.0,)), "lognorm": ("positive", (0.7,)),
    "pareto": ("above1", (2.5,)), "beta": ("unit", (2.0, 3.0)), "uniform": ("unit", ()),
    "truncnorm": ("real", (-1.0, 1.5)),
}
STATS_METHODS = ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf")


def _stats_x(r, d, kind):
    x = r.standard_normal(5) * 1.5
    x = {"real": x, "positive": np.abs(x) + 0.05, "above1": np.abs(x) + 1.05,
         "unit": 1 / (1 + np.exp(-x))}[kind]
    return np.asarray(x, d)


def _round25_cases():
    """jax.scipy.linalg (schur, lu, cho_factor, polar, funm, inv, det, hessenberg, rsf2csf),
    jax.scipy.signal (fftconvolve, correlate modes, stft/istft), every jax.scipy.stats
    continuous distribution's methods with gradients, ndimage.map_coordinates, fft with norm
    and axes, lax bit ops and reduce_precision, integer promotion corners, jax.nn glu/
    standardize/logsumexp, and random distributions' shapes and dtypes (round 25)."""
    c = {}
    sl = "scipy.linalg"
    c[f"{sl}.lu_p_l_u"] = (lambda r, d: [_wellposed(r, d)], lambda m, x: m.scipy.linalg.lu(x))
    c[f"{sl}.lu_factor"] = (lambda r, d: [_wellposed(r, d)], lambda m, x: m.scipy.linalg.lu_factor(x))
    c[f"{sl}.lu_wide"] = (lambda r, d: [_f(r, d, 2, 4)], lambda m, x: m.scipy.linalg.lu(x)[1:])
    c[f"{sl}.lu_permute_l"] = (lambda r, d: [_wellposed(r, d)],
                               lambda m, x: m.scipy.linalg.lu(x, permute_l=True))
    c[f"{sl}.cho_factor_solve_lower"] = (
        lambda r, d: [_f(r, d, 3, 3), _f(r, d, 3, 2)],
        lambda m, x, b: m.scipy.linalg.cho_solve(m.scipy.linalg.cho_factor(_spd(m, x), lower=True), b))
    c[f"{sl}.cholesky_upper"] = (lambda r, d: [_f(r, d, 3, 3)],
                                 lambda m, x: m.scipy.linalg.cholesky(_spd(m, x)))
    c[f"{sl}.solve_triangular_trans"] = (
        lambda r, d: [_f(r, d, 3), _wellposed(r, d)],
        lambda m, b, a: m.scipy.linalg.solve_triangular(a, b, trans=1, lower=False, unit_diagonal=True))
    c[f"{sl}.solve_assume_pos"] = (lambda r, d: [_f(r, d, 3, 3), _f(r, d, 3)],
                                   lambda m, x, b: m.scipy.linalg.solve(_spd(m, x), b, assume_a="pos"))
    c[f"{sl}.inv_det"] = (lambda r, d: [_wellposed(r, d)],
                          lambda m, x: (m.scipy.linalg.inv(x), m.scipy.linalg.det(x)))
    c[f"{sl}.expm_scaled"] = (lambda r, d: [_f(r, d, 3, 3, scale=3.0)], lambda m, x: m.scipy.linalg.expm(x))
    c[f"{sl}.schur_real_t"] = (lambda r, d: [_f(r, d, 3, 3)],
                               lambda m, x: m.numpy.abs(m.numpy.diag(m.scipy.linalg.schur(_sym(m, x))[0])))
    c[f"{sl}.polar_u"] = (lambda r, d: [_wellposed(r, d)], lambda m, x: m.scipy.linalg.polar(x)[0])
    c[f"{sl}.polar_left"] = (lambda r, d: [_wellposed(r, d)],
                             lambda m, x: m.scipy.linalg.polar(x, side="left")[1])
    c[f"{sl}.sqrtm_triangular"] = (
        lambda r, d: [np.triu(np.abs(_f(r, d, 3, 3))) + np.eye(3, dtype=d)],
        lambda m, x: m.numpy.real(m.scipy.linalg.sqrtm(x)))
    c[f"{sl}.funm_exp"] = (lambda r, d: [_f(r, d, 3, 3, scale=0.5)],
                           lambda m, x: m.numpy.real(m.scipy.linalg.funm(_sym(m, x), m.numpy.exp)))
    c[f"{sl}.hessenberg"] = (lambda r, d: [(lambda x: x @ x.T)(_f(r, d, 4, 4))],
                             lambda m, x: m.numpy.abs(m.scipy.linalg.hessenberg(x)))
    c[f"{sl}.block_diag_toeplitz"] = (
        lambda r, d: [_f(r, d, 2, 2), _f(r, d, 3)],
        lambda m, x, t: (m.scipy.linalg.block_diag(x, t[None]), m.scipy.linalg.toeplitz(t, t[::-1])))
    c[f"{sl}.eigh_tridiagonal_select"] = (
        lambda r, d: [_f(r, d, 5), _f(r, d, 4)],
        lambda m, dg, e: m.scipy.linalg.eigh_tridiagonal(dg, e, eigvals_only=True, select="i",
                                                          select_range=(1, 3)))
    ss = "scipy.signal"
    for mode in ("full", "same", "valid"):
        c[f"{ss}.fftconvolve_{mode}"] = (
            lambda r, d: [_f(r, d, 7), _f(r, d, 4)],
            lambda m, x, k, mode=mode: m.scipy.signal.fftconvolve(x, k, mode=mode))
        c[f"{ss}.correlate_{mode}"] = (
            lambda r, d: [_f(r, d, 6), _f(r, d, 3)],
            lambda m, x, k, mode=mode: m.scipy.signal.correlate(x, k, mode=mode))
        c[f"{ss}.convolve2d_{mode}_fill"] = (
            lambda r, d: [_f(r, d, 3, 4), _f(r, d, 2, 2)],
            lambda m, x, k, mode=mode: m.scipy.signal.convolve2d(x, k, mode=mode, boundary="fill"))
    c[f"{ss}.fftconvolve_axes"] = (
        lambda r, d: [_f(r, d, 3, 6), _f(r, d, 1, 3)],
        lambda m, x, k: m.scipy.signal.fftconvolve(x, k, mode="same", axes=1))
    c[f"{ss}.convolve_int"] = (
        lambda r, d: [r.integers(-3, 4, 6).astype(np.int32), r.integers(-3, 4, 3).astype(np.int32)],
        lambda m, x, k: m.scipy.signal.convolve(x, k))
    c[f"{ss}.stft"] = (lambda r, d: [_f(r, d, 32)],
                       lambda m, x: m.numpy.abs(m.scipy.signal.stft(x, nperseg=8)[2]))
    c[f"{ss}.istft_roundtrip"] = (
        lambda r, d: [_f(r, d, 32)],
        lambda m, x: m.scipy.signal.istft(m.scipy.signal.stft(x, nperseg=8)[2], nperseg=8)[1])
    c[f"{ss}.welch"] = (lambda r, d: [_f(r, d, 64)], lambda m, x: m.scipy.signal.welch(x, nperseg=16)[1])
    c[f"{ss}.detrend"] = (lambda r, d: [_f(r, d, 2, 7)], lambda m, x: m.scipy.signal.detrend(x, axis=1))
    for dist, (kind, params) in STATS_CONTINUOUS.items():
        for method in STATS_METHODS:
            c[f"scipy.stats.{dist}.{method}"] = (
                lambda r, d, kind=kind, method=method: [
                    _stats_x(r, d, "unit" if method in ("ppf", "isf") else kind)],
                lambda m, x, dist=dist, method=method, params=params: (
                    getattr(getattr(m.scipy.stats, dist), method)(x, *params)))
    for dist, args in (("poisson", (2.5,)), ("binom", (6, 0.3)), ("nbinom", (4, 0.4)),
                       ("geom", (0.3,)), ("bernoulli", (0.3,)), ("betabinom", (6, 2.0, 3.0))):
        for method in ("logpmf", "pmf", "cdf"):
            if not (dist == "binom" and method == "cdf" or dist == "betabinom" and method == "cdf"
                    or dist == "bernoulli" and method == "cdf"):
                c[f"scipy.stats.{dist}.{method}"] = (
                    lambda r, d: [r.integers(-1, 7, 6).astype(d)],
                    lambda m, k, dist=dist, method=method, args=args: getattr(
                        getattr(m.scipy.stats, dist), method)(k, *args))
    c["scipy.stats.poisson.logpmf_rate_grad"] = (
        lambda r, d: [np.abs(_f(r, d, 5)) + 0.1, r.integers(0, 5, 5).astype(d)],
        lambda m, mu, k: m.scipy.stats.poisson.logpmf(k, mu))
    c["scipy.stats.multivariate_normal"] = (
        lambda r, d: [_f(r, d, 4, 3), _f(r, d, 3), _f(r, d, 3, 3)],
        lambda m, x, mean, a: m.scipy.stats.multivariate_normal.logpdf(x, mean, _spd(m, a)))
    c["scipy.stats.vonmises"] = (lambda r, d: [_f(r, d, 5)],
                                 lambda m, x: m.scipy.stats.vonmises.logpdf(x, 1.7))
    c["scipy.stats.logsumexp_like_gaussian_kde"] = (
        lambda r, d: [_f(r, d, 6), _f(r, d, 3)],
        lambda m, data, x: m.scipy.stats.gaussian_kde(data).logpdf(x))
    for order in (0, 1, 3):
        for mode in ("constant", "nearest", "wrap", "mirror", "reflect"):
            if order == 3:  # JAX supports order <= 1
                if mode != "constant":
                    continue
            c[f"ndimage.map_coordinates_o{order}_{mode}"] = (
                lambda r, d: [_f(r, d, 4, 5), (r.uniform(-1.5, 5.5, (2, 6))).astype(d)],
                lambda m, x, coords, order=order, mode=mode: m.scipy.ndimage.map_coordinates(
                    x, [coords[0], coords[1]], order=order, mode=mode, cval=-0.5))
    for fn in ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft"):
        for norm in ("backward", "ortho", "forward"):
            c[f"fft.{fn}_{norm}"] = (
                lambda r, d: [_f(r, d, 3, 6)],
                lambda m, x, fn=fn, norm=norm: m.numpy.real(getattr(m.numpy.fft, fn)(x, n=5, axis=0
                                                                                    if fn != "rfft" else 1,
                                                                                    norm=norm)))
    for fn in ("fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"):
        c[f"fft.{fn}_axes"] = (
            lambda r, d: [_f(r, d, 3, 4, 5)],
            lambda m, x, fn=fn: m.numpy.imag(getattr(m.numpy.fft, fn)(x, axes=(0, 2), norm="ortho"))
            if fn[0] != "i" or "r" not in fn else getattr(m.numpy.fft, fn)(x, axes=(0, 2)))
    c["fft.fftfreq_rfftfreq"] = (lambda r, d: [_f(r, d, 5)],
                                 lambda m, x: (x * m.numpy.fft.fftfreq(5, 0.1), m.numpy.fft.rfftfreq(7, 0.5)))
    c["fft.ifftshift_axes"] = (lambda r, d: [_f(r, d, 3, 4)],
                               lambda m, x: m.numpy.fft.ifftshift(x, axes=(0,)))
    for dt in ("int8", "uint8", "int32", "uint32", "int64", "uint16"):
        c[f"lax.population_count_{dt}"] = (
            lambda r, d, dt=dt: [r.integers(-100 if dt[0] == "i" else 0, 120, 6).astype(dt)],
            lambda m, x: (m.lax.population_count(x), m.lax.clz(x)))
        c[f"lax.shifts_{dt}"] = (
            lambda r, d, dt=dt: [r.integers(-100 if dt[0] == "i" else 0, 120, 6).astype(dt),
                                 np.asarray([0, 1, 3, 7, 8, 70], dt)],
            lambda m, x, s: (m.lax.shift_left(x, s), m.lax.shift_right_logical(x, s),
                             m.lax.shift_right_arithmetic(x, s)))
    for eb, mb in ((5, 10), (8, 7), (4, 3), (11, 52), (8, 23), (2, 1)):
        c[f"lax.reduce_precision_{eb}_{mb}"] = (
            lambda r, d: [np.concatenate([_f(r, d, 4, scale=100.0), _edge(r, d, 4)])],
            lambda m, x, eb=eb, mb=mb: m.lax.reduce_precision(x, exponent_bits=eb, mantissa_bits=mb))
    c["lax.nextafter_edges"] = (lambda r, d: [_edge(r, d, 6), _edge(r, d, 6)],
                                lambda m, x, y: m.lax.nextafter(x, y))
    c["lax.cumlogsumexp_inf"] = (lambda r, d: [np.asarray([-np.inf, 0.0, np.inf, 1.0, -np.inf, np.nan], d)],
                                 lambda m, x: m.lax.cumlogsumexp(x))
    c["lax.top_k_ties"] = (lambda r, d: [np.round(_f(r, d, 2, 6))], lambda m, x: m.lax.top_k(x, 4))
    c["lax.sort_three_operands"] = (
        lambda r, d: [_f(r, d, 6), np.round(_f(r, d, 6)), r.integers(0, 3, 6).astype(np.int32)],
        lambda m, x, k1, k2: m.lax.sort((k2, k1, x), num_keys=2, is_stable=True))
    c["numpy.argsort_stable_descending"] = (lambda r, d: [np.round(_f(r, d, 8))],
                                            lambda m, x: m.numpy.argsort(x, stable=True, descending=True))
    c["lax.dynamic_update_slice_clamp_big"] = (
        lambda r, d: [_f(r, d, 4, 4), _f(r, d, 3, 3), np.int32(r.integers(-20, 20))],
        lambda m, x, u, i: m.lax.dynamic_update_slice(x, u, (i, m.numpy.int32(2))))
    for mode in ("clip", "fill", "promise_in_bounds"):
        c[f"numpy.at_get_multi_{mode}"] = (
            lambda r, d, mode=mode: [_f(r, d, 4, 3), r.integers(0 if mode == "promise_in_bounds" else -6,
                                                                4 if mode == "promise_in_bounds" else 6,
                                                                (2, 3)).astype(np.int32)],
            lambda m, x, i, mode=mode: x.at[i, 1].get(mode=mode))
    pairs = (("uint64", "int64"), ("uint32", "int32"), ("uint8", "int8"), ("uint64", "float32"),
             ("bool", "bool"), ("bool", "int8"), ("uint16", "float16"), ("int64", "uint32"))
    for a_dt, b_dt in pairs:
        c[f"numpy.promote_{a_dt}_{b_dt}"] = (
            lambda r, d, a_dt=a_dt, b_dt=b_dt: [r.integers(0, 2 if a_dt == "bool" else 9, 4).astype(a_dt),
                                                r.integers(0, 2 if b_dt == "bool" else 9, 4).astype(b_dt)],
            lambda m, x, y: (x + y, x * y, m.numpy.maximum(x, y), x == y))
    c["numpy.bool_arith"] = (
        lambda r, d: [r.integers(0, 2, 5).astype(bool), r.integers(0, 2, 5).astype(bool)],
        lambda m, x, y: (m.numpy.sum(x), m.numpy.cumsum(x), x * 2, x + 1.5, m.numpy.mean(x), x & y, x ^ y, ~x,
                         m.numpy.prod(x), x - 0.5))
    c["numpy.uint_bitwise"] = (
        lambda r, d: [r.integers(0, 2**32, 4, dtype=np.uint64).astype(np.uint32),
                      r.integers(0, 31, 4).astype(np.uint32)],
        lambda m, x, s: (x << s, x >> s, m.numpy.bitwise_count(x), ~x, m.numpy.invert(x) % 7))
    c["numpy.int_floor_divide_uint"] = (
        lambda r, d: [r.integers(0, 50, 5).astype(np.uint8), r.integers(0, 5, 5).astype(np.uint8)],
        lambda m, x, y: (x // y, x % y))
    c["nn.glu_axis"] = (lambda r, d: [_f(r, d, 4, 6)], lambda m, x: m.nn.glu(x, axis=0))
    c["nn.standardize_where"] = (
        lambda r, d: [_f(r, d, 3, 4), r.integers(0, 2, (3, 4)).astype(bool) | np.eye(3, 4, dtype=bool)],
        lambda m, x, w: m.nn.standardize(x, axis=1, where=w, epsilon=1e-3))
    c["nn.standardize_mean_var"] = (
        lambda r, d: [_f(r, d, 3, 4), _f(r, d, 3, 1), np.abs(_f(r, d, 3, 1)) + 0.5],
        lambda m, x, mu, v: m.nn.standardize(x, axis=1, mean=mu, variance=v))
    c["nn.logsumexp_b_where"] = (
        lambda r, d: [_f(r, d, 3, 4), np.abs(_f(r, d, 3, 4)), r.integers(0, 2, (3, 4)).astype(bool)],
        lambda m, x, b, w: m.nn.logsumexp(x, axis=1, b=b, where=w, keepdims=True))
    c["nn.softmax_where_initial_axis0"] = (
        lambda r, d: [_f(r, d, 3, 4), r.integers(0, 2, (3, 4)).astype(bool) | np.eye(3, 4, dtype=bool)],
        lambda m, x, w: (m.nn.softmax(x, axis=0, where=w), m.nn.log_softmax(x, axis=0, where=w)))
    c["nn.logsumexp_all_masked"] = (
        lambda r, d: [_f(r, d, 2, 3)],
        lambda m, x: m.nn.logsumexp(x, axis=1, where=m.numpy.asarray([[True, False, False],
                                                                      [False, False, False]])))
    for dist, call in (
            ("normal", lambda rd, k, dt: rd.normal(k, (2, 3), dt)),
            ("uniform", lambda rd, k, dt: rd.uniform(k, (4,), dt, -2.0, 3.0)),
            ("truncated_normal", lambda rd, k, dt: rd.truncated_normal(k, -1.0, 2.0, (3,), dt)),
            ("bernoulli", lambda rd, k, dt: rd.bernoulli(k, 0.3, (5,))),
            ("categorical", lambda rd, k, dt: rd.categorical(k, rd.normal(k, (3, 4), dt), shape=(2, 3))),
            ("randint", lambda rd, k, dt: rd.randint(k, (2, 3), -5, 9)),
            ("permutation", lambda rd, k, dt: rd.permutation(k, 6)),
            ("choice", lambda rd, k, dt: rd.choice(k, 7, (3,), replace=False)),
            ("exponential", lambda rd, k, dt: rd.exponential(k, (3,), dt)),
            ("laplace", lambda rd, k, dt: rd.laplace(k, (3,), dt)),
            ("logistic", lambda rd, k, dt: rd.logistic(k, (3,), dt)),
            ("gumbel", lambda rd, k, dt: rd.gumbel(k, (3,), dt)),
            ("cauchy", lambda rd, k, dt: rd.cauchy(k, (3,), dt)),
            ("poisson", lambda rd, k, dt: rd.poisson(k, 3.5, (4,))),
            ("binomial", lambda rd, k, dt: rd.binomial(k, 10, 0.3, (4,), dt)),
            ("geometric", lambda rd, k, dt: rd.geometric(k, 0.3, (4,))),
            ("rademacher", lambda rd, k, dt: rd.rademacher(k, (5,))),
            ("multivariate_normal", lambda rd, k, dt: rd.multivariate_normal(
                k, rd.normal(k, (2,), dt), rd.uniform(k, (), dt) + rd.orthogonal(k, 2, dtype=dt) * 0
                + __import__("numpy").eye(2, dtype=dt), (3,), dt)),
            ("orthogonal", lambda rd, k, dt: rd.orthogonal(k, 3, (2,), dt)),
            ("ball", lambda rd, k, dt: rd.ball(k, 3, 2, (2,), dt)),
            ("weibull_min", lambda rd, k, dt: rd.weibull_min(k, 1.5, 2.0, (3,), dt)),
            ("pareto", lambda rd, k, dt: rd.pareto(k, 2.0, (3,), dt)),
            ("maxwell", lambda rd, k, dt: rd.maxwell(k, (3,), dt)),
            ("double_sided_maxwell", lambda rd, k, dt: rd.double_sided_maxwell(k, 0.5, 2.0, (3,), dt)),
            ("rayleigh", lambda rd, k, dt: rd.rayleigh(k, 1.5, (3,), dt)),
            ("wald", lambda rd, k, dt: rd.wald(k, 1.5, (3,), dt)),
            ("triangular", lambda rd, k, dt: rd.triangular(k, -1.0, 0.5, 2.0, (3,), dt)),
            ("lognormal", lambda rd, k, dt: rd.lognormal(k, 0.5, (3,), dt)),
            ("generalized_normal", lambda rd, k, dt: rd.generalized_normal(k, 1.5, (3,), dt)),
            ("multinomial", lambda rd, k, dt: rd.multinomial(k, 10, __import__("numpy").asarray(
                [0.2, 0.3, 0.5], dt), shape=(2, 3))),
    ):
        c[f"random.shape_dtype_{dist}"] = (
            lambda r, d: [_f(r, d, 1)],
            lambda m, x, call=call: (lambda out: (out, x * 1.0))(call(m.random, m.random.key(11), x.dtype)))
    return c


CASES.update(_round25_cases())
