"""Round-8 additions to fgrad.torch (complex views, stft/istft and windows, statistics and
linear-algebra helpers, generic in-place twins): values, dtypes, gradients and errors equal
PyTorch 2.13's -- stored numbers (run without torch) and live comparisons (with torch)."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as torch

# PyTorch 2.13 (CPU), float64
STFT_ROW0 = [
    (-2.3500672255626722 + 0j),
    (1.7397158623901983 - 1.1102230246251565e-16j),
    (-0.7079457646887302 + 1.1102230246251565e-16j),
    (0.26028413760980174 + 0j),
    (-0.23404124505986745 + 0j),
]
STFT_SHAPE = (5, 11)
HANN5 = [0.0, 0.3454915028125263, 0.9045084971874737, 0.9045084971874737, 0.3454915028125264]
KAISER6 = [
    5.2773441320097665e-05,
    0.054759364131249516,
    0.5188447216723606,
    1.0,
    0.5188447216723606,
    0.054759364131249516,
]
BLACK5 = [0.0, 0.33999999999999997, 1.0, 0.3400000000000001, 0.0]
COV = [
    [2.9166666666666665, -2.125, 0.3333333333333333],
    [-2.125, 1.5625, -0.3333333333333333],
    [0.3333333333333333, -0.3333333333333333, 0.6666666666666666],
]
CORR = [
    [1.0, -0.9954180744075039, 0.23904572186687872],
    [-0.9954180744075039, 1.0, -0.3265986323710904],
    [0.23904572186687872, -0.32659863237109044, 1.0],
]


def _signal(lib):
    return lib.linspace(-1, 1, 20, dtype=lib.float64) ** 3 + 0.1 * lib.arange(20, dtype=lib.float64)


def _matrix(lib):
    return lib.tensor([[0.0, 1, 2, 4], [2, 1, 0.5, -1], [1, 3, 2, 2]], dtype=lib.float64)


# -- stored numbers ----------------------------------------------------------------------


def test_stft_stored():
    s = torch.stft(
        _signal(torch), 8, hop_length=2, window=torch.hann_window(8, dtype=torch.float64), return_complex=True
    )
    assert tuple(s.shape) == STFT_SHAPE and s.dtype == torch.complex128
    np.testing.assert_allclose(s[:, 0].numpy(), STFT_ROW0, atol=1e-12)


def test_windows_stored():
    np.testing.assert_allclose(torch.hann_window(5, dtype=torch.float64).numpy(), HANN5, atol=1e-15)
    np.testing.assert_allclose(torch.kaiser_window(6, dtype=torch.float64).numpy(), KAISER6, rtol=1e-12)
    np.testing.assert_array_equal(
        torch.blackman_window(5, periodic=False, dtype=torch.float64).numpy()[[0, 4]], 0
    )
    np.testing.assert_allclose(
        torch.blackman_window(5, periodic=False, dtype=torch.float64).numpy(), BLACK5, atol=1e-15
    )
    assert torch.hann_window(3).dtype == torch.float32
    assert torch.hann_window(1).tolist() == [1.0] and torch.hann_window(0).shape == (0,)
    assert torch.hann_window(3, requires_grad=True).requires_grad
    with pytest.raises(RuntimeError, match="expects floating point dtypes"):
        torch.hann_window(4, dtype=torch.int64)


def test_cov_corrcoef_stored():
    m32 = torch.tensor([[0.0, 1.0, 2.0, 4.0], [2.0, 1.0, 0.5, -1.0]])
    assert torch.cov(m32).dtype == torch.float32 and torch.corrcoef(m32).dtype == torch.float32
    assert torch.cov(torch.tensor([[1, 2, 4], [2, 1, 0]])).dtype == torch.float32
    assert (
        torch.cov(m32, aweights=torch.tensor([1.0, 2.0, 1.0, 1.0], dtype=torch.float64)).dtype
        == torch.float64
    )
    np.testing.assert_allclose(torch.cov(_matrix(torch)).numpy(), COV, rtol=1e-13)
    np.testing.assert_allclose(torch.corrcoef(_matrix(torch)).numpy(), CORR, rtol=1e-13)


def test_view_as_real_shares_storage_both_ways():
    z = torch.tensor([1 + 2j, 3 - 1j])
    r = torch.view_as_real(z)
    r[0, 1] = 5.0
    assert z.tolist() == [1 + 5j, 3 - 1j]
    z[1] = 7 + 8j
    assert r[1].tolist() == [7.0, 8.0]
    x = torch.arange(6.0).reshape(3, 2)
    c = torch.view_as_complex(x)
    c[1] = 7 + 8j
    assert x.tolist() == [[0.0, 1.0], [7.0, 8.0], [4.0, 5.0]]
    assert c._base is x._base and r._base is z
    sub = torch.view_as_complex(torch.ones(3, 4)[:, :2])  # strided: still a view
    assert sub.stride() == (2,)


@pytest.mark.parametrize(
    "bad, message",
    [
        (lambda: torch.ones(3), "last dimension of size 2"),
        (lambda: torch.ones(2, 2).t(), "last dimension with stride 1"),
        (lambda: torch.ones(2, 3)[:, :2], "stride divisible by 2"),
        (lambda: torch.ones(4)[1:3], "storage_offset divisible by 2"),
        (lambda: torch.ones(2, dtype=torch.int64), "scalar type: Long"),
    ],
)
def test_view_as_complex_errors(bad, message):
    with pytest.raises(RuntimeError, match=message):
        torch.view_as_complex(bad())


def test_view_as_real_errors_and_conj_bits():
    with pytest.raises(RuntimeError, match="only supported for complex tensors"):
        torch.view_as_real(torch.ones(2))
    z = torch.tensor([1 + 2j])
    assert z.conj().is_conj() and not torch.is_neg(z)  # the conjugate bit (tests/shim/test_conj_view.py)
    x = torch.ones(2)
    assert torch.conj(x) is x and torch.resolve_conj(x) is x and torch.resolve_neg(x) is x
    assert torch.conj_physical(x) is x
    assert z.conj().tolist() == [1 - 2j] and z.conj_physical_().tolist() == [1 - 2j]
    with pytest.raises(RuntimeError, match="complex32"):
        x.chalf()


def test_inplace_writes_through_views_of_another_dtype_have_right_gradients():
    # regression: CopySlices placed a real/imag view's values over the whole complex element
    # (and failed with a cotangent dtype error); imag(b) *= 3 must keep real(b)
    a = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    b = a * 1
    b.imag.mul_(3)
    (b.abs() ** 2).sum().backward()
    assert a.grad.tolist() == [2 + 36j, 6 - 18j]
    a = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    b = a * 1
    torch.view_as_real(b).mul_(2)
    (b.abs() ** 2).sum().backward()
    assert a.grad.tolist() == [8 + 16j, 24 - 8j]
    a = torch.arange(4.0, requires_grad=True)
    b = a * 1
    torch.view_as_complex(b.view(2, 2)).mul_(1j)
    (b * torch.arange(4.0)).sum().backward()
    assert a.grad.tolist() == [1.0, 0.0, 3.0, -2.0]


def test_istft_inverts_stft_and_errors():
    x = _signal(torch)
    w = torch.hann_window(8, dtype=torch.float64)
    s = torch.stft(x, 8, hop_length=2, window=w, return_complex=True)
    np.testing.assert_allclose(
        torch.istft(s, 8, hop_length=2, window=w, length=20).numpy(), x.numpy(), atol=1e-12
    )
    with pytest.raises(RuntimeError, match="return_complex parameter be given"):
        torch.stft(x, 8)
    with pytest.raises(RuntimeError, match="expected 0 < n_fft"):
        torch.stft(x, 0, return_complex=True)
    with pytest.raises(RuntimeError, match="complex-valued input"):
        torch.istft(torch.ones(5, 3), 8)
    with pytest.warns(UserWarning, match="deprecated"):
        assert torch.stft(x, 8, return_complex=False).shape == (5, 11, 2)


def test_stft_istft_gradients():
    x = _signal(torch).requires_grad_()
    w = torch.hann_window(8, dtype=torch.float64)
    assert torch.autograd.gradcheck(
        lambda v: torch.view_as_real(torch.stft(v, 8, hop_length=2, window=w, return_complex=True)), (x,)
    )
    s = torch.stft(x.detach(), 8, hop_length=2, window=w, return_complex=True)
    r = torch.view_as_real(s).contiguous().requires_grad_()
    assert torch.autograd.gradcheck(
        lambda v: torch.istft(torch.view_as_complex(v), 8, hop_length=2, window=w, length=20), (r,)
    )


def test_generic_inplace_twins():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 1
    y.lgamma_()
    y.sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), [-0.5772157, 0.4227843], rtol=1e-6)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        torch.arange(3).lgamma_()
    with pytest.raises(RuntimeError, match="leaf Variable that requires grad"):
        torch.ones(2, requires_grad=True).lgamma_()
    with pytest.raises(RuntimeError, match="float_power_ has dtype Float"):
        torch.ones(2).float_power_(2)
    v = torch.tensor([1.0, 2.0])
    assert v.xlogy_(v) is v and np.allclose(v.numpy(), [0.0, 2 * np.log(2)])
    base = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    c = base * 1
    c[1:].digamma_()
    c.sum().backward()
    assert base.grad[0].item() == 1.0 and base.grad[1].item() > 0
    assert torch.tensor([1, 2]).bitwise_left_shift_(2).tolist() == [4, 8]


def test_misc_stored():
    assert torch.bitwise_right_shift(torch.tensor([-16, 16]), 2).tolist() == [-4, 4]
    m, e = torch.frexp(torch.tensor([8.0, 0.75]))
    assert m.tolist() == [0.5, 0.75] and e.tolist() == [4, 0] and e.dtype == torch.int32
    assert torch.isin(torch.tensor([1, 2, 3]), torch.tensor([2, 5])).tolist() == [False, True, False]
    assert [t.tolist() for t in torch.hsplit(torch.arange(4), 2)] == [[0, 1], [2, 3]]
    with pytest.raises(RuntimeError, match="not divisible"):
        torch.vsplit(torch.zeros(3, 2), 2)
    assert [t.tolist() for t in torch.split_with_sizes(torch.arange(5), [2, 3])] == [[0, 1], [2, 3, 4]]
    with pytest.raises(RuntimeError, match="sum exactly"):
        torch.split_with_sizes(torch.arange(5), [2, 2])
    assert torch.adjoint(torch.tensor([[1 + 1j, 2]])).tolist() == [[1 - 1j], [2 + 0j]]
    assert torch.is_same_size(torch.zeros(2), torch.ones(2)) and not torch.is_signed(
        torch.tensor([1], dtype=torch.uint8)
    )
    assert torch.fill(torch.zeros(2), 3.0).tolist() == [3.0, 3.0]
    for name in ("lstsq", "solve", "eig", "symeig"):
        with pytest.raises(RuntimeError, match="removed"):
            getattr(torch.eye(2), name)(torch.eye(2))
    np.testing.assert_allclose(
        torch.matrix_exp(torch.tensor([[0.0, 1.0], [-1.0, 0.0]])).numpy(),
        [[np.cos(1), np.sin(1)], [-np.sin(1), np.cos(1)]],
        rtol=1e-6,
    )
    np.testing.assert_allclose(
        torch.cholesky_inverse(torch.tensor([[2.0, 0.0], [1.0, 1.0]])).numpy(),
        [[0.5, -0.5], [-0.5, 1.0]],
        rtol=1e-6,
    )
    assert torch.vmap(torch.dot)(torch.ones(3, 2), torch.ones(3, 2)).tolist() == [2.0, 2.0, 2.0]


def test_gradchecks():
    a = torch.tensor([[2.0, 0.3], [0.1, 1.5]], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([[1.0], [2.0]], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(torch.matrix_exp, (a,))
    assert torch.autograd.gradcheck(lambda L, B: torch.cholesky_solve(B, torch.tril(L)), (a, b))
    assert torch.autograd.gradcheck(lambda L: torch.cholesky_inverse(torch.tril(L)), (a,))
    m = _matrix(torch).requires_grad_()
    assert torch.autograd.gradcheck(torch.cov, (m,))
    assert torch.autograd.gradcheck(torch.corrcoef, (m,))
    q = torch.randn(3, 2, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda v: torch.view_as_real(torch.view_as_complex(v) * (1 + 2j)), (q,))
    r = torch.randn(3, 2, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda v: torch.view_as_complex(v).abs(), (r,))


# -- live PyTorch ------------------------------------------------------------------------


def _to(lib, t):
    return lib.tensor(t.detach().numpy())


INPLACE_CASES = [
    ("lgamma_", lambda lib: (lib.tensor([0.5, 3.0]),), ()),
    ("digamma_", lambda lib: (lib.tensor([0.5, 3.0]),), ()),
    ("polygamma_", lambda lib: (lib.tensor([0.5, 3.0]),), (1,)),
    ("sinc_", lambda lib: (lib.tensor([0.5, 0.0]),), ()),
    ("deg2rad_", lambda lib: (lib.tensor([90.0, 180.0]),), ()),
    ("nan_to_num_", lambda lib: (lib.tensor([float("nan"), 1.0]),), ()),
    ("xlogy_", lambda lib: (lib.tensor([0.0, 2.0]), lib.tensor([0.0, 3.0])), ()),
    ("gcd_", lambda lib: (lib.tensor([4, 6]), lib.tensor([6, 9])), ()),
    ("copysign_", lambda lib: (lib.tensor([1.0, 2.0]), lib.tensor([-1.0, 1.0])), ()),
    ("logical_not_", lambda lib: (lib.tensor([0.0, 2.0]),), ()),
    ("bitwise_not_", lambda lib: (lib.tensor([0, 5]),), ()),
    ("cumprod_", lambda lib: (lib.tensor([1.0, 2.0, 3.0]),), (0,)),
    ("sgn_", lambda lib: (lib.tensor([-2.0, 0.0, 3.0]),), ()),
    ("addmm_", lambda lib: (lib.ones(2, 2), lib.eye(2), lib.full((2, 2), 2.0)), ()),
    ("addr_", lambda lib: (lib.zeros(2, 2), lib.tensor([1.0, 2.0]), lib.tensor([3.0, 4.0])), ()),
    ("bitwise_right_shift_", lambda lib: (lib.tensor([8, -16]),), (2,)),
]


@pytest.mark.parametrize("name, make, extra", INPLACE_CASES, ids=[c[0] for c in INPLACE_CASES])
def test_inplace_live(name, make, extra):
    pt = pytest.importorskip("torch")
    ours = make(torch)
    theirs = make(pt)
    r1 = getattr(ours[0], name)(*ours[1:], *extra)
    r2 = getattr(theirs[0], name)(*theirs[1:], *extra)
    assert r1 is ours[0]
    assert str(r1.dtype) == str(r2.dtype)
    np.testing.assert_allclose(r1.numpy(), r2.numpy(), rtol=1e-6, equal_nan=True)


def test_signal_live():
    pt = pytest.importorskip("torch")
    for name in ("hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"):
        for n in (0, 1, 2, 7, 8):
            for periodic in (True, False):
                a = getattr(torch, name)(n, periodic, dtype=torch.float64)
                b = getattr(pt, name)(n, periodic, dtype=pt.float64)
                np.testing.assert_allclose(
                    a.numpy(), b.numpy(), atol=1e-14, err_msg=f"{name}({n}, {periodic})"
                )
    cases = [
        dict(n_fft=8, hop_length=2),
        dict(n_fft=8, win_length=6, center=False),
        dict(n_fft=6, hop_length=3, normalized=True, pad_mode="constant"),
        dict(n_fft=8, onesided=False),
    ]
    for kw in cases:
        xs = (_signal(torch), _signal(pt))
        ws = (
            torch.hann_window(kw.get("win_length", kw["n_fft"]), dtype=torch.float64),
            pt.hann_window(kw.get("win_length", kw["n_fft"]), dtype=pt.float64),
        )
        a = torch.stft(xs[0], window=ws[0], return_complex=True, **kw)
        b = pt.stft(xs[1], window=ws[1], return_complex=True, **kw)
        np.testing.assert_allclose(a.numpy(), b.numpy(), atol=1e-12, err_msg=str(kw))
        ikw = {k: v for k, v in kw.items() if k != "pad_mode"}
        if not kw.get("center", True):  # the padded window's zero ends: both refuse (NOLA)
            with pytest.raises(RuntimeError):
                pt.istft(b, window=ws[1], length=20, **ikw)
            with pytest.raises(RuntimeError, match="window overlap add min"):
                torch.istft(a, window=ws[0], length=20, **ikw)
            continue
        np.testing.assert_allclose(
            torch.istft(a, window=ws[0], length=20, **ikw).numpy(),
            pt.istft(b, window=ws[1], length=20, **ikw).numpy(),
            atol=1e-12,
        )
    batch = (torch.stack([_signal(torch)] * 2), pt.stack([_signal(pt)] * 2))
    np.testing.assert_allclose(
        torch.stft(batch[0], 8, return_complex=True).numpy(),
        pt.stft(batch[1], 8, return_complex=True).numpy(),
        atol=1e-12,
    )


def test_stats_linalg_live():
    pt = pytest.importorskip("torch")
    m1, m2 = _matrix(torch), _matrix(pt)
    np.testing.assert_allclose(
        torch.cov(m1, correction=0).numpy(), pt.cov(m2, correction=0).numpy(), rtol=1e-12
    )
    fw, aw = [1, 2, 1, 3], [0.5, 1.0, 2.0, 1.0]
    np.testing.assert_allclose(
        torch.cov(m1, fweights=torch.tensor(fw), aweights=torch.tensor(aw, dtype=torch.float64)).numpy(),
        pt.cov(m2, fweights=pt.tensor(fw), aweights=pt.tensor(aw, dtype=pt.float64)).numpy(),
        rtol=1e-12,
    )
    a = np.array([[2.0, 0.3], [0.1, 1.5]])
    np.testing.assert_allclose(
        torch.matrix_exp(torch.tensor(a)).numpy(), pt.matrix_exp(pt.tensor(a)).numpy(), rtol=1e-12
    )
    L = np.array([[2.0, 0.0], [0.5, 1.0]])
    B = np.array([[1.0, 2.0], [3.0, -1.0]])
    for upper in (False, True):
        f = L.T if upper else L
        np.testing.assert_allclose(
            torch.cholesky_solve(torch.tensor(B), torch.tensor(f), upper).numpy(),
            pt.cholesky_solve(pt.tensor(B), pt.tensor(f), upper).numpy(),
            rtol=1e-12,
        )
    x = np.array([1.0, 2.0, -3.0])
    y = np.array([2.0, 1.0, -3.0])
    np.testing.assert_array_equal(
        torch.nextafter(torch.tensor(x), torch.tensor(y)).numpy(),
        pt.nextafter(pt.tensor(x), pt.tensor(y)).numpy(),
    )
    for sh in (0, 3, 63, 64, -1):
        v = [5, -5, 1 << 40]
        assert (
            torch.bitwise_left_shift(torch.tensor(v), sh).tolist()
            == pt.bitwise_left_shift(pt.tensor(v), sh).tolist()
        )
        assert (
            torch.bitwise_right_shift(torch.tensor(v), sh).tolist()
            == pt.bitwise_right_shift(pt.tensor(v), sh).tolist()
        )
    for fn in ("hsplit", "vsplit", "dsplit"):
        t1, t2 = torch.arange(24).reshape(2, 3, 4), pt.arange(24).reshape(2, 3, 4)
        for arg in ([1], [1, 2]):
            assert [p.tolist() for p in getattr(torch, fn)(t1, arg)] == [
                p.tolist() for p in getattr(pt, fn)(t2, arg)
            ]


# -- statistics / indexing (second batch) -------------------------------------------------


def test_histogram_and_indexing_stored():
    h, e = torch.histogram(torch.tensor([1.0, 2.0, 1.0, 4.0]), bins=3)
    assert h.tolist() == [2.0, 1.0, 1.0] and e.tolist() == [1.0, 2.0, 3.0, 4.0]
    r = torch.histogram(
        torch.tensor([1.0, 2.0, 1.0, 4.0]),
        bins=torch.tensor([0.0, 1.0, 2.0, 5.0]),
        weight=torch.tensor([1.0, 2.0, 3.0, 4.0]),
        density=True,
    )
    np.testing.assert_allclose(r.hist.numpy(), [0.0, 0.4, 0.2], rtol=1e-6)
    assert [t.tolist() for t in torch.unravel_index(torch.tensor([4, 5]), (2, 3))] == [[1, 1], [1, 2]]
    with pytest.raises(TypeError, match="integer dtype"):
        torch.unravel_index(torch.tensor([1.0]), (2, 3))
    assert torch.combinations(torch.tensor([1, 2, 3])).tolist() == [[1, 2], [1, 3], [2, 3]]
    assert torch.combinations(torch.tensor([1, 2, 3]), with_replacement=True).shape == (6, 2)
    assert torch.slice_scatter(torch.zeros(4), torch.ones(2), 0, 1, 4, 2).tolist() == [0.0, 1.0, 0.0, 1.0]
    with pytest.raises(RuntimeError, match="slice size"):
        torch.select_scatter(torch.zeros(2, 3), torch.ones(2), 0, 1)
    assert torch.put(torch.zeros(2, 2), torch.tensor([0, 3]), torch.tensor([1.0, 2.0])).tolist() == [
        [1, 0],
        [0, 2],
    ]
    assert torch.ones(3).index_reduce(
        0, torch.tensor([0, 0, 2]), torch.tensor([2.0, 3.0, 4.0]), "prod"
    ).tolist() == [6.0, 1.0, 4.0]
    x = torch.zeros(3)
    assert x.index_reduce_(0, torch.tensor([0, 0, 2]), torch.tensor([2.0, 3.0, 4.0]), "amax") is x
    assert x.tolist() == [3.0, 0.0, 4.0]
    assert torch.cumulative_trapezoid(torch.tensor([1.0, 2.0, 4.0]), dx=2.0).tolist() == [3.0, 9.0]
    (g,) = torch.gradient(torch.tensor([1.0, 2.0, 4.0, 8.0]))
    assert g.tolist() == [1.0, 1.5, 3.0, 4.0]
    LU, piv = torch.lu(torch.tensor([[2.0, 1.0], [4.0, 5.0]]))
    assert piv.dtype == torch.int32 and piv.tolist() == [2, 2]
    assert torch.lu_solve(torch.tensor([[3.0], [9.0]]), LU, piv).tolist() == [[1.0], [1.0]]
    with pytest.warns(UserWarning, match="non-inplace resize is deprecated"):
        assert torch.arange(4.0).resize(2, 2).shape == (2, 2)


def test_second_batch_gradients():
    a = torch.tensor(
        [[2.0, 0.3, 0.2], [0.1, 1.5, 0.4], [0.7, 0.2, 3.0]], dtype=torch.float64, requires_grad=True
    )
    b = torch.tensor([[1.0], [2.0], [0.5]], dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda m, v: torch.lu_solve(v, *torch.lu(m)), (a, b))
    assert torch.autograd.gradcheck(lambda m: torch.lu(m)[0], (a,))
    d = torch.ones(3, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(lambda m, s: torch.diagonal_scatter(m, s * 2), (a, d))
    assert torch.autograd.gradcheck(lambda m, s: torch.select_scatter(m, s, 1, 0), (a, d))
    assert torch.autograd.gradcheck(lambda m: torch.gradient(m, spacing=0.5, edge_order=2)[1], (a,))
    assert torch.autograd.gradcheck(lambda m: torch.cumulative_trapezoid(m, dim=0), (a,))
    assert torch.autograd.gradcheck(lambda m: torch.combinations(m[0], 2), (a,))
    assert torch.autograd.gradcheck(lambda m: torch.rms_norm(m, [3], weight=d), (a,))
    assert torch.autograd.gradcheck(
        lambda m, s: torch.index_reduce(m, 0, torch.tensor([0, 2]), s, "prod"),
        (a, a[:2].detach().clone().requires_grad_()),
    )


def test_second_batch_live():
    pt = pytest.importorskip("torch")
    rng = np.random.default_rng(0)
    data = rng.normal(size=(3, 5))
    for bins, kw in ((4, {}), (3, {"range": (-1.0, 1.0)}), ("edges", {"density": True})):
        ours_bins = torch.tensor([-2.0, 0.0, 0.5, 2.0], dtype=torch.float64) if bins == "edges" else bins
        their_bins = pt.tensor([-2.0, 0.0, 0.5, 2.0], dtype=pt.float64) if bins == "edges" else bins
        h1 = torch.histogram(torch.tensor(data), ours_bins, **kw)
        h2 = pt.histogram(pt.tensor(data), their_bins, **kw)
        np.testing.assert_allclose(h1.hist.numpy(), h2.hist.numpy(), rtol=1e-12)
        np.testing.assert_allclose(h1.bin_edges.numpy(), h2.bin_edges.numpy(), rtol=1e-12)
    for edge_order in (1, 2):
        for spacing in (1, 0.5, [2.0, 3.0]):
            g1 = torch.gradient(torch.tensor(data), spacing=spacing, edge_order=edge_order)
            g2 = pt.gradient(pt.tensor(data), spacing=spacing, edge_order=edge_order)
            for u, v in zip(g1, g2):
                np.testing.assert_allclose(u.numpy(), v.numpy(), rtol=1e-12)
    coords = np.array([0.0, 0.5, 2.0, 2.5, 4.0])
    np.testing.assert_allclose(
        torch.cumulative_trapezoid(torch.tensor(data), torch.tensor(coords)).numpy(),
        pt.cumulative_trapezoid(pt.tensor(data), pt.tensor(coords)).numpy(),
        rtol=1e-12,
    )
    np.testing.assert_allclose(
        torch.rms_norm(torch.tensor(data), [5]).numpy(), pt.rms_norm(pt.tensor(data), [5]).numpy(), rtol=1e-12
    )
    for reduce in ("prod", "mean", "amax", "amin"):
        for include_self in (True, False):
            idx = [0, 2, 0]
            u = torch.tensor(data).index_reduce(
                0, torch.tensor(idx), torch.tensor(data), reduce, include_self=include_self
            )
            v = pt.tensor(data).index_reduce(
                0, pt.tensor(idx), pt.tensor(data), reduce, include_self=include_self
            )
            np.testing.assert_allclose(u.numpy(), v.numpy(), rtol=1e-12)
    sq = rng.normal(size=(2, 4, 4))
    LU1, p1 = torch.lu(torch.tensor(sq))
    LU2, p2 = pt.linalg.lu_factor(pt.tensor(sq))
    np.testing.assert_allclose(LU1.numpy(), LU2.numpy(), rtol=1e-10)
    assert p1.tolist() == p2.tolist()
    rhs = rng.normal(size=(2, 4, 3))
    np.testing.assert_allclose(
        torch.lu_solve(torch.tensor(rhs), LU1, p1).numpy(),
        pt.linalg.lu_solve(LU2, p2, pt.tensor(rhs)).numpy(),
        rtol=1e-10,
    )
    for r in (1, 2, 3):
        for rep in (False, True):
            assert (
                torch.combinations(torch.arange(4), r, rep).tolist()
                == pt.combinations(pt.arange(4), r, rep).tolist()
            )
    t1 = torch.diagonal_scatter(torch.zeros(3, 4), torch.ones(3), -1 + 1, 0, 1)
    t2 = pt.diagonal_scatter(pt.zeros(3, 4), pt.ones(3), 0, 0, 1)
    assert t1.tolist() == t2.tolist()
    i = [0, 5, 11]
    assert [t.tolist() for t in torch.unravel_index(torch.tensor(i), (3, 4))] == [
        t.tolist() for t in pt.unravel_index(pt.tensor(i), (3, 4))
    ]


def test_scatter_reduce_include_self_and_mean_regression():
    # regression: scatter_reduce ignored include_self and did not divide for "mean"
    data = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    index = torch.tensor([[0, 0], [2, 2], [0, 0]])
    np.testing.assert_allclose(
        data.scatter_reduce(0, index, data, "mean").numpy(),
        [[7 / 3, 10 / 3], [3.0, 4.0], [4.0, 5.0]],
        rtol=1e-6,
    )
    assert data.scatter_reduce(0, index, data, "prod", include_self=False).tolist() == [
        [5.0, 12.0],
        [3.0, 4.0],
        [3.0, 4.0],
    ]
    assert data.scatter_reduce(0, index, data, "mean", include_self=False).tolist() == [
        [3.0, 4.0],
        [3.0, 4.0],
        [3.0, 4.0],
    ]
    x = data.clone()
    assert x.scatter_reduce_(0, index, data, "amax", include_self=False) is x
    assert x.tolist() == [[5.0, 6.0], [3.0, 4.0], [3.0, 4.0]]


def test_scatter_reduce_gradients_live():
    pt = pytest.importorskip("torch")
    data = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    index = [[0, 0], [2, 2], [0, 0]]
    for reduce in ("sum", "prod", "mean", "amax", "amin"):
        for include_self in (True, False):
            grads = []
            for lib in (torch, pt):
                a = lib.tensor(data, requires_grad=True)
                s = lib.tensor(data[::-1].copy() + 0.5, requires_grad=True)
                r = a.scatter_reduce(0, lib.tensor(index), s, reduce, include_self=include_self)
                (r * lib.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=lib.float64)).sum().backward()
                grads.append((r.detach().numpy(), a.grad.numpy(), s.grad.numpy()))
            for u, v in zip(*grads):
                np.testing.assert_allclose(u, v, rtol=1e-12, err_msg=f"{reduce} {include_self}")


def test_histogramdd_stored_and_live():
    pts = [[0.0, 1.0], [1.0, 0.0], [2.0, 0.0], [2.0, 2.0]]
    r = torch.histogramdd(torch.tensor(pts), bins=[3, 3], weight=torch.tensor([1.0, 2.0, 4.0, 8.0]))
    assert r.hist.tolist() == [[0.0, 1.0, 0.0], [2.0, 0.0, 0.0], [4.0, 0.0, 8.0]]
    assert len(r.bin_edges) == 2
    pt = pytest.importorskip("torch")
    data = np.random.default_rng(1).normal(size=(20, 3))
    for kw in (
        {"bins": 3},
        {"bins": [2, 3, 4], "density": True},
        {"bins": 2, "range": [-1.0, 1, -1, 1, -2, 2]},
    ):
        a = torch.histogramdd(torch.tensor(data), **kw)
        b = pt.histogramdd(pt.tensor(data), **kw)
        np.testing.assert_allclose(a.hist.numpy(), b.hist.numpy(), rtol=1e-12)
        for u, v in zip(a.bin_edges, b.bin_edges):
            np.testing.assert_allclose(u.numpy(), v.numpy(), rtol=1e-12)


def test_inplace_twin_with_only_the_other_operand_tracking_gradients():
    # the op's saved ``self`` must be the old value, not the overwritten buffer
    x = torch.tensor([1.0, 2.0])
    y = torch.tensor([2.0, 3.0], requires_grad=True)
    x.xlogy_(y)
    x.sum().backward()
    np.testing.assert_allclose(y.grad.numpy(), [0.5, 2.0 / 3.0], rtol=1e-6)


def test_linear_with_a_one_dimensional_weight():
    """``F.linear(x, w)`` with a 1-D ``w`` is ``x @ w`` in PyTorch (no bias allowed); fgrad
    raised an IndexError from deep inside."""
    import fgrad.torch as ft

    x = ft.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], requires_grad=True)
    w = ft.tensor([0.5, -1.0], requires_grad=True)
    y = ft.nn.functional.linear(x, w)
    assert y.shape == (3,) and y.tolist() == [-1.5, -2.5, -3.5]  # torch 2.13
    y.sum().backward()
    assert w.grad.tolist() == [9.0, 12.0] and x.grad.tolist() == [[0.5, -1.0]] * 3
    assert ft.nn.functional.linear(ft.tensor([1.0, 2.0]), w).shape == ()
    with pytest.raises(RuntimeError, match="mat2 must be a matrix"):
        ft.nn.functional.linear(x, w, ft.tensor(0.5))
