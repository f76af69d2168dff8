"""Defects found by ``tools/torch_fuzz.py`` in round 22 (differential fuzzing of ``fgrad.torch``
against PyTorch 2.13), each pinned by PyTorch's numbers stored here (and analytic values where
there are any); the live comparison runs where torch is installed. See docs/shim-conventions.md."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fgrad.torch as ft
from tests._peers import torch_is_pinned, torch_version_note

inf, nan = math.inf, math.nan


def _live():
    return pytest.importorskip("torch")


def _same(mine, theirs):
    for a, b in zip(mine, theirs, strict=True):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


# -- clamp with tensor bounds: PyTorch's clamp_backward_min_max routing ---------------------

def _clamp_grads(T):
    x = T.tensor([-0.0, 3.0, 0.5, -2.0, 2.0, nan], dtype=T.float64, requires_grad=True)
    lo = T.tensor([1.0, 1.0, 0.0, 2.0, -1.0, 0.0], dtype=T.float64, requires_grad=True)
    hi = T.tensor([1.0, 1.0, 1.0, 1.0, 1.0, 1.0], dtype=T.float64, requires_grad=True)
    y = T.clamp(x, lo, hi)
    gx, glo, ghi = T.autograd.grad((y * T.tensor([1.0, 2, 3, 4, 5, 6], dtype=T.float64)).sum(), [x, lo, hi])
    return y.detach().tolist(), gx.tolist(), glo.tolist(), ghi.tolist()


# lo == hi: neither bound gets the gradient (max/min had shared it: 0.5 each); hi < lo: hi
CLAMP_WANT = ([1.0, 1.0, 0.5, 1.0, 1.0, nan], [0.0, 0.0, 3.0, 0.0, 0.0, 0.0],
              [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 4.0, 5.0, 0.0])


def test_clamp_tensor_bounds_route_the_gradient_as_pytorch():
    _same(_clamp_grads(ft), CLAMP_WANT)


def test_clamp_tensor_bounds_match_live_torch():
    _same(_clamp_grads(ft), _clamp_grads(_live()))


# -- prod: PyTorch decides "any zero" once for the whole input ------------------------------

def _prod_grads(T):
    x = T.tensor([[0.0, 2.0], [1.0, inf]], requires_grad=True)
    (g0,) = T.autograd.grad((x.prod(0) * T.tensor([1.0, 3.0])).sum(), x)
    y = T.tensor([[3.0, 2.0], [1.0, inf]], requires_grad=True)
    (g1,) = T.autograd.grad(y.prod(0).sum(), y)
    return g0.tolist(), g1.tolist()


def test_prod_gradient_with_a_zero_elsewhere_is_the_product_of_the_others():
    # column [2, inf] has no zero, but column 0 does: PyTorch takes the product of the others
    # for every slice (inf's gradient 2 * 3 = 6); fgrad had out / x = inf / inf = NaN there
    g0, g1 = _prod_grads(ft)
    assert g0 == [[1.0, inf], [0.0, 6.0]]
    np.testing.assert_array_equal(g1, [[1.0, inf], [3.0, nan]])  # no zero anywhere: out / x


def test_prod_gradient_matches_live_torch():
    _same(_prod_grads(ft), _prod_grads(_live()))


# -- huber / smooth_l1 at infinite and NaN differences ---------------------------------------

def _robust_losses(T):
    out = []
    for name, kw in (("huber_loss", {"delta": 0.5}), ("smooth_l1_loss", {"beta": 0.5})):
        x = T.tensor([-1.0, inf, 0.25], dtype=T.float64, requires_grad=True)
        t = T.tensor([-inf, nan, 0.0], dtype=T.float64, requires_grad=True)
        y = getattr(T.nn.functional, name)(x, t, reduction="none", **kw)
        out += [y.detach().tolist()] + [g.tolist() for g in T.autograd.grad(y.sum(), [x, t])]
    return out


def test_huber_and_smooth_l1_gradients_at_inf_and_nan():
    # the quadratic branch's inf * 0 cotangent made the inf difference's gradient NaN; a NaN
    # difference's gradient is NaN (PyTorch's clip(d, -delta, delta)), fgrad's was -delta
    h, hx, ht, s, sx, st = _robust_losses(ft)
    np.testing.assert_array_equal(h, [inf, nan, 0.03125])
    np.testing.assert_array_equal(hx, [0.5, nan, 0.25])
    np.testing.assert_array_equal(ht, [-0.5, nan, -0.25])
    np.testing.assert_array_equal(s, [inf, nan, 0.0625])
    np.testing.assert_array_equal(sx, [1.0, nan, 0.5])
    np.testing.assert_array_equal(st, [-1.0, nan, -0.5])


def test_huber_and_smooth_l1_match_live_torch():
    _same(_robust_losses(ft), _robust_losses(_live()))


# -- dtypes --------------------------------------------------------------------------------

def _dtypes(T):
    a = T.tensor([1, 2], dtype=T.int32)
    b = T.tensor([True])
    x = T.ones(2, 3, dtype=T.bool)
    return [str(T.add(a, b, alpha=2).dtype), str(T.sub(a, b.to(T.uint8), alpha=2).dtype),
            str(T.sum(x, dtype=T.bool).dtype), str(T.sum(x, 0, dtype=T.bool).dtype),
            str(T.prod(T.tensor([2, 3]), dtype=T.bool).dtype),
            str(T.nansum(T.tensor([0.0, 0.5]), dtype=T.bool)),
            tuple(T.any(x, dim=()).shape), tuple(T.all(x, dim=[]).shape)]


def test_alpha_sum_prod_and_logical_reduction_dtypes():
    # add(int32, bool, alpha=2) was int64 (bool * 2 promoted first); sum/prod(dtype=bool) were
    # int64 (NumPy's count); any/all over dim=() reduced everything (PyTorch: none)
    got = _dtypes(ft)
    assert got[:5] == ["torch.int32", "torch.int32", "torch.bool", "torch.bool", "torch.bool"]
    assert got[5] == "tensor(True)" and got[6:] == [(2, 3), (2, 3)]


def test_dtypes_match_live_torch():
    torch = _live()
    if not torch_is_pinned(torch):  # 2.11's nansum has no bool kernel ("nansum_cpu" not implemented)
        pytest.skip(torch_version_note(torch))
    assert _dtypes(ft) == _dtypes(torch)


def _inplace_grad_dtypes(T):
    out = []
    for op in (lambda y, b: y.add_(b), lambda y, b: y.sub_(b, alpha=-0.5), lambda y, b: y[:1].add_(b[:1])):
        a = T.tensor([1.0, 2.0], requires_grad=True)
        b = T.tensor([3.0, 4.0], dtype=T.float64, requires_grad=True)
        y = a * 1
        op(y, b)
        ga, gb = T.autograd.grad(y.sum(), [a, b])
        out.append((str(ga.dtype), str(gb.dtype), gb.tolist()))
    return out


def test_in_place_op_with_a_wider_other_gives_it_its_own_dtype_gradient():
    # float32.add_(float64): the float32 cotangent reached the float64 `other` unconverted
    got = _inplace_grad_dtypes(ft)
    assert [g[:2] for g in got] == [("torch.float32", "torch.float64")] * 3
    assert [g[2] for g in got] == [[1.0, 1.0], [0.5, 0.5], [1.0, 0.0]]


def test_in_place_gradient_dtypes_match_live_torch():
    assert _inplace_grad_dtypes(ft) == _inplace_grad_dtypes(_live())


@pytest.mark.parametrize("call", [
    lambda T, x: T.sum(x, dtype=T.int64), lambda T, x: T.prod(x, 0, dtype=T.int64),
    lambda T, x: T.nansum(x, dtype=T.int32), lambda T, x: T.cumsum(x, 0, dtype=T.int64),
    lambda T, x: T.sum(x, dtype=T.bool)])
def test_integer_accumulate_dtype_of_a_grad_input_is_refused(call):
    x = ft.ones(2, 3, requires_grad=True)
    with pytest.raises(RuntimeError, match="Autograd not support dtype"):
        call(ft, x)
    with ft.no_grad():
        assert call(ft, x).requires_grad is False  # allowed without grad mode, as PyTorch
    assert call(ft, x.detach()).dtype in (ft.int64, ft.int32, ft.bool)


def _split_shapes(T):
    return [[tuple(p.shape) for p in pieces] for pieces in (
        T.ones(0).split(2), T.ones(2, 0).split(3, 1), T.ones(0, dtype=T.bool).split(2, -1))]


def test_split_of_an_empty_dim_gives_one_empty_piece():
    assert _split_shapes(ft) == [[(0,)], [(2, 0)], [(0,)]]  # fgrad gave no pieces


def test_split_of_an_empty_dim_matches_live_torch():
    assert _split_shapes(ft) == _split_shapes(_live())


# -- special.log_ndtr at +inf -----------------------------------------------------------------

def _log_ndtr_grad(T):
    x = T.tensor([inf, 40.0, -inf, nan, 0.3], dtype=T.float64, requires_grad=True)
    (g,) = T.autograd.grad(T.special.log_ndtr(x).sum(), x)
    return g.tolist()


def test_log_ndtr_gradient_at_plus_inf_is_zero():
    # the NaN pass-through factor x * 0 + 1 was NaN at inf: NaN through the branch not taken
    g = _log_ndtr_grad(ft)
    assert g[:2] == [0.0, 0.0] and math.isnan(g[2]) and math.isnan(g[3])
    phi = math.exp(-0.045) / math.sqrt(2 * math.pi)
    assert abs(g[4] - phi / (0.5 * math.erfc(-0.3 / math.sqrt(2)))) < 1e-12


def test_log_ndtr_gradient_matches_live_torch():
    np.testing.assert_allclose(_log_ndtr_grad(ft), _log_ndtr_grad(_live()), rtol=1e-14)


# -- errors PyTorch raises that fgrad accepted -----------------------------------------------

def _refusals(T):
    x = T.zeros(3)
    i = T.tensor([0, 0])
    xc, sc = T.zeros(3, dtype=T.complex64, requires_grad=True), T.ones(2, dtype=T.complex64)
    F = T.nn.functional
    return [
        lambda: x.index_put((T.tensor([0]),), T.tensor(1.0, dtype=T.float64)),
        lambda: x.clone().index_put_((T.tensor([0]),), T.tensor([1]), accumulate=True),
        lambda: x.masked_scatter(T.tensor([True, False, True]), T.ones(3, dtype=T.float64)),
        lambda: x.clone().put_(T.tensor([0]), T.ones(1, dtype=T.float64)),
        lambda: xc.scatter_reduce(0, i, sc, "sum"),
        lambda: xc.scatter_reduce(0, i, sc, "mean", include_self=False),
        lambda: xc.detach().scatter_reduce(0, i, sc, "amax"),
        lambda: F.avg_pool3d(T.ones(1, 1, 5, 1, 2), 2, 1, padding=1),
        lambda: F.pad(T.ones(1, 2, 3, 4), (1, 1), mode="reflect"),
        lambda: F.pad(T.ones(2, 3), (1, 1, 1, 1), mode="circular"),
        lambda: F.pad(T.ones(3), (1, 1), mode="replicate"),
        lambda: F.soft_margin_loss(T.ones(2), T.ones(2, requires_grad=True)),
    ]


REFUSED = ([RuntimeError] * 6 + [NotImplementedError, RuntimeError] + [NotImplementedError] * 3
           + [RuntimeError])


@pytest.mark.parametrize("k", range(len(REFUSED)))
def test_refused_as_pytorch_refuses(k):
    with pytest.raises(REFUSED[k]) as info:
        _refusals(ft)[k]()
    assert type(info.value) is REFUSED[k] or issubclass(type(info.value), REFUSED[k])


@pytest.mark.parametrize("k", range(len(REFUSED)))
def test_refusals_match_live_torch(k):
    torch = _live()
    with pytest.raises(Exception) as theirs:
        _refusals(torch)[k]()
    with pytest.raises(Exception) as mine:
        _refusals(ft)[k]()
    assert isinstance(mine.value, type(theirs.value))
    assert str(mine.value).split("\n")[0][:40] == str(theirs.value).split("\n")[0][:40]


def test_still_accepted_where_pytorch_accepts():
    x = ft.zeros(3)
    x[ft.tensor([0])] = ft.tensor(1.0, dtype=ft.float64)  # `x[i] = v` converts
    assert x.tolist() == [1.0, 0.0, 0.0]
    assert tuple(ft.nn.functional.pad(ft.ones(1, 2, 3), (1, 1, 1, 1), mode="reflect").shape) == (1, 4, 5)
    ones = ft.ones(2, dtype=ft.complex64)
    y = ft.zeros(3, dtype=ft.complex64).scatter_reduce(0, ft.tensor([0, 0]), ones, "sum")
    assert y.tolist() == [2 + 0j, 0j, 0j]
    with ft.no_grad():
        ft.nn.functional.soft_margin_loss(ft.ones(2), ft.ones(2, requires_grad=True))


# -- complex eigen/singular vector phases: PyTorch refuses phase-dependent losses in backward -----

_RNG = np.random.default_rng(0)
_A = _RNG.standard_normal((3, 3)) + 1j * _RNG.standard_normal((3, 3))
_H = _A @ _A.conj().T
_G = _A + np.triu(np.ones((3, 3)))
PHASE_LOSSES = {  # name: (loss, matrix, PyTorch raises)
    "eigh_real": (lambda T, x: T.linalg.eigh(x)[1].real.sum(), _H, True),
    "eigh_abs": (lambda T, x: T.linalg.eigh(x)[1].abs().sum(), _H, False),
    "svd_u_real": (lambda T, x: T.linalg.svd(x)[0].real.sum(), _A, True),
    "svd_vh_imag": (lambda T, x: T.linalg.svd(x)[2].imag.sum(), _A, True),
    "svd_product": (lambda T, x: (lambda r: (r[0][:, :2] @ r[2][:2]).real.sum())(T.linalg.svd(x)), _A, False),
    "torch_svd_u_real": (lambda T, x: T.svd(x)[0].real.sum(), _A, True),
    "eig_real": (lambda T, x: T.linalg.eig(x)[1].real.sum(), _G, True),
    "eig_abs": (lambda T, x: T.linalg.eig(x)[1].abs().sum() + T.linalg.eig(x)[0].real.sum(), _G, False),
    "eig_real_input_abs": (lambda T, x: T.linalg.eig(x)[1].abs().sum(), np.array([[2.0, 1.0], [0.5, 3.0]]),
                           False),
}


def _phase_grad(T, name):
    loss, m, _ = PHASE_LOSSES[name]
    x = T.tensor(m, requires_grad=True)
    return T.autograd.grad(loss(T, x), x)[0].detach().numpy()


@pytest.mark.parametrize("name", sorted(PHASE_LOSSES))
def test_phase_dependent_losses_are_refused_as_pytorch(name):
    # fgrad returned the gradient of one arbitrary phase choice (eigh, svd); linalg.eig of a
    # tensor requiring grad raised NotImplementedError in the forward
    if PHASE_LOSSES[name][2]:
        with pytest.raises(RuntimeError, match="specified up to multiplication by e"):
            _phase_grad(ft, name)
    else:
        assert np.isfinite(_phase_grad(ft, name)).all()


@pytest.mark.parametrize("name", [n for n, v in PHASE_LOSSES.items() if not v[2]])
def test_phase_invariant_gradients_match_live_torch(name):
    np.testing.assert_allclose(_phase_grad(ft, name), _phase_grad(_live(), name), rtol=1e-9, atol=1e-12)


def test_eig_phase_invariant_gradient_stored():
    # PyTorch 2.13's gradient of sum |V| for [[2, 1], [0.5, 3]]
    want = [[0.1704436997730663, 0.04066373982452783], [0.2595599198970783, -0.17044369977306656]]
    np.testing.assert_allclose(_phase_grad(ft, "eig_real_input_abs"), want, rtol=1e-9)


# -- more refusals and result dtypes (PyTorch 2.13's verdicts stored) --------------------------

def _verdicts(T):
    f32, f64 = T.ones(2) + 1, T.ones(2, dtype=T.float64) + 1
    i, b, c = T.ones(2, dtype=T.int64) + 1, T.ones(2, dtype=T.bool), T.ones(2, dtype=T.complex64)
    d0 = T.tensor(2.0, dtype=T.float64)
    calls = {
        "lerp_end": lambda: T.lerp(f32, f64, 0.3),
        "lerp_weight": lambda: T.lerp(f64, f64, f32),
        "lerp_weight_0d": lambda: T.lerp(f32, f32, d0),
        "heaviside": lambda: T.heaviside(f32, f64),
        "isclose": lambda: T.isclose(f32, b),
        "dot_bool": lambda: T.dot(b, b),
        "xlogy_complex_other": lambda: T.xlogy(f32, c),
        "xlog1py_complex": lambda: T.special.xlog1py(c, c),
        "xlog1py_0d": lambda: T.special.xlog1py(f32, d0),
        "zeta_complex": lambda: T.special.zeta(f32, c),
        "zeta_0d": lambda: T.special.zeta(f32, d0),
        "zeta_int": lambda: T.special.zeta(i, i),
        "gammainc_int": lambda: T.special.gammainc(i, i),
        "gammainc_0d": lambda: T.special.gammainc(f32, d0),
        "gammainc_int_0d": lambda: T.special.gammainc(i, d0),
        "igamma_int_float": lambda: T.igamma(i, f32),
        "igamma_0d": lambda: T.igamma(f32, d0),
        "special_round_int": lambda: T.special.round(i),
        "round_int": lambda: T.round(i),
        "div_trunc_bool": lambda: T.div(b, b, rounding_mode="trunc"),
        "nan_to_num_complex_grad": lambda: T.nan_to_num(c.clone().requires_grad_()),
        "nan_to_num_complex": lambda: T.nan_to_num(c),
        "masked_select_shapes": lambda: T.masked_select(T.ones(3), T.ones(4, dtype=T.bool)),
    }
    out = {}
    for name, call in calls.items():
        try:
            out[name] = str(call().dtype).replace("torch.", "")
        except Exception as e:  # noqa: BLE001 - the verdict is the type
            out[name] = type(e).__name__
    return out


VERDICTS = {  # PyTorch 2.13
    "lerp_end": "RuntimeError", "lerp_weight": "RuntimeError", "lerp_weight_0d": "float32",
    "heaviside": "RuntimeError", "isclose": "RuntimeError", "dot_bool": "NotImplementedError",
    "xlogy_complex_other": "NotImplementedError", "xlog1py_complex": "NotImplementedError",
    "xlog1py_0d": "float32", "zeta_complex": "NotImplementedError", "zeta_0d": "float32",
    "zeta_int": "float32",
    "gammainc_int": "NotImplementedError", "gammainc_0d": "float32", "gammainc_int_0d": "float64",
    "igamma_int_float": "float32", "igamma_0d": "float32", "special_round_int": "NotImplementedError",
    "round_int": "int64", "div_trunc_bool": "NotImplementedError", "nan_to_num_complex_grad": "RuntimeError",
    "nan_to_num_complex": "complex64", "masked_select_shapes": "RuntimeError",
}


def test_verdicts_stored():
    assert _verdicts(ft) == VERDICTS


def test_verdicts_match_live_torch():
    assert _verdicts(ft) == _verdicts(_live())



def _lerp_dtype_messages(T):
    out = []
    for end in (T.ones(2, dtype=T.int64), T.ones(2, dtype=T.float64), T.ones(2, dtype=T.bool)):
        try:
            T.lerp(T.ones(2), end, 0.5)
        except RuntimeError as e:
            out.append(str(e))
    return out


LERP_MESSAGES = [  # PyTorch 2.13's words: C++ element type names (an int64 `end` is "long int")
    "expected dtype float for `end` but got dtype long int",
    "expected dtype float for `end` but got dtype double",
    "expected dtype float for `end` but got dtype bool",
]


def test_lerp_dtype_mismatch_names_cpp_types_stored():
    assert _lerp_dtype_messages(ft) == LERP_MESSAGES


def test_lerp_dtype_mismatch_names_cpp_types_live():
    assert _lerp_dtype_messages(ft) == _lerp_dtype_messages(_live())

def _broadcast_and_masked(T):
    out = []
    for call in (lambda: T.broadcast_shapes((2, 3), (2, 1, 3), (5, 1, 1)),
                 lambda: T.broadcast_tensors(T.ones(3), T.ones(4)),
                 lambda: T.special.xlog1py(T.ones(3), T.ones(4)),
                 lambda: T.masked_select(T.tensor(2.5), T.tensor(True)).tolist(),
                 lambda: T.masked_select(T.tensor(0, dtype=T.int32), T.tensor(False)).tolist()):
        try:
            out.append(call())
        except Exception as e:  # noqa: BLE001 - the verdict is the type and message
            out.append((type(e).__name__, str(e)))
    return out


def test_broadcast_errors_and_0d_masked_select():
    # NumPy's ValueError escaped (broadcast_shapes/tensors, xlog1py); a 0-d masked_select raised
    got = _broadcast_and_masked(ft)
    assert got[0] == ("RuntimeError", "Attempting to broadcast a dimension of length 5 at -3! Mismatching "
                      "argument at index 2 had (5, 1, 1); but expected shape should be broadcastable to "
                      "[2, 2, 3]")
    want = ("RuntimeError",
            "The size of tensor a (3) must match the size of tensor b (4) at non-singleton dimension 0")
    assert got[1] == got[2] == want
    assert got[3:] == [[2.5], []]


def test_broadcast_errors_and_0d_masked_select_match_live_torch():
    assert _broadcast_and_masked(ft) == _broadcast_and_masked(_live())
