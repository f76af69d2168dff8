"""Edge audit of ``fgrad.torch`` against PyTorch 2.13: first AND second derivatives
(``backward`` with ``create_graph=True``) at edge points, in float64, and a gradcheck /
gradgradcheck-style sweep (reverse mode against central differences, for the first and the
second derivative) at random points for the differentiable ops of the grid.

For each case ``f(*inputs)`` the grid records the value, ``g_i`` the gradient of
``sum(w * f)`` for each input, and ``gg_i`` the gradient of ``sum_i <g_i, v_i>`` (double
backward); ``w`` and ``v`` are fixed ramps.  ``TORCH`` (at the end of this file) holds the
numbers recorded once from live torch 2.13 (CPU); the sweep runs without torch, and
``test_stored_numbers_match_live_torch*`` re-check them when torch is installed.

Deliberate deviations are in ``DEVIATIONS`` with fgrad's numbers and the reason (each is
also in docs/numerics.md).

Regenerate ``TORCH`` after changing the grid::

    python -c "import tests.shim.test_edge_audit_torch as m, torch; m.print_torch_table(torch)"
"""

# ruff: noqa: E501 - the stored table at the end is generated, one case a line
from __future__ import annotations

import warnings

import numpy as np
import pytest
from tests._host_numerics import skip_where_avx512_rounds_otherwise

import fgrad.torch as ft

nan, inf = np.nan, np.inf


def _f(name, **kw):
    return lambda T: lambda x: getattr(T.nn.functional, name)(x, **kw)


# name -> (f of the torch module T, list of inputs)
CASES = {
    "norm_zero_entry": (lambda T: T.norm, [[3.0, 4.0, 0.0]]),
    "vector_norm_zero_entry": (lambda T: lambda x: T.linalg.vector_norm(x), [[0.0, 2.0, -1.0]]),
    "norm_dim_zero_row": (lambda T: lambda x: T.linalg.norm(x, dim=1), [[[0.0, 1.0], [3.0, 4.0]]]),
    "softplus_at_threshold": (_f("softplus", beta=2.0, threshold=5.0), [[2.5, 0.0, 3.0, 2.4]]),
    "gaussian_nll_small_var": (lambda T: lambda a, b, v: T.nn.functional.gaussian_nll_loss(a, b, v), [[0.0, 1.0], [0.0, 2.0], [1e-7, 1.0]]),
    "pow_scalar_0": (lambda T: lambda x: T.pow(x, T.tensor(0.0, dtype=T.float64)), [[0.0, 1.0, -1.0]]),
    "pow_tensor": (lambda T: T.pow, [[0.0, 1.0, 2.0, 0.0], [0.0, 1.0, -3.0, 2.0]]),
    "eigvalsh_degenerate": (lambda T: T.linalg.eigvalsh, [np.diag([1.0, 1.0, 2.0]).tolist()]),
    "eigh_values_degenerate": (lambda T: lambda x: T.linalg.eigh(x)[0], [np.diag([1.0, 1.0, 2.0]).tolist()]),
    "svdvals_degenerate": (lambda T: T.linalg.svdvals, [np.eye(2).tolist()]),
    "svd_S_degenerate": (lambda T: lambda x: T.linalg.svd(x)[1], [np.eye(2).tolist()]),
    "sinc": (lambda T: T.sinc, [[1.0, -1.0, 0.5, 2.0]]),
    "entr": (lambda T: T.special.entr, [[0.0, 1.0, 0.5, -1.0]]),
    "i0": (lambda T: T.i0, [[0.0, 1e-150, 1.0, -2.0]]),
    "i1_tiny": (lambda T: T.special.i1, [[0.0, 1e-150, 1e-12, 1.0]]),
    "abs": (lambda T: lambda x: T.abs(x) * x, [[0.0, 1.0, -2.0]]),
    "sqrt": (lambda T: T.sqrt, [[0.0, 1.0, 4.0]]),
    "clamp_bounds": (lambda T: lambda x: T.clamp(x, 0.0, 1.0) * x, [[0.0, 1.0, 0.5, 2.0, -1.0]]),
    "clamp_tensor_bounds": (lambda T: lambda x, lo: T.clamp(x, lo, lo + 1.0), [[0.0, 1.0, 0.5, 2.0, -1.0], [0.0, 0.0, 0.0, 0.0, 0.0]]),
    "max_ties": (lambda T: T.max, [[1.0, 3.0, 3.0, 2.0]]),
    "amax_ties": (lambda T: lambda x: T.amax(x) * T.amax(x), [[1.0, 3.0, 3.0]]),
    "max_dim_ties": (lambda T: lambda x: T.max(x, 1)[0], [[[1.0, 1.0], [2.0, 1.0]]]),
    "median_ties": (lambda T: T.median, [[2.0, 1.0, 2.0, 2.0]]),
    "sort_ties": (lambda T: lambda x: T.sort(x)[0] ** 2, [[2.0, 1.0, 2.0, 1.0]]),
    "topk_ties": (lambda T: lambda x: T.topk(x, 2)[0] ** 2, [[1.0, 3.0, 3.0, 2.0]]),
    "cummax_ties": (lambda T: lambda x: T.cummax(x, 0)[0] ** 2, [[1.0, 3.0, 3.0, 2.0]]),
    "cumprod_zero": (lambda T: lambda x: T.cumprod(x, 0), [[1.0, 0.0, 2.0, 3.0]]),
    "cumprod_zeros": (lambda T: lambda x: T.cumprod(x, 0), [[2.0, 0.0, 0.0, 3.0]]),
    "prod_zero": (lambda T: T.prod, [[2.0, 0.0, 3.0]]),
    "prod_zeros": (lambda T: T.prod, [[2.0, 0.0, 0.0]]),
    "logsumexp_neg_inf": (lambda T: lambda x: T.logsumexp(x, 0), [[-inf, -inf]]),
    "logsumexp_mixed": (lambda T: lambda x: T.logsumexp(x, 0), [[-inf, 0.0, 1.0]]),
    "log_softmax_neg_inf": (lambda T: lambda x: T.log_softmax(x, 0), [[0.0, -inf, 1.0]]),
    "softmax_neg_inf": (lambda T: lambda x: T.softmax(x, 0), [[0.0, -inf, 1.0]]),
    "atan2": (lambda T: T.atan2, [[1.0, 0.0, -1.0, 2.0], [1.0, 1.0, 0.5, -3.0]]),
    "hypot": (lambda T: T.hypot, [[3.0, 0.0, -1.0], [4.0, 1.0, 0.5]]),
    "xlogy": (lambda T: T.xlogy, [[0.0, 1.0, 2.0], [1.0, 0.5, 3.0]]),
    "where_sqrt": (lambda T: lambda x: T.where(x > 0, T.sqrt(x), T.zeros_like(x)), [[0.0, 4.0, -1.0]]),
    "det_singular": (lambda T: T.linalg.det, [[[1.0, 2.0], [2.0, 4.0]]]),
    "det_rank1": (lambda T: T.linalg.det, [np.ones((3, 3)).tolist()]),
    "slogdet": (lambda T: lambda x: T.linalg.slogdet(x)[1], [[[0.0, 2.0], [3.0, 1.0]]]),
    "inv": (lambda T: T.linalg.inv, [[[2.0, 1.0], [0.5, 3.0]]]),
    "cholesky": (lambda T: lambda x: T.linalg.cholesky(x @ x.mT + T.eye(2, dtype=T.float64)), [[[2.0, 1.0], [0.5, 3.0]]]),
    "qr_r": (lambda T: lambda x: T.linalg.qr(x)[1], [[[2.0, 1.0], [0.5, 3.0], [1.0, 1.0]]]),
    "matrix_exp": (lambda T: T.linalg.matrix_exp, [[[2.0, 1.0], [0.5, 3.0]]]),
    "pinv": (lambda T: T.linalg.pinv, [[[2.0, 1.0, 0.0], [0.5, 3.0, 1.0]]]),
    "vector_norm_3": (lambda T: lambda x: T.linalg.vector_norm(x, 3), [[0.0, 1.0, -2.0]]),
    "matrix_norm_nuc": (lambda T: lambda x: T.linalg.matrix_norm(x, "nuc"), [[[2.0, 1.0], [0.5, 3.0]]]),
    "gelu": (_f("gelu"), [[0.0, 1.0, -3.0, -30.0]]),
    "gelu_tanh": (_f("gelu", approximate="tanh"), [[0.0, 1.0, -3.0, -30.0]]),
    "silu": (_f("silu"), [[0.0, 1.0, -30.0, 30.0]]),
    "mish": (_f("mish"), [[0.0, 1.0, -30.0, 30.0]]),
    "logsigmoid": (_f("logsigmoid"), [[0.0, -800.0, 800.0]]),
    "elu_off_kink": (_f("elu"), [[1.0, -1.0, 0.5]]),
    "huber": (lambda T: lambda a, b: T.nn.functional.huber_loss(a, b), [[1.0, 2.0, 0.0], [1.0, 3.0, 1.0]]),
    "smooth_l1": (lambda T: lambda a, b: T.nn.functional.smooth_l1_loss(a, b), [[1.0, 2.0, 0.0], [1.0, 3.0, 1.0]]),
    "bce_logits": (lambda T: lambda a, b: T.nn.functional.binary_cross_entropy_with_logits(a, b), [[0.0, 40.0, -40.0], [0.0, 1.0, 1.0]]),
    "cross_entropy_smoothing": (lambda T: lambda a: T.nn.functional.cross_entropy(a, T.tensor([0, 1]), label_smoothing=0.1), [[[0.0, -1.0, 1.0], [1.0, 2.0, 3.0]]]),
    "layer_norm_constant_row": (lambda T: lambda a: T.nn.functional.layer_norm(a, (3,)), [[1.0, 1.0, 1.0]]),
    "group_norm": (lambda T: lambda a: T.nn.functional.group_norm(a, 1), [[[1.0, 2.0], [3.0, 5.0]]]),
    "batch_norm": (lambda T: lambda a: T.nn.functional.batch_norm(a, None, None, training=True), [[[1.0, 2.0], [3.0, 5.0], [0.0, 1.0]]]),
    "normalize": (lambda T: lambda a: T.nn.functional.normalize(a, dim=0), [[3.0, 4.0, 0.0]]),
    "cosine_similarity": (lambda T: lambda a, b: T.nn.functional.cosine_similarity(a, b, dim=0), [[1.0, 0.0], [1.0, 2.0]]),
    "std_const": (lambda T: T.std, [[1.0, 2.0, 4.0]]),
    "lerp": (lambda T: T.lerp, [[1.0, 2.0], [3.0, 2.0], [0.5, 0.0]]),
    "trace_logdet": (lambda T: lambda x: T.logdet(x) + T.trace(x), [[[2.0, 1.0], [1.0, 3.0]]]),
}


def _ramp(shape, lo, hi):
    n = int(np.prod(shape))
    return np.linspace(lo, hi, n).reshape(shape) if n > 1 else np.full(shape, lo)


def _np(t):
    return None if t is None else np.asarray(t.detach().numpy(), np.float64).tolist()


def run(T, name):
    """``{"val", "g0".., "gg0"..}`` of one case with the torch module ``T``, or ``("error", type)``."""
    mk, inputs = CASES[name]
    ts = [T.tensor(np.asarray(x, np.float64), requires_grad=True) for x in inputs]
    try:
        y = mk(T)(*ts)
        w = T.tensor(_ramp(tuple(y.shape), 0.5, 1.5))
        g1 = T.autograd.grad((y * w).sum(), ts, create_graph=True, allow_unused=True)
        out = {"val": _np(y)}
        out.update({f"g{i}": _np(g) for i, g in enumerate(g1)})
        vs = [T.tensor(_ramp(tuple(t.shape), 0.3, 1.1)) for t in ts]
        terms = [(g * v).sum() for g, v in zip(g1, vs) if g is not None and g.requires_grad]
        if terms:
            g2 = T.autograd.grad(sum(terms), ts, allow_unused=True, materialize_grads=False)
            out.update({f"gg{i}": _np(g) for i, g in enumerate(g2)})
        else:
            out.update({f"gg{i}": None for i in range(len(ts))})
    except Exception as e:  # noqa: BLE001 - the error type is part of the expected result
        return ("error", type(e).__name__)
    return out


def _zero_or_none(v):
    return v is None or np.all(np.asarray(v) == 0)


def _same(got, want) -> bool:
    if isinstance(got, tuple) or isinstance(want, tuple):
        return got == want
    for k in want:
        a, b = got.get(k), want[k]
        if a is None or b is None:  # no graph (PyTorch: None) and zeros are the same derivative
            if not (_zero_or_none(a) and _zero_or_none(b)):
                return False
            continue
        a, b = np.asarray(a, np.float64), np.asarray(b, np.float64)
        if a.shape != b.shape or not np.allclose(a, b, rtol=1e-7, atol=1e-12, equal_nan=True):
            return False
    return True


# Deliberate deviations: "case/derivative" -> (fgrad's value, reason); each is in docs/numerics.md
DEVIATIONS: dict = {
    "softplus_at_threshold/gg0": ([0.001994417001237016, 0.23611111111111108, 0.0, 0.026716613831587434],
                                  "at beta * x == threshold PyTorch's first backward takes the softplus branch "
                                  "and its double backward the linear one (0); fgrad takes the softplus branch for both"),
    "pow_scalar_0/gg0": ([0.0, 0.0, 0.0], "x ** 0 = 1: every derivative is 0, also at x = 0 (PyTorch's double backward: NaN)"),
    "pow_tensor/gg0": ([0.0, 0.47222222222222215, 0.29899226743264884, 3.3000000000000003],
                       "d2/dx2 x**2 = 2 at x = 0 and d2/dx2 x**0 = 0 (PyTorch: NaN from 0 * log 0 in its mixed term; "
                       "fgrad's mixed term is 0 there, the limit of x**(y-1) (1 + y log x))"),
    "pow_tensor/gg1": ([0.0, 0.47222222222222215, -0.007202678792569736, 0.0], "as pow_tensor/gg0"),
    "i1_tiny/gg0": ([0.0, 1.7708333333333337e-151, 3.645833333333332e-13, 0.708528866471988],
                    "I1''(x) = 3x/8 + ... near 0; PyTorch's i1 double backward cancels: -0.000244 at x = 1e-12"),
}


def _expected(name):
    want = TORCH[name]
    if isinstance(want, tuple):
        return want
    return {k: DEVIATIONS.get(f"{name}/{k}", (v,))[0] for k, v in want.items()}


# PyTorch's exact-zero gradient (and NaN second derivative) of a rank-1 determinant hold where the
# LU's rounding makes the minors exactly 0: OpenBLAS's AVX-512 kernels leave 1e-17 there.
_BLAS_ROUNDING_PINNED = {"det_rank1"}


@pytest.mark.parametrize("name", sorted(CASES))
def test_shim_matches_torch_first_and_second_derivatives(name):
    if name in _BLAS_ROUNDING_PINNED:
        skip_where_avx512_rounds_otherwise(f"{name} (the exact zeros of a singular LU)")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = run(ft, name)
    want = _expected(name)
    assert _same(got, want), f"{name}: fgrad {got}\nexpected {want}"


def test_deviations_still_differ_from_torch():
    for key, (ours, _) in DEVIATIONS.items():
        name, k = key.split("/")
        assert not _same({k: ours}, {k: TORCH[name][k]}), key


def _live_check(torch, names):
    bad = []
    for name in names:
        got = run(torch, name)
        if not _same(got, TORCH[name]):
            bad.append(f"{name}: torch {got}, stored {TORCH[name]}")
    assert not bad, "\n".join(bad)


LIVE_SAMPLE = ["i1_tiny", "norm_zero_entry", "softplus_at_threshold", "gaussian_nll_small_var", "pow_scalar_0", "eigh_values_degenerate"]


def test_stored_numbers_match_live_torch_sample():
    torch = pytest.importorskip("torch")
    _live_check(torch, LIVE_SAMPLE)


@pytest.mark.slow
def test_stored_numbers_match_live_torch():
    torch = pytest.importorskip("torch")
    _live_check(torch, sorted(CASES))


def print_torch_table(torch) -> None:
    """Print ``TORCH`` recomputed with live torch (to paste over the table below)."""
    print("TORCH = {")
    for name in CASES:
        print(f"    {name!r}: {run(torch, name)!r},")
    print("}")


# -- gradcheck / gradgradcheck: reverse mode against central differences at random points -----

GRADCHECK = {  # name -> (f of fgrad.torch, input shapes, low, high)
    "sinc": (lambda T: T.sinc, [(5,)], -2.0, 2.0),
    "lgamma": (lambda T: T.lgamma, [(5,)], 0.1, 5.0),
    "digamma": (lambda T: T.digamma, [(5,)], 0.2, 5.0),
    "erfinv": (lambda T: T.erfinv, [(5,)], -0.9, 0.9),
    "entr": (lambda T: T.special.entr, [(5,)], 0.1, 3.0),
    "i1e": (lambda T: T.special.i1e, [(5,)], -3.0, 3.0),
    "log_ndtr": (lambda T: T.special.log_ndtr, [(5,)], -20.0, 5.0),
    "ndtri": (lambda T: T.special.ndtri, [(5,)], 0.05, 0.95),
    "softplus_beta": (lambda T: lambda x: T.nn.functional.softplus(x, beta=2.0, threshold=3.0), [(6,)], -3.0, 3.0),
    "gelu": (lambda T: T.nn.functional.gelu, [(5,)], -3.0, 3.0),
    "mish": (lambda T: T.nn.functional.mish, [(5,)], -3.0, 3.0),
    "logsigmoid": (lambda T: T.nn.functional.logsigmoid, [(5,)], -5.0, 5.0),
    "pow": (lambda T: T.pow, [(4,), (4,)], 0.2, 2.0),
    "atan2": (lambda T: T.atan2, [(4,), (4,)], 0.2, 2.0),
    "xlogy": (lambda T: T.xlogy, [(4,), (4,)], 0.2, 2.0),
    "norm": (lambda T: T.norm, [(4,)], -2.0, 2.0),
    "vector_norm_3": (lambda T: lambda x: T.linalg.vector_norm(x, 3), [(4,)], 0.2, 2.0),
    "logsumexp": (lambda T: lambda x: T.logsumexp(x, 0), [(4,)], -2.0, 2.0),
    "log_softmax": (lambda T: lambda x: T.log_softmax(x, 0), [(4,)], -2.0, 2.0),
    "cumprod": (lambda T: lambda x: T.cumprod(x, 0), [(4,)], -2.0, 2.0),
    "prod": (lambda T: T.prod, [(4,)], -2.0, 2.0),
    "std": (lambda T: T.std, [(4,)], -2.0, 2.0),
    "det": (lambda T: T.linalg.det, [(3, 3)], -1.0, 1.0),
    "inv": (lambda T: lambda x: T.linalg.inv(x + 3 * T.eye(3, dtype=T.float64)), [(3, 3)], -1.0, 1.0),
    "slogdet": (lambda T: lambda x: T.linalg.slogdet(x + 3 * T.eye(3, dtype=T.float64))[1], [(3, 3)], -1.0, 1.0),
    "eigvalsh": (lambda T: lambda x: T.linalg.eigvalsh(x + x.mT), [(3, 3)], -1.0, 1.0),
    "svdvals": (lambda T: T.linalg.svdvals, [(3, 2)], -1.0, 1.0),
    "matrix_exp": (lambda T: T.linalg.matrix_exp, [(2, 2)], -1.0, 1.0),
    "cdist": (lambda T: lambda a, b: T.cdist(a, b), [(2, 3), (3, 3)], -1.0, 1.0),
    "layer_norm": (lambda T: lambda a: T.nn.functional.layer_norm(a, (4,)), [(2, 4)], -1.0, 1.0),
    "cross_entropy": (lambda T: lambda a: T.nn.functional.cross_entropy(a, T.tensor([0, 2])), [(2, 3)], -1.0, 1.0),
}


@pytest.mark.parametrize("name", sorted(GRADCHECK))
def test_gradcheck_and_gradgradcheck(name):
    mk, shapes, lo, hi = GRADCHECK[name]
    rng = np.random.default_rng(sum(map(ord, name)))
    ts = [ft.tensor(rng.uniform(lo, hi, s), dtype=ft.float64, requires_grad=True) for s in shapes]
    f = mk(ft)
    assert ft.autograd.gradcheck(f, ts, eps=1e-6, atol=1e-5, rtol=1e-4)
    assert ft.autograd.gradgradcheck(f, ts, eps=1e-6, atol=1e-5, rtol=1e-4)


# Recorded from torch 2.13.0 (CPU), float64.
TORCH = {
    'norm_zero_entry': {'val': 5.0, 'g0': [0.3, 0.4, 0.0], 'gg0': [-0.014399999999999996, 0.01079999999999999, 0.11000000000000001]},
    'vector_norm_zero_entry': {'val': 2.23606797749979, 'g0': [0.0, 0.4472135954999579, -0.22360679774997896], 'gg0': [0.06708203932499368, 0.1296919426949878, 0.2593838853899756]},
    'norm_dim_zero_row': {'val': [1.0, 5.0], 'g0': [[0.0, 0.5], [0.8999999999999999, 1.2000000000000002]], 'gg0': [[0.15, 0.0], [0.0015999999999999903, -0.0012000000000000344]]},
    'softplus_at_threshold': {'val': [2.503357674244559, 0.34657359027997264, 3.0, 2.404098033669134], 'g0': [0.4966535745378576, 0.41666666666666663, 1.1666666666666665, 1.4877561432702602], 'gg0': [0.0, 0.23611111111111108, 0.0, 0.026716613831587296]},
    'gaussian_nll_small_var': {'val': -3.2038776394910684, 'g0': [0.0, -0.25], 'g1': [-0.0, 0.25], 'g2': [125000.0, 0.0], 'gg0': [0.0, 0.275], 'gg1': [-0.0, -0.275], 'gg2': [-37500000000.0, 0.1375]},
    'pow_scalar_0': {'val': [1.0, 1.0, 1.0], 'g0': [0.0, 0.0, 0.0], 'gg0': [nan, -0.0, -0.0]},
    'pow_tensor': {'val': [1.0, 1.0, 0.125, 0.0], 'g0': [0.0, 0.8333333333333333, -0.21874999999999997, 0.0], 'g1': [0.0, 0.0, 0.10108396383165867, 0.0], 'gg0': [nan, 0.47222222222222215, 0.29899226743264884, nan], 'gg1': [nan, 0.47222222222222215, -0.007202678792569736, nan]},
    'eigvalsh_degenerate': {'val': [1.0, 1.0, 2.0], 'g0': [[0.5, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.5]], 'gg0': [[nan, nan, nan], [nan, nan, nan], [nan, nan, nan]]},
    'eigh_values_degenerate': {'val': [1.0, 1.0, 2.0], 'g0': [[0.5, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.5]], 'gg0': [[nan, nan, nan], [nan, nan, nan], [nan, nan, nan]]},
    'svdvals_degenerate': {'val': [1.0, 1.0], 'g0': [[0.5, 0.0], [0.0, 1.5]], 'gg0': [[nan, nan], [nan, nan]]},
    'svd_S_degenerate': {'val': [1.0, 1.0], 'g0': [[0.5, 0.0], [0.0, 1.5]], 'gg0': [[nan, nan], [nan, nan]]},
    'sinc': {'val': [3.8981718325193755e-17, 3.8981718325193755e-17, 0.6366197723675814, -3.8981718325193755e-17], 'g0': [-0.5, 0.8333333333333333, -1.485446135524356, 0.75], 'gg0': [0.29999999999999993, 0.9444444444444441, -1.1571652635656307, -0.8249999999999995]},
    'entr': {'val': [0.0, -0.0, 0.34657359027997264, -inf], 'g0': [inf, -0.8333333333333333, -0.35799495601339715, nan], 'gg0': [-inf, -0.47222222222222215, -1.944444444444444, 1.6500000000000001]},
    'abs': {'val': [0.0, 1.0, -4.0], 'g0': [0.0, 2.0, 6.0], 'gg0': [0.0, 1.4, -3.3000000000000003]},
    'sqrt': {'val': [0.0, 1.0, 2.0], 'g0': [inf, 0.5, 0.375], 'gg0': [-inf, -0.175, -0.051562500000000004]},
    'clamp_bounds': {'val': [0.0, 1.0, 0.25, 2.0, -0.0], 'g0': [0.0, 1.5, 1.0, 1.25, 0.0], 'gg0': [0.3, 0.75, 1.4, 0.0, 0.0]},
    'clamp_tensor_bounds': {'val': [0.0, 1.0, 0.5, 1.0, 0.0], 'g0': [0.5, 0.75, 1.0, 0.0, 0.0], 'g1': [0.0, 0.0, 0.0, 1.25, 1.5], 'gg0': None, 'gg1': None},
    'max_ties': {'val': 3.0, 'g0': [0.0, 0.25, 0.25, 0.0], 'gg0': None},
    'amax_ties': {'val': 9.0, 'g0': [0.0, 1.5, 1.5], 'gg0': [0.0, 0.45, 0.45]},
    'max_dim_ties': {'val': [1.0, 2.0], 'g0': [[0.5, 0.0], [1.5, 0.0]], 'gg0': None},
    'median_ties': {'val': 2.0, 'g0': [0.16666666666666666, 0.0, 0.16666666666666666, 0.16666666666666666], 'gg0': None},
    'sort_ties': {'val': [1.0, 1.0, 4.0, 4.0], 'g0': [4.666666666666666, 1.0, 6.0, 1.6666666666666665], 'gg0': [0.6999999999999998, 0.5666666666666667, 2.5, 1.8333333333333333]},
    'topk_ties': {'val': [9.0, 9.0], 'g0': [0.0, 3.0, 9.0, 0.0], 'gg0': [0.0, 0.5666666666666667, 2.5, 0.0]},
    'cummax_ties': {'val': [1.0, 9.0, 9.0, 9.0], 'g0': [1.0, 5.0, 16.0, 0.0], 'gg0': [0.3, 0.9444444444444443, 4.444444444444444, 0.0]},
    'cumprod_zero': {'val': [1.0, 0.0, 0.0, 0.0], 'g0': [0.5, 12.166666666666666, 0.0, 0.0], 'gg0': [6.894444444444444, 11.67222222222222, 3.211111111111111, 1.7]},
    'cumprod_zeros': {'val': [2.0, 0.0, 0.0, 0.0], 'g0': [0.5, 1.6666666666666665, 0.0, 0.0], 'gg0': [0.47222222222222215, 9.694444444444445, 6.422222222222222, 0.0]},
    'prod_zero': {'val': 0.0, 'g0': [0.0, 3.0, 0.0], 'gg0': [1.0499999999999998, 1.55, 0.6999999999999998]},
    'prod_zeros': {'val': 0.0, 'g0': [0.0, 0.0, 0.0], 'gg0': [0.0, 1.1, 0.7]},
    'logsumexp_neg_inf': {'val': -inf, 'g0': [nan, nan], 'gg0': [nan, nan]},
    'logsumexp_mixed': {'val': 1.3132616875182228, 'g0': [0.0, 0.13447071068499755, 0.36552928931500245], 'gg0': [0.0, -0.039322386648296376, 0.03932238664829635]},
    'log_softmax_neg_inf': {'val': [-1.3132616875182228, -inf, -0.31326168751822286], 'g0': [-0.3068242641099853, 1.0, -0.6931757358900147], 'gg0': [0.4718686397795566, 0.0, -0.47186863977955645]},
    'softmax_neg_inf': {'val': [0.26894142136999516, 0.0, 0.7310585786300049], 'g0': [-0.1966119332414819, -0.0, 0.19661193324148177], 'gg0': [0.07268619813835879, -0.0, -0.0726861981383588]},
    'atan2': {'val': [0.7853981633974483, 0.0, -1.1071487177940904, 2.5535900500422257], 'g0': [0.25, 0.8333333333333333, 0.4666666666666666, -0.34615384615384615], 'g1': [-0.25, -0.0, 0.9333333333333332, -0.23076923076923078], 'gg0': [-0.075, -0.47222222222222215, 1.088888888888889, 0.06834319526627222], 'gg1': [0.075, -0.47222222222222215, -0.15555555555555567, -0.1659763313609468]},
    'hypot': {'val': [5.0, 1.0, 1.118033988749895], 'g0': [0.3, 0.0, -1.3416407864998738], 'g1': [0.4, 1.0, 0.6708203932499369], 'gg0': [0.004799999999999999, 0.7, 0.8854829190899167], 'gg1': [-0.003599999999999999, 0.0, 1.7709658381798334]},
    'xlogy': {'val': [0.0, -0.6931471805599453, 2.1972245773362196], 'g0': [0.0, -0.6931471805599453, 1.6479184330021646], 'g1': [0.0, 2.0, 1.0], 'gg0': [0.15, 1.4, 0.55], 'gg1': [0.15, -1.4, 0.18333333333333335]},
    'where_sqrt': {'val': [0.0, 2.0, 0.0], 'g0': [nan, 0.25, nan], 'gg0': [nan, -0.021875, nan]},
    'det_singular': {'val': -0.0, 'g0': [[2.000000000000001, -1.0000000000000004], [-1.0000000000000004, 0.5000000000000003]], 'gg0': [[0.5500000000000004, -0.4166666666666668], [-0.28333333333333344, 0.15000000000000008]]},
    'det_rank1': {'val': 0.0, 'g0': [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]], 'gg0': [[nan, nan, nan], [nan, nan, nan], [nan, nan, nan]]},
    'slogdet': {'val': 1.791759469228055, 'g0': [[-0.08333333333333333, 0.25], [0.16666666666666666, 0.0]], 'gg0': [[-0.04907407407407409, -0.058333333333333334], [-0.037962962962962955, -0.024999999999999998]]},
    'inv': {'val': [[0.5454545454545454, -0.18181818181818182], [-0.09090909090909091, 0.36363636363636365]], 'g0': [[-0.033057851239669415, -0.10055096418732781], [-0.11019283746556471, -0.11294765840220383]], 'gg0': [[0.05414475331830704, 0.09547541531012603], [0.04604724935303445, 0.11304783370899074]]},
    'cholesky': {'val': [[2.449489742783178, 0.0], [1.6329931618554523, 2.7537852736430506]], 'g0': [[0.3139539966250642, 0.46814816798056813], [0.49865869491407827, 1.7472674908123254]], 'gg0': [[0.20063485622669147, -0.6352341175448482], [-0.1838780752215508, 0.09880000414729939]]},
    'qr_r': {'val': [[-2.29128784747792, -1.963961012123932], [0.0, -2.6726124191242437]], 'g0': [[-0.5202741745546349, -0.3265011045846714], [0.19270927357954398, -1.6250589481904185], [-0.20145021141946234, -0.4438748563003812]], 'gg0': [[-0.236745769535934, 0.5032635440196225], [0.7857235777536903, -0.06755592392266771], [-0.09710764526019544, -0.12285837679640163]]},
    'matrix_exp': {'val': [[10.161970189416252, 13.76344158130598], [6.881720790652992, 23.925411770722217]], 'g0': [[14.374499353860513, 20.44697033539561], [34.012219880138225, 46.09281230378109]], 'gg0': [[23.54422943159075, 36.02553828379367], [45.825165201501676, 71.4003469988993]]},
    'pinv': {'val': [[0.5248226950354609, -0.1560283687943262], [-0.049645390070921946, 0.3120567375886525], [-0.11347517730496448, 0.14184397163120566]], 'g0': [[0.011920929530707648, -0.09405462501886222, 0.13365021880187108], [-0.12518484985664702, -0.13686434283989746, 0.026376942809717807]], 'gg0': [[-0.010201464672246686, 0.032433712504294235, -0.09245029200337754], [0.00953951757638799, 0.140946315684707, -0.13142400688351008]]},
    'vector_norm_3': {'val': 2.080083823051904, 'g0': [0.0, 0.11556021239177244, -0.4622408495670898], 'gg0': [0.0, 0.2568004719817165, 0.12840023599085837]},
    'matrix_norm_nuc': {'val': 5.024937810560445, 'g0': [[0.49751859510499463, 0.049751859510499485], [-0.04975185951049946, 0.49751859510499447]], 'gg0': [[0.004006420369822381, -0.04006420369822397], [0.04006420369822394, 0.004006420369822409]]},
    'gelu': {'val': [0.0, 0.841344746068543, -0.00404969409489031, -0.0], 'g0': [0.25, 0.9027628921564053, -0.013936588404881238, -6.6314076069534645e-195], 'gg0': [0.1196826841204298, 0.11426395324515101, -0.03016119058124477, -2.183501478049544e-193]},
    'gelu_tanh': {'val': [0.0, 0.8411919906082768, -0.0036373920817729943, -0.0], 'g0': [0.25, 0.9024700698714854, -0.013514861069464588, 0.0], 'gg0': [0.1196826841204298, 0.11434776015900389, -0.030885223917017274, 0.0]},
    'silu': {'val': [0.0, 0.7310585786300049, -2.8072868906517896e-12, 29.999999999997197], 'g0': [0.25, 0.7730587598929056, -3.165995771123656e-12, 1.5000000000040663], 'gg0': [0.075, 0.1427840005491739, -2.5473529192943926e-12, -4.318811974711575e-12]},
    'mish': {'val': [0.0, 0.8650983882673103, -2.807286890651921e-12, 30.0], 'g0': [0.3, 0.8741968500831602, -3.1659957711239573e-12, 1.5], 'gg0': [0.096, 0.08721272211240505, -2.5473529192948866e-12, 0.0]},
    'logsigmoid': {'val': [-0.6931471805599453, -800.0, 0.0], 'g0': [0.25, 1.0, 0.0], 'gg0': [-0.0375, -0.0, 0.0]},
    'elu_off_kink': {'val': [1.0, -0.6321205588285577, 0.5], 'g0': [0.5, 0.36787944117144233, 1.5], 'gg0': [0.0, 0.2575156088200096, 0.0]},
    'huber': {'val': 0.3333333333333333, 'g0': [0.0, -0.16666666666666666, -0.16666666666666666], 'g1': [0.0, 0.16666666666666666, 0.16666666666666666], 'gg0': [0.0, 0.0, 0.0], 'gg1': [0.0, 0.0, 0.0]},
    'smooth_l1': {'val': 0.3333333333333333, 'g0': [0.0, -0.16666666666666666, -0.16666666666666666], 'g1': [0.0, 0.16666666666666666, 0.16666666666666666], 'gg0': [0.0, 0.0, 0.0], 'gg1': [0.0, 0.0, 0.0]},
    'bce_logits': {'val': 13.564382393519983, 'g0': [0.08333333333333333, 0.0, -0.16666666666666666], 'g1': [-0.0, -6.666666666666667, 6.666666666666667], 'gg0': [-0.0375, -0.11666666666666665, -0.18333333333333335], 'gg1': [-0.049999999999999996, -0.11666666666666665, -0.18333333333333335]},
    'cross_entropy_smoothing': {'val': 1.4076059644443804, 'g0': [[-0.17215121556963392, 0.014174309959261775, 0.15797690561037211], [0.014174309959261775, -0.17215121556963392, 0.15797690561037211]], 'gg0': [[-0.013905593939991318, -0.001514359200985784, 0.01541995314097712], [-0.005672683744392482, -0.005630814298785201, 0.011303498043177743]]},
    'layer_norm_constant_row': {'val': [0.0, 0.0, 0.0], 'g0': [-158.11388300841895, 0.0, 158.11388300841895], 'gg0': [0.0, 0.0, -0.0]},
    'group_norm': {'val': [[-0.9999800005999799, 0.9999800005999799], [-0.9999950000374997, 0.9999950000374997]], 'g0': [[-1.3332533373655586e-05, 1.3332533373544564e-05], [-1.6666416667865391e-06, 1.6666416665644945e-06]], 'gg0': [[1.0665600074899473e-05, -1.0665600074677428e-05], [6.666500003693621e-07, -6.666500003693621e-07]]},
    'batch_norm': {'val': [[-0.26726038286257436, -0.39223159141458575], [1.3363019143128718, 1.3728105699510502], [-1.0690415314502975, -0.9805789785364644]], 'g0': [[-0.3436203449869028, -0.2534418887115766], [0.11453942775906768, 0.06336026851988824], [0.2290809172278351, 0.1900816201916886]], 'gg0': [[-0.034034542525522106, -0.007798179953536178], [-0.049742988669799336, -0.03353222794171595], [0.08377753119532143, 0.04133040789525214]]},
    'normalize': {'val': [0.6, 0.8, 0.0], 'g0': [-0.032, 0.023999999999999994, 0.3], 'gg0': [-0.029391999999999998, -0.062256, -0.0928]},
    'cosine_similarity': {'val': 0.4472135954999579, 'g0': [0.0, 0.4472135954999579], 'g1': [0.17888543819998318, -0.08944271909999157], 'gg0': [-0.49193495504995377, -0.3577708763999663], 'gg1': [-0.16994116628998404, 0.10733126291998991]},
    'std_const': {'val': 1.5275252316519465, 'g0': [-0.21821789023599242, -0.054554472558998125, 0.27277236279499045], 'gg0': [-0.009352195295828238, 0.014028292943742374, -0.0046760976479140876]},
    'lerp': {'val': [2.0, 2.0], 'g0': [0.25, 1.5], 'g1': [0.25, 0.0], 'g2': [1.0, 0.0], 'gg0': [-0.15, -1.6500000000000001], 'gg1': [0.15, 1.6500000000000001], 'gg2': [0.0, 0.0]},
    'trace_logdet': {'val': 6.6094379124341005, 'g0': [[0.8, -0.1], [-0.1, 0.7]], 'gg0': [[0.007999999999999997, -0.04933333333333332], [-0.02266666666666666, -0.038000000000000006]]},
    'i0': {'val': [1.0, 1.0, 1.2660658777520082, 2.279585302336067], 'g0': [0.0, 4.166666666666668e-151, 0.6593522879912326, -2.385955281955994], 'gg0': [0.075, 0.23611111111111108, 0.6814371411550917, 2.4490403437787136]},
    'i1_tiny': {'val': [0.0, 5.0000000000000014e-151, 4.999999999999999e-13, 0.5651591039924851], 'g0': [0.25, 0.41666666666666663, 0.5833333333333334, 1.0513601606392846], 'gg0': [0.0, 0.0, -0.000244140625, 0.708528866471988]},
}
