"""Round-9 breadth of ``fgrad.torch.nn`` (functional ops, modules, utils, optimizers):
values, gradients (against PyTorch and finite differences), seeded random draws, error
messages, module reprs and state_dict keys equal PyTorch 2.13's -- stored numbers (run
without torch) and live comparisons (with torch)."""

from __future__ import annotations


import numpy as np
import pytest

from _peers import torch_is_pinned, torch_version_note

import fgrad.torch as torch
import fgrad.torch.nn.functional as F


def X(*shape, k: float = 0.0, dtype=None):
    """A deterministic input: ``2 sin(0.7 i + k)`` (PyTorch's numbers below were computed on it)."""
    n = int(np.prod(shape))
    return torch.tensor(np.sin(np.arange(n) * 0.7 + k).reshape(shape) * 2, dtype=dtype or torch.float64)


def close(a, b, tol=1e-6):
    a = a.detach().numpy() if isinstance(a, torch.Tensor) else np.asarray(a)
    np.testing.assert_allclose(a, np.asarray(b, dtype=a.dtype), rtol=tol, atol=tol)


# PyTorch 2.13 (CPU) on the inputs of X (tests/shim/test_nn_breadth_round9.py's generator, in
# the docstring of each test)
STORED = {'adafactor': [[0.0, 1.07024, 1.733348], [1.411511, 0.58186, -0.732773]],
 'affine_grid': [[[[[0.321327037935, -2.043194458901], [0.960561089408, -1.355859296473],
                    [1.59979514088, -0.668524134044]],
                   [[2.18540520987, -2.358685847188], [2.824639261342, -1.671350684759],
                    [3.463873312814, -0.98401552233]]]],
                 [[[2.484734028384, -2.166293691711, 0.949164137154],
                   [1.300826575432, -1.13411430446, 2.358346695868]]]],
 'alpha_dropout': [[0.454092, 1.563374, 2.150943, 1.940457], [1.03091, -0.149923, -1.046679, -1.059548]],
 'ctc': [[6.08487324044, 5.431876826939],
         [[[-0.002164167221, -0.651047584478, 0.407784271614, 0.245427480085],
           [0.317219695406, 0.175146698758, 0.075346090216, -0.567712484379]],
          [[-0.029202070666, -0.22891196532, -0.261264940366, 0.519378976352],
           [-0.086726318068, 0.209884785847, 0.055125239176, -0.178283706955]],
          [[-0.016523296929, -0.0161084349, -0.665811009884, 0.698442741713],
           [-0.247478706069, 0.322254725951, 0.094168611308, -0.16894463119]],
          [[-0.122081645197, 0.057773043376, -0.628844877802, 0.693153479624],
           [-0.504860657799, 0.412976339744, 0.233236546549, -0.141352228495]],
          [[-0.385833284595, 0.136010516943, -0.158277172339, 0.408099939991],
           [0.022726831442, 0.284283304378, 0.40101847554, -0.70802861136]],
          [[-0.309042582432, 0.174177580347, 0.041668186803, 0.093196815283], [0.0, 0.0, 0.0, 0.0]]]],
 'feature_alpha_dropout': [[[0.607095, 1.719378], [2.308538, 2.097482], [1.185474, 0.001445]],
                           [[-0.897738, -1.089174], [-0.482828, 0.636125], [1.741425, 2.313231]]],
 'fractional2d': [[[[[1.288435374475, 1.970899459977, 1.976336467754],
                     [1.339139524393, 1.98121471139, 1.985532811672],
                     [1.673311277072, 1.989289547756, 0.541811576616]],
                    [[1.635532509053, 0.167948911383, 1.99248385751],
                     [1.435949185543, 1.995114837816, 1.997181744824],
                     [1.481945221603, 1.998683994163, 1.999621161106]]]],
                  [[[[1, 2, 11], [19, 20, 29], [30, 38, 40]], [[6, 3, 5], [13, 14, 23], [31, 32, 41]]]],
                  [[[[0.0, 1.0, 1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
                     [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 1.0, 0.0, 0.0, 0.0],
                     [0.0, 0.0, 0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                     [0.0, 0.0, 1.0, 0.0, 1.0, 0.0]],
                    [[0.0, 0.0, 0.0, 1.0, 0.0, 1.0], [1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                     [0.0, 1.0, 1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
                     [0.0, 0.0, 0.0, 0.0, 0.0, 0.0], [0.0, 1.0, 1.0, 0.0, 0.0, 0.0],
                     [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]]]]],
 'grid_bicubic': [[[[[1.358630334371, 1.565727386549, 1.292997364253],
                     [0.148936249825, -0.497067980588, 1.618416592723]],
                    [[0.546987532981, -0.408075704461, -0.261440973063],
                     [1.583813176424, -0.332886169898, -0.547506848132]]]],
                  [[[[0.003406541417, 0.716373986929, 0.781556287283, -0.117991690265],
                     [-0.158592859331, -0.663439174409, 0.273544522766, -0.04649726465],
                     [-0.083481076469, -0.621113475832, 2.045558631042, -0.207741169207]],
                    [[1.390032994876, 0.347171531446, 0.330778432219, -0.071226064157],
                     [0.234932277731, 1.307779872737, -0.06012357503, 0.050800490294],
                     [0.139423863531, 0.829985203317, -1.985849169318, 0.600242422948]]]],
                  [[[[8.471803835935, -0.312088151392], [-1.964058448139, 8.485101183022],
                     [-0.225723907974, -5.247140461663]],
                    [[1.522670628671, 2.070173435142], [3.458224603866, 8.86733412753],
                     [0.327536646826, 9.745223248155]]]]],
 'grid_bilinear': [[[[[0.705008917521, 0.18598007285, 1.525713509743],
                      [0.0, -0.33872777575, 0.198783324006]],
                     [[0.155063656279, -0.071908474252, -0.165544300288],
                      [0.107810642389, 0.34408491082, -0.076858801682]]]],
                   [[[[0.005245546051, 0.485857707523, 0.72816009726, 0.0],
                      [-0.213545824874, -0.323941407177, 0.0, 0.0],
                      [-0.272641344739, -0.413587205096, 0.645901353655, 0.160913108531]],
                     [[0.107285555263, 0.224090338354, 0.335846565865, 0.0],
                      [0.34529802753, 0.523804803955, 0.0, 0.0],
                      [0.440853941382, 0.66875972038, -0.678127431991, -0.116446930405]]]],
                   [[[[3.432464660933, -2.820134409686], [-7.043564986606, -0.80843107241],
                      [0.12152654885, 3.268179230227]],
                     [[2.382575920921, 0.671231558269], [0.307616788134, 10.478981286306],
                      [2.137667099244, 3.357507681832]]]]],
 'gumbel': [[0.000542146061, 0.057990265114, 0.908668036451, 0.032799552375],
            [0.781377475049, 0.021997407127, 0.17357063186, 0.023054485963]],
 'gumbel_hard': [[0.0, 0.0, 1.0, 0.0], [1.0, 0.0, 0.0, 0.0]],
 'lazy_linear': [[[0.084342, 0.083569], [-0.577767, -0.410117], [-0.696932, -0.652006]],
                 [0.697058, 0.58423, 0.167696]],
 'lp_pool1d': [[[[1.38860826585, 2.464780169668], [1.892359152404, 2.24626217903]]],
               [[[0.005186095475, 0.99975100161, 0.705930014182, 0.549090997718, 0.0],
                 [0.179420448676, 0.948669546052, 0.845044066833, 0.367936900173, 0.0]]]],
 'multi_margin': [[0.642572399049, 0.0],
                  [[0.0, -1.040795348064, 0.552985634201, 0.455193343529, 0.032616370335],
                   [0.0, 0.0, 0.0, 0.0, 0.0]]],
 'multilabel_margin': [[1.747161700524, 0.05296114873],
                       [[-0.6, 0.4, 0.4, -0.4, 0.2], [0.2, 0.0, 0.0, 0.0, -0.2]]],
 'rms_norm': [[[0.0, 1.750408944497, 1.823803868542, 0.098344375132],
               [0.805354102035, -0.993852666676, -1.681996606049, -0.116713555896]],
              [[2.096462433219, 1.100311543821, -0.566135305274, -0.174861719664],
               [-2.389981363021, -2.00412148143, -0.173162690114, 0.054273530282]],
              [-0.953408101423, 1.461474364925, -0.483077044472, -3.558979205376]],
 'rrelu': [[[0.0, 1.288435, 1.970899, 1.726419], [0.669976, -0.101861, -0.475282, -0.466772]],
           [[0.316158, 1.0, 1.0, 1.0], [1.0, 0.145191, 0.272657, 0.237554]]],
 'spectral_norm': [[[0.04383, -0.012906], [-0.342171, 1.754961]], [-0.487885, 0.872908],
                   [0.416702, 0.666587, -0.618078]],
 'swalr': [0.775, 0.3250000000000001, 0.1, 0.1, 0.1],
 'unpool': [[[[[1.288435374475, 1.970899459977], [1.709197816177, 1.976336467754]]]],
            [[[[1, 2], [12, 11]]]],
            [[[[0.0, 1.288435374475, 1.970899459977, 0.0], [0.0, 0.0, 0.0, 0.0],
               [0.0, 0.0, 0.0, 1.976336467754], [1.709197816177, 0.0, 0.0, 0.0]]]],
            [[[[0.0, 1.983329620905, 1.350926361102, 0.0], [0.0, 0.0, 0.0, 0.0],
               [0.0, 0.0, 0.0, 1.325938460164], [0.049550850907, 0.0, 0.0, 0.0]]]]],
 'weight_norm': [[[2.354678], [1.980299]], [[3.460641, 1.981203]],
                 [[1.0, 0.242595, -0.158591], [0.253877, 0.71045, 1.303203]]]}


# -- stored PyTorch numbers ----------------------------------------------------------------


def test_rms_norm_stored():
    x, w = X(2, 4).requires_grad_(), X(4, k=1).requires_grad_()
    y = F.rms_norm(x, [4], w)
    y.backward(X(2, 4, k=2))
    out, gx, gw = STORED["rms_norm"]
    close(y, out), close(x.grad, gx), close(w.grad, gw)


@pytest.mark.parametrize("case", ["grid_bilinear", "grid_bicubic"])
def test_grid_sample_stored(case):
    img, g = X(1, 2, 3, 4).requires_grad_(), (X(1, 2, 3, 2, k=0.3) * 0.6).requires_grad_()
    mode, pad, ac = ("bilinear", "zeros", False) if case == "grid_bilinear" else ("bicubic", "reflection",
                                                                                  True)
    y = F.grid_sample(img, g, mode, pad, ac)
    y.backward(X(*y.shape, k=1))
    out, gi, gg = STORED[case]
    close(y, out), close(img.grad, gi), close(g.grad, gg)


def test_affine_grid_stored():
    th = X(1, 2, 3, k=0.5).requires_grad_()
    y = F.affine_grid(th, [1, 1, 2, 3], align_corners=False)
    y.backward(X(*y.shape))
    close(y, STORED["affine_grid"][0]), close(th.grad, STORED["affine_grid"][1])


def test_ctc_loss_stored_and_gradient_convention():
    """PyTorch's gradient with respect to log_probs is exp(log_probs) - gamma (rows sum to 0
    over the classes), not -gamma; fgrad prints the same numbers."""
    lp = X(6, 2, 4, k=0.2).log_softmax(2).detach().requires_grad_()
    y = F.ctc_loss(lp, torch.tensor([[1, 2], [3, 3]]), torch.tensor([6, 5]), torch.tensor([2, 2]),
                   reduction="none")
    y.sum().backward()
    close(y, STORED["ctc"][0]), close(lp.grad, STORED["ctc"][1])
    assert np.abs(lp.grad.sum(-1).numpy()).max() < 1e-12
    assert y.grad_fn.name() == "CtcLossBackward0"


def test_max_pool_indices_and_unpool_stored():
    x = X(1, 1, 4, 4).requires_grad_()
    v, i = F.max_pool2d_with_indices(x, 2)
    u = F.max_unpool2d(v, i, 2)
    u.backward(X(1, 1, 4, 4, k=1))
    out, idx, unpooled, gx = STORED["unpool"]
    close(v, out), close(u, unpooled), close(x.grad, gx)
    assert i.tolist() == idx and i.dtype == torch.int64
    assert u.grad_fn.name() == "MaxUnpool2DBackward0"


def test_lp_pool_and_margin_losses_stored():
    x = X(1, 2, 5).abs().add(0.1).requires_grad_()
    y = F.lp_pool1d(x, 3.0, 2)
    y.backward(torch.ones_like(y))
    close(y, STORED["lp_pool1d"][0]), close(x.grad, STORED["lp_pool1d"][1])
    xm = X(2, 5).requires_grad_()
    y = F.multi_margin_loss(xm, torch.tensor([1, 4]), p=2, margin=0.7, reduction="none")
    y.sum().backward()
    close(y, STORED["multi_margin"][0]), close(xm.grad, STORED["multi_margin"][1])
    xm.grad = None
    y = F.multilabel_margin_loss(xm, torch.tensor([[0, 3, -1, 0, 0], [4, -1, 1, 1, 1]]), reduction="none")
    y.sum().backward()
    close(y, STORED["multilabel_margin"][0]), close(xm.grad, STORED["multilabel_margin"][1])


def test_seeded_random_layers_stored():
    """gumbel_softmax, the alpha dropouts, rrelu (one double draw per non-positive element,
    as ATen: the old fgrad rrelu drew one float per element and failed this) and the
    fractional max pool's samples print PyTorch's numbers under manual_seed."""
    torch.manual_seed(0)
    close(F.gumbel_softmax(X(2, 4), tau=0.5), STORED["gumbel"])
    torch.manual_seed(0)
    close(F.gumbel_softmax(X(2, 4), tau=0.5, hard=True), STORED["gumbel_hard"])
    torch.manual_seed(1)
    close(F.alpha_dropout(X(2, 4, dtype=torch.float32), 0.3, True), STORED["alpha_dropout"], 1e-5)
    torch.manual_seed(1)
    close(F.feature_alpha_dropout(X(2, 3, 2, dtype=torch.float32), 0.4, True),
          STORED["feature_alpha_dropout"], 1e-5)
    torch.manual_seed(2)
    xr = X(2, 4, dtype=torch.float32).requires_grad_()
    y = F.rrelu(xr, training=True)
    y.sum().backward()
    close(y, STORED["rrelu"][0], 1e-5), close(xr.grad, STORED["rrelu"][1], 1e-5)
    torch.manual_seed(3)
    xf = X(1, 2, 7, 6).requires_grad_()
    y, i = F.fractional_max_pool2d(xf, 2, output_size=(3, 3), return_indices=True)
    y.sum().backward()
    close(y, STORED["fractional2d"][0]), close(xf.grad, STORED["fractional2d"][2])
    assert i.tolist() == STORED["fractional2d"][1]


def test_lazy_and_reparametrizations_stored():
    torch.manual_seed(4)
    lin = torch.nn.LazyLinear(3)
    lin(torch.ones(1, 2))
    assert type(lin) is torch.nn.Linear
    close(lin.weight, STORED["lazy_linear"][0], 1e-6), close(lin.bias, STORED["lazy_linear"][1], 1e-6)
    torch.manual_seed(5)
    sn = torch.nn.utils.spectral_norm(torch.nn.Linear(3, 2))
    ys = sn(X(2, 3, dtype=torch.float32))
    for got, want in zip((ys, sn.weight_u, sn.weight_v), STORED["spectral_norm"]):
        close(got, want, 1e-5)
    torch.manual_seed(6)
    m = torch.nn.Linear(3, 2)
    m.weight = torch.nn.Parameter(X(2, 3, dtype=torch.float32))
    with pytest.warns(FutureWarning, match="weight_norm` is deprecated"):
        m = torch.nn.utils.weight_norm(m)
    yw = m(torch.ones(1, 3))
    yw.sum().backward()
    for got, want in zip((m.weight_g, yw, m.weight_v.grad), STORED["weight_norm"]):
        close(got, want, 1e-5)


def test_adafactor_and_swalr_stored():
    torch.manual_seed(7)
    pa = torch.nn.Parameter(X(2, 3, dtype=torch.float32))
    opt = torch.optim.Adafactor([pa], lr=0.05, weight_decay=0.1)
    for _ in range(3):
        opt.zero_grad()
        (pa ** 3).sum().backward()
        opt.step()
    close(pa, STORED["adafactor"], 1e-5)
    opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
    sched = torch.optim.swa_utils.SWALR(opt, 0.1, anneal_epochs=3)
    lrs = []
    for _ in range(5):
        opt.step()
        sched.step()
        lrs.append(sched.get_last_lr()[0])
    np.testing.assert_allclose(lrs, STORED["swalr"], rtol=1e-12)


# -- finite differences --------------------------------------------------------------------


def _gradcheck(fn, *inputs):
    assert torch.autograd.gradcheck(fn, inputs, eps=1e-6, atol=1e-5)


def test_gradients_match_finite_differences():
    _gradcheck(lambda x, w: F.rms_norm(x, [4], w), X(2, 4).requires_grad_(), X(4, k=1).requires_grad_())
    _gradcheck(lambda i, g: F.grid_sample(i, g, "bilinear", "border", False), X(1, 1, 3, 4).requires_grad_(),
               (X(1, 2, 2, 2, k=0.4) * 0.45).requires_grad_())
    _gradcheck(lambda i, g: F.grid_sample(i, g, "bicubic", "zeros", True), X(1, 1, 3, 4).requires_grad_(),
               (X(1, 2, 2, 2, k=0.4) * 0.45).requires_grad_())
    _gradcheck(lambda t: F.affine_grid(t, [1, 1, 2, 3], align_corners=True), X(1, 2, 3).requires_grad_())
    # through log_softmax the CTC gradient is the loss's derivative (PyTorch's convention cancels)
    _gradcheck(lambda z: F.ctc_loss(z.log_softmax(2), torch.tensor([[1, 2], [3, 3]]), torch.tensor([5, 4]),
                                    torch.tensor([2, 1])), X(5, 2, 4).requires_grad_())
    _gradcheck(lambda x: F.lp_pool2d(x, 2.5, 2), X(1, 1, 4, 4).abs().add(0.2).requires_grad_())
    _gradcheck(lambda x: F.multi_margin_loss(x, torch.tensor([0, 2]), margin=0.3), X(2, 4,
                                                                                     k=0.1).requires_grad_())
    _gradcheck(lambda a, p, n: F.triplet_margin_with_distance_loss(a, p, n, swap=True), X(2,
                                                                                          3).requires_grad_(),
               X(2, 3, k=1).requires_grad_(), X(2, 3, k=2).requires_grad_())
    v, i = F.max_pool1d_with_indices(X(1, 2, 6), 2)
    _gradcheck(lambda v: F.max_unpool1d(v, i, 2), v.detach().requires_grad_())


# -- errors --------------------------------------------------------------------------------

ERRORS = [
    (lambda: F.alpha_dropout("abc"), TypeError,
     r"alpha_dropout\(\): argument 'input' \(position 1\) must be Tensor, not str"),
    (lambda: torch.rms_norm(torch.ones(2, 3), []), RuntimeError,
     r"Expected normalized_shape to be at least 1-dimensional.* but got normalized_shape = \[\]"),
    (lambda: F.rms_norm(torch.ones(2, 3), [4]), RuntimeError,
     r"Given normalized_shape=\[4\], expected input with shape \[\*4\], but got input of size\[2, 3\]"),
    (lambda: F.channel_shuffle(torch.ones(1, 5, 2), 2), RuntimeError,
     "Number of channels must be divisible by groups. Got 5 channels and 2 groups."),
    (lambda: F.grid_sample(torch.ones(1, 1, 2, 2), torch.zeros(1, 2, 2, 3), align_corners=False),
     RuntimeError,
     "expected grid to have size 2 in last dimension"),
    (lambda: F.grid_sample(torch.ones(1, 1, 2, 2), torch.zeros(1, 2, 2, 2), mode="x", align_corners=False),
     ValueError, "expected mode to be 'bilinear', 'nearest' or 'bicubic', but got: 'x'"),
    (lambda: F.grid_sample(torch.ones(1, 1, 2, 2, 2), torch.zeros(1, 2, 2, 2, 3), mode="bicubic",
                           align_corners=False), RuntimeError,
                           "bicubic interpolation only supports 4D input"),
    (lambda: F.affine_grid(torch.ones(1, 3, 3), [1, 1, 2, 2], align_corners=False), ValueError,
     "Expected a batch of 2D affine matrices of shape Nx2x3"),
    (lambda: F.ctc_loss(torch.zeros(5, 2, 3), torch.tensor([[1, 1], [2, 2]]), torch.tensor([6, 5]),
                        torch.tensor([2, 2])), RuntimeError, "Expected input_lengths to have value at most "
                                                             "5, but got "
                                                             "value 6"),
    (lambda: F.ctc_loss(torch.zeros(5, 2, 3), torch.tensor([[1, 1], [2, 2]]), torch.tensor([5, 5, 5]),
                        torch.tensor([2, 2])), RuntimeError, "input_lengths must be of size batch_size"),
    (lambda: F.max_unpool2d(torch.ones(1, 1, 2, 2), torch.zeros(1, 1, 2, 2, dtype=torch.long), 2,
                            output_size=(9, 9)), ValueError, r"invalid output_size \"\(9, 9\)\" \(dim 0 "
                                                             r"must be "
                                                             r"between 2 and 6\)"),
    (lambda: F.max_unpool2d(torch.ones(1, 1, 2, 2), torch.full((1, 1, 2, 2), 17, dtype=torch.long), 2),
     RuntimeError, r"Found an invalid max index: 17 \(output volumes are of size 4x4\)"),
    (lambda: F.multi_margin_loss(torch.ones(2, 3), torch.tensor([0, 3])), RuntimeError,
     "target out of range"),
    (lambda: F.multi_margin_loss(torch.ones(2, 3), torch.tensor([0, 1]), p=3), ValueError,
     "only p == 1 and p == 2 supported"),
    (lambda: F.multi_margin_loss(torch.ones(2, 3), torch.tensor([0, 1]), weight=torch.ones(3,
                                                                                           requires_grad=True)),
     RuntimeError, "not differentiable with respect to argument 'weight'"),
    (lambda: F.multilabel_margin_loss(torch.ones(2, 3), torch.tensor([0, 1])), RuntimeError,
     r"inconsistent target size: \[2\] for input of size: \[2, 3\]"),
    (lambda: F.alpha_dropout(torch.ones(2, 3), 1.5, True), ValueError,
     "dropout probability has to be between 0 and 1, but got 1.5"),
    (lambda: F.feature_alpha_dropout(torch.ones(3), 0.5, True), RuntimeError,
     "Feature dropout requires at least 2 dimensions in the input"),
    (lambda: F.fractional_max_pool2d(torch.ones(1, 1, 4, 4), 2), ValueError,
     "requires specifying either an output_size or an output_ratio"),
    (lambda: F.fractional_max_pool2d(torch.ones(1, 1, 4, 4), 2, output_size=4), RuntimeError,
     "pool height 2 too large relative to input height 4"),
    (lambda: torch.nn.utils.remove_spectral_norm(torch.nn.Linear(1, 1)), ValueError, "spectral_norm of "
                                                                                     "'weight' "
                                                                                     "not found in"),
    (lambda: torch.optim.Adafactor([torch.zeros(1, requires_grad=True)], d=0.5), ValueError,
     "Clipping threshold d should be >= 1 but is: 0.5"),
    (lambda: torch.optim.swa_utils.SWALR(torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0), 0.1,
                                         anneal_strategy="exp"), ValueError,
     "anneal_strategy must be one of 'cos' or 'linear', instead got exp"),
]


@pytest.mark.parametrize("i", range(len(ERRORS)))
def test_errors(i):
    fn, exc, msg = ERRORS[i]
    with pytest.raises(exc, match=msg):
        fn()


# -- modules: reprs and state_dict keys ----------------------------------------------------


def _modules(lib):
    nn = lib.nn
    return [nn.RMSNorm(3), nn.RMSNorm([2, 3], eps=1e-5, elementwise_affine=False), nn.CosineSimilarity(),
            nn.PairwiseDistance(), nn.AlphaDropout(0.2), nn.FeatureAlphaDropout(), nn.LPPool2d(2, 3),
            nn.LPPool1d(2, 3, 2), nn.LPPool3d(1.5, 2), nn.MaxUnpool2d(2), nn.MaxUnpool1d(2, 1, 0),
            nn.MaxUnpool3d(2),
            nn.ChannelShuffle(2), nn.ReflectionPad3d(1), nn.ReplicationPad3d((1, 2, 3, 4, 5, 6)),
            nn.CircularPad3d(1),
            nn.FractionalMaxPool2d(2, output_size=3), nn.FractionalMaxPool3d(2, output_ratio=0.5),
            nn.MultiMarginLoss(), nn.MultiLabelMarginLoss(), nn.TripletMarginWithDistanceLoss(), nn.CTCLoss(),
            nn.AdaptiveLogSoftmaxWithLoss(8, 10, [4, 8], div_value=2.0), nn.LazyLinear(3),
            nn.LazyConv1d(4, 3), nn.LazyConv2d(4, 3),
            nn.LazyConv3d(4, 3, bias=False), nn.LazyConvTranspose1d(2, 3), nn.LazyConvTranspose2d(2, 3),
            nn.LazyConvTranspose3d(2, 3), nn.LazyBatchNorm1d(), nn.LazyBatchNorm2d(),
            nn.LazyBatchNorm3d(affine=False),
            nn.LazyInstanceNorm1d(), nn.LazyInstanceNorm2d(affine=True),
            nn.LazyInstanceNorm3d(track_running_stats=True),
            nn.SyncBatchNorm(4), nn.DataParallel(nn.Linear(2, 2))]


REPRS = [
    "RMSNorm((3,), eps=None, elementwise_affine=True)", "RMSNorm((2, 3), eps=1e-05, "
                                                        "elementwise_affine=False)",
    "CosineSimilarity()", "PairwiseDistance()", "AlphaDropout(p=0.2, inplace=False)",
    "FeatureAlphaDropout(p=0.5, inplace=False)", "LPPool2d(norm_type=2, kernel_size=3, stride=None, "
                                                 "ceil_mode=False)",
    "LPPool1d(norm_type=2, kernel_size=3, stride=2, ceil_mode=False)",
    "LPPool3d(norm_type=1.5, kernel_size=2, stride=None, ceil_mode=False)",
    "MaxUnpool2d(kernel_size=(2, 2), stride=(2, 2), padding=(0, 0))",
    "MaxUnpool1d(kernel_size=(2,), stride=(1,), padding=(0,))",
    "MaxUnpool3d(kernel_size=(2, 2, 2), stride=(2, 2, 2), padding=(0, 0, 0))", "ChannelShuffle(groups=2)",
    "ReflectionPad3d((1, 1, 1, 1, 1, 1))", "ReplicationPad3d((1, 2, 3, 4, 5, 6))", "CircularPad3d((1, 1, 1, "
                                                                                   "1, 1, 1))",
    "FractionalMaxPool2d()", "FractionalMaxPool3d()", "MultiMarginLoss()", "MultiLabelMarginLoss()",
    "TripletMarginWithDistanceLoss(\n  (distance_function): PairwiseDistance()\n)", "CTCLoss()", None,
    "LazyLinear(in_features=0, out_features=3, bias=True)", "LazyConv1d(0, 4, kernel_size=(3,), stride=(1,))",
    "LazyConv2d(0, 4, kernel_size=(3, 3), stride=(1, 1))",
    "LazyConv3d(0, 4, kernel_size=(3, 3, 3), stride=(1, 1, 1), bias=False)",
    "LazyConvTranspose1d(0, 2, kernel_size=(3,), stride=(1,))",
    "LazyConvTranspose2d(0, 2, kernel_size=(3, 3), stride=(1, 1))",
    "LazyConvTranspose3d(0, 2, kernel_size=(3, 3, 3), stride=(1, 1, 1))",
    "LazyBatchNorm1d(0, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)",
    "LazyBatchNorm2d(0, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)",
    "LazyBatchNorm3d(0, eps=1e-05, momentum=0.1, affine=False, bias=False, track_running_stats=True)",
    "LazyInstanceNorm1d(0, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)",
    "LazyInstanceNorm2d(0, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)",
    "LazyInstanceNorm3d(0, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)",
    "SyncBatchNorm(4, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)",
    "DataParallel(\n  (module): Linear(in_features=2, out_features=2, bias=True)\n)",
]


def test_module_reprs_stored():
    for m, want in zip(_modules(torch), REPRS):
        if want is not None:
            assert repr(m) == want


def test_module_reprs_and_state_dict_keys_live():
    pt = pytest.importorskip("torch")
    if not torch_is_pinned(pt):  # reprs change between releases (2.11's BatchNorm has no bias=)
        pytest.skip(torch_version_note(pt))
    for a, b in zip(_modules(pt), _modules(torch)):
        assert repr(a) == repr(b)
        assert list(a.state_dict()) == list(b.state_dict())


# -- live comparisons with PyTorch ---------------------------------------------------------


@pytest.fixture(scope="module")
def pt():
    return pytest.importorskip("torch")


def _pair(pt, shape, k=0.0, dtype=np.float64):
    x = np.sin(np.arange(int(np.prod(shape))) * 1.3 + k).reshape(shape).astype(dtype) * 1.5
    return pt.tensor(x, requires_grad=True), torch.tensor(x, requires_grad=True)


def _same(pt, fp, ft, shapes, tol=1e-9, seed=None):
    """Forward values and the gradients of every input agree with PyTorch's."""
    ins = [_pair(pt, s, k=i) for i, s in enumerate(shapes)]
    if seed is not None:
        pt.manual_seed(seed)
        torch.manual_seed(seed)
    a, b = fp(*[i[0] for i in ins]), ft(*[i[1] for i in ins])
    close(b, a.detach().numpy(), tol)
    g = np.cos(np.arange(a.numel())).reshape(tuple(a.shape))
    a.backward(pt.tensor(g, dtype=a.dtype))
    b.backward(torch.tensor(g, dtype=b.dtype))
    for (ta, tb) in ins:
        want = ta.grad.numpy() if ta.grad is not None else np.zeros(ta.shape)
        close(tb.grad if tb.grad is not None else torch.zeros(tuple(tb.shape), dtype=tb.dtype), want, tol)


@pytest.mark.parametrize("mode", ["bilinear", "nearest", "bicubic"])
@pytest.mark.parametrize("pad", ["zeros", "border", "reflection"])
@pytest.mark.parametrize("ac", [True, False])
def test_grid_sample_live(pt, mode, pad, ac):
    _same(pt, lambda x, g: pt.nn.functional.grid_sample(x, g * 1.2, mode, pad, ac),
          lambda x, g: F.grid_sample(x, g * 1.2, mode, pad, ac), [(2, 2, 4, 5), (2, 3, 4, 2)])


@pytest.mark.parametrize("mode", ["bilinear", "nearest"])
@pytest.mark.parametrize("pad", ["zeros", "border", "reflection"])
def test_grid_sample_3d_live(pt, mode, pad):
    _same(pt, lambda x, g: pt.nn.functional.grid_sample(x, g * 1.2, mode, pad, False),
          lambda x, g: F.grid_sample(x, g * 1.2, mode, pad, False), [(1, 2, 3, 4, 3), (1, 2, 3, 2, 3)])


@pytest.mark.parametrize("ac", [True, False])
def test_affine_grid_live(pt, ac):
    _same(pt, lambda t: pt.nn.functional.affine_grid(t, [2, 1, 3, 4], ac), lambda t: F.affine_grid(t, [2, 1,
                                                                                                       3, 4],
                                                                                                       ac),
          [(2, 2, 3)])
    _same(pt, lambda t: pt.nn.functional.affine_grid(t, [1, 1, 2, 3, 2], ac),
          lambda t: F.affine_grid(t, [1, 1, 2, 3, 2], ac), [(1, 3, 4)])


@pytest.mark.parametrize("reduction", ["none", "mean", "sum"])
@pytest.mark.parametrize("layout", ["padded", "concatenated"])
@pytest.mark.parametrize("zero_infinity", [False, True])
def test_ctc_loss_live(pt, reduction, layout, zero_infinity):
    tl, il = [3, 0, 2, 3], [10, 7, 9, 2]  # the last is impossible (infinite loss)
    tg = np.array([[1, 1, 2], [0, 0, 0], [3, 1, 0], [1, 2, 3]]) if layout == "padded" else np.array([1, 1, 2,
                                                                                                     3, 1, 1,
                                                                                                     2, 3])

    def make(lib, fn):
        return lambda lp: fn(lp, lib.tensor(tg), lib.tensor(il), lib.tensor(tl), blank=0, reduction=reduction,
                             zero_infinity=zero_infinity)

    if not zero_infinity:  # gradients of an infinite loss: compare the values only
        lp = np.log(np.random.default_rng(0).dirichlet(np.ones(4), size=(10, 4)))
        a = pt.nn.functional.ctc_loss(pt.tensor(lp), pt.tensor(tg), pt.tensor(il), pt.tensor(tl),
                                      reduction=reduction)
        b = F.ctc_loss(torch.tensor(lp), torch.tensor(tg), torch.tensor(il), torch.tensor(tl),
                       reduction=reduction)
        close(b, a.numpy())
        return
    _same(pt, make(pt, pt.nn.functional.ctc_loss), make(torch, F.ctc_loss), [(10, 4, 4)])


def test_ctc_loss_unbatched_live(pt):
    _same(pt, lambda lp: pt.nn.functional.ctc_loss(lp.log_softmax(1), pt.tensor([1, 2]), pt.tensor(5),
                                                   pt.tensor(2)),
          lambda lp: F.ctc_loss(lp.log_softmax(1), torch.tensor([1, 2]), torch.tensor(5), torch.tensor(2)),
          [(5, 3)])


@pytest.mark.parametrize("nd", [1, 2, 3])
def test_pool_indices_unpool_lp_pool_live(pt, nd):
    shape = {1: (2, 3, 8), 2: (2, 3, 4, 6), 3: (1, 2, 4, 4, 6)}[nd]
    tp, fp = pt.nn.functional, F
    for name in (f"max_pool{nd}d_with_indices", f"adaptive_max_pool{nd}d_with_indices"):
        arg = 2 if name.startswith("max") else 3
        a, b = _pair(pt, shape)
        ya, ia = getattr(tp, name)(a, arg)
        yb, ib = getattr(fp, name)(b, arg)
        close(yb, ya.detach().numpy())
        assert ib.tolist() == ia.tolist()
    a, b = _pair(pt, shape)
    ya, ia = getattr(tp, f"max_pool{nd}d")(a, 2, return_indices=True)
    yb, ib = getattr(fp, f"max_pool{nd}d")(b, 2, return_indices=True)
    _same(pt, lambda v: getattr(tp, f"max_unpool{nd}d")(v, ia, 2), lambda v: getattr(fp,
                                                                                     f"max_unpool{nd}d")(v,
                                                                                                         ib,
                                                                                                         2),
          [tuple(ya.shape)])
    _same(pt, lambda x: getattr(tp, f"lp_pool{nd}d")(x.abs() + 0.1, 2.0, 2, None, True),
          lambda x: getattr(fp, f"lp_pool{nd}d")(x.abs() + 0.1, 2.0, 2, None, True), [shape])


@pytest.mark.parametrize("nd", [2, 3])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fractional_max_pool_live(pt, nd, dtype):
    shape = {2: (2, 3, 9, 7), 3: (1, 2, 7, 6, 9)}[nd]
    a, b = _pair(pt, shape, dtype=dtype)
    pt.manual_seed(5)
    torch.manual_seed(5)
    ya, ia = getattr(pt.nn.functional, f"fractional_max_pool{nd}d")(a, 2, output_ratio=(0.5,) * nd,
                                                                    return_indices=True)
    yb, ib = getattr(F, f"fractional_max_pool{nd}d")(b, 2, output_ratio=(0.5,) * nd, return_indices=True)
    close(yb, ya.detach().numpy()), close(ib, ia.numpy())
    ya.sum().backward()
    yb.sum().backward()
    close(b.grad, a.grad.numpy())
    close(torch.rand(3), pt.rand(3).numpy())  # the generator advanced alike


def test_margin_losses_live(pt):
    t = [3, 1, 0]
    for p, margin, red in ((1, 1.0, "mean"), (2, 0.5, "none"), (1, 0.2, "sum")):
        _same(pt, lambda x: pt.nn.functional.multi_margin_loss(x, pt.tensor(t), p, margin, reduction=red),
              lambda x: F.multi_margin_loss(x, torch.tensor(t), p, margin, reduction=red), [(3, 5)])
    w = np.array([0.5, 1.0, 2.0, 1.5, 0.1])
    _same(pt, lambda x: pt.nn.functional.multi_margin_loss(x, pt.tensor(t), weight=pt.tensor(w)),
          lambda x: F.multi_margin_loss(x, torch.tensor(t), weight=torch.tensor(w)), [(3, 5)])
    tg = [[3, 0, -1, 1, 2], [1, -1, 0, 0, 0], [-1, 1, 2, 3, 4]]
    for red in ("none", "mean", "sum"):
        _same(pt, lambda x: pt.nn.functional.multilabel_margin_loss(x, pt.tensor(tg), reduction=red),
              lambda x: F.multilabel_margin_loss(x, torch.tensor(tg), reduction=red), [(3, 5)])
    _same(pt, lambda x: pt.nn.functional.multilabel_margin_loss(x, pt.tensor([2, 0, -1])),
          lambda x: F.multilabel_margin_loss(x, torch.tensor([2, 0, -1])), [(3,)])
    _same(pt, lambda a, p, n: pt.nn.functional.triplet_margin_with_distance_loss(
        a, p, n, distance_function=lambda u, v: 1 - pt.nn.functional.cosine_similarity(u, v), swap=True),
        lambda a, p, n: F.triplet_margin_with_distance_loss(
            a, p, n, distance_function=lambda u, v: 1 - F.cosine_similarity(u, v), swap=True), [(4, 3)] * 3)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_random_layers_live(pt, dtype):
    x = np.sin(np.arange(60) * 1.3).reshape(3, 4, 5).astype(dtype)
    tf = pt.nn.functional
    for fn in ("alpha_dropout", "feature_alpha_dropout"):
        pt.manual_seed(2)
        torch.manual_seed(2)
        close(getattr(F, fn)(torch.tensor(x), 0.3, True), getattr(tf, fn)(pt.tensor(x), 0.3, True).numpy(),
              1e-6)
    for hard in (False, True):
        _same(pt, lambda z: tf.gumbel_softmax(z, 0.7, hard, dim=1), lambda z: F.gumbel_softmax(z, 0.7, hard,
                                                                                               dim=1),
              [(3, 4, 5)], 1e-6, seed=3)
    _same(pt, lambda z: tf.rrelu(z, 0.1, 0.4, training=True), lambda z: F.rrelu(z, 0.1, 0.4, training=True),
          [(3, 4, 5)], 1e-6, seed=4)
    close(torch.rand(3), pt.rand(3).numpy())
    for fn, args in (("rrelu_", (0.1, 0.3, True)), ("celu_", (0.5,)), ("selu_", ())):
        pt.manual_seed(5)
        torch.manual_seed(5)
        a, b = pt.tensor(x), torch.tensor(x)
        assert getattr(F, fn)(b, *args) is b
        getattr(tf, fn)(a, *args)
        close(b, a.numpy(), 1e-6)


def test_rms_norm_channel_shuffle_live(pt):
    tf = pt.nn.functional
    _same(pt, lambda x, w: tf.rms_norm(x, [2, 3], w, 1e-3), lambda x, w: F.rms_norm(x, [2, 3], w, 1e-3),
          [(4, 2, 3), (2, 3)])
    for dtype in (np.float32, np.float64):
        x = np.sin(np.arange(12)).reshape(3, 4).astype(dtype)
        close(F.rms_norm(torch.tensor(x), [4]), tf.rms_norm(pt.tensor(x), [4]).numpy(), 1e-7)
    _same(pt, lambda x: tf.channel_shuffle(x, 3), lambda x: F.channel_shuffle(x, 3), [(2, 6, 2, 2)])


def test_lazy_modules_live(pt):
    """The first forward infers the shapes, draws the initial values as the eager layer
    (seeded: PyTorch's numbers) and turns the module into its eager class."""
    inputs = {"LazyLinear": (2, 5), "LazyConv1d": (2, 3, 7), "LazyConv2d": (2, 3, 6, 6), "LazyConv3d": (1, 2,
                                                                                                        5, 5,
                                                                                                        5),
              "LazyConvTranspose1d": (2, 3, 4), "LazyConvTranspose2d": (2, 3, 4, 4),
              "LazyConvTranspose3d": (1, 2, 3, 3, 3),
              "LazyBatchNorm1d": (4, 3), "LazyBatchNorm2d": (2, 3, 4, 4), "LazyBatchNorm3d": (2, 3, 2, 2, 2),
              "LazyInstanceNorm1d": (2, 3, 5), "LazyInstanceNorm2d": (2, 3, 4, 4), "LazyInstanceNorm3d": (2,
                                                                                                          3,
                                                                                                          2,
                                                                                                          2,
                                                                                                          2)}
    for a, b in zip(_modules(pt), _modules(torch)):
        name = type(a).__name__
        if name not in inputs:
            continue
        x = np.sin(np.arange(int(np.prod(inputs[name])))).reshape(inputs[name]).astype(np.float32)
        pt.manual_seed(7)
        torch.manual_seed(7)
        close(b(torch.tensor(x)), a(pt.tensor(x)).detach().numpy(), 1e-5)
        assert type(b).__name__ == type(a).__name__
        assert repr(b) == repr(a) or not torch_is_pinned(pt)  # reprs change between releases
        sa, sb = a.state_dict(), b.state_dict()
        assert list(sa) == list(sb)
        for k in sa:
            close(sb[k], sa[k].numpy(), 1e-6)
    lazy = torch.nn.LazyLinear(3)
    assert torch.nn.parameter.is_lazy(lazy.weight) and lazy.has_uninitialized_params()
    lazy.load_state_dict(torch.nn.Linear(5, 3).state_dict())
    assert tuple(lazy.weight.shape) == (3, 5) and type(lazy).__name__ == "LazyLinear"



def test_lazy_batch_norm_without_bias():
    """``LazyBatchNorm*d(bias=False)`` (PyTorch 2.13's keyword): a weight and no bias, before and
    after the first forward (PyTorch's repr, state_dict keys and numbers, stored)."""
    m = torch.nn.LazyBatchNorm1d(bias=False)
    assert repr(m) == ("LazyBatchNorm1d(0, eps=1e-05, momentum=0.1, affine=True, bias=False, "
                       "track_running_stats=True)")
    assert m.bias is None and torch.nn.parameter.is_lazy(m.weight)
    y = m(torch.arange(12.0).reshape(4, 3))
    assert type(m) is torch.nn.BatchNorm1d and m.bias is None
    assert list(m.state_dict()) == ["weight", "running_mean", "running_var", "num_batches_tracked"]
    close(y, np.repeat(np.array([[-1.3416408], [-0.4472136], [0.4472136], [1.3416408]]), 3, axis=1), 1e-6)
    assert torch.nn.LazyBatchNorm2d(affine=False, bias=False).bias is None

def test_adaptive_log_softmax_live(pt):
    x = np.sin(np.arange(40) * 0.9).reshape(5, 8).astype(np.float32)
    t = [0, 5, 9, 3, 6]
    pt.manual_seed(0)
    torch.manual_seed(0)
    a = pt.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [4, 8], div_value=2.0)
    b = torch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [4, 8], div_value=2.0)
    oa, ob = a(pt.tensor(x), pt.tensor(t)), b(torch.tensor(x), torch.tensor(t))
    close(ob.output, oa.output.detach().numpy(), 1e-5), close(ob.loss, oa.loss.item(), 1e-5)
    oa.loss.backward()
    ob.loss.backward()
    for p, q in zip(a.parameters(), b.parameters()):
        close(q.grad, p.grad.numpy(), 1e-5)
    close(b.log_prob(torch.tensor(x)), a.log_prob(pt.tensor(x)).detach().numpy(), 1e-5)
    assert b.predict(torch.tensor(x)).tolist() == a.predict(pt.tensor(x)).tolist()


def test_norm_utils_live(pt):
    for dim in (0, 1, None):
        outs = []
        for lib in (pt, torch):
            lib.manual_seed(0)
            with pytest.warns(FutureWarning):
                m = lib.nn.utils.weight_norm(lib.nn.Linear(4, 3), dim=dim)
            y = m(lib.ones(2, 4))
            y.sum().backward()
            outs.append([y, m.weight_g.grad, m.weight_v.grad, list(m.state_dict()), repr(m)])
            m = lib.nn.utils.remove_weight_norm(m)
            outs[-1] += [list(m.state_dict()), m.weight]
        (a, b) = outs
        for i in (0, 1, 2, 6):
            close(b[i], a[i].detach().numpy(), 1e-6)
        assert a[3] == b[3] and a[4] == b[4] and a[5] == b[5]
    for kind in ("linear", "conv_transpose"):
        outs = []
        for lib in (pt, torch):
            lib.manual_seed(0)
            m = lib.nn.Linear(4, 3) if kind == "linear" else lib.nn.ConvTranspose2d(2, 3, 2)
            m = lib.nn.utils.spectral_norm(m, n_power_iterations=2)
            x = lib.ones(2, 4) if kind == "linear" else lib.ones(1, 2, 3, 3)
            m(x)
            y = m(x)
            y.sum().backward()
            sd = m.state_dict()
            outs.append([y, m.weight_orig.grad, m.weight_u, list(sd), dict(sd._metadata), m.eval()(x)])
            m2 = lib.nn.utils.remove_spectral_norm(m)
            outs[-1] += [list(m2.state_dict()), m2.weight]
        (a, b) = outs
        for i in (0, 1, 2, 5, 7):
            close(b[i], a[i].detach().numpy(), 1e-5)
        assert a[3] == b[3] and a[4] == b[4] and a[6] == b[6]


def test_fusion_clip_skip_init_stateless_live(pt):
    res = []
    for lib in (pt, torch):
        lib.manual_seed(0)
        conv, bn = lib.nn.Conv2d(2, 3, 2).eval(), lib.nn.BatchNorm2d(3).eval()
        bn.running_mean.uniform_()
        bn.running_var.uniform_(1, 2)
        bn.weight.data.uniform_()
        fused = lib.nn.utils.fuse_conv_bn_eval(conv, bn)
        lin, bn1 = lib.nn.Linear(3, 3).eval(), lib.nn.BatchNorm1d(3).eval()
        bn1.running_var.uniform_(1, 2)
        fl = lib.nn.utils.fuse_linear_bn_eval(lin, bn1)
        x = lib.ones(1, 2, 4, 4)
        w = lib.arange(4.0, requires_grad=True)
        (w * w).sum().backward()
        total = lib.nn.utils.clip_grad_norm_([w], 1.0)
        w2 = lib.arange(4.0, requires_grad=True)
        (w2 * w2).sum().backward()
        lib.nn.utils.clip_grads_with_norm_([w2], 1.0, lib.tensor(3.7))
        lib.manual_seed(3)
        skipped = lib.nn.utils.skip_init(lib.nn.Linear, 3, 2)
        with pytest.warns(FutureWarning):
            sc = lib.nn.utils.stateless.functional_call(lib.nn.Linear(1, 1), {"weight": lib.full((1, 1), 2.0),
                                                                              "bias": lib.ones(1)},
                                                                              lib.ones(1, 1))
        res.append([fused(x), fl(lib.ones(2, 3)), total, w.grad, w2.grad, lib.rand(2),
                    tuple(skipped.weight.shape), sc])
    a, b = res
    close(b[0], a[0].detach().numpy(), 1e-5), close(b[1], a[1].detach().numpy(), 1e-5)
    assert b[2].numpy().tobytes() == a[2].numpy().tobytes()
    assert b[3].numpy().tobytes() == a[3].numpy().tobytes()
    assert b[4].numpy().tobytes() == a[4].numpy().tobytes()
    close(b[5], a[5].numpy()), close(b[7], a[7].detach().numpy())
    assert a[6] == b[6]


@pytest.mark.parametrize("kw", [{}, dict(lr=0.05, weight_decay=0.1), dict(maximize=True, d=2.0, eps=(1e-20,
                                                                                                     1e-3))])
def test_adafactor_live(pt, kw):
    res = []
    for lib in (pt, torch):
        lib.manual_seed(0)
        m = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Linear(4, 1))
        opt = lib.optim.Adafactor(m.parameters(), **kw)
        for _ in range(4):
            opt.zero_grad()
            m(lib.ones(5, 3)).pow(2).sum().backward()
            opt.step()
        res.append(([p.detach().numpy().copy() for p in m.parameters()], opt.state_dict()))
    for p, q in zip(res[0][0], res[1][0]):
        np.testing.assert_allclose(q, p, rtol=1e-5, atol=1e-7)
    assert sorted(res[0][1]["state"][0]) == sorted(res[1][1]["state"][0])


@pytest.mark.parametrize("kind", ["swa", "ema_multi", "ema", "buffers"])
def test_swa_utils_live(pt, kind):
    res = []
    for lib in (pt, torch):
        su = lib.optim.swa_utils
        lib.manual_seed(0)
        m = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.BatchNorm1d(4))
        kw = {"swa": {}, "ema_multi": dict(multi_avg_fn=su.get_ema_multi_avg_fn(0.9)),
              "ema": dict(avg_fn=su.get_ema_avg_fn(0.9)), "buffers": dict(use_buffers=True)}[kind]
        avg = su.AveragedModel(m, **kw)
        opt = lib.optim.SGD(m.parameters(), lr=0.1)
        sched = su.SWALR(opt, swa_lr=0.05, anneal_epochs=3)
        x = lib.randn(6, 3)
        lrs = []
        for _ in range(5):
            opt.zero_grad()
            m(x).pow(2).sum().backward()
            opt.step()
            avg.update_parameters(m)
            sched.step()
            lrs.append(sched.get_last_lr()[0])
        su.update_bn([x, x * 2], avg)
        res.append(({k: v.numpy().copy() for k, v in avg.state_dict().items()}, lrs,
                    repr(avg) if torch_is_pinned(pt) else None))  # reprs change between releases
    (a, la, ra), (b, lb, rb) = res
    assert list(a) == list(b) and ra == rb
    for k in a:
        np.testing.assert_allclose(b[k], a[k], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(lb, la, rtol=1e-12)


def test_sync_batch_norm_and_data_parallel():
    """Without an initialized process group SyncBatchNorm is BatchNorm (as in PyTorch);
    DataParallel runs its module."""
    x = X(4, 3, dtype=torch.float32)
    torch.manual_seed(0)
    bn, sbn = torch.nn.BatchNorm1d(3), torch.nn.SyncBatchNorm(3)
    close(sbn(x), bn(x).detach().numpy(), 0)
    close(sbn.running_var, bn.running_var.numpy(), 0)
    conv = torch.nn.SyncBatchNorm.convert_sync_batchnorm(torch.nn.Sequential(torch.nn.BatchNorm2d(2)))
    assert type(conv[0]) is torch.nn.SyncBatchNorm
    lin = torch.nn.Linear(3, 2)
    dp = torch.nn.DataParallel(lin)
    close(dp(x), lin(x).detach().numpy(), 0)
    assert list(dp.state_dict()) == ["module.weight", "module.bias"]


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device (FGRAD_BACKEND=fake gives "
                                                          "one)")
def test_device_results_equal_cpu():
    """On a CUDA device (the strict fake under FGRAD_BACKEND=fake) every op keeps its index
    arrays and constants on the device and gives the CPU's numbers; ``Tensor.gather`` with a
    device index used to copy it to the host (a host leak cupy refuses)."""
    def both(fn, *shapes, seed=0):
        outs = []
        for dev in ("cpu", "cuda"):
            ins = [X(*s, k=i).to(dev).requires_grad_() for i, s in enumerate(shapes)]
            torch.manual_seed(seed)
            y = fn(dev, *ins)
            y.sum().backward()
            assert y.device.type == dev
            outs.append([y.detach().cpu().numpy()] + [t.grad.cpu().numpy() for t in ins])
        for a, b in zip(*outs):
            np.testing.assert_allclose(b, a, rtol=1e-12, atol=1e-12)

    both(lambda d, x: torch.gather(x, 1, torch.tensor([[0, 2], [1, 1]], device=d)), (2, 3))
    both(lambda d, x, g: F.grid_sample(x, g * 0.8, "bicubic", "reflection", False), (1, 2, 4, 4), (1, 3, 3,
                                                                                                   2))
    both(lambda d, x: F.ctc_loss(x.log_softmax(2), torch.tensor([[1, 2], [3, 3]], device=d), torch.tensor([6,
                                                                                                           5]),
                                 torch.tensor([2, 2])), (6, 2, 4))
    both(lambda d, x: F.max_unpool2d(*F.max_pool2d_with_indices(x, 2), 2), (1, 2, 4, 4))
    both(lambda d, x: F.fractional_max_pool2d(x, 2, output_size=2), (1, 2, 5, 5), seed=3)
    both(lambda d, x: F.multilabel_margin_loss(x, torch.tensor([[0, -1, 1], [2, -1, 0]], device=d)), (2, 3))
    both(lambda d, x: F.rrelu(x, training=True) + F.alpha_dropout(x, 0.2, True), (3, 4), seed=5)


def test_bfloat16_addmm_rounds_once():
    """bfloat16 ``addmm`` with ``beta``/``alpha`` computes ``beta * M + alpha * (A @ B)`` in float32
    and rounds once (PyTorch 2.13's numbers); it used to round ``M`` back to bfloat16 first
    and scale it there (Muon's Newton-Schulz iteration then drifted from PyTorch's)."""
    x = np.sin(np.arange(24) * 0.7).reshape(4, 6).astype(np.float32)
    m, a, b = (torch.tensor(v).bfloat16() for v in (x[:, :4], x[:, 1:5] * 0.9, x[:4, 2:6]))
    got = torch.addmm(m, a, b, beta=-4.775, alpha=2.0315)
    assert got.dtype == torch.bfloat16
    want = [[0.04248046875, -2.90625, -4.5, -3.96875], [4.3125, 4.125, 2.0, -1.0625],
            [-4.28125, -1.1328125, 2.546875, 5.0], [-0.1201171875, -3.0, -4.5, -3.859375]]
    assert got.float().tolist() == want


def test_muon_live(pt):
    from torch.optim._muon import _zeropower_via_newtonschulz as theirs

    from fgrad.torch.optim.muon import _zeropower_via_newtonschulz as ours
    x = np.sin(np.arange(24) * 0.7).reshape(4, 6).astype(np.float32)
    for v in (x, x.T.copy()):
        coef = (3.4445, -4.775, 2.0315)
        a = theirs(pt.tensor(v), coef, 5, 1e-7).float().numpy()
        b = ours(torch.tensor(v), coef, 5, 1e-7).float().numpy()
        assert a.tobytes() == b.tobytes()
    for kw in ({}, dict(nesterov=False, adjust_lr_fn="match_rms_adamw", lr=0.02)):
        res = []
        for lib in (pt, torch):
            lib.manual_seed(0)
            m = lib.nn.Linear(6, 4, bias=False)
            opt = lib.optim.Muon(m.parameters(), **kw)
            for _ in range(3):
                opt.zero_grad()
                m(lib.ones(3, 6)).pow(2).sum().backward()
                opt.step()
            res.append(m.weight.detach().numpy().copy())
        np.testing.assert_allclose(res[1], res[0], rtol=1e-4, atol=1e-5)
    with pytest.raises(ValueError, match="Muon only supports 2D parameters"):
        torch.optim.Muon([torch.zeros(3, requires_grad=True)])
