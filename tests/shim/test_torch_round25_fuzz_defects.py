"""Defects found in round 25 of differential testing of ``fgrad.torch`` against PyTorch 2.13
(``tools/torch_fuzz.py`` seeds 8-9 and round 24's open list in docs/shim-conventions.md), each
pinned by PyTorch's numbers stored here; the live comparison runs where torch is installed."""

from __future__ import annotations

import math

from tests._stored_torch import stored_and_live

inf, nan = math.inf, math.nan


def _value_and_grad(T, f, *xs):
    """``f``'s value and the gradient of its weighted sum (weights 1, 2, ...) in each ``xs``."""
    ts = [T.tensor(x, dtype=T.float64, requires_grad=True) for x in xs]
    y = f(T, *ts)
    w = T.arange(1.0, y.numel() + 1, dtype=T.float64).reshape(y.shape)
    return [y.tolist()] + [g.tolist() for g in T.autograd.grad((y * w).sum(), ts)]


# -- an ignored target's loss is 0 whatever its input ----------------------------------------
# (fgrad multiplied the loss by the 0/1 mask: an inf or NaN logit at an ignored position gave
# NaN, and so did the mean over the batch)

_CE_X = [[[nan, 1.0], [3.9, 1.2]], [[-1.4, -1.9], [2.5, inf]]]
_CE_T = [[1, 0], [0, 1]]


def _ce(weight=None, **kw):
    def call(T):
        extra = {} if weight is None else {"weight": T.tensor(weight, dtype=T.float64)}
        return _value_and_grad(T, lambda T, x: T.nn.functional.cross_entropy(
            x, T.tensor(_CE_T), ignore_index=1, **kw, **extra), _CE_X)
    return call


_IGNORED = {
    "cross_entropy none": _ce(reduction="none"),
    "cross_entropy mean": _ce(reduction="mean"),
    "cross_entropy sum, smoothing": _ce(reduction="sum", label_smoothing=0.3),
    "cross_entropy mean, weight, smoothing": _ce(reduction="mean", label_smoothing=0.5, weight=[3.0, 0.5]),
    "nll_loss none, weight": lambda T: _value_and_grad(T, lambda T, x: T.nn.functional.nll_loss(
        x, T.tensor([1, 0, 2]), weight=T.tensor([1.0, 2.0, inf], dtype=T.float64), ignore_index=2,
        reduction="none"), [[1.0, 2.0, 3.0], [-inf, 1.0, 0.0], [0.0, 1.0, nan]]),
    "nll_loss mean, weight": lambda T: _value_and_grad(T, lambda T, x: T.nn.functional.nll_loss(
        x, T.tensor([1, 0, 2]), weight=T.tensor([1.0, 2.0, inf], dtype=T.float64), ignore_index=2),
        [[1.0, 2.0, 3.0], [-4.0, 1.0, 0.0], [0.0, 1.0, nan]]),
}

IGNORED_WANT = {'cross_entropy mean': ('ok',
                        [2.3590893183209944,
                         [[[nan, -0.274916998656239], [nan, 0.2749169986562389]],
                          [[-0.49007984713296127, nan], [0.49007984713296127, nan]]]]),
 'cross_entropy mean, weight, smoothing': ('ok',
                                           [1.782195710337454,
                                            [[[nan, -0.19680929060285585],
                                              [nan, 0.1968092906028558]],
                                             [[-0.36714654564692767, nan],
                                              [0.36714654564692767, nan]]]]),
 'cross_entropy none': ('ok',
                        [[[0.0, 0.7981388693815918], [3.9200397672603975, 0.0]],
                         [[[nan, -1.099667994624956], [nan, 1.0996679946249557]],
                          [[-2.9404790827977676, nan], [2.9404790827977676, nan]]]]),
 'cross_entropy sum, smoothing': ('ok',
                                  [4.103178636641989,
                                   [[[nan, -0.3998339973124779], [nan, 0.3998339973124778]],
                                    [[-0.8301596942659225, nan], [0.8301596942659225, nan]]]]),
 'nll_loss mean, weight': ('ok',
                           [0.0,
                            [[0.0, -0.6666666666666666, 0.0],
                             [-0.3333333333333333, 0.0, 0.0],
                             [0.0, 0.0, 0.0]]]),
 'nll_loss none, weight': ('ok',
                           [[-4.0, inf, 0.0],
                            [[0.0, -2.0, 0.0], [-2.0, 0.0, 0.0], [0.0, 0.0, 0.0]]])}


(
    test_an_ignored_targets_loss_is_zero_whatever_its_input,
    test_an_ignored_targets_loss_matches_live_torch,
) = stored_and_live(_IGNORED, IGNORED_WANT, rtol=1e-12)


# -- max pooling with several NaNs in a window: PyTorch's pick is the last NaN ----------------
# (its kernels keep ``val > max || isnan(val)``; fgrad's index and gradient went to the first);
# a window of -inf cells beside the padding: PyTorch's pick is its first cell (fgrad picked
# the padding and the gradient was lost)

_NANS = [nan, 1.0, nan, 2.0, nan, 3.0, -1.0, nan, nan, 0.5, 4.0, nan]


def _pool_nan(f, shape):
    def call(T):
        x = T.tensor(_NANS, dtype=T.float64).reshape(shape).requires_grad_()
        y, i = f(T.nn.functional, x)
        w = T.arange(1.0, y.numel() + 1, dtype=T.float64).reshape(y.shape)
        return [y.tolist(), i.tolist(), T.autograd.grad((y * w).sum(), x)[0].tolist()]
    return call


_POOL_NANS = {
    "max_pool1d": _pool_nan(lambda F, x: F.max_pool1d(x, 3, 2, 1, return_indices=True), (1, 2, 6)),
    "max_pool1d dilated, ceil": _pool_nan(lambda F, x: F.max_pool1d(x, 2, 2, 0, 2, True, True), (2, 6)),
    "max_pool2d": _pool_nan(lambda F, x: F.max_pool2d(x, 2, 1, return_indices=True), (1, 1, 3, 4)),
    "max_pool3d": _pool_nan(lambda F, x: F.max_pool3d(x, (2, 2, 1), 1, return_indices=True), (1, 1, 2, 3, 2)),
    "adaptive_max_pool1d equal windows": _pool_nan(lambda F, x: F.adaptive_max_pool1d(x, 3, True), (1, 2, 6)),
    "adaptive_max_pool1d": _pool_nan(lambda F, x: F.adaptive_max_pool1d(x, 4, True), (1, 2, 6)),
    "adaptive_max_pool2d": _pool_nan(lambda F, x: F.adaptive_max_pool2d(x, (2, 3), True), (1, 3, 4)),
    "adaptive_max_pool3d": _pool_nan(lambda F, x: F.adaptive_max_pool3d(x, (1, 2, 1), True), (1, 2, 3, 2)),
    "func.grad of max_pool2d": lambda T: _func_grad_pool(T),
    "max_pool2d, a window of -inf beside the padding": lambda T: _value_and_grad(
        T, lambda T, x: T.nn.functional.max_pool2d(x, 2, 1, 1), [[[[-inf, -inf, 1.0], [-inf, -inf, 2.0]]]]),
}


def _func_grad_pool(T):
    w = T.arange(6.0, dtype=T.float64).reshape(1, 1, 2, 3)
    x = T.tensor(_NANS, dtype=T.float64).reshape(1, 1, 3, 4)
    return T.func.grad(lambda v: (T.nn.functional.max_pool2d(v, 2, 1) * w).sum())(x).tolist()

POOL_NANS_WANT = {'adaptive_max_pool1d': ('ok',
                         [[[[nan, nan, nan, nan], [nan, nan, 4.0, nan]]],
                          [[[0, 2, 4, 4], [1, 2, 4, 5]]],
                          [[[1.0, 0.0, 2.0, 0.0, 7.0, 0.0], [0.0, 5.0, 6.0, 0.0, 7.0, 8.0]]]]),
 'adaptive_max_pool1d equal windows': ('ok',
                                       [[[[nan, nan, nan], [nan, nan, nan]]],
                                        [[[0, 2, 4], [1, 2, 5]]],
                                        [[[1.0, 0.0, 2.0, 0.0, 3.0, 0.0],
                                          [0.0, 4.0, 5.0, 0.0, 0.0, 6.0]]]]),
 'adaptive_max_pool2d': ('ok',
                         [[[[nan, nan, nan], [nan, 4.0, nan]]],
                          [[[4, 2, 7], [8, 10, 11]]],
                          [[[0.0, 0.0, 2.0, 0.0],
                            [1.0, 0.0, 0.0, 3.0],
                            [4.0, 0.0, 5.0, 6.0]]]]),
 'adaptive_max_pool3d': ('ok',
                         [[[[[nan], [nan]]]],
                          [[[[8], [11]]]],
                          [[[[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
                            [[0.0, 0.0], [1.0, 0.0], [0.0, 2.0]]]]]),
 'func.grad of max_pool2d': ('ok',
                             [[[[0.0, 0.0, 1.0, 0.0],
                                [0.0, 0.0, 0.0, 2.0],
                                [3.0, 0.0, 4.0, 5.0]]]]),
 'max_pool1d': ('ok',
                [[[[nan, nan, nan], [nan, nan, nan]]],
                 [[[0, 2, 4], [1, 2, 5]]],
                 [[[1.0, 0.0, 2.0, 0.0, 3.0, 0.0], [0.0, 4.0, 5.0, 0.0, 0.0, 6.0]]]]),
 'max_pool1d dilated, ceil': ('ok',
                              [[[nan, nan, nan], [nan, nan, 4.0]],
                               [[2, 4, 4], [2, 2, 4]],
                               [[0.0, 0.0, 1.0, 0.0, 5.0, 0.0],
                                [0.0, 0.0, 9.0, 0.0, 6.0, 0.0]]]),
 'max_pool2d': ('ok',
                [[[[[nan, nan, nan], [nan, 4.0, nan]]]],
                 [[[[4, 2, 7], [8, 10, 11]]]],
                 [[[[0.0, 0.0, 2.0, 0.0], [1.0, 0.0, 0.0, 3.0], [4.0, 0.0, 5.0, 6.0]]]]]),
 'max_pool2d, a window of -inf beside the padding': ('ok',
                                                     [[[[[-inf, -inf, 1.0, 1.0],
                                                         [-inf, -inf, 2.0, 2.0],
                                                         [-inf, -inf, 2.0, 2.0]]]],
                                                      [[[[14.0, 0.0, 7.0],
                                                         [19.0, 0.0, 38.0]]]]]),
 'max_pool3d': ('ok',
                [[[[[[nan, nan], [nan, nan]]]]],
                 [[[[[8, 7], [8, 11]]]]],
                 [[[[[0.0, 0.0], [0.0, 0.0], [0.0, 0.0]],
                    [[0.0, 2.0], [4.0, 0.0], [0.0, 4.0]]]]]])}


(
    test_max_pooling_picks_pytorchs_cell,
    test_max_pooling_picks_pytorchs_cell_as_live_torch,
) = stored_and_live(_POOL_NANS, POOL_NANS_WANT, rtol=1e-12)


# -- lp_pool at windows summing to 0 or NaN, abs under a NaN or infinite gradient -------------
# (PyTorch's abs backward is the product grad * sgn(x), fgrad's was a select giving 0; its
# lp_pool's relu backward is a select that stops pow(0, 1/p)'s inf, fgrad's product made NaN)

def _upstream(f, g):
    def call(T):
        x = T.tensor([-0.0, 0.0, 1.0, -2.0, inf, nan], dtype=T.float64, requires_grad=True)
        y = f(T, x)
        return T.autograd.grad(y, x, T.full_like(y, g))[0].tolist()
    return call


_LP_POOL = {
    "abs, NaN gradient": _upstream(lambda T, x: T.abs(x), nan),
    "abs, inf gradient": _upstream(lambda T, x: x.abs(), inf),
    "abs, finite gradient": _upstream(lambda T, x: T.abs(x), -2.0),
    "lp_pool1d p=3, ceil": lambda T: _value_and_grad(T, lambda T, x: T.nn.functional.lp_pool1d(
        x, 3, 3, 2, ceil_mode=True), [[[1.0, 1.0, 0.5, -3.0, 0.0], [1.0, 0.0, 1.0, 3.5, 2.0]]]),
    "lp_pool1d 0, NaN": lambda T: _value_and_grad(T, lambda T, x: T.nn.functional.lp_pool1d(
        x, 2, 2), [[[-0.0, 0.0, 2.0, nan, 0.0, -0.0, 3.0, 4.0]]]),
    "lp_pool2d p=2": lambda T: _value_and_grad(T, lambda T, x: T.nn.functional.lp_pool2d(x, 2, 2), [
        [[[-0.0, -1.5], [nan, -0.0]], [[-inf, -2.0], [-1.0, 0.0]]],
        [[[inf, nan], [-3.0, 2.0]], [[0.0, -0.0], [0.0, 0.0]]]]),
}

LP_POOL_WANT = {'abs, NaN gradient': ('ok', [nan, nan, nan, nan, nan, nan]),
 'abs, finite gradient': ('ok', [-0.0, -0.0, -2.0, 2.0, -2.0, -0.0]),
 'abs, inf gradient': ('ok', [nan, nan, inf, -inf, inf, nan]),
 'lp_pool1d 0, NaN': ('ok',
                                         [[[[0.0, nan, 0.0, 5.0]]],
                                          [[[-0.0,
                                             0.0,
                                             nan,
                                             nan,
                                             0.0,
                                             -0.0,
                                             2.4000000000000004,
                                             3.2]]]]),
 'lp_pool1d p=3, ceil': ('ok',
                         [[[[1.2856407953291176, nan],
                            [1.2599210498948732, 3.7295179629458204]]],
                          [[[0.6050074330960553, 0.6050074330960553, nan, nan, nan],
                            [1.8898815748423097,
                             0.0,
                             2.177458863551385,
                             3.5228217866861717,
                             1.150309154836301]]]]),
 'lp_pool2d p=2': ('ok',
                   [[[[[nan]], [[inf]]], [[[nan]], [[0.0]]]],
                    [[[[nan, nan], [nan, nan]], [[nan, -0.0], [-0.0, 0.0]]],
                     [[[nan, nan], [nan, nan]], [[0.0, -0.0], [0.0, 0.0]]]]])}


(
    test_lp_pool_and_abs_gradients_are_pytorchs,
    test_lp_pool_and_abs_gradients_match_live_torch,
) = stored_and_live(_LP_POOL, LP_POOL_WANT, rtol=1e-12)


# -- grid_sample: a sample on the border does not move with the grid --------------------------
# (PyTorch's clip_coordinates_set_grad: gradient 0 at the clipped ends; fgrad's clamp gave 1)

def _grid_on_the_border(padding_mode, align_corners):
    def call(T):
        x = T.arange(12.0, dtype=T.float64).reshape(1, 1, 3, 4)
        x = x * T.tensor([1.0, 3.0, -2.0, 5.0], dtype=T.float64)
        g = T.tensor([[[[v, 0.3] for v in (-1.5, -1.0, -0.75, -0.5, 0.0, 0.75, 1.0, 1.5)]]], dtype=T.float64,
                     requires_grad=True)
        y = T.nn.functional.grid_sample(x, g, padding_mode=padding_mode, align_corners=align_corners)
        return [y.tolist(), (T.autograd.grad(y.sum(), g)[0] + 0.0).tolist()]  # (+0.0: the zeros' sign)
    return call


_GRID_BORDER = {f"{p} align_corners={a}": _grid_on_the_border(p, a)
                for p in ("border", "reflection") for a in (False, True)}

GRID_BORDER_WANT = {'border align_corners=False': ('ok',
                                [[[[[5.800000000000001,
                                     5.800000000000001,
                                     5.800000000000001,
                                     13.100000000000001,
                                     2.4000000000000004,
                                     44.0,
                                     44.0,
                                     44.0]]]],
                                 [[[[0.0, 6.0],
                                    [0.0, 6.0],
                                    [0.0, 6.0],
                                    [29.200000000000003, 12.0],
                                    [-72.0, 3.0],
                                    [0.0, 30.0],
                                    [0.0, 30.0],
                                    [0.0, 30.0]]]]]),
 'border align_corners=True': ('ok',
                               [[[[[5.2, 5.2, 10.225, 15.25, 2.1, 20.225, 41.0, 41.0]]]],
                                [[[[0.0, 4.0],
                                   [0.0, 4.0],
                                   [20.1, 7.0],
                                   [20.1, 10.0],
                                   [-49.5, 2.0],
                                   [83.1, 9.5],
                                   [0.0, 20.0],
                                   [0.0, 20.0]]]]]),
 'reflection align_corners=False': ('ok',
                                    [[[[[13.100000000000001,
                                         5.800000000000001,
                                         5.800000000000001,
                                         13.100000000000001,
                                         2.4000000000000004,
                                         44.0,
                                         44.0,
                                         14.200000000000001]]]],
                                     [[[[-29.200000000000003, 12.0],
                                        [0.0, 6.0],
                                        [0.0, 6.0],
                                        [29.200000000000003, 12.0],
                                        [-72.0, 3.0],
                                        [0.0, 30.0],
                                        [0.0, 30.0],
                                        [-119.2, 9.0]]]]]),
 'reflection align_corners=True': ('ok',
                                   [[[[[15.25,
                                        5.2,
                                        10.225,
                                        15.25,
                                        2.1,
                                        20.225,
                                        41.0,
                                        -0.5499999999999992]]]],
                                    [[[[-20.1, 10.0],
                                       [0.0, 4.0],
                                       [20.1, 7.0],
                                       [20.1, 10.0],
                                       [-49.5, 2.0],
                                       [83.1, 9.5],
                                       [0.0, 20.0],
                                       [-83.1, -1.0]]]]])}


(
    test_grid_sample_on_the_border_is_pytorchs,
    test_grid_sample_on_the_border_matches_live_torch,
) = stored_and_live(_GRID_BORDER, GRID_BORDER_WANT, rtol=1e-12)


# -- interpolate: PyTorch's source coordinate is a fused multiply-add --------------------------
# (float32 scale 1/3: 1.5 * (1/3) - 0.5 is 1.5e-8 fused, 0 rounded twice, so PyTorch reads a
# tiny weight of the next pixel: an infinity there gives inf, where fgrad gave NaN; on a ramp
# the float32 output is the source coordinate itself, which moved in the last bit)

def _interp(dtype, scale, values):
    def call(T):
        x = T.tensor(values, dtype=getattr(T, dtype)).reshape(1, 1, -1)
        return T.nn.functional.interpolate(x, scale_factor=scale, mode="linear").tolist()
    return call


_INTERP_FMA = {f"{dtype} ramp of {n} x{scale}": _interp(dtype, scale, [float(i) for i in range(n)])
               for dtype in ("float32",) for n in (4, 7, 10) for scale in (3.0, 1.7, 2.5, 0.6)}
_INTERP_FMA["float32 beside inf x3"] = _interp("float32", 3.0, [-1.4298453, inf, inf, 2.0])

INTERP_FMA_WANT = {'float32 beside inf x3': ('ok',
                           [[[nan, inf, inf, inf, nan, inf, inf, inf, inf, inf, 2.0, 2.0]]]),
 'float32 ramp of 10 x0.6': ('ok',
                             [[[0.3333333134651184,
                                2.0,
                                3.6666665077209473,
                                5.3333330154418945,
                                7.0,
                                8.666666030883789]]]),
 'float32 ramp of 10 x1.7': ('ok',
                             [[[0.0,
                                0.3823529779911041,
                                0.9705883264541626,
                                1.558823585510254,
                                2.1470589637756348,
                                2.7352943420410156,
                                3.3235294818878174,
                                3.9117648601531982,
                                4.5,
                                5.088235378265381,
                                5.676470756530762,
                                6.264706134796143,
                                6.852941513061523,
                                7.441176891326904,
                                8.029412269592285,
                                8.617647171020508,
                                9.0]]]),
 'float32 ramp of 10 x2.5': ('ok',
                             [[[0.0,
                                0.10000000894069672,
                                0.5,
                                0.9000000357627869,
                                1.3000000715255737,
                                1.7000000476837158,
                                2.1000001430511475,
                                2.5,
                                2.9000000953674316,
                                3.299999952316284,
                                3.700000047683716,
                                4.099999904632568,
                                4.5,
                                4.900000095367432,
                                5.300000190734863,
                                5.700000286102295,
                                6.099999904632568,
                                6.5,
                                6.900000095367432,
                                7.300000190734863,
                                7.700000286102295,
                                8.100000381469727,
                                8.5,
                                8.90000057220459,
                                9.0]]]),
 'float32 ramp of 10 x3.0': ('ok',
                             [[[0.0,
                                1.4901161193847656e-08,
                                0.3333333730697632,
                                0.6666666865348816,
                                1.0,
                                1.3333333730697632,
                                1.6666667461395264,
                                2.0,
                                2.3333334922790527,
                                2.6666667461395264,
                                3.0,
                                3.3333334922790527,
                                3.6666667461395264,
                                4.0,
                                4.333333492279053,
                                4.6666669845581055,
                                5.0,
                                5.333333492279053,
                                5.6666669845581055,
                                6.0,
                                6.333333492279053,
                                6.6666669845581055,
                                7.0,
                                7.333333492279053,
                                7.6666669845581055,
                                8.0,
                                8.333333969116211,
                                8.666666984558105,
                                9.0,
                                9.0]]]),
 'float32 ramp of 4 x0.6': ('ok', [[[0.3333333134651184, 2.0]]]),
 'float32 ramp of 4 x1.7': ('ok',
                            [[[0.0,
                               0.3823529779911041,
                               0.9705883264541626,
                               1.558823585510254,
                               2.1470589637756348,
                               2.7352943420410156]]]),
 'float32 ramp of 4 x2.5': ('ok',
                            [[[0.0,
                               0.10000000894069672,
                               0.5,
                               0.9000000357627869,
                               1.3000000715255737,
                               1.7000000476837158,
                               2.1000001430511475,
                               2.5,
                               2.9000000953674316,
                               3.0]]]),
 'float32 ramp of 4 x3.0': ('ok',
                            [[[0.0,
                               1.4901161193847656e-08,
                               0.3333333730697632,
                               0.6666666865348816,
                               1.0,
                               1.3333333730697632,
                               1.6666667461395264,
                               2.0,
                               2.3333334922790527,
                               2.6666667461395264,
                               3.0,
                               3.0]]]),
 'float32 ramp of 7 x0.6': ('ok',
                            [[[0.3333333134651184,
                               2.0,
                               3.6666665077209473,
                               5.3333330154418945]]]),
 'float32 ramp of 7 x1.7': ('ok',
                            [[[0.0,
                               0.3823529779911041,
                               0.9705883264541626,
                               1.558823585510254,
                               2.1470589637756348,
                               2.7352943420410156,
                               3.3235294818878174,
                               3.9117648601531982,
                               4.5,
                               5.088235378265381,
                               5.676470756530762]]]),
 'float32 ramp of 7 x2.5': ('ok',
                            [[[0.0,
                               0.10000000894069672,
                               0.5,
                               0.9000000357627869,
                               1.3000000715255737,
                               1.7000000476837158,
                               2.1000001430511475,
                               2.5,
                               2.9000000953674316,
                               3.299999952316284,
                               3.700000047683716,
                               4.099999904632568,
                               4.5,
                               4.900000095367432,
                               5.300000190734863,
                               5.700000286102295,
                               6.0]]]),
 'float32 ramp of 7 x3.0': ('ok',
                            [[[0.0,
                               1.4901161193847656e-08,
                               0.3333333730697632,
                               0.6666666865348816,
                               1.0,
                               1.3333333730697632,
                               1.6666667461395264,
                               2.0,
                               2.3333334922790527,
                               2.6666667461395264,
                               3.0,
                               3.3333334922790527,
                               3.6666667461395264,
                               4.0,
                               4.333333492279053,
                               4.6666669845581055,
                               5.0,
                               5.333333492279053,
                               5.6666669845581055,
                               6.0,
                               6.0]]])}


(
    test_interpolate_source_index_is_fused,
    test_interpolate_source_index_matches_live_torch,
) = stored_and_live(_INTERP_FMA, INTERP_FMA_WANT, rtol=0)


# -- permute without dims: PyTorch's TypeError (fgrad returned the tensor) ---------------------

_PERMUTE = {
    "method, 0-d": lambda T: T.tensor(1.0).permute(),
    "function, 0-d": lambda T: T.permute(T.tensor(1.0)),
    "method, 1-d": lambda T: T.zeros(2).permute(),
    "0-d, ()": lambda T: T.tensor(1.0).permute(()).tolist(),
    "function, 0-d, ()": lambda T: T.permute(T.tensor(1.0), ()).tolist(),
}

PERMUTE_WANT = {'0-d, ()': ('ok', 1.0),
 'function, 0-d': ('TypeError', 'permute() missing 1 required positional arguments: "dims"'),
 'function, 0-d, ()': ('ok', 1.0),
 'method, 0-d': ('TypeError', 'permute() missing 1 required positional arguments: "dims"'),
 'method, 1-d': ('TypeError', 'permute() missing 1 required positional arguments: "dims"')}


(
    test_permute_without_dims_raises,
    test_permute_without_dims_matches_live_torch,
) = stored_and_live(_PERMUTE, PERMUTE_WANT)
