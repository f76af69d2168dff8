"""The small modules modern PyTorch code imports: ``torch.special``, ``torch.accelerator``,
``torch.backends`` (a package), ``torch.onnx``, device predicates on tensors.

``torch.special`` values and gradients are compared with PyTorch (live), and with stored
PyTorch float64 values (regenerate: ``python tests/shim/test_torch_breadth.py``).
"""

from __future__ import annotations

import doctest
import importlib
import math

import numpy as np
import pytest

import fgrad.torch as ft

try:
    import torch as _torch
except Exception:  # noqa: BLE001
    _torch = None

needs_torch = pytest.mark.skipif(_torch is None, reason="torch is not installed")

X = np.concatenate([np.linspace(-60.0, 10.0, 36), [0.0, -1e-9, 1e-5, -34.99, -35.0, -35.01, 38.0, np.nan]])
P = np.concatenate([np.linspace(0.0, 1.0, 21), [1e-10, 1 - 1e-10, -0.1, 1.1, np.nan]])
FUNCS = {  # name -> (points, gradient checked against PyTorch)
    "ndtr": (X, True),
    "log_ndtr": (X, True),
    "entr": (np.concatenate([X, [0.5, 2.0, np.inf]]), True),
    "spherical_bessel_j0": (np.concatenate([X, [1e-5, -3e-5]]), False),  # PyTorch has no gradient
    "ndtri": (P, True),
    "expit": (X, True),
    "xlog1py": (X, True),
    "erfinv": (np.linspace(-0.99, 0.99, 11), True),
}


def _call(lib, name, t):
    if name == "xlog1py":
        return lib.special.xlog1py(t, lib.tensor(0.5, dtype=t.dtype) + t * 0)
    return getattr(lib.special, name)(t)


def _values_and_grads(lib, name, dtype):
    points, _ = FUNCS[name]
    t = lib.tensor(points, dtype=getattr(lib, dtype), requires_grad=True)
    y = _call(lib, name, t)
    (g,) = lib.autograd.grad(y.sum(), t, allow_unused=True) if y.requires_grad else (None,)
    return y.detach().double().numpy(), None if g is None else g.double().numpy()


@needs_torch
@pytest.mark.parametrize("name", sorted(FUNCS))
def test_special_matches_torch_float64(name):
    ours, ours_g = _values_and_grads(ft, name, "float64")
    theirs, theirs_g = _values_and_grads(_torch, name, "float64")
    # atol: PyTorch's ndtr computes 1 + erf in its lower tail and keeps ~1e-16 absolute accuracy only
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-15, equal_nan=True)
    if FUNCS[name][1]:
        np.testing.assert_allclose(ours_g, theirs_g, rtol=1e-10, atol=1e-15, equal_nan=True)


@needs_torch
@pytest.mark.parametrize("name", sorted(FUNCS))
def test_special_float32_matches_torch_float64_rounded(name):
    """float32 results are the float64 values to float32 accuracy (PyTorch's own float32
    log_ndtr loses digits below x = -10; ours computes in float64 there)."""
    ours, _ = _values_and_grads(ft, name, "float32")
    points = FUNCS[name][0].astype(np.float32).astype(np.float64)
    t = _torch.tensor(points, dtype=_torch.float64)
    theirs = _call(_torch, name, t).numpy()
    np.testing.assert_allclose(ours, theirs, rtol=3e-6, atol=1e-7, equal_nan=True)


@pytest.mark.parametrize("name", sorted(FUNCS))
def test_special_matches_stored_torch_numbers(name):
    ours, _ = _values_and_grads(ft, name, "float64")
    want = np.array([np.nan if v is None else v for v in STORED[name]], dtype=np.float64)
    np.testing.assert_allclose(ours, want, rtol=1e-12, atol=1e-15, equal_nan=True)


def test_special_closed_forms_and_reexports():
    s = ft.special
    x = ft.tensor([-1.5, 0.0, 2.0], dtype=ft.float64)
    np.testing.assert_allclose(
        s.ndtr(x).numpy(),
        [0.5 * math.erfc(1.5 / math.sqrt(2)), 0.5, 0.5 * math.erfc(-2 / math.sqrt(2))],
        rtol=1e-14,
    )
    np.testing.assert_allclose(s.ndtri(s.ndtr(x)).numpy(), x.numpy(), rtol=1e-12, atol=1e-14)
    # -x^2/2 - log(-x) - log(2 pi)/2 + log1p(-1/x^2 + 3/x^4 - 15/x^6) at x = -1000
    assert s.log_ndtr(ft.tensor([-1e3], dtype=ft.float64)).item() == pytest.approx(
        -500007.8266948122, rel=1e-14
    )
    assert ft.equal(s.expit(x), ft.sigmoid(x)) and ft.equal(s.exp2(x), ft.exp2(x))
    assert ft.equal(s.logsumexp(x, 0), ft.logsumexp(x, 0)) and ft.equal(s.softmax(x, 0), ft.softmax(x, 0))
    assert s.entr(ft.tensor([0.5])).item() == pytest.approx(0.5 * math.log(2))
    assert s.ndtr(ft.tensor([0, 1])).dtype == ft.float32  # integers promote
    out = ft.empty(3, dtype=ft.float64)
    assert s.ndtr(x, out=out) is out


def test_missing_special_functions_say_why():
    with pytest.raises(AttributeError, match="has no attribute 'nope'"):
        ft.special.nope  # noqa: B018


def test_accelerator_backends_onnx_and_device_predicates():
    assert ft.accelerator.is_available() == ft.cuda.is_available()
    if not ft.accelerator.is_available():
        assert ft.accelerator.current_accelerator() is None and ft.accelerator.device_count() == 0
        with pytest.raises(RuntimeError, match="no accelerator is available"):
            ft.accelerator.synchronize()
    import fgrad.torch.backends.cudnn as cudnn  # a real package: submodule imports work

    assert cudnn is ft.backends.cudnn
    old = cudnn.benchmark
    ft.backends.cudnn.benchmark = True
    assert cudnn.benchmark is True
    cudnn.benchmark = old
    with cudnn.flags(enabled=False, deterministic=True):
        assert cudnn.deterministic and not cudnn.enabled
    assert cudnn.enabled and not cudnn.deterministic
    assert ft.backends.cuda.matmul.allow_tf32 is False and not ft.backends.mps.is_available()
    assert ft.backends.opt_einsum.is_available() and ft.backends.opt_einsum.strategy == "auto"
    assert ft.onnx.is_in_onnx_export() is False
    with pytest.raises(RuntimeError, match="torch.onnx.export is not supported by fgrad.torch"):
        ft.onnx.export(ft.nn.Linear(2, 2), (ft.zeros(1, 2),), "model.onnx")
    t = ft.zeros(2)
    assert not any([t.is_xpu, t.is_mps, t.is_meta, t.is_mkldnn, t.is_vulkan, t.is_ipu, t.is_mtia, t.is_cuda])
    assert t.is_cpu


@needs_torch
def test_flags_have_pytorch_cpu_defaults():
    tb, fb = _torch.backends, ft.backends
    for name in ("enabled", "benchmark", "deterministic", "allow_tf32"):
        assert getattr(fb.cudnn, name) == getattr(tb.cudnn, name), name
    assert fb.cuda.matmul.allow_tf32 == tb.cuda.matmul.allow_tf32
    assert fb.opt_einsum.enabled == tb.opt_einsum.enabled
    assert ft.onnx.is_in_onnx_export() == _torch.onnx.is_in_onnx_export()


def test_docstring_examples_run():
    for name in ("special", "accelerator", "onnx", "backends"):
        res = doctest.testmod(importlib.import_module("fgrad.torch." + name), optionflags=doctest.ELLIPSIS)
        assert res.failed == 0 and res.attempted > 0, name


def _regenerate() -> None:
    """Rewrite STORED (the last statement of this file) from PyTorch's float64 values."""
    import pprint
    import re
    from pathlib import Path

    assert _torch is not None
    stored = {}
    for name in sorted(FUNCS):
        values, _ = _values_and_grads(_torch, name, "float64")
        stored[name] = [None if np.isnan(v) else float(v) for v in values]
    path = Path(__file__)
    text = re.sub(
        r"^STORED: dict = .*\Z",
        "STORED: dict = " + pprint.pformat(stored, width=110) + "\n",
        path.read_text(),
        flags=re.S | re.M,
    )
    path.write_text(text)


if __name__ == "__main__":
    _regenerate()

# PyTorch 2.13's float64 values (generated by _regenerate)
inf = math.inf
STORED: dict = {'entr': [-inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          -inf,
          0.0,
          -1.3862943611198906,
          -5.545177444479562,
          -10.75055681536833,
          -16.635532333438686,
          -23.02585092994046,
          0.0,
          -inf,
          0.0001151292546497023,
          -inf,
          -inf,
          -inf,
          -138.22827406960266,
          None,
          0.34657359027997264,
          -1.3862943611198906,
          -inf],
 'erfinv': [-1.8213863677184494,
            -0.8903068206433328,
            -0.5875727278173403,
            -0.366745833783455,
            -0.1773137937258454,
            0.0,
            0.17731379372584563,
            0.3667458337834552,
            0.5875727278173404,
            0.8903068206433328,
            1.8213863677184494],
 'expit': [8.75651076269652e-27,
           6.47023492564546e-26,
           4.780892883885469e-25,
           3.532628572200807e-24,
           2.6102790696677047e-23,
           1.928749847963918e-22,
           1.4251640827409352e-21,
           1.0530617357553813e-20,
           7.781132241133797e-20,
           5.749522264293559e-19,
           4.248354255291589e-18,
           3.1391327920480296e-17,
           2.319522830243569e-16,
           1.71390843154201e-15,
           1.2664165549094016e-14,
           9.357622968839299e-14,
           6.914400106935423e-13,
           5.109089028037221e-12,
           3.7751345441365816e-11,
           2.7894680920908113e-10,
           2.0611536181902037e-09,
           1.522997951276035e-08,
           1.12535162055095e-07,
           8.315280276641321e-07,
           6.144174602214718e-06,
           4.5397868702434395e-05,
           0.0003353501304664781,
           0.0024726231566347743,
           0.01798620996209156,
           0.11920292202211755,
           0.5,
           0.8807970779778823,
           0.9820137900379085,
           0.9975273768433653,
           0.9996646498695336,
           0.9999546021312976,
           0.5,
           0.49999999975,
           0.5000024999999999,
           6.368484237071638e-16,
           6.305116760146985e-16,
           6.242379800152628e-16,
           1.0,
           None],
 'log_ndtr': [-1805.0135606805675,
              -1686.9796785883188,
              -1572.9446088476825,
              -1462.9082652217814,
              -1356.8705517329722,
              -1254.8313611394199,
              -1156.7905731019455,
              -1062.7480519624305,
              -972.7036440307368,
              -886.6571742437296,
              -804.6084420137539,
              -726.5572160188201,
              -652.5032275937986,
              -582.4461622468718,
              -516.3856486257255,
              -454.32124395634327,
              -396.25241451163106,
              -342.17850892992794,
              -292.09872100320786,
              -246.01203653738094,
              -203.9171553710973,
              -165.81237325071422,
              -131.69539607375972,
              -101.56303440744996,
              -75.41067300156881,
              -53.23128515051248,
              -35.01343715991456,
              -20.73676894997471,
              -10.360101486527292,
              -3.7831843336820317,
              -0.6931471805599453,
              -0.02301290932896348,
              -3.1671743377489226e-05,
              -9.865876455243713e-10,
              -6.220960574271758e-16,
              -7.619853024160498e-24,
              -0.6931471805599453,
              -0.6931471813578299,
              -0.6931392017461683,
              -616.6248659715911,
              -616.9751012619225,
              -617.3254364710184,
              -2.88542835e-316,
              None],
 'ndtr': [0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          0.0,
          6.106226635438361e-16,
          9.865876449133282e-10,
          3.167124183311998e-05,
          0.02275013194817921,
          0.5,
          0.9772498680518208,
          0.9999683287581669,
          0.9999999990134123,
          0.9999999999999993,
          1.0,
          0.5,
          0.49999999960105773,
          0.500003989422804,
          0.0,
          0.0,
          0.0,
          1.0,
          None],
 'ndtri': [-inf,
           -1.6448536269514729,
           -1.2815515655446004,
           -1.0364333894937894,
           -0.8416212335729142,
           -0.6744897501960817,
           -0.5244005127080407,
           -0.3853204664075676,
           -0.2533471031357997,
           -0.12566134685507402,
           0.0,
           0.12566134685507416,
           0.25334710313580006,
           0.38532046640756773,
           0.524400512708041,
           0.6744897501960817,
           0.8416212335729143,
           1.0364333894937898,
           1.2815515655446004,
           1.6448536269514733,
           inf,
           -6.361340902404056,
           6.361340889697422,
           None,
           None,
           None],
 'spherical_bessel_j0': [-0.005080177018370278,
                         0.01711849393249202,
                         -0.009313410751551997,
                         -0.010347945349104005,
                         0.018973607539240104,
                         -0.005247497074078575,
                         -0.01600530544424306,
                         0.01960409451410455,
                         0.0004023164796684904,
                         -0.0218219416170389,
                         0.01862782901198372,
                         0.007799173123931193,
                         -0.027549412595642104,
                         0.015561255474118348,
                         0.01723208378880283,
                         -0.03293438746976206,
                         0.009675206725281037,
                         0.02932917117229241,
                         -0.037732431750276,
                         -0.00040233224047290345,
                         0.045647262536381385,
                         -0.041721513709537555,
                         -0.01799395729156658,
                         0.07075766826391931,
                         -0.04471440983336958,
                         -0.05440211108893698,
                         0.12366978082792272,
                         -0.04656924969982098,
                         -0.18920062382698205,
                         0.45464871341284085,
                         1.0,
                         0.45464871341284085,
                         -0.18920062382698205,
                         -0.04656924969982098,
                         0.12366978082792272,
                         -0.05440211108893698,
                         1.0,
                         1.0,
                         0.9999999999833333,
                         -0.011978407805223955,
                         -0.012233790557032886,
                         -0.012487804398097227,
                         0.007799173123931193,
                         None,
                         0.9999999999833333,
                         0.99999999985],
 'xlog1py': [-24.327906486489862,
             -23.516976270273535,
             -22.706046054057204,
             -21.895115837840876,
             -21.08418562162455,
             -20.273255405408218,
             -19.46232518919189,
             -18.651394972975563,
             -17.840464756759232,
             -17.029534540542905,
             -16.218604324326577,
             -15.407674108110246,
             -14.596743891893919,
             -13.78581367567759,
             -12.97488345946126,
             -12.163953243244931,
             -11.353023027028602,
             -10.542092810812274,
             -9.731162594595945,
             -8.920232378379616,
             -8.109302162163289,
             -7.298371945946959,
             -6.48744172973063,
             -5.676511513514301,
             -4.865581297297973,
             -4.054651081081644,
             -3.243720864865315,
             -2.4327906486489863,
             -1.6218604324326575,
             -0.8109302162163288,
             0.0,
             0.8109302162163288,
             1.6218604324326575,
             2.4327906486489863,
             3.243720864865315,
             4.054651081081644,
             0.0,
             -4.054651081081644e-10,
             4.054651081081644e-06,
             -14.187224132704673,
             -14.191278783785753,
             -14.195333434866834,
             15.407674108110246,
             None]}
