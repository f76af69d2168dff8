"""The shortcuts of session 19 for the published programs' per-call costs
(docs/speed-programs.md, "Round 19") give the values of the paths they skip.  PyTorch 2.13's
numbers are stored here (printed by the same functions under PyTorch) and compared live when
torch is installed."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as torch
import fgrad.torch.nn.functional as F


def _running_stats(t):
    """BatchNorm1d/2d in training, three calls each, momentum 0.1, 0.3 and None (cumulative),
    float32 and float64: the running statistics and their version counters."""
    out = []
    for dt in (t.float32, t.float64):
        for momentum in (0.1, 0.3, None):
            x1 = ((t.arange(96, dtype=dt) * 0.37) % 5.3 - 2.1).reshape(8, 12)
            x2 = ((t.arange(192, dtype=dt) * 0.61) % 3.7 - 1.3).reshape(4, 3, 4, 4)
            bn1, bn2 = t.nn.BatchNorm1d(12, momentum=momentum), t.nn.BatchNorm2d(3, momentum=momentum)
            bn1.to(dt)
            bn2.to(dt)
            for k in range(3):
                bn1(x1 * (k + 1) + 0.25 * k)
                bn2(x2 - 0.5 * k)
            for bn in (bn1, bn2):
                out.append([bn.running_mean.tolist(), bn.running_var.tolist(), bn.running_mean._version,
                            bn.running_var._version, int(bn.num_batches_tracked)])
    return out


# PyTorch 2.13: running mean, running var, num_batches_tracked of each module above
RUNNING_PT = [
    [[0.17908978462219238, 0.3866599202156067, 0.22256742417812347, 0.05847470462322235,
      0.2660449743270874, 0.10195239633321762, 0.30952221155166626, 0.14542996883392334,
      0.3529999554157257, 0.5605698227882385, 0.39647722244262695, 0.604047417640686],
     [5.217749118804932, 5.217749118804932, 5.2761311531066895, 4.273494720458984,
      4.273492813110352, 3.6719110012054443, 3.671910524368286, 3.471383571624756,
      3.4713830947875977, 3.471384048461914, 3.6719090938568115, 3.67191219329834],
     3],
    [[0.001424897462129593, 0.029964536428451538, -0.035498857498168945],
     [1.072196125984192, 1.03959321975708, 1.013108253479004],
     3],
    [[0.48122942447662354, 1.0240198373794556, 0.5949223041534424, 0.16582421958446503,
      0.7086149454116821, 0.279517263174057, 0.8223068714141846, 0.39320993423461914,
      0.9359999299049377, 1.4787895679473877, 1.049691915512085, 1.592482328414917],
     [12.684550285339355, 12.684550285339355, 12.845067977905273, 10.088377952575684,
      10.088373184204102, 8.434359550476074, 8.434358596801758, 7.883021354675293,
      7.883020401000977, 7.883022785186768, 8.434354782104492, 8.43436336517334],
     3],
    [[-0.0500141903758049, 0.019176028668880463, -0.13953043520450592],
     [1.1750290393829346, 1.0959885120391846, 1.0317790508270264],
     3],
    [[0.6299992203712463, 1.369999647140503, 0.784999668598175, 0.19999893009662628,
      0.9399999380111694, 0.3549996614456177, 1.094999074935913, 0.5099998712539673,
      1.249999761581421, 1.9899994134902954, 1.404999017715454, 2.1449995040893555],
     [15.62080192565918, 15.62080192565918, 15.823970794677734, 12.334805488586426,
      12.334799766540527, 10.241301536560059, 10.241299629211426, 9.54346752166748,
      9.543466567993164, 9.543469429016113, 10.241294860839844, 10.241305351257324],
     3],
    [[0.04031328856945038, 0.14562556147575378, -0.09593674540519714],
     [1.2664064168930054, 1.1461012363433838, 1.048370122909546],
     3],
    [[0.17908999999999986, 0.38665999999999995, 0.2225675000000002, 0.05847500000000001,
      0.26604500000000036, 0.10195250000000014, 0.3095224999999998, 0.14543000000000053,
      0.3530000000000003, 0.5605699999999999, 0.39647750000000037, 0.6040475000000001],
     [5.217748457142855, 5.217748457142858, 5.2761298499999985, 4.273492885714288,
      4.273492885714283, 3.6719107071428567, 3.6719107071428576, 3.4713833142857147,
      3.4713833142857125, 3.4713833142857173, 3.671910707142856, 3.6719107071428594],
     3],
    [[0.0014246874999991471, 0.029964374999998995, -0.0354990625000016],
     [1.0721960937500001, 1.0395934226190477, 1.0131084151785714],
     3],
    [[0.48122999999999955, 1.0240199999999997, 0.5949225000000005, 0.16582500000000003,
      0.7086150000000009, 0.2795175000000003, 0.8223074999999993, 0.39321000000000134,
      0.9360000000000008, 1.4787899999999996, 1.0496925000000008, 1.5924825],
     [12.684547771428564, 12.684547771428573, 12.845063949999993, 10.088373057142862,
      10.088373057142848, 8.43435852142857, 8.434358521428573, 7.883020342857144,
      7.8830203428571375, 7.88302034285715, 8.434358521428567, 8.434358521428576],
     3],
    [[-0.05001468750000207, 0.019175624999997462, -0.1395309375000039],
     [1.1750289062500001, 1.0959884821428565, 1.0317794419642852],
     3],
    [[0.6299999999999994, 1.3699999999999997, 0.7850000000000007, 0.20000000000000004,
      0.9400000000000013, 0.3550000000000005, 1.0949999999999993, 0.5100000000000018,
      1.2500000000000013, 1.9899999999999995, 1.4050000000000011, 2.1450000000000005],
     [15.62079999999999, 15.620800000000001, 15.823966666666658, 12.334800000000005,
      12.33479999999999, 10.241299999999999, 10.241300000000003, 9.543466666666667,
      9.54346666666666, 9.543466666666676, 10.241299999999995, 10.241300000000008],
     3],
    [[0.040312499999996865, 0.14562499999999623, -0.09593750000000587],
     [1.2664062500000006, 1.1461011904761902, 1.0483705357142852],
     3],
]


def _close(ours, theirs, f32: bool) -> None:
    # the shim computes the batch statistics in two float64 passes, PyTorch's kernel with
    # Welford's algorithm: float32 statistics near zero may differ by a few ulps (before this
    # round too; docs/speed-programs.md, "Found and not fixed"), float64 ones in the last bits
    np.testing.assert_allclose(ours, theirs, rtol=1e-6 if f32 else 1e-13, atol=0)


def _check_pytorchs(got) -> None:
    assert len(got) == len(RUNNING_PT)
    for k, (g, p) in enumerate(zip(got, RUNNING_PT)):
        f32 = k < len(RUNNING_PT) // 2
        _close(g[0], p[0], f32)
        _close(g[1], p[1], f32)
        assert g[4] == p[2]


def test_running_stats_fused_equal_the_in_place_ops(monkeypatch):
    """The fused running-statistics update (`_update_running` on a plain host buffer) gives
    the three in-place ops' values bit for bit and bumps the versions as they do."""
    fused = _running_stats(torch)
    monkeypatch.setattr(F, "_RUNNING_FAST", ())  # every update through mul_/add_
    per_op = _running_stats(torch)
    assert fused == per_op
    _check_pytorchs(fused)


def test_running_stats_are_pytorchs():
    _check_pytorchs(_running_stats(torch))
    pt = pytest.importorskip("torch")
    theirs = _running_stats(pt)
    _check_pytorchs(theirs)
    ours = _running_stats(torch)
    for k, (g, p) in enumerate(zip(ours, theirs)):
        f32 = k < len(ours) // 2
        _close(g[0], p[0], f32)
        _close(g[1], p[1], f32)


def test_running_stats_update_skips_the_in_place_ops(monkeypatch):
    """In training, BatchNorm's running statistics are updated without the shim's in-place
    ops (the old code ran ``mul_``, ``mul_`` and ``add_``: ~60 us of dispatch a call)."""
    def refuse(*args, **kwargs):
        raise AssertionError("Tensor.mul_ called")

    bn = torch.nn.BatchNorm1d(4)
    x = torch.arange(12.).reshape(3, 4)
    v0 = bn.running_mean._version, bn.running_var._version
    monkeypatch.setattr(torch.Tensor, "mul_", refuse)
    bn(x)
    np.testing.assert_array_equal(bn.running_mean.numpy(), np.float32([0.4, 0.5, 0.6, 0.7]))
    # each statistic bumped twice, as by its ``mul_`` and ``add_``
    assert (bn.running_mean._version, bn.running_var._version) == (v0[0] + 2, v0[1] + 2)


def test_running_stats_views_and_grad_fall_back():
    """A running statistic that is a view sees the update through its base, and one that
    requires grad (the per-op path, which PyTorch also takes) keeps its values."""
    base = torch.zeros(2, 4)
    bn = torch.nn.BatchNorm1d(4)
    bn.running_mean = base[1]
    bn(torch.arange(12.).reshape(3, 4))
    np.testing.assert_array_equal(base[1].numpy(), np.float32([0.4, 0.5, 0.6, 0.7]))
    np.testing.assert_array_equal(base[0].numpy(), np.zeros(4, np.float32))


def _bn_grads(t):
    """BatchNorm1d and BatchNorm2d in training (affine, float32): the output and the
    gradients of ``(y * r).sum()`` for the input, the weight and the bias."""
    out = []
    for shape in ((5, 3), (3, 2, 2, 2)):
        n = 1
        for s in shape:
            n *= s
        x = ((t.arange(n, dtype=t.float32) * 0.37) % 1.9 - 0.8).reshape(shape).requires_grad_()
        r = ((t.arange(n, dtype=t.float32) * 0.53) % 1.3 - 0.4).reshape(shape)
        bn = t.nn.BatchNorm1d(shape[1]) if len(shape) == 2 else t.nn.BatchNorm2d(shape[1])
        with t.no_grad():
            bn.weight.copy_(t.arange(shape[1], dtype=t.float32) * 0.5 + 0.75)
            bn.bias.copy_(t.arange(shape[1], dtype=t.float32) * -0.25)
        y = bn(x)
        (y * r).sum().backward()
        out.append([y.detach().reshape(-1).tolist(), x.grad.reshape(-1).tolist(), bn.weight.grad.tolist(),
                    bn.bias.grad.tolist(), type(y.grad_fn).__name__])
    return out


# PyTorch 2.13: output, input, weight and bias gradients of each case above
BN_GRADS_PT = [
    [[-1.0144857168197632, -1.940809726715088, -1.5388023853302002, 0.5941987037658691,
      0.74033123254776, 2.064542055130005, -0.550720751285553, -1.1678677797317505,
      -0.5000002384185791, 1.057963490486145, 1.513272762298584, -3.064542293548584,
      -0.08695580065250397, -0.39492669701576233, 0.5388027429580688],
     [-0.48903992772102356, -0.6588423848152161, 1.1336772441864014, -0.6261850595474243,
      0.8565598726272583, -0.8976774215698242, 0.19083259999752045, 0.9770471453666687,
      -0.8440269231796265, 0.053687259554862976, -0.6476254463195801, -0.7903754711151123,
      0.870705246925354, -0.5271390080451965, 1.398402452468872],
     [0.8966116905212402, -0.7864678502082825, -0.9330668449401855],
     [0.8999993801116943, 0.9499992728233337, 0.9999998211860657],
     'NativeBatchNormBackward0'],
    [[-1.168603539466858, -0.6434416770935059, -0.11827977001667023, 0.4068821370601654,
      0.7438991665840149, 1.5733940601348877, -1.8566797971725464, -1.0271844863891602,
      0.33591437339782715, 0.8610761165618896, 1.3862380981445312, -0.785377025604248,
      -1.1392786502838135, -0.30978381633758545, 0.5197120308876038, 1.349206805229187,
      -0.8563449382781982, -0.33118319511413574, 0.19397851824760437, 0.7191409468650818,
      1.2371127605438232, -2.1929614543914795, -1.363465666770935, -0.5339708924293518],
     [-0.8523123264312744, -0.09548717737197876, 0.6613380312919617, -0.42700010538101196,
      0.8046523332595825, -0.558763861656189, -0.8709201812744141, 0.6801056861877441,
      -0.3566494286060333, 0.40017539262771606, -0.6881623864173889, 0.045214541256427765,
      0.7431685328483582, -0.6202484965324402, 0.9307781457901001, -0.43263763189315796,
      0.11556488275527954, 0.8723897337913513, -0.21594873070716858, 0.5408774614334106,
      -0.369575560092926, -0.6817325949668884, 0.8692952990531921, -0.4941217303276062],
     [-0.055134367197752, -2.9266369342803955],
     [2.319998264312744, 3.0599987506866455],
     'NativeBatchNormBackward0'],
]


def _check_bn_grads(got) -> None:
    # float32, within two ulps of PyTorch's: PyTorch's kernel sums in another order
    for g, p in zip(got, BN_GRADS_PT):
        for a, b in zip(g[:4], p[:4]):
            np.testing.assert_allclose(a, b, rtol=0, atol=3e-7 * max(1.0, max(abs(v) for v in b)))
        assert g[4] == p[4]


def test_batch_norm_gradients_are_pytorchs():
    """BatchNorm in training (affine) saves the normalised input and rstd and differentiates
    through them (`normalize_with_rstd`, as layer_norm), instead of recomputing the
    statistics in the backward: PyTorch's values, stored and live."""
    assert len(_bn_grads(torch)) == len(BN_GRADS_PT)
    _check_bn_grads(_bn_grads(torch))
    pt = pytest.importorskip("torch")
    assert len(_bn_grads(pt)) == len(BN_GRADS_PT)
    _check_bn_grads(_bn_grads(pt))


@pytest.mark.parametrize("shape", [(6, 3), (3, 2, 3, 2)])
def test_batch_norm_gradients_finite_differences(shape):
    """float64 gradients of ``(bn(x) * r).sum()`` for the input, the weight and the bias
    against central differences."""
    rng = np.random.default_rng(0)
    x0, r = rng.standard_normal(shape), rng.standard_normal(shape)
    w0, b0 = rng.standard_normal(shape[1]), rng.standard_normal(shape[1])

    def loss(x, w, b, grad=False):
        bn = (torch.nn.BatchNorm1d if len(shape) == 2 else torch.nn.BatchNorm2d)(shape[1]).double()
        xt = torch.tensor(x, requires_grad=grad)
        with torch.no_grad():
            bn.weight.copy_(torch.tensor(w))
            bn.bias.copy_(torch.tensor(b))
        out = (bn(xt) * torch.tensor(r)).sum()
        if not grad:
            return float(out.detach())
        out.backward()
        return xt.grad.numpy(), bn.weight.grad.numpy(), bn.bias.grad.numpy()

    gx, gw, gb = loss(x0, w0, b0, grad=True)
    h = 1e-6
    for k, (arr, g) in enumerate(((x0, gx), (w0, gw), (b0, gb))):
        fd = np.empty(arr.size)
        for i in range(arr.size):
            args = [x0.copy(), w0.copy(), b0.copy()]
            args[k].reshape(-1)[i] += h
            up = loss(*args)
            args[k].reshape(-1)[i] -= 2 * h
            fd[i] = (up - loss(*args)) / (2 * h)
        np.testing.assert_allclose(g.reshape(-1), fd, rtol=1e-6, atol=1e-7)


def test_batch_norm_double_backward_is_pytorchs():
    """The gradient of the input gradient's square norm (double backward through the saved
    normalised input), float64: PyTorch's values live."""
    pt = pytest.importorskip("torch")

    def run(t):
        x = ((t.arange(24, dtype=t.float64) * 0.37) % 1.9 - 0.8).reshape(4, 3, 2).requires_grad_()
        r = ((t.arange(24, dtype=t.float64) * 0.53) % 1.3 - 0.4).reshape(4, 3, 2)
        bn = t.nn.BatchNorm1d(3).double()
        (gx,) = t.autograd.grad((bn(x) * r).sum(), x, create_graph=True)
        (gx * gx).sum().backward()
        return x.grad.numpy() if t is torch else x.grad.detach().numpy(), bn.weight.grad.numpy() \
            if t is torch else bn.weight.grad.detach().numpy()

    for a, b in zip(run(torch), run(pt)):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)
