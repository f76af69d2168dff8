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
