"""PyTorch's conventions at singular points and kinks, value AND gradient, on the shim.

Two tables of ``(id, f(torch_module, F, *tensors), inputs)``:

* ``SINGULAR``: points where a naive formula gives NaN/inf but PyTorch is finite (binary
  cross-entropy at p = 0/1, ``std`` of a constant, ``det`` of a singular matrix, norms and
  distances at 0, ``atan2(0, 0)``, ...);
* ``KINKS``: subgradient conventions (``hardtanh'(±1) = 0``, ``clamp`` passes the gradient at
  its bounds, ``amax`` splits ties evenly, ``max(dim)`` picks one index, ...).

Each case runs in float64 on ``fgrad.torch``; its output and the gradient of ``out.sum()``
are compared with ``TORCH``, numbers recorded from torch 2.13 (CPU) and stored here so the
test runs without torch.  Where fgrad deliberately differs from PyTorch (a NaN or inf in
PyTorch where fgrad gives the exact derivative of the value it computes), ``OURS`` holds
fgrad's numbers and ``WHY`` the reason; docs/shim-conventions.md lists them.  With torch
installed, ``test_live_torch`` re-checks the stored numbers against live torch.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import fgrad.torch as ft
import fgrad.torch.nn.functional as FF

inf, nan = np.inf, np.nan


def A(*v):
    return np.array(v, dtype=np.float64)


def _weighted(t, y):
    """``y`` times fixed weights of both signs, so a gradient is not all ones."""
    return y * t.tensor([1.0, -2.0, 0.5, 3.0][: y.shape[0]], dtype=t.float64)


SINGULAR = [
    # NaN-vs-finite
    (
        "bce_p0",
        lambda t, F, p, y: F.binary_cross_entropy(p, y),
        (A(0.0, 1.0, 0.0, 1.0), A(1.0, 0.0, 0.0, 1.0)),
    ),
    (
        "bce_p0_sum",
        lambda t, F, p, y: F.binary_cross_entropy(p, y, reduction="none"),
        (A(0.0, 1.0, 0.0, 1.0, 0.5), A(1.0, 0.0, 0.0, 1.0, 0.3)),
    ),
    ("bceloss_mod", lambda t, F, p, y: t.nn.BCELoss()(p, y), (A(0.0, 1.0), A(1.0, 0.0))),
    (
        "bce_logits_ext",
        lambda t, F, x, y: F.binary_cross_entropy_with_logits(x, y, reduction="none"),
        (A(-1000.0, 1000.0, 800.0, -800.0, 0.0), A(1.0, 0.0, 1.0, 0.0, 0.5)),
    ),
    (
        "bce_logits_posw",
        lambda t, F, x, y: F.binary_cross_entropy_with_logits(
            x, y, pos_weight=t.tensor([2.0, 2.0, 2.0, 2.0, 2.0], dtype=t.float64), reduction="none"
        ),
        (A(-1000.0, 1000.0, 800.0, -800.0, 0.0), A(1.0, 0.0, 1.0, 0.0, 0.5)),
    ),
    (
        "ce_neginf",
        lambda t, F, x: F.cross_entropy(x.reshape(2, 3), t.tensor([0, 1])),
        (A(1.0, -inf, 2.0, -inf, 3.0, 0.0),),
    ),
    (
        "nll_neginf",
        lambda t, F, x: F.nll_loss(F.log_softmax(x.reshape(2, 3), dim=1), t.tensor([0, 1])),
        (A(1.0, -inf, 2.0, -inf, 3.0, 0.0),),
    ),
    ("log_softmax_neginf", lambda t, F, x: F.log_softmax(x, dim=0)[:2], (A(1.0, 2.0, -inf),)),
    ("softmax_neginf", lambda t, F, x: F.softmax(x, dim=0), (A(1.0, 2.0, -inf),)),
    (
        "kl_div_zero_target",
        lambda t, F, x, y: F.kl_div(x, y, reduction="sum"),
        (A(-1.0, -2.0, -0.5), A(0.0, 0.5, 0.5)),
    ),
    (
        "kl_div_logt",
        lambda t, F, x, y: F.kl_div(x, y, reduction="sum", log_target=True),
        (A(-1.0, -2.0, -0.5), A(-inf, -0.1, -2.0)),
    ),
    ("softplus_large", lambda t, F, x: F.softplus(x), (A(-1000.0, 0.0, 19.0, 21.0, 1000.0),)),
    (
        "softplus_beta",
        lambda t, F, x: F.softplus(x, beta=2.0, threshold=5.0),
        (A(-1000.0, 0.0, 2.4, 2.6, 1000.0),),
    ),
    ("logsigmoid", lambda t, F, x: F.logsigmoid(x), (A(-1000.0, -50.0, 0.0, 50.0, 1000.0),)),
    ("sigmoid_ext", lambda t, F, x: t.sigmoid(x), (A(-1000.0, 0.0, 1000.0),)),
    ("std_const", lambda t, F, x: x.std(), (A(2.0, 2.0, 2.0),)),
    ("var_const", lambda t, F, x: x.var(), (A(2.0, 2.0, 2.0),)),
    ("std_single", lambda t, F, x: x.std(correction=0), (A(2.0, 2.0, 2.0),)),
    ("det_singular", lambda t, F, x: t.linalg.det(x.reshape(2, 2)), (A(1.0, 2.0, 2.0, 4.0),)),
    (
        "det_singular3",
        lambda t, F, x: t.det(x.reshape(3, 3)),
        (A(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0),),
    ),
    ("det_zero", lambda t, F, x: t.det(x.reshape(2, 2)), (A(0.0, 0.0, 0.0, 0.0),)),
    ("logdet_singular", lambda t, F, x: t.logdet(x.reshape(2, 2)), (A(1.0, 2.0, 2.0, 4.0),)),
    ("slogdet_singular", lambda t, F, x: t.linalg.slogdet(x.reshape(2, 2))[1], (A(1.0, 2.0, 2.0, 4.0),)),
    ("atan2_00", lambda t, F, y, x: t.atan2(y, x), (A(0.0, 0.0, 1.0), A(0.0, -0.0, 0.0))),
    ("hypot_00", lambda t, F, y, x: t.hypot(y, x), (A(0.0, 3.0), A(0.0, 4.0))),
    ("logaddexp_inf", lambda t, F, a, b: t.logaddexp(a, b), (A(inf, -inf, 1.0), A(inf, -inf, 2.0))),
    ("logaddexp_inf_fin", lambda t, F, a, b: t.logaddexp(a, b), (A(inf, 0.0), A(0.0, inf))),
    ("logsumexp_inf", lambda t, F, a: t.logsumexp(a, 0), (A(-inf, -inf),)),
    # logcumsumexp: NaN where the result is -inf or the input +inf, the whole slice with a NaN
    ("logcumsumexp_all_ninf", lambda t, F, a: t.logcumsumexp(a, 0), (A(-inf, -inf, -inf),)),
    ("logcumsumexp_lead_ninf", lambda t, F, a: _weighted(t, t.logcumsumexp(a, 0)),
     (A(-inf, -inf, 1.0, 2.0),)),
    ("logcumsumexp_mixed", lambda t, F, a: _weighted(t, t.logcumsumexp(a, 0)), (A(1.0, -inf, 2.0, -inf),)),
    ("logcumsumexp_pinf", lambda t, F, a: _weighted(t, t.logcumsumexp(a, 0)), (A(1.0, inf, 2.0, inf),)),
    ("logcumsumexp_both_inf", lambda t, F, a: _weighted(t, t.logcumsumexp(a, 0)), (A(-inf, -inf, 1.0, inf),)),
    ("logcumsumexp_nan", lambda t, F, a: _weighted(t, t.logcumsumexp(a, 0)), (A(1.0, 2.0, nan, 3.0),)),
    ("logcumsumexp_rows", lambda t, F, a: t.logcumsumexp(a.reshape(2, 3), 1),
     (A(-inf, -inf, 0.5, 1.0, -inf, 2.0),)),
    ("softmax_masked_row", lambda t, F, a: _weighted(t, F.softmax(a.reshape(2, 2), 1).flatten()),
     (A(-inf, -inf, 1.0, -inf),)),
    ("log_softmax_masked", lambda t, F, a: _weighted(t, F.log_softmax(a.reshape(2, 2), 1).flatten()),
     (A(-inf, -inf, 1.0, -inf),)),
    ("log_softmax_pinf", lambda t, F, a: _weighted(t, F.log_softmax(a, 0)), (A(1.0, inf, -inf, 0.0),)),
    ("logsumexp_rows", lambda t, F, a: _weighted(t, t.logsumexp(a.reshape(2, 2), 1)),
     (A(-inf, -inf, inf, 1.0),)),
    ("norm_0", lambda t, F, x: t.norm(x), (A(0.0, 0.0, 0.0),)),
    ("vector_norm_0", lambda t, F, x: t.linalg.vector_norm(x), (A(0.0, 0.0, 0.0),)),
    ("vector_norm_1_0", lambda t, F, x: t.linalg.vector_norm(x, ord=1), (A(0.0, 0.0, 0.0),)),
    ("vector_norm_inf_0", lambda t, F, x: t.linalg.vector_norm(x, ord=inf), (A(0.0, 0.0, 0.0),)),
    ("vector_norm_minf_0", lambda t, F, x: t.linalg.vector_norm(x, ord=-inf), (A(0.0, 0.0, 1.0),)),
    ("norm1_0", lambda t, F, x: t.norm(x, 1), (A(0.0, 0.0, 1.0),)),
    ("matrix_norm_1_0", lambda t, F, x: t.linalg.matrix_norm(x.reshape(2, 2), 1), (A(0.0, 0.0, 0.0, 0.0),)),
    (
        "matrix_norm_inf_0",
        lambda t, F, x: t.linalg.matrix_norm(x.reshape(2, 2), inf),
        (A(0.0, 0.0, 0.0, 0.0),),
    ),
    ("dist1_eq", lambda t, F, a, b: t.dist(a, b, 1), (A(1.0, 2.0), A(1.0, 3.0))),
    ("pdist_p1_eq", lambda t, F, a: F.pdist(a.reshape(2, 2), p=1.0), (A(1.0, 2.0, 1.0, 3.0),)),
    ("vector_norm_3_0", lambda t, F, x: t.linalg.vector_norm(x, ord=3), (A(0.0, 0.0, 0.0),)),
    ("matrix_norm_fro0", lambda t, F, x: t.linalg.matrix_norm(x.reshape(2, 2)), (A(0.0, 0.0, 0.0, 0.0),)),
    ("dist_eq", lambda t, F, a, b: t.dist(a, b), (A(1.0, 2.0), A(1.0, 2.0))),
    (
        "cdist_eq",
        lambda t, F, a, b: t.cdist(a.reshape(2, 2), b.reshape(2, 2)),
        (A(1.0, 2.0, 3.0, 4.0), A(1.0, 2.0, 0.0, 0.0)),
    ),
    (
        "cdist_eq_p1",
        lambda t, F, a, b: t.cdist(a.reshape(2, 2), b.reshape(2, 2), p=1.0),
        (A(1.0, 2.0, 3.0, 4.0), A(1.0, 2.0, 0.0, 0.0)),
    ),
    (
        "cdist_inf_ties",
        lambda t, F, a, b: t.cdist(a.reshape(2, 2), b.reshape(2, 2), p=inf),
        (A(3.0, 4.0, 1.0, -1.0), A(1.0, 2.0, 0.0, 0.0)),
    ),
    (
        "pairwise_distance_eq",
        lambda t, F, a, b: F.pairwise_distance(a.reshape(1, 2), b.reshape(1, 2)),
        (A(1.0, 2.0), A(1.0, 2.0)),
    ),
    ("pdist_eq", lambda t, F, a: F.pdist(a.reshape(3, 2)), (A(1.0, 2.0, 1.0, 2.0, 0.0, 1.0),)),
    ("sqrt_0", lambda t, F, x: t.sqrt(x), (A(0.0, 1.0),)),
    ("rsqrt_0", lambda t, F, x: t.rsqrt(x), (A(0.0, 1.0),)),
    ("pow_00", lambda t, F, x, y: t.pow(x, y), (A(0.0, 0.0, 0.0, 2.0), A(0.0, 1.0, 2.0, 0.0))),
    ("pow_scalar0", lambda t, F, x: x**0, (A(0.0, 1.0),)),
    ("pow_scalar05", lambda t, F, x: x**0.5, (A(0.0, 1.0),)),
    ("pow_scalar2", lambda t, F, x: x**2, (A(0.0, 1.0),)),
    ("pow_scalar1", lambda t, F, x: x**1, (A(0.0, 1.0),)),
    ("pow_scalar_m1", lambda t, F, x: x**-1.0, (A(0.0, 1.0),)),
    ("rpow_0", lambda t, F, y: 0.0**y, (A(0.0, 1.0, 2.0),)),
    ("pow_x0_y", lambda t, F, y: t.pow(t.zeros(3, dtype=t.float64), y), (A(0.0, 1.0, 2.0),)),
    ("xlogy_00", lambda t, F, x, y: t.xlogy(x, y), (A(0.0, 0.0, 1.0), A(0.0, 1.0, 0.0))),
    ("sinc_0", lambda t, F, x: t.sinc(x), (A(0.0, 0.5),)),
    ("normalize_zero", lambda t, F, x: F.normalize(x.reshape(2, 2), dim=1), (A(0.0, 0.0, 3.0, 4.0),)),
    (
        "cos_sim_zero",
        lambda t, F, a, b: F.cosine_similarity(a.reshape(2, 2), b.reshape(2, 2)),
        (A(0.0, 0.0, 1.0, 0.0), A(1.0, 1.0, 0.0, 0.0)),
    ),
    (
        "layer_norm_const",
        lambda t, F, x: F.layer_norm(x.reshape(2, 3), (3,)),
        (A(1.0, 1.0, 1.0, 1.0, 2.0, 3.0),),
    ),
    (
        "layer_norm_const_w",
        lambda t, F, x: F.layer_norm(x.reshape(2, 3), (3,)) * t.tensor([1.0, 2.0, 3.0], dtype=t.float64),
        (A(1.0, 1.0, 1.0, 1.0, 2.0, 3.0),),
    ),
    (
        "batch_norm_const",
        lambda t, F, x: (
            F.batch_norm(x.reshape(3, 2), None, None, training=True) * t.tensor([1.0, 2.0], dtype=t.float64)
        ),
        (A(1.0, 1.0, 1.0, 2.0, 1.0, 3.0),),
    ),
    (
        "group_norm_const",
        lambda t, F, x: (
            F.group_norm(x.reshape(1, 2, 2), 1)
            * t.tensor([1.0, 2.0, 3.0, 4.0], dtype=t.float64).reshape(1, 2, 2)
        ),
        (A(1.0, 1.0, 1.0, 1.0),),
    ),
    (
        "instance_norm_const",
        lambda t, F, x: F.instance_norm(x.reshape(1, 1, 3)) * t.tensor([1.0, 2.0, 3.0], dtype=t.float64),
        (A(1.0, 1.0, 1.0),),
    ),
    ("log_0", lambda t, F, x: t.log(x), (A(0.0, 1.0),)),
    ("log_softmax_all_neginf", lambda t, F, x: F.log_softmax(x, dim=0), (A(-inf, -inf),)),
    (
        "gaussian_nll",
        lambda t, F, x, y: F.gaussian_nll_loss(x, y, t.zeros(2, dtype=t.float64)),
        (A(1.0, 2.0), A(1.0, 3.0)),
    ),
    ("poisson_nll", lambda t, F, x, y: F.poisson_nll_loss(x, y, log_input=False), (A(0.0, 1.0), A(1.0, 0.0))),
    ("acos_1", lambda t, F, x: t.acos(x), (A(1.0, -1.0),)),
    ("asin_1", lambda t, F, x: t.asin(x), (A(1.0, -1.0),)),
    ("atanh_1", lambda t, F, x: t.atanh(x), (A(1.0, -1.0),)),
    ("logit_eps", lambda t, F, x: t.logit(x, eps=1e-6), (A(0.0, 1.0, 0.5),)),
    ("logit_01", lambda t, F, x: t.logit(x), (A(0.0, 1.0, 0.5),)),
    ("softmin", lambda t, F, x: F.softmin(x, dim=0), (A(inf, 1.0),)),
    ("mse_huge", lambda t, F, x, y: F.mse_loss(x, y), (A(1.0, 2.0), A(1.0, 2.0))),
    ("prod_zero", lambda t, F, x: t.prod(x), (A(0.0, 2.0, 3.0),)),
    ("prod_zeros2", lambda t, F, x: t.prod(x), (A(0.0, 0.0, 3.0),)),
    ("prod_dim_zero", lambda t, F, x: t.prod(x.reshape(2, 2), 1), (A(0.0, 2.0, 0.0, 0.0),)),
    ("cumprod_zero", lambda t, F, x: t.cumprod(x, 0), (A(2.0, 0.0, 3.0),)),
    ("cummax_tie", lambda t, F, x: t.cummax(x, 0)[0], (A(1.0, 1.0, 0.0, 2.0),)),
    ("cummin_tie", lambda t, F, x: t.cummin(x, 0)[0], (A(1.0, 1.0, 2.0, 0.0),)),
    ("erfinv_1", lambda t, F, x: t.erfinv(x), (A(1.0, 0.0),)),
    (
        "margin_ranking",
        lambda t, F, a, b: F.margin_ranking_loss(a, b, t.tensor([1.0, -1.0], dtype=t.float64)),
        (A(1.0, 1.0), A(1.0, 1.0)),
    ),
    (
        "hinge_emb",
        lambda t, F, a: F.hinge_embedding_loss(a, t.tensor([1.0, -1.0], dtype=t.float64)),
        (A(1.0, 1.0),),
    ),
    (
        "soft_margin_ext",
        lambda t, F, a: F.soft_margin_loss(a, t.tensor([1.0, -1.0], dtype=t.float64)),
        (A(-1000.0, 1000.0),),
    ),
    (
        "multilabel_soft_margin_ext",
        lambda t, F, a: F.multilabel_soft_margin_loss(
            a.reshape(1, 2), t.tensor([[1.0, 0.0]], dtype=t.float64)
        ),
        (A(-1000.0, 1000.0),),
    ),
    (
        "triplet_eq",
        lambda t, F, a, p, n: F.triplet_margin_loss(a.reshape(1, 2), p.reshape(1, 2), n.reshape(1, 2)),
        (A(1.0, 2.0), A(1.0, 2.0), A(0.0, 0.0)),
    ),
    (
        "cosine_emb_zero",
        lambda t, F, a, b: F.cosine_embedding_loss(
            a.reshape(1, 2), b.reshape(1, 2), t.tensor([1.0], dtype=t.float64)
        ),
        (A(0.0, 0.0), A(1.0, 0.0)),
    ),
    ("glu", lambda t, F, a: F.glu(a), (A(1.0, -1000.0),)),
    ("mish_ext", lambda t, F, a: F.mish(a), (A(-1000.0, 1000.0, 0.0),)),
    ("silu_ext", lambda t, F, a: F.silu(a), (A(-1000.0, 1000.0, 0.0),)),
    ("gelu_tanh_ext", lambda t, F, a: F.gelu(a, approximate="tanh"), (A(-1000.0, 1000.0, 0.0),)),
    ("tanh_ext", lambda t, F, a: t.tanh(a), (A(-1000.0, 1000.0),)),
    ("exp_neg", lambda t, F, a: t.exp(a), (A(-inf, 0.0),)),
    ("expm1_big", lambda t, F, a: t.log1p(a), (A(-1.0, 0.0),)),
    ("l1_at_eq", lambda t, F, a, b: F.l1_loss(a, b), (A(1.0, 2.0), A(1.0, 3.0))),
    ("smooth_l1_at_eq", lambda t, F, a, b: F.smooth_l1_loss(a, b), (A(1.0, 2.0), A(1.0, 3.0))),
    ("smooth_l1_beta0", lambda t, F, a, b: F.smooth_l1_loss(a, b, beta=0.0), (A(1.0, 2.0), A(1.0, 3.0))),
    ("huber_delta0", lambda t, F, a, b: F.huber_loss(a, b), (A(1.0, 2.0), A(1.0, 3.0))),
    (
        "nll_ignore_all",
        lambda t, F, x: F.nll_loss(x.reshape(2, 2), t.tensor([-100, -100])),
        (A(1.0, 2.0, 3.0, 4.0),),
    ),
    (
        "ce_ignore_all",
        lambda t, F, x: F.cross_entropy(x.reshape(2, 2), t.tensor([-100, -100])),
        (A(1.0, 2.0, 3.0, 4.0),),
    ),
    (
        "ce_label_smooth_neginf",
        lambda t, F, x: F.cross_entropy(x.reshape(1, 3), t.tensor([0]), label_smoothing=0.1),
        (A(1.0, -inf, 2.0),),
    ),
    (
        "ce_probs_target",
        lambda t, F, x: F.cross_entropy(x.reshape(1, 3), t.tensor([[1.0, 0.0, 0.0]], dtype=t.float64)),
        (A(1.0, -inf, 2.0),),
    ),
]

KINKS = [
    ("hardtanh", lambda t, F, x: F.hardtanh(x), (A(-1.0, 1.0, 0.0, -2.0, 2.0),)),
    ("hardtanh_mm", lambda t, F, x: F.hardtanh(x, -2.0, 3.0), (A(-2.0, 3.0),)),
    ("relu6", lambda t, F, x: F.relu6(x), (A(0.0, 6.0, 3.0, -1.0, 7.0),)),
    ("relu", lambda t, F, x: F.relu(x), (A(0.0, -0.0, 1.0),)),
    ("relu_t", lambda t, F, x: t.relu(x), (A(0.0, 1.0),)),
    ("relu_mod", lambda t, F, x: t.nn.ReLU()(x), (A(0.0, 1.0),)),
    ("abs", lambda t, F, x: t.abs(x), (A(0.0, -0.0, 1.0),)),
    ("leaky_relu", lambda t, F, x: F.leaky_relu(x, 0.1), (A(0.0, -1.0, 1.0),)),
    ("elu", lambda t, F, x: F.elu(x), (A(0.0, -0.0, 1.0),)),
    (
        "elu_a",
        lambda t, F, x: F.elu(x, alpha=2.0),
        (
            A(
                0.0,
            ),
        ),
    ),
    (
        "celu",
        lambda t, F, x: F.celu(x, alpha=2.0),
        (
            A(
                0.0,
            ),
        ),
    ),
    (
        "selu",
        lambda t, F, x: F.selu(x),
        (
            A(
                0.0,
            ),
        ),
    ),
    ("hardsigmoid", lambda t, F, x: F.hardsigmoid(x), (A(-3.0, 3.0, 0.0),)),
    ("hardswish", lambda t, F, x: F.hardswish(x), (A(-3.0, 3.0, 0.0),)),
    ("hardshrink", lambda t, F, x: F.hardshrink(x, 0.5), (A(-0.5, 0.5, 0.0),)),
    ("softshrink", lambda t, F, x: F.softshrink(x, 0.5), (A(-0.5, 0.5, 0.0),)),
    (
        "tanhshrink",
        lambda t, F, x: F.tanhshrink(x),
        (
            A(
                0.0,
            ),
        ),
    ),
    ("threshold", lambda t, F, x: F.threshold(x, 1.0, -5.0), (A(1.0, 0.0, 2.0),)),
    ("prelu", lambda t, F, x: F.prelu(x, t.tensor([0.25], dtype=t.float64)), (A(0.0, -1.0),)),
    ("rrelu_eval", lambda t, F, x: F.rrelu(x, training=False), (A(0.0, -1.0),)),
    ("clamp01", lambda t, F, x: t.clamp(x, 0.0, 1.0), (A(0.0, 1.0, -1.0, 2.0, 0.5),)),
    ("clamp_min", lambda t, F, x: t.clamp_min(x, 0.0), (A(0.0, 1.0),)),
    ("clamp_max", lambda t, F, x: t.clamp_max(x, 0.0), (A(0.0, 1.0),)),
    (
        "clamp_tensor",
        lambda t, F, x, lo, hi: t.clamp(x, lo, hi),
        (A(0.0, 1.0, 0.5), A(0.0, 0.0, 0.0), A(1.0, 1.0, 1.0)),
    ),
    ("clip", lambda t, F, x: t.clip(x, 0.0, 1.0), (A(0.0, 1.0),)),
    ("max_all_tie", lambda t, F, x: t.max(x), (A(1.0, 3.0, 3.0, 2.0),)),
    ("min_all_tie", lambda t, F, x: t.min(x), (A(1.0, 0.0, 0.0, 2.0),)),
    ("amax_tie", lambda t, F, x: t.amax(x, 0), (A(1.0, 3.0, 3.0, 3.0),)),
    ("amin_tie", lambda t, F, x: t.amin(x, 0), (A(0.0, 3.0, 0.0, 3.0),)),
    ("max_dim_tie", lambda t, F, x: t.max(x.reshape(2, 3), 1)[0], (A(3.0, 1.0, 3.0, 2.0, 2.0, 2.0),)),
    ("min_dim_tie", lambda t, F, x: t.min(x.reshape(2, 3), 1)[0], (A(1.0, 3.0, 1.0, 2.0, 2.0, 2.0),)),
    ("maximum_tie", lambda t, F, a, b: t.maximum(a, b), (A(1.0, 2.0), A(1.0, 1.0))),
    ("minimum_tie", lambda t, F, a, b: t.minimum(a, b), (A(1.0, 2.0), A(1.0, 1.0))),
    ("fmax_tie", lambda t, F, a, b: t.fmax(a, b), (A(1.0, 2.0), A(1.0, 1.0))),
    ("fmin_tie", lambda t, F, a, b: t.fmin(a, b), (A(1.0, 2.0), A(1.0, 1.0))),
    ("median_tie", lambda t, F, x: t.median(x), (A(1.0, 2.0, 2.0, 3.0),)),
    ("median_even", lambda t, F, x: t.median(x), (A(4.0, 1.0, 3.0, 2.0),)),
    ("median_dim", lambda t, F, x: t.median(x.reshape(2, 3), 1)[0], (A(2.0, 2.0, 1.0, 5.0, 5.0, 5.0),)),
    ("nanmedian", lambda t, F, x: t.nanmedian(x), (A(1.0, 2.0, 2.0, 3.0),)),
    (
        "sort_tie",
        lambda t, F, x: t.sort(x)[0] * t.tensor([1.0, 2.0, 3.0, 4.0], dtype=t.float64),
        (A(2.0, 1.0, 2.0, 1.0),),
    ),
    (
        "sort_tie_desc",
        lambda t, F, x: t.sort(x, descending=True)[0] * t.tensor([1.0, 2.0, 3.0, 4.0], dtype=t.float64),
        (A(2.0, 1.0, 2.0, 1.0),),
    ),
    ("kthvalue_tie", lambda t, F, x: t.kthvalue(x, 2)[0], (A(2.0, 1.0, 2.0, 1.0),)),
    ("mode_tie", lambda t, F, x: t.mode(x)[0], (A(2.0, 1.0, 2.0, 1.0),)),
    ("sign", lambda t, F, x: t.sign(x), (A(0.0, 1.0, -1.0),)),
    ("round", lambda t, F, x: t.round(x), (A(0.0, 0.5, 1.5),)),
    ("floor", lambda t, F, x: t.floor(x), (A(0.0, 1.0),)),
    ("ceil", lambda t, F, x: t.ceil(x), (A(0.0, 1.0),)),
    ("trunc", lambda t, F, x: t.trunc(x), (A(0.0, 1.0),)),
    ("frac", lambda t, F, x: t.frac(x), (A(0.0, 1.5),)),
    ("fmod", lambda t, F, x: t.fmod(x, 1.0), (A(0.0, 1.0),)),
    ("remainder", lambda t, F, x: t.remainder(x, 1.0), (A(0.0, 1.0),)),
    (
        "smooth_l1_beta",
        lambda t, F, a, b: F.smooth_l1_loss(a, b, beta=1.0, reduction="none"),
        (A(1.0, -1.0, 0.0), A(0.0, 0.0, 0.0)),
    ),
    (
        "huber_delta",
        lambda t, F, a, b: F.huber_loss(a, b, delta=1.0, reduction="none"),
        (A(1.0, -1.0, 0.0), A(0.0, 0.0, 0.0)),
    ),
    (
        "l1_kink",
        lambda t, F, a, b: F.l1_loss(a, b, reduction="none"),
        (
            A(
                0.0,
            ),
            A(
                0.0,
            ),
        ),
    ),
    ("max_pool_tie", lambda t, F, x: F.max_pool1d(x.reshape(1, 1, 4), 2), (A(1.0, 1.0, 2.0, 2.0),)),
    (
        "adaptive_max_pool_tie",
        lambda t, F, x: F.adaptive_max_pool1d(x.reshape(1, 1, 4), 1),
        (A(1.0, 2.0, 2.0, 1.0),),
    ),
    ("max_pool2d_tie", lambda t, F, x: F.max_pool2d(x.reshape(1, 1, 2, 2), 2), (A(1.0, 1.0, 1.0, 1.0),)),
    (
        "hinge_kink",
        lambda t, F, a: F.hinge_embedding_loss(a, t.tensor([-1.0], dtype=t.float64), margin=1.0),
        (A(1.0),),
    ),
    (
        "margin_rank_kink",
        lambda t, F, a, b: F.margin_ranking_loss(a, b, t.tensor([1.0], dtype=t.float64)),
        (A(1.0), A(1.0)),
    ),
    ("logsumexp_tie", lambda t, F, a: t.logsumexp(a, 0), (A(1.0, 1.0),)),
    ("norm_inf_tie", lambda t, F, x: t.linalg.vector_norm(x, ord=inf), (A(1.0, -1.0, 0.5),)),
    ("norm_ninf_tie", lambda t, F, x: t.linalg.vector_norm(x, ord=-inf), (A(1.0, -1.0, 2.0),)),
    (
        "cummax_tie2",
        lambda t, F, x: t.cummax(x, 0)[0] * t.tensor([1.0, 2.0, 3.0], dtype=t.float64),
        (A(1.0, 1.0, 1.0),),
    ),
    (
        "dropout_eval",
        lambda t, F, x: F.dropout(x, 0.5, training=False),
        (
            A(
                1.0,
            ),
        ),
    ),
    (
        "softsign",
        lambda t, F, x: F.softsign(x),
        (
            A(
                0.0,
            ),
        ),
    ),
    ("hardtanh_inplace", lambda t, F, x: F.hardtanh(x * 1.0, inplace=True), (A(-1.0, 1.0),)),
    ("relu_inplace", lambda t, F, x: F.relu(x * 1.0, inplace=True), (A(0.0, 1.0),)),
    ("relu6_mod", lambda t, F, x: t.nn.ReLU6()(x), (A(0.0, 6.0),)),
    ("hardtanh_mod", lambda t, F, x: t.nn.Hardtanh()(x), (A(-1.0, 1.0),)),
    ("clamp_method", lambda t, F, x: x.clamp(0.0, 1.0), (A(0.0, 1.0),)),
    ("clamp_", lambda t, F, x: (x * 1.0).clamp_(0.0, 1.0), (A(0.0, 1.0),)),
    (
        "max_binary",
        lambda t, F, a, b: t.max(a, b),
        (
            A(
                1.0,
            ),
            A(
                1.0,
            ),
        ),
    ),
]

TORCH = {
    "bce_p0": (50.0, [[-250000000998.9507, 250000000998.9507, 0.0, 0.0], [inf, -inf, inf, -inf]]),
    "bce_p0_sum": (
        [100.0, 100.0, 0.0, -0.0, 0.6931471805599453],
        [[-1000000003995.8029, 1000000003995.8029, 0.0, 0.0, 0.8], [inf, -inf, inf, -inf, -0.0]],
    ),
    "bceloss_mod": (100.0, [[-500000001997.9014, 500000001997.9014], [inf, -inf]]),
    "bce_logits_ext": (
        [1000.0, 1000.0, 0.0, 0.0, 0.6931471805599453],
        [[-1.0, 1.0, 0.0, 0.0, 0.0], [1000.0, -1000.0, -800.0, 800.0, -0.0]],
    ),
    "bce_logits_posw": (
        [2000.0, 1000.0, 0.0, 0.0, 1.0397207708399179],
        [[-2.0, 1.0, 0.0, 0.0, -0.25], [2000.0, -1000.0, -800.0, 1600.0, 0.6931471805599453]],
    ),
    "ce_neginf": (
        0.6809245195459824,
        [[-0.36552928931500245, 0.0, 0.36552928931500245, 0.0, -0.023712936588783373, 0.02371293658878339]],
    ),
    "nll_neginf": (
        0.6809245195459824,
        [[-0.36552928931500245, 0.0, 0.36552928931500245, 0.0, -0.023712936588783373, 0.02371293658878339]],
    ),
    "log_softmax_neginf": (
        [-1.3132616875182228, -0.31326168751822286],
        [[0.4621171572600098, -0.4621171572600098, 0.0]],
    ),
    "softmax_neginf": ([0.26894142136999516, 0.7310585786300049, 0.0], [[0.0, 0.0, 0.0]]),
    "kl_div_zero_target": (
        0.5568528194400546,
        [[-0.0, -0.5, -0.5], [nan, 2.3068528194400546, 0.8068528194400547]],
    ),
    "kl_div_logt": (
        nan,
        [[-0.0, -0.9048374180359595, -0.1353352832366127], [nan, 2.6240285123042826, -0.06766764161830635]],
    ),
    "softplus_large": (
        [0.0, 0.6931471805599453, 19.000000005602796, 21.0, 1000.0],
        [[0.0, 0.5, 0.9999999943972036, 1.0, 1.0]],
    ),
    "softplus_beta": (
        [0.0, 0.34657359027997264, 2.404098033669134, 2.6, 1000.0],
        [[0.0, 0.5, 0.9918374288468401, 1.0, 1.0]],
    ),
    "logsigmoid": (
        [-1000.0, -50.0, -0.6931471805599453, -1.9287498479639178e-22, 0.0],
        [[1.0, 1.0, 0.5, 1.9287498479639178e-22, 0.0]],
    ),
    "sigmoid_ext": ([0.0, 0.5, 1.0], [[0.0, 0.25, 0.0]]),
    "std_const": (0.0, [[0.0, 0.0, 0.0]]),
    "var_const": (0.0, [[0.0, 0.0, 0.0]]),
    "std_single": (0.0, [[0.0, 0.0, 0.0]]),
    "det_singular": (-0.0, [[0.0, -0.0, -0.0, 0.0]]),
    "det_singular3": (0.0, [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]),
    "det_zero": (0.0, [[0.0, 0.0, 0.0, 0.0]]),
    "logdet_singular": (-inf, [[-inf, inf, inf, -inf]]),
    "slogdet_singular": (-inf, [[-inf, inf, inf, -inf]]),
    "atan2_00": ([0.0, 3.141592653589793, 1.5707963267948966], [[0.0, -0.0, 0.0], [-0.0, -0.0, -1.0]]),
    "hypot_00": ([0.0, 5.0], [[nan, 0.6], [nan, 0.8]]),
    "logaddexp_inf": (
        [inf, -inf, 2.313261687518223],
        [[nan, nan, 0.2689414213699951], [nan, nan, 0.7310585786300049]],
    ),
    "logsumexp_inf": (-inf, [[nan, nan]]),
    "norm_0": (0.0, [[0.0, 0.0, 0.0]]),
    "vector_norm_0": (0.0, [[0.0, 0.0, 0.0]]),
    "vector_norm_1_0": (0.0, [[0.0, 0.0, 0.0]]),
    "vector_norm_inf_0": (0.0, [[0.0, 0.0, 0.0]]),
    "vector_norm_3_0": (0.0, [[0.0, 0.0, 0.0]]),
    "matrix_norm_fro0": (0.0, [[0.0, 0.0, 0.0, 0.0]]),
    "dist_eq": (0.0, [[0.0, 0.0], [-0.0, -0.0]]),
    "cdist_eq": (
        [0.0, 2.23606797749979, 2.8284271247461903, 5.0],
        [
            [0.4472135954999579, 0.8944271909999159, 1.3071067811865476, 1.5071067811865475],
            [-0.7071067811865475, -0.7071067811865475, -1.047213595499958, -1.694427190999916],
        ],
    ),
    "cdist_eq_p1": ([0.0, 3.0, 4.0, 7.0], [[1.0, 1.0, 2.0, 2.0], [-1.0, -1.0, -2.0, -2.0]]),
    "pairwise_distance_eq": (
        [1.414213562373095e-06],
        [[0.7071067811865476, 0.7071067811865476], [-0.7071067811865476, -0.7071067811865476]],
    ),
    "pdist_eq": (
        [0.0, 1.4142135623730951, 1.4142135623730951],
        [[0.7071067811865475, 0.7071067811865475, 0.7071067811865475, 0.7071067811865475, -1.414213562373095,
          -1.414213562373095]],
    ),
    "sqrt_0": ([0.0, 1.0], [[inf, 0.5]]),
    "rsqrt_0": ([inf, 1.0], [[-inf, -0.5]]),
    "pow_00": ([1.0, 0.0, 0.0, 1.0], [[0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.6931471805599453]]),
    "pow_scalar0": ([1.0, 1.0], [[0.0, 0.0]]),
    "pow_scalar05": ([0.0, 1.0], [[inf, 0.5]]),
    "pow_scalar2": ([0.0, 1.0], [[0.0, 2.0]]),
    "pow_scalar1": ([0.0, 1.0], [[1.0, 1.0]]),
    "pow_scalar_m1": ([inf, 1.0], [[-inf, -1.0]]),
    "rpow_0": ([1.0, 0.0, 0.0], [[0.0, 0.0, 0.0]]),
    "pow_x0_y": ([1.0, 0.0, 0.0], [[0.0, 0.0, 0.0]]),
    "xlogy_00": ([0.0, 0.0, -inf], [[0.0, 0.0, -inf], [nan, 0.0, inf]]),
    "sinc_0": ([1.0, 0.6366197723675814], [[0.0, -1.2732395447351625]]),
    "normalize_zero": (
        [0.0, 0.0, 0.6, 0.8],
        [[1000000000000.0, 1000000000000.0, 0.032, -0.02400000000000002]],
    ),
    "cos_sim_zero": (
        [0.0, 0.0],
        [[70710678.11865474, 70710678.11865474, 0.0, 0.0], [0.0, 0.0, 100000000.0, 0.0]],
    ),
    "layer_norm_const": (
        [0.0, 0.0, 0.0, -1.2247356859083902, 0.0, 1.2247356859083902],
        [[0.0, 0.0, 0.0, 2.220446049250313e-16, 2.220446049250313e-16, 2.220446049250313e-16]],
    ),
    "layer_norm_const_w": (
        [0.0, 0.0, 0.0, -1.2247356859083902, 0.0, 3.6742070577251704],
        [
            [
                -316.2277660168379,
                0.0,
                316.2277660168379,
                -1.837075972677127e-05,
                4.440892098500626e-16,
                1.8370759727437402e-05,
            ]
        ],
    ),
    "batch_norm_const": (
        [0.0, -2.4494713718167804, 0.0, 0.0, 0.0, 2.4494713718167804],
        [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0]],
    ),
    "group_norm_const": (
        [0.0, 0.0, 0.0, 0.0],
        [[-474.34164902525686, -158.11388300841895, 158.11388300841895, 474.34164902525686]],
    ),
    "instance_norm_const": ([0.0, 0.0, 0.0], [[-316.2277660168379, 0.0, 316.2277660168379]]),
    "log_0": ([-inf, 0.0], [[inf, 1.0]]),
    "log_softmax_all_neginf": ([nan, nan], [[nan, nan]]),
    "gaussian_nll": (249993.09224472102, [[0.0, -500000.0], [-0.0, 500000.0]]),
    "poisson_nll": (9.710340371976184, [[-49999999.5, 0.5], [9.210340371976184, -4.9999999446126456e-09]]),
    "acos_1": ([0.0, 3.141592653589793], [[-inf, -inf]]),
    "asin_1": ([1.5707963267948966, -1.5707963267948966], [[inf, inf]]),
    "atanh_1": ([inf, -inf], [[inf, inf]]),
    "logit_eps": ([-13.815509557963773, 13.815509557935018, 0.0], [[0.0, 0.0, 4.0]]),
    "logit_01": ([-inf, inf, 0.0], [[inf, inf, 4.0]]),
    "softmin": ([0.0, 1.0], [[-0.0, -0.0]]),
    "mse_huge": (0.0, [[0.0, 0.0], [0.0, 0.0]]),
    "prod_zero": (0.0, [[6.0, 0.0, 0.0]]),
    "prod_zeros2": (0.0, [[0.0, 0.0, 0.0]]),
    "prod_dim_zero": ([0.0, 0.0], [[2.0, 0.0, 0.0, 0.0]]),
    "cumprod_zero": ([2.0, 0.0, 0.0], [[1.0, 8.0, 0.0]]),
    "cummax_tie": ([1.0, 1.0, 1.0, 2.0], [[1.0, 2.0, 0.0, 1.0]]),
    "cummin_tie": ([1.0, 1.0, 1.0, 0.0], [[1.0, 2.0, 0.0, 1.0]]),
    "erfinv_1": ([inf, 0.0], [[inf, 0.8862269254527579]]),
    "margin_ranking": (0.0, [[-0.5, 0.5], [0.5, -0.5]]),
    "hinge_emb": (0.5, [[0.5, -0.5]]),
    "soft_margin_ext": (inf, [[nan, nan]]),
    "multilabel_soft_margin_ext": (1000.0, [[-0.5, 0.5]]),
    "triplet_eq": (0.0, [[0.0, 0.0], [-0.0, -0.0], [0.0, 0.0]]),
    "cosine_emb_zero": (1.0, [[-1000000.0019974014, 0.0], [0.0, 0.0]]),
    "glu": ([0.0], [[0.0, 0.0]]),
    "mish_ext": ([-0.0, 1000.0, 0.0], [[0.0, 1.0, 0.6]]),
    "silu_ext": ([-0.0, 1000.0, 0.0], [[-0.0, 1.0, 0.5]]),
    "gelu_tanh_ext": ([-0.0, 1000.0, 0.0], [[0.0, 1.0, 0.5]]),
    "tanh_ext": ([-1.0, 1.0], [[0.0, 0.0]]),
    "exp_neg": ([0.0, 1.0], [[0.0, 1.0]]),
    "expm1_big": ([-inf, 0.0], [[inf, 1.0]]),
    "l1_at_eq": (0.5, [[0.0, -0.5], [-0.0, 0.5]]),
    "smooth_l1_at_eq": (0.25, [[0.0, -0.5], [0.0, 0.5]]),
    "smooth_l1_beta0": (0.5, [[0.0, -0.5], [-0.0, 0.5]]),
    "huber_delta0": (0.25, [[0.0, -0.5], [0.0, 0.5]]),
    "nll_ignore_all": (nan, [[0.0, 0.0, 0.0, 0.0]]),
    "ce_ignore_all": (nan, [[0.0, 0.0, 0.0, 0.0]]),
    "ce_label_smooth_neginf": (inf, [[-0.6643919119633382, -0.03333333333333333, 0.6977252452966716]]),
    "ce_probs_target": (nan, [[-0.7310585786300049, 0.0, 0.7310585786300049]]),
    "hardtanh": ([-1.0, 1.0, 0.0, -1.0, 1.0], [[0.0, 0.0, 1.0, 0.0, 0.0]]),
    "hardtanh_mm": ([-2.0, 3.0], [[0.0, 0.0]]),
    "relu6": ([0.0, 6.0, 3.0, 0.0, 6.0], [[0.0, 0.0, 1.0, 0.0, 0.0]]),
    "relu": ([0.0, -0.0, 1.0], [[0.0, 0.0, 1.0]]),
    "relu_t": ([0.0, 1.0], [[0.0, 1.0]]),
    "relu_mod": ([0.0, 1.0], [[0.0, 1.0]]),
    "abs": ([0.0, 0.0, 1.0], [[0.0, 0.0, 1.0]]),
    "leaky_relu": ([0.0, -0.1, 1.0], [[0.1, 0.1, 1.0]]),
    "elu": ([0.0, -0.0, 1.0], [[1.0, 1.0, 1.0]]),
    "elu_a": ([0.0], [[2.0]]),
    "celu": ([0.0], [[1.0]]),
    "selu": ([0.0], [[1.7580993408473766]]),
    "hardsigmoid": ([0.0, 1.0, 0.5], [[0.0, 0.0, 0.1666666716337204]]),
    "hardswish": ([-0.0, 3.0, 0.0], [[0.0, 1.0, 0.5]]),
    "hardshrink": ([0.0, 0.0, 0.0], [[0.0, 0.0, 0.0]]),
    "softshrink": ([-0.0, 0.0, 0.0], [[0.0, 0.0, 0.0]]),
    "tanhshrink": ([0.0], [[0.0]]),
    "threshold": ([-5.0, -5.0, 2.0], [[0.0, 0.0, 1.0]]),
    "prelu": ([0.0, -0.25], [[0.25, 0.25]]),
    "rrelu_eval": ([0.0, -0.22916666666666666], [[0.22916666666666666, 0.22916666666666666]]),
    "clamp01": ([0.0, 1.0, 0.0, 1.0, 0.5], [[1.0, 1.0, 0.0, 0.0, 1.0]]),
    "clamp_min": ([0.0, 1.0], [[1.0, 1.0]]),
    "clamp_max": ([0.0, 0.0], [[1.0, 0.0]]),
    "clamp_tensor": ([0.0, 1.0, 0.5], [[1.0, 1.0, 1.0], [0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]),
    "clip": ([0.0, 1.0], [[1.0, 1.0]]),
    "max_all_tie": (3.0, [[0.0, 0.5, 0.5, 0.0]]),
    "min_all_tie": (0.0, [[0.0, 0.5, 0.5, 0.0]]),
    "amax_tie": (3.0, [[0.0, 0.3333333333333333, 0.3333333333333333, 0.3333333333333333]]),
    "amin_tie": (0.0, [[0.5, 0.0, 0.5, 0.0]]),
    "max_dim_tie": ([3.0, 2.0], [[1.0, 0.0, 0.0, 1.0, 0.0, 0.0]]),
    "min_dim_tie": ([1.0, 2.0], [[1.0, 0.0, 0.0, 1.0, 0.0, 0.0]]),
    "maximum_tie": ([1.0, 2.0], [[0.5, 1.0], [0.5, 0.0]]),
    "minimum_tie": ([1.0, 1.0], [[0.5, 0.0], [0.5, 1.0]]),
    "fmax_tie": ([1.0, 2.0], [[1.0, 1.0], [0.0, 0.0]]),
    "fmin_tie": ([1.0, 1.0], [[1.0, 0.0], [0.0, 1.0]]),
    "median_tie": (2.0, [[0.0, 0.5, 0.5, 0.0]]),
    "median_even": (2.0, [[0.0, 0.0, 0.0, 1.0]]),
    "median_dim": ([2.0, 5.0], [[1.0, 0.0, 0.0, 0.0, 1.0, 0.0]]),
    "nanmedian": (2.0, [[0.0, 0.5, 0.5, 0.0]]),
    "sort_tie": ([1.0, 2.0, 6.0, 8.0], [[3.0, 1.0, 4.0, 2.0]]),
    "sort_tie_desc": ([2.0, 4.0, 3.0, 4.0], [[1.0, 3.0, 2.0, 4.0]]),
    "kthvalue_tie": (1.0, [[0.0, 0.0, 0.0, 1.0]]),
    "mode_tie": (1.0, [[0.0, 0.0, 0.0, 1.0]]),
    "sign": ([0.0, 1.0, -1.0], [[0.0, 0.0, 0.0]]),
    "round": ([0.0, 0.0, 2.0], [[0.0, 0.0, 0.0]]),
    "floor": ([0.0, 1.0], [[0.0, 0.0]]),
    "ceil": ([0.0, 1.0], [[0.0, 0.0]]),
    "trunc": ([0.0, 1.0], [[0.0, 0.0]]),
    "frac": ([0.0, 0.5], [[1.0, 1.0]]),
    "fmod": ([0.0, 0.0], [[1.0, 1.0]]),
    "remainder": ([0.0, 0.0], [[1.0, 1.0]]),
    "smooth_l1_beta": ([0.5, 0.5, 0.0], [[1.0, -1.0, 0.0], [-1.0, 1.0, 0.0]]),
    "huber_delta": ([0.5, 0.5, 0.0], [[1.0, -1.0, 0.0], [-1.0, 1.0, 0.0]]),
    "l1_kink": ([0.0], [[0.0], [-0.0]]),
    "max_pool_tie": ([1.0, 2.0], [[1.0, 0.0, 1.0, 0.0]]),
    "adaptive_max_pool_tie": ([2.0], [[0.0, 1.0, 0.0, 0.0]]),
    "max_pool2d_tie": ([1.0], [[1.0, 0.0, 0.0, 0.0]]),
    "hinge_kink": (0.0, [[-1.0]]),
    "margin_rank_kink": (0.0, [[-1.0], [1.0]]),
    "logsumexp_tie": (1.6931471805599454, [[0.49999999999999994, 0.49999999999999994]]),
    "norm_inf_tie": (1.0, [[0.5, -0.5, 0.0]]),
    "norm_ninf_tie": (1.0, [[0.5, -0.5, 0.0]]),
    "cummax_tie2": ([1.0, 2.0, 3.0], [[1.0, 2.0, 3.0]]),
    "dropout_eval": ([1.0], [[1.0]]),
    "softsign": ([0.0], [[1.0]]),
    "hardtanh_inplace": ([-1.0, 1.0], [[0.0, 0.0]]),
    "relu_inplace": ([0.0, 1.0], [[0.0, 1.0]]),
    "relu6_mod": ([0.0, 6.0], [[0.0, 0.0]]),
    "hardtanh_mod": ([-1.0, 1.0], [[0.0, 0.0]]),
    "clamp_method": ([0.0, 1.0], [[1.0, 1.0]]),
    "clamp_": ([0.0, 1.0], [[1.0, 1.0]]),
    "max_binary": ([1.0], [[0.5], [0.5]]),
}

TORCH.update({  # torch 2.13 (CPU)
    "logcumsumexp_all_ninf": ([-inf, -inf, -inf], [[nan, nan, nan]]),
    "logcumsumexp_lead_ninf": (
        [-inf, inf, 0.5, 6.9397850625546695],
        [[nan, nan, 1.3068242641099852, 2.1931757358900144]],
    ),
    "logcumsumexp_mixed": (
        [1.0, -2.0, 1.1566308437591115, 6.9397850625546695],
        [[-0.05870502520501719, 0.0, 2.5587050252050165, 0.0]],
    ),
    "logcumsumexp_pinf": ([1.0, -inf, inf, inf], [[1.0, nan, 0.0, nan]]),
    "logcumsumexp_both_inf": ([-inf, inf, 0.5, inf], [[nan, nan, 0.49999999999999994, nan]]),
    "logcumsumexp_nan": ([1.0, -4.626523375036446, nan, nan], [[nan, nan, nan, nan]]),
    "logcumsumexp_rows": (
        [[-inf, -inf, 0.5], [1.0, 1.0, 2.313261687518223]],
        [[nan, nan, 1.0, 2.268941421369995, 0.0, 0.7310585786300048]],
    ),
    "softmax_masked_row": ([nan, nan, 0.5, 0.0], [[nan, nan, 0.0, 0.0]]),
    "log_softmax_masked": ([nan, nan, 0.0, -inf], [[nan, nan, -3.0, 3.0]]),
    "log_softmax_pinf": ([nan, nan, nan, nan], [[nan, nan, nan, nan]]),
    "logsumexp_rows": ([-inf, -inf], [[nan, nan, nan, -0.0]]),
    "logaddexp_inf_fin": ([inf, inf], [[1.0, 0.0], [0.0, 1.0]]),
    "vector_norm_minf_0": (0.0, [[0.0, 0.0, 0.0]]),
    "norm1_0": (1.0, [[0.0, 0.0, 1.0]]),
    "matrix_norm_1_0": (0.0, [[0.0, 0.0, 0.0, 0.0]]),
    "matrix_norm_inf_0": (0.0, [[0.0, 0.0, 0.0, 0.0]]),
    "dist1_eq": (1.0, [[0.0, -1.0], [0.0, 1.0]]),
    "pdist_p1_eq": ([1.0], [[0.0, -1.0, 0.0, 1.0]]),
    "cdist_inf_ties": ([[2.0, 4.0], [3.0, 1.0]], [[1.0, 2.0, 1.0, -2.0], [-1.0, 0.0, -1.0, 0.0]]),
})

OURS = {
    "bce_p0": (50.0, [[-250000000000.0, 250000000000.0, 0.0, 0.0], [25.0, -25.0, 25.0, -25.0]]),
    "bce_p0_sum": (
        [100.0, 100.0, 0.0, -0.0, 0.6931471805599453],
        [[-1000000000000.0, 1000000000000.0, 0.0, 0.0, 0.8], [100.0, -100.0, 100.0, -100.0, 0.0]],
    ),
    "bceloss_mod": (100.0, [[-500000000000.0, 500000000000.0], [50.0, -50.0]]),
    "kl_div_zero_target": (
        0.5568528194400546,
        [[-0.0, -0.5, -0.5], [1.0, 2.3068528194400546, 0.8068528194400547]],
    ),
    "det_singular": (0.0, [[4.0, -2.0, -2.0, 1.0]]),
    "det_singular3": (0.0, [[-3.0, 6.0, -3.0, 6.0, -12.0, 6.0, -3.0, 6.0, -3.0]]),
    "logdet_singular": (-inf, [[inf, -inf, -inf, inf]]),
    "slogdet_singular": (-inf, [[inf, -inf, -inf, inf]]),
    "xlogy_00": ([0.0, 0.0, -inf], [[0.0, 0.0, -inf], [0.0, 0.0, inf]]),
    "soft_margin_ext": (1000.0, [[-0.5, 0.5]]),
}

WHY = {
    "bce_p0": "target gradient: PyTorch gives ±inf (unclamped log); fgrad the exact derivative "
    "of the clamped value",
    "bce_p0_sum": "as bce_p0",
    "bceloss_mod": "as bce_p0",
    "kl_div_zero_target": "target gradient at target = 0: PyTorch NaN (0 * log 0); fgrad's "
    "xlogy takes d/dt [t log t] = 0 there, giving -input",
    "det_singular": "PyTorch's first-order det gradient is 0 at singular matrices (its "
    "create_graph path gives the cofactor matrix); fgrad always gives the exact cofactor matrix adj(A)^T",
    "det_singular3": "as det_singular",
    "logdet_singular": "adj(A)^T / det(A) = ±inf in both; the sign follows the sign of the "
    "computed zero determinant",
    "slogdet_singular": "as logdet_singular",
    "xlogy_00": "d/dy xlogy(0, 0): PyTorch NaN (0 / 0); fgrad 0 (xlogy(0, y) = 0 for every y)",
    "soft_margin_ext": "PyTorch overflows log(1 + exp(1000)) to inf (and a NaN gradient); "
    "fgrad computes it stably",
}


CASES = {name: (fn, xs) for name, fn, xs in SINGULAR + KINKS}


def run_case(lib, F, name):
    """(value, [grad of out.sum() per input or None]) of case ``name`` on ``lib``."""
    fn, xs = CASES[name]
    ts = [lib.tensor(x, dtype=lib.float64, requires_grad=True) for x in xs]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = fn(lib, F, *ts)
        grads = lib.autograd.grad(out.sum(), ts, allow_unused=True)
    return out.detach().numpy().copy(), [None if g is None else g.numpy().copy() for g in grads]


def _assert_same(got, want, what):
    got_v, got_g = got
    want_v, want_g = want
    np.testing.assert_allclose(
        got_v.reshape(np.shape(want_v)), np.asarray(want_v, np.float64), rtol=1e-7, atol=1e-12,
        err_msg=f"{what}: value",
    )
    for i, (g, w) in enumerate(zip(got_g, want_g)):
        g = np.zeros_like(np.asarray(w, np.float64)) if g is None else g
        np.testing.assert_allclose(
            g, np.asarray(w, np.float64), rtol=1e-7, atol=1e-12, err_msg=f"{what}: gradient of input {i}"
        )


@pytest.mark.parametrize("name", list(CASES))
def test_shim_matches_stored(name):
    want = OURS.get(name, TORCH[name])
    _assert_same(run_case(ft, FF, name), want, f"fgrad.torch {name}")


@pytest.mark.parametrize("name", list(CASES))
def test_live_torch(name):
    torch = pytest.importorskip("torch")
    import torch.nn.functional as TF

    _assert_same(run_case(torch, TF, name), TORCH[name], f"live torch {name}")


def test_deviations_are_documented():
    assert set(OURS) == set(WHY) and set(OURS) <= set(CASES)
    for name in OURS:  # a deviation never puts a NaN where PyTorch has none
        for ours, theirs in zip(OURS[name][1], TORCH[name][1]):
            if ours is not None and theirs is not None:
                assert not np.any(np.isnan(ours) & ~np.isnan(np.asarray(theirs, np.float64))), name
# ---------------------------------------------------------------------------------------
# the convention definitions are ordinary differentiable code: second derivatives at regular
# points agree with finite differences of the first derivative, and float32 stays float32

SECOND_ORDER = [
    ("bce", lambda x: FF.binary_cross_entropy(x, ft.tensor([0.3, 0.9], dtype=ft.float64)), A(0.2, 0.6)),
    ("det", lambda x: ft.det(x.reshape(2, 2)), A(1.0, 2.0, 3.0, 5.0)),
    ("slogdet", lambda x: ft.linalg.slogdet(x.reshape(2, 2))[1], A(1.0, 2.0, 3.0, 5.0)),
    ("atan2", lambda x: ft.atan2(x[0], x[1]), A(0.3, -0.7)),
    ("std", lambda x: x.std(), A(0.3, -0.7, 2.0)),
    ("norm3", lambda x: ft.linalg.vector_norm(x, ord=3), A(0.3, -0.7, 2.0)),
    ("logit_eps", lambda x: ft.logit(x, eps=0.01).sum(), A(0.3, 0.7)),
    ("hypot", lambda x: ft.hypot(x[0], x[1]), A(0.3, -0.7)),
    ("logaddexp", lambda x: ft.logaddexp(x[0], x[1]), A(0.3, -0.7)),
    ("logcumsumexp", lambda x: (ft.logcumsumexp(x, 0) * ft.tensor([1.0, -2.0, 3.0], dtype=ft.float64)).sum(),
     A(0.3, -0.7, 2.0)),
    (
        "bce_logits",
        lambda x: FF.binary_cross_entropy_with_logits(x, ft.tensor([0.3, 0.9], dtype=ft.float64)),
        A(0.2, -0.6),
    ),
    (
        "cdist_inf",
        lambda x: ft.cdist(x.reshape(2, 2), x.reshape(2, 2) * 0.5, p=inf).sum(),
        A(0.3, -0.7, 2.0, 1.0),
    ),
    ("norm1", lambda x: (ft.linalg.vector_norm(x, ord=1) ** 2), A(0.3, -0.7, 2.0)),
]


def _grad(f, x):
    t = ft.tensor(x, dtype=ft.float64, requires_grad=True)
    (g,) = ft.autograd.grad(f(t), t)
    return g.numpy()


@pytest.mark.parametrize("name,f,x", SECOND_ORDER, ids=[c[0] for c in SECOND_ORDER])
def test_second_order_matches_finite_differences(name, f, x):
    t = ft.tensor(x, dtype=ft.float64, requires_grad=True)
    (g,) = ft.autograd.grad(f(t), t, create_graph=True)
    w = np.linspace(0.5, 1.5, x.size)
    (h,) = ft.autograd.grad((g * ft.tensor(w)).sum(), t)
    eps = 1e-6
    fd = np.array([
        (_grad(f, x + eps * e) @ w - _grad(f, x - eps * e) @ w) / (2 * eps) for e in np.eye(x.size)
    ])
    np.testing.assert_allclose(h.numpy(), fd, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("op", [
    lambda x: FF.hardtanh(x), lambda x: FF.relu6(x), lambda x: FF.hardsigmoid(x),
    lambda x: FF.hardswish(x), lambda x: ft.fmax(x, x * 0.5), lambda x: ft.atan2(x, x + 1),
    lambda x: x.std(), lambda x: ft.logit(x.sigmoid(), eps=1e-3),
])
def test_float32_stays_float32(op):
    x = ft.tensor([-3.0, -1.0, 0.0, 1.0, 3.0, 6.0], requires_grad=True)
    y = op(x)
    y.sum().backward()
    assert y.dtype == ft.float32 and x.grad.dtype == ft.float32


def test_nanmedian_ignores_nan_and_records():
    """nanmedian used to drop the graph (dim=None) and return NaN along a dim with a NaN."""
    x = ft.tensor([[1.0, nan, 3.0, 2.0], [5.0, 1.0, nan, 0.0]], dtype=ft.float64, requires_grad=True)
    r = ft.nanmedian(x, 1)
    np.testing.assert_array_equal(r.values.detach().numpy(), [2.0, 1.0])
    np.testing.assert_array_equal(r.indices.numpy(), [3, 1])
    r.values.sum().backward()
    np.testing.assert_array_equal(x.grad.numpy(), [[0, 0, 0, 1], [0, 1, 0, 0]])
    x.grad = None
    m = ft.nanmedian(x)
    m.backward()
    assert m.item() == 1.0 and m.grad_fn is not None
    np.testing.assert_array_equal(x.grad.numpy(), [[0.5, 0, 0, 0], [0, 0.5, 0, 0]])


@pytest.mark.parametrize("name", ["bce_p0", "std_const", "det_singular", "atan2_00", "hardtanh", "fmax_tie",
                                  "nanmedian", "relu6", "vector_norm_3_0", "logit_01", "matrix_norm_fro0"])
def test_on_cuda_device_same_numbers(name, cuda_device):
    """The convention definitions run on the CUDA device (the real GPU with cupy, else the
    fake device)."""
    fn, xs = CASES[name]
    ts = [ft.tensor(x, dtype=ft.float64, device="cuda", requires_grad=True) for x in xs]
    assert all(t.device.type == "cuda" for t in ts)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = fn(ft, FF, *ts)
        grads = ft.autograd.grad(out.sum(), ts, allow_unused=True)
    got = (out.detach().cpu().numpy(), [None if g is None else g.cpu().numpy() for g in grads])
    _assert_same(got, OURS.get(name, TORCH[name]), f"cuda {name}")


# ---------------------------------------------------------------------------------------
# IEEE special values are computed silently, as in PyTorch (pytest turns RuntimeWarning into
# an error; the filter below makes each case fail on a warning also outside that config)

SILENT = [
    ("div_zero", lambda: ft.tensor([1.0, 0.0]) / 0, [inf, nan]),
    ("div_zero_t", lambda: ft.tensor([1.0, 0.0]) / ft.tensor([0.0, 0.0]), [inf, nan]),
    ("div_zero_inplace", lambda: ft.ones(2).div_(0), [inf, inf]),
    ("floordiv_float_zero", lambda: ft.tensor([1.0, -1.0]) // 0.0, [inf, -inf]),
    ("zero_times_inf", lambda: ft.zeros(2) * inf, [nan, nan]),
    ("inf_minus_inf", lambda: ft.tensor([inf]) - inf, [nan]),
    ("sum_overflow", lambda: ft.tensor([3e38, 3e38]).sum(), inf),
    ("cumsum_inf", lambda: ft.cumsum(ft.tensor([inf, -inf]), 0), [inf, nan]),
    ("remainder_zero", lambda: ft.remainder(ft.tensor([1.0, 2.0]), 0.0), [nan, nan]),
    ("std_one", lambda: ft.tensor([1.0]).std(), nan),
    ("var_one", lambda: ft.tensor([1.0]).var(), nan),
    ("std_empty", lambda: ft.tensor([]).std(), nan),
    ("mean_empty", lambda: ft.tensor([]).mean(), nan),
    ("mean_empty_dim", lambda: ft.zeros(0, 2).mean(0), [nan, nan]),
    ("softmax_all_neginf", lambda: ft.softmax(ft.tensor([-inf, -inf]), 0), [nan, nan]),
    ("tensor_overflow", lambda: ft.tensor([1e200, -1e200]), [inf, -inf]),
    ("as_tensor_overflow", lambda: ft.as_tensor([1e200]), [inf]),
    ("fill_inf", lambda: ft.ones(2).fill_(inf), [inf, inf]),
    ("matmul_overflow", lambda: ft.tensor([[1e30]]) @ ft.tensor([[1e30]]), [[inf]]),
    ("prod_overflow", lambda: ft.prod(ft.tensor([1e30, 1e30])), inf),
]


@pytest.mark.parametrize("name,f,want", SILENT, ids=[c[0] for c in SILENT])
def test_special_values_without_warnings(name, f, want):
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)  # PyTorch warns (UserWarning) for std of one value
        got = f()
    np.testing.assert_array_equal(got.numpy(), np.asarray(want, np.float32))


@pytest.mark.parametrize("name,f", [
    ("div_zero", lambda x: x / 0),
    ("zero_times_inf", lambda x: x * inf),
    ("std_one", lambda x: x[:1].std()),
    ("mean_empty", lambda x: x[:0].mean()),
])
def test_backward_through_special_values_without_warnings(name, f):
    x = ft.tensor([0.0, 1.0], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        f(x).sum().backward()
    assert x.grad is not None and x.grad.shape == (2,)


@pytest.mark.parametrize("op", [lambda z: ft.abs(z), lambda z: ft.linalg.vector_norm(z)], ids=["abs", "norm"])
def test_complex_abs_gradient_value(op):
    """The gradient is z/|z| up to the complex convention (see docs/shim-conventions.md)."""
    z = ft.tensor([3 + 4j, 0j], requires_grad=True)
    op(z).sum().backward()
    g = z.grad.numpy()
    assert abs(g[0].real - 0.6) < 1e-6 and abs(abs(g[0].imag) - 0.8) < 1e-6 and g[1] == 0


INT_DIV_ZERO = [
    ("floordiv", lambda t: t.tensor([1, 2]) // 0),
    ("floordiv_t", lambda t: t.tensor([1, 2]) // t.tensor([1, 0])),
    ("remainder", lambda t: t.tensor([1, 2]) % 0),
    ("fmod", lambda t: t.fmod(t.tensor([1, 2]), 0)),
    ("div_trunc", lambda t: t.div(t.tensor([1, 2]), 0, rounding_mode="trunc")),
    ("div_floor", lambda t: t.div(t.tensor([1, 2]), 0, rounding_mode="floor")),
    ("floordiv_inplace", lambda t: t.tensor([1, 2]).floor_divide_(t.tensor(0))),
    ("remainder_inplace", lambda t: t.tensor([1, 2]).remainder_(0)),
]


@pytest.mark.parametrize("name,f", INT_DIV_ZERO, ids=[c[0] for c in INT_DIV_ZERO])
def test_integer_division_by_zero_raises_like_torch(name, f):
    """NumPy gives 0 silently; PyTorch raises ``RuntimeError: ZeroDivisionError``."""
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        f(ft)


@pytest.mark.parametrize("name,f", INT_DIV_ZERO, ids=[c[0] for c in INT_DIV_ZERO])
def test_integer_division_by_zero_live_torch(name, f):
    torch = pytest.importorskip("torch")
    with pytest.raises(RuntimeError, match="ZeroDivisionError"):
        f(torch)


def test_integer_division_by_nonzero_unchanged():
    np.testing.assert_array_equal((ft.tensor([5, -7]) // ft.tensor([2, 3])).numpy(), [2, -3])
    np.testing.assert_array_equal((ft.tensor([5, -7]) % 3).numpy(), [2, 2])
    np.testing.assert_array_equal(ft.div(ft.tensor([5, -7]), 2, rounding_mode="trunc").numpy(), [2, -3])


FILL_OVERFLOW = [
    ("full", lambda t: t.full((2,), 1e200)),
    ("full_like", lambda t: t.full_like(t.ones(2), 1e200)),
    ("fill_", lambda t: t.ones(2).fill_(1e200)),
    ("fill_half", lambda t: t.ones(2, dtype=t.float16).fill_(1e5)),
    ("scalar_tensor", lambda t: t.scalar_tensor(1e200)),
]


@pytest.mark.parametrize("name,f", FILL_OVERFLOW, ids=[c[0] for c in FILL_OVERFLOW])
def test_fill_value_overflow_raises_like_torch(name, f):
    """PyTorch refuses a finite fill value beyond the dtype's range (NumPy stores inf and warns)."""
    with pytest.raises(RuntimeError, match="without overflow"):
        f(ft)


@pytest.mark.parametrize("name,f", FILL_OVERFLOW, ids=[c[0] for c in FILL_OVERFLOW])
def test_fill_value_overflow_live_torch(name, f):
    torch = pytest.importorskip("torch")
    with pytest.raises(RuntimeError, match="without overflow"):
        f(torch)


# ---------------------------------------------------------------------------------------
# Complex gradients: PyTorch's convention (conj of JAX's), recorded from torch 2.13.
# For each op: value, z.grad, w.grad after ``out.backward(gradient=seed)`` with a complex seed
# for complex outputs (so the seed's convention is checked too) and a real one otherwise.

CZ = np.array([3 + 4j, -1 + 0.5j, 0.25 - 2j])
CW = np.array([1 - 1j, 2 + 0.5j, -0.5 - 1.5j])
CSEED = np.array([0.5 - 0.25j, -1 + 2j, 0.75 + 1j])
COMPLEX_CASES = [
    ("abs", lambda t, z, w: z.abs()),
    ("real", lambda t, z, w: t.real(z)),
    ("imag", lambda t, z, w: t.imag(z)),
    ("angle", lambda t, z, w: t.angle(z)),
    ("mul", lambda t, z, w: z * w),
    ("div", lambda t, z, w: z / w),
    ("exp", lambda t, z, w: t.exp(z)),
    ("log", lambda t, z, w: t.log(z)),
    ("sqrt", lambda t, z, w: t.sqrt(z)),
    ("pow", lambda t, z, w: t.pow(z, w)),
    ("pow_scalar", lambda t, z, w: z ** 2.5),
    ("matmul", lambda t, z, w: t.matmul(z.reshape(3, 1), w.reshape(1, 3))),
    ("sum", lambda t, z, w: (z * w).sum()),
    ("mean", lambda t, z, w: (z * w).mean()),
    ("polar", lambda t, z, w: t.polar(z.abs(), t.angle(w))),
    ("complex", lambda t, z, w: t.complex(z.real, w.imag)),
    ("real_mix", lambda t, z, w: z.real * 2 + z.imag * 5),
]

COMPLEX_TORCH = {
    'abs': (
        [5.0, 1.11803398875, 2.015564437075],
        [(0.3+0.4j), (0.894427191-0.4472135955j), (0.093026050942-0.744208407535j)],
        None,
    ),
    'real': ([3.0, -1.0, 0.25], [(0.5+0j), (-1+0j), (0.75+0j)], None),
    'imag': ([4.0, 0.5, -2.0], [0.5j, -1j, 0.75j], None),
    'angle': (
        [0.927295218002, 2.677945044589, -1.446441332248],
        [(-0.08+0.06j), (0.4+0.8j), (0.369230769231+0.046153846154j)],
        None,
    ),
    'mul': (
        [(7+1j), (-2.25+0.5j), (-3.125+0.625j)],
        [(0.75+0.25j), (-1+4.5j), (-1.875+0.625j)],
        [(0.5-2.75j), (2-1.5j), (-1.8125+1.75j)],
    ),
    'div': (
        [(-0.5+3.5j), (-0.411764705882+0.352941176471j), (1.15+0.55j)],
        [(0.125-0.375j), (-0.705882352941+0.823529411765j), (0.45-0.65j)],
        [(1.375+0.25j), (-0.581314878893+0.089965397924j), (-0.16+0.995j)],
    ),
    'exp': (
        [(-13.128783081462-15.200784463068j), (0.32284458245+0.176370799225j), (-0.534343115201-1.167561007373j)],  # noqa: E501
        [(-2.764195424964+10.8825880019j), (0.029897016+0.822059964125j), (-1.568318343773+0.341327640329j)],
        None,
    ),
    'log': (
        [(1.609437912434+0.927295218002j), (0.111571775657+2.677945044589j), (0.700899273828-1.446441332248j)],  # noqa: E501
        [(0.1+0.05j), (-0-2j), (0.538461538462-0.307692307692j)],
        None,
    ),
    'sqrt': (
        [(2+1j), (0.242934135878+1.029085513636j), (1.064322422266-0.939564909167j)],
        [(0.125+0j), (-1.029085513636-0.242934135878j), (0.43109679202+0.089217872119j)],
        None,
    ),
    'pow': (
        [(9.810159228938-7.967923213205j), (0.210895046845-0.250746049141j), (0.076158360234-0.02592695988j)],
        [(-0.704680520534+1.869920045001j), (0.792089149717-1.094326236521j), (-0.010283930609+0.078215146356j)],  # noqa: E501
        [(12.520470632006-3.930882839836j), (0.378564252771+1.926817312886j), (-0.116422652645+0.112125603538j)],  # noqa: E501
    ),
    'pow_scalar': (
        [(-38+41j), (1.211286115544+0.528879999348j), (-5.130334446837+2.635214407578j)],
        [(-4.375-15j), (-2.644399996742-6.056430577722j), (-8.933307453495+0.399007102751j)],
        None,
    ),
    'matmul': (
        [(7+1j), (4+9.5j), (4.5-6.5j), (-0.5+1.5j), (-2.25+0.5j), (1.25+1.25j), (-1.75-2.25j), (1.5-3.875j), (-3.125+0.625j)],  # noqa: E501
        [(-2.125+5.375j), (-2.125+5.375j), (-2.125+5.375j)],
        [(0.5-1.8125j), (2.75+7j), (4.1875+0.375j)],
    ),
    'sum': (
        [(1.625+2.125j)],
        [(0.75+0.25j), (0.875-0.75j), (0.125+0.875j)],
        [(0.5-2.75j), (-0.625+0j), (0.625+0.9375j)],
    ),
    'mean': (
        [(0.541666666667+0.708333333333j)],
        [(0.25+0.083333333333j), (0.291666666667-0.25j), (0.041666666667+0.291666666667j)],
        [(0.166666666667-0.916666666667j), (-0.208333333333+0j), (0.208333333333+0.3125j)],
    ),
    'polar': (
        [(3.535533905933-3.535533905933j), (1.084652289093+0.271163072273j), (-0.637377439199-1.912132317597j)],  # noqa: E501
        [(0.318198051534+0.424264068712j), (0.433860915637-0.216930457819j), (-0.147087101354+1.176696810829j)],  # noqa: E501
        [(0.441941738242+0.441941738242j), (-0.287113841231+1.148455364922j), (0.478033079399-0.1593443598j)],
    ),
    'complex': ([(3-1j), (-1+0.5j), (0.25-1.5j)], [(0.5+0j), (-1+0j), (0.75+0j)], [-0.25j, 2j, 1j]),
    'real_mix': ([26.0, 0.5, -9.5], [(1+2.5j), (-2-5j), (1.5+3.75j)], None),
}


def _complex_run(t, f):
    z = t.tensor(CZ, requires_grad=True)
    w = t.tensor(CW, requires_grad=True)
    out = f(t, z, w)
    o = out.detach().numpy()
    seed = np.resize(CSEED, o.shape)
    if not np.iscomplexobj(o):
        seed = seed.real.copy()
    out.backward(gradient=t.tensor(seed))
    return o, *(None if x.grad is None else x.grad.numpy() for x in (z, w))


def _assert_complex_close(got, want):
    for g, e in zip(got, want, strict=True):
        if e is None:
            assert g is None
        else:
            np.testing.assert_allclose(np.ravel(g), np.ravel(np.array(e, dtype=complex)), rtol=1e-9, atol=1e-12)  # noqa: E501


@pytest.mark.parametrize("name,f", COMPLEX_CASES, ids=[c[0] for c in COMPLEX_CASES])
def test_complex_gradient_matches_torch(name, f):
    """``z.abs().backward()`` at 3+4j gives 0.6+0.8j (PyTorch), not JAX's conjugate."""
    _assert_complex_close(_complex_run(ft, f), COMPLEX_TORCH[name])


@pytest.mark.parametrize("name,f", COMPLEX_CASES, ids=[c[0] for c in COMPLEX_CASES])
def test_complex_gradient_live_torch(name, f):
    torch = pytest.importorskip("torch")
    _assert_complex_close(_complex_run(torch, f), COMPLEX_TORCH[name])


CC = np.array([0.5 - 1j, 2 + 1j, -1 + 0.25j])
COMPLEX_SECOND = [
    ("abs_sq", lambda t, z: (z * z).abs(),
     [[(6+8j), (-2+1j), (0.5-4j)], [(1+2j), (4-2j), (-2-0.5j)]]),
    ("angle", lambda t, z: t.angle(z * z),
     [[(-0.32+0.24j), (-0.8-1.6j), (0.984615384615+0.123076923077j)],
      [(0.0608-0.0656j), (-1.6-3.2j), (0.001893491124-0.507455621302j)]]),
]


def _complex_second(t, f):
    z = t.tensor(CZ, requires_grad=True)
    (g,) = t.autograd.grad(f(t, z).sum(), z, create_graph=True)
    (g2,) = t.autograd.grad((g * t.tensor(CC)).real.sum(), z)
    return g.detach().numpy(), g2.numpy()


@pytest.mark.parametrize("name,f,want", COMPLEX_SECOND, ids=[c[0] for c in COMPLEX_SECOND])
def test_complex_double_backward_matches_torch(name, f, want):
    _assert_complex_close(_complex_second(ft, f), want)
    torch = pytest.importorskip("torch")
    _assert_complex_close(_complex_second(torch, f), want)


def _complex_hooks(t):
    """A hook sees PyTorch-convention gradients and what it returns is taken as one."""
    z = t.tensor(CZ, requires_grad=True)
    seen = []
    y = z * z
    y.register_hook(lambda g: seen.append(g.detach().clone()) or g * 1j)
    z.register_hook(lambda g: seen.append(g.detach().clone()))
    (y * t.tensor(CC)).abs().sum().backward()
    return seen[0].numpy(), seen[1].numpy(), z.grad.numpy()


def _complex_function(t):
    """A custom Function's backward gets and returns PyTorch-convention gradients."""
    seen = []

    class Scale(t.autograd.Function):
        @staticmethod
        def forward(ctx, z):
            return z * t.tensor(CC)

        @staticmethod
        def backward(ctx, g):
            seen.append(g.detach().clone())
            return g * t.tensor(np.conj(CC))

    z = t.tensor(CZ, requires_grad=True)
    Scale.apply(z * z).abs().sum().backward()
    return seen[0].numpy(), z.grad.numpy()


COMPLEX_HOOKS_TORCH = [
    [(-0.31304951685+1.0733126292j), (1.3416407865-1.788854382j), (-0.999060209284-0.253729576961j)],
    [(-8.944271909999+6.708203932499j), (-2.2360679775-4.472135955j), (4.123105625618+0.515388203202j)],
    [(-8.944271909999+6.708203932499j), (-2.2360679775-4.472135955j), (4.123105625618+0.515388203202j)],
]
COMPLEX_FUNCTION_TORCH = [
    [(0.73343029662+0.67976466516j), (0.894427191-0.4472135955j), (0.999993038611+0.003731317308j)],
    [(6.708203932499+8.944271909999j), (-4.472135955+2.2360679775j), (0.515388203202-4.123105625618j)],
]


@pytest.mark.parametrize("run,want", [(_complex_hooks, COMPLEX_HOOKS_TORCH),
                                      (_complex_function, COMPLEX_FUNCTION_TORCH)], ids=["hooks", "function"])
def test_complex_hooks_and_function_match_torch(run, want):
    _assert_complex_close(run(ft), want)
    torch = pytest.importorskip("torch")
    _assert_complex_close(run(torch), want)


# ---------------------------------------------------------------------------------------
# NaN/inf in reductions: full max/min send the gradient to the NaN element(s) (split evenly,
# like ties); prod's gradient is out / x unless the slice has a zero (PyTorch's prod_backward),
# so ±inf/NaN entries give NaN.  (input, gradient of out.sum()) recorded from torch 2.13.

NAN_REDUCTIONS = [
    ("max_nan", lambda t, x: x.max(), A(nan, 1.0), A(1.0, 0.0)),
    ("max_two_nan", lambda t, x: x.max(), A(1.0, nan, nan), A(0.0, 0.5, 0.5)),
    ("max_inf_nan", lambda t, x: x.max(), A(inf, nan), A(0.0, 1.0)),
    ("max_tie", lambda t, x: x.max(), A(2.0, 2.0, 1.0), A(0.5, 0.5, 0.0)),
    ("min_nan", lambda t, x: x.min(), A(nan, 1.0), A(1.0, 0.0)),
    ("min_2d_nan", lambda t, x: x.reshape(2, 3).min(), A(nan, 1.0, 2.0, 3.0, 1.0, 3.0),
     A(1.0, 0.0, 0.0, 0.0, 0.0, 0.0)),
    ("max_dim_nan", lambda t, x: x.max(0)[0], A(1.0, nan, nan), A(0.0, 1.0, 0.0)),
    ("amax_nan", lambda t, x: t.amax(x), A(nan, 1.0), A(nan, nan)),  # amax differs from max here
    ("prod_neg_inf", lambda t, x: x.prod(), A(-inf, -inf), A(nan, nan)),
    ("prod_nan", lambda t, x: x.prod(), A(nan, 1.0), A(nan, nan)),
    ("prod_inf_finite", lambda t, x: x.prod(), A(-inf, 2.0), A(nan, -inf)),
    ("prod_dim_nan", lambda t, x: x.reshape(2, 3).prod(1), A(nan, 1.0, 2.0, 3.0, 1.0, 3.0),
     A(nan, nan, nan, 3.0, 9.0, 3.0)),
    ("prod_zero", lambda t, x: x.prod(), A(0.0, 2.0, 3.0), A(6.0, 0.0, 0.0)),
    ("prod_two_zeros", lambda t, x: x.prod(), A(0.0, 0.0, 2.0), A(0.0, 0.0, 0.0)),
    ("prod_zero_inf", lambda t, x: x.prod(), A(0.0, inf), A(inf, 0.0)),
    ("prod_keepdim", lambda t, x: x.reshape(2, 2).prod(0, keepdim=True), A(1.0, 0.0, 2.0, 3.0),
     A(2.0, 3.0, 1.0, 0.0)),
]


def _reduction_grad(t, f, x):
    xt = t.tensor(x, requires_grad=True)
    f(t, xt).sum().backward()
    return xt.grad.numpy()


@pytest.mark.parametrize("name,f,x,want", NAN_REDUCTIONS, ids=[c[0] for c in NAN_REDUCTIONS])
def test_nan_inf_reduction_gradient_matches_torch(name, f, x, want):
    np.testing.assert_allclose(_reduction_grad(ft, f, x), want, equal_nan=True)


@pytest.mark.parametrize("name,f,x,want", NAN_REDUCTIONS, ids=[c[0] for c in NAN_REDUCTIONS])
def test_nan_inf_reduction_gradient_live_torch(name, f, x, want):
    torch = pytest.importorskip("torch")
    np.testing.assert_allclose(_reduction_grad(torch, f, x), want, equal_nan=True)


def test_prod_gradient_second_order_finite_inputs():
    """The convention's rule is fgrad code: second order of prod matches the product rule."""
    x = ft.tensor([2.0, 3.0, 5.0], requires_grad=True)
    (g,) = ft.autograd.grad(x.prod(), x, create_graph=True)
    (h,) = ft.autograd.grad(g[0], x)
    np.testing.assert_allclose(g.detach().numpy(), [15.0, 10.0, 6.0])
    np.testing.assert_allclose(h.numpy(), [0.0, 5.0, 3.0])


# ---------------------------------------------------------------------------------------
# Gradients PyTorch defines at singular points: logit outside [0, 1] (no eps) is NaN,
# copysign's gradient in x is out / x (0 at x = 0, NaN at ±inf), pow's gradient in the
# exponent at a zero base is out * log(0) = -inf for a negative exponent, matrix_norm(ord=±2)
# splits the gradient among equal singular values (0.5 I at the zero matrix).
# (value, [gradient of out.sum() per input]) recorded from torch 2.13.

SINGULAR_GRADS = [
    ("logit_outside", lambda t, x: t.logit(x), (A(-1.0, 2.0, inf, -inf, 0.0, 1.0, 0.25),)),
    ("logit_eps_inside", lambda t, x: t.logit(x, eps=0.1), (A(-1.0, 0.05, 0.5, 0.95, 2.0),)),
    ("copysign_x", lambda t, x, y: t.copysign(x, y), (A(0.0, 0.0, -0.0, inf, -inf, 2.0, -3.0), A(1.0, -1.0, -2.0, inf, -1.0, -1.0, 5.0))),  # noqa: E501
    ("pow_zero_base", lambda t, x, y: t.pow(x, y), (A(0.0, 0.0, 0.0, 0.0, 2.0), A(-1.0, -2.5, 0.0, 2.0, -1.0))),  # noqa: E501
    ("pow_scalar_zero_base", lambda t, y: t.pow(0.0, y), (A(-1.0, 0.0, 2.0),)),
    ("float_power_zero_base", lambda t, x, y: t.float_power(x, y), (A(0.0, 0.0, 3.0), A(-1.0, 1.0, 0.5))),
    ("matrix_norm2_zero", lambda t, x: t.linalg.matrix_norm(x.reshape(2, 3), ord=2), (np.zeros(6),)),
    ("matrix_norm2_neg_zero", lambda t, x: t.linalg.matrix_norm(x.reshape(2, 2), ord=-2), (np.zeros(4),)),
    ("matrix_norm2_tie", lambda t, x: t.linalg.matrix_norm(x.reshape(2, 2), ord=2), (A(2.0, 0.0, 0.0, 2.0),)),
]

SINGULAR_GRADS_TORCH = {
    'logit_outside': ([nan, nan, nan, nan, -inf, inf, -1.0986122886681098], [[nan, nan, nan, nan, inf, inf, 5.333333333333333]]),  # noqa: E501
    'logit_eps_inside': ([-2.197224577336219, -2.197224577336219, 0.0, 2.1972245773362196, 2.1972245773362196], [[0.0, 0.0, 4.0, 0.0, 0.0]]),  # noqa: E501
    'copysign_x': ([0.0, -0.0, -0.0, inf, -inf, -2.0, 3.0], [[0.0, 0.0, 0.0, nan, nan, -1.0, -1.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]),  # noqa: E501
    'pow_zero_base': ([inf, inf, 1.0, 0.0, 0.5], [[-inf, -inf, 0.0, 0.0, -0.25], [-inf, -inf, 0.0, 0.0, 0.34657359027997264]]),  # noqa: E501
    'pow_scalar_zero_base': ([inf, 1.0, 0.0], [[-inf, 0.0, 0.0]]),
    'float_power_zero_base': ([inf, 0.0, 1.7320508075688772], [[-inf, 1.0, 0.28867513459481287], [-inf, 0.0, 1.902852301792692]]),  # noqa: E501
    'matrix_norm2_zero': ([0.0], [[0.5, 0.0, 0.0, 0.0, 0.5, 0.0]]),
    'matrix_norm2_neg_zero': ([0.0], [[0.5, 0.0, 0.0, 0.5]]),
    'matrix_norm2_tie': ([2.0], [[0.5, 0.0, 0.0, 0.5]]),
}


def _singular_grad_run(t, f, xs):
    ts = [t.tensor(x, requires_grad=True) for x in xs]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = f(t, *ts)
        grads = t.autograd.grad(out.sum(), ts)
    return np.ravel(out.detach().numpy()), [g.numpy() for g in grads]


def _assert_singular_grads(got, want):
    np.testing.assert_allclose(got[0], want[0], rtol=1e-12, equal_nan=True)
    for g, w in zip(got[1], want[1], strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-12, equal_nan=True)


@pytest.mark.parametrize("name,f,xs", SINGULAR_GRADS, ids=[c[0] for c in SINGULAR_GRADS])
def test_singular_point_gradient_matches_torch(name, f, xs):
    _assert_singular_grads(_singular_grad_run(ft, f, xs), SINGULAR_GRADS_TORCH[name])


@pytest.mark.parametrize("name,f,xs", SINGULAR_GRADS, ids=[c[0] for c in SINGULAR_GRADS])
def test_singular_point_gradient_live_torch(name, f, xs):
    torch = pytest.importorskip("torch")
    _assert_singular_grads(_singular_grad_run(torch, f, xs), SINGULAR_GRADS_TORCH[name])


def test_singular_point_conventions_second_order_away_from_the_points():
    """The new rules are fgrad code: second derivatives at regular points are the analytic ones."""
    x = ft.tensor([0.25], dtype=ft.float64, requires_grad=True)
    (g,) = ft.autograd.grad(ft.logit(x).sum(), x, create_graph=True)
    (h,) = ft.autograd.grad(g.sum(), x)
    np.testing.assert_allclose(h.numpy(), [-(1 - 2 * 0.25) / (0.25 * 0.75) ** 2])  # d/dx 1/(x(1-x))
    b = ft.tensor([2.0], dtype=ft.float64, requires_grad=True)
    e = ft.tensor([3.0], dtype=ft.float64, requires_grad=True)
    (ge,) = ft.autograd.grad(ft.pow(b, e).sum(), e, create_graph=True)
    (hb, he) = ft.autograd.grad(ge.sum(), (b, e))
    np.testing.assert_allclose(he.numpy(), [8 * np.log(2.0) ** 2])  # d2/de2 b^e
    np.testing.assert_allclose(hb.numpy(), [3 * 4 * np.log(2.0) + 4])  # d/db (b^e log b)


def _func_complex(t):
    z = t.tensor(CZ)
    g = t.func.grad(lambda v: v.abs().sum())(z)
    ga = t.func.grad(lambda v: (v.abs().sum(), v.abs()), has_aux=True)(z)[0]
    gv = t.func.grad_and_value(lambda v: v.abs().sum())(z)[0]
    _, f = t.func.vjp(lambda v: v * v, z)
    (vj,) = f(t.tensor(CC))
    return g.numpy(), ga.numpy(), gv.numpy(), vj.numpy()


FUNC_COMPLEX_TORCH = [  # z / |z| and 2 conj(z) * c, recorded from torch 2.13
    [(0.6+0.8j), (-0.894427191+0.4472135955j), (0.124034734589-0.992277876714j)],
    [(0.6+0.8j), (-0.894427191+0.4472135955j), (0.124034734589-0.992277876714j)],
    [(0.6+0.8j), (-0.894427191+0.4472135955j), (0.124034734589-0.992277876714j)],
    [(-5-10j), (-3-4j), (-1.5-3.875j)],
]


def test_func_transforms_use_torch_complex_convention():
    """``torch.func.grad``/``grad_and_value``/``vjp`` conjugate like the engine does."""
    _assert_complex_close(_func_complex(ft), FUNC_COMPLEX_TORCH)
    torch = pytest.importorskip("torch")
    _assert_complex_close(_func_complex(torch), FUNC_COMPLEX_TORCH)


# relu at its special points, as PyTorch 2.13 computes it (torch.relu and F.relu alike):
# values (with relu(-0.0) = -0.0) and the gradient of relu(x).sum()
_RELU_X = [-np.inf, -2.5, -0.0, 0.0, 1.5, np.inf, np.nan]
_RELU_Y = [0.0, 0.0, -0.0, 0.0, 1.5, np.inf, np.nan]
_RELU_GRAD = [0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 1.0]  # PyTorch passes the gradient through NaN


@pytest.mark.parametrize("relu", [ft.relu, FF.relu], ids=["torch.relu", "F.relu"])
def test_relu_definition_gives_pytorchs_values_and_gradient(relu):
    """relu's fgrad definition -- what functional mode (here ``func.vmap``), the CUDA device
    and autograd run -- gave NaN for -inf and -0.0 for negative inputs (``x * (x > 0)``); it
    now gives PyTorch's values on every path.  The gradient is PyTorch's mask ``not x <= 0``
    (fgrad gave 0 at NaN, where PyTorch passes the gradient through)."""
    x = np.array(_RELU_X, np.float32)
    by_definition = ft.func.vmap(relu)(ft.tensor(x)).numpy()
    np.testing.assert_array_equal(by_definition, _RELU_Y)
    assert list(np.signbit(by_definition[:4])) == [False, False, True, False]
    eager = relu(ft.tensor(x)).numpy()  # the CPU forward (np.maximum: relu(-0.0) is +0 there)
    np.testing.assert_array_equal(eager, _RELU_Y)
    assert not np.signbit(eager[:2]).any()
    t = ft.tensor(x, requires_grad=True)
    relu(t).sum().backward()
    np.testing.assert_array_equal(t.grad.numpy(), _RELU_GRAD)


def test_relu_stored_numbers_match_live_torch():
    torch = pytest.importorskip("torch")
    x = torch.tensor(_RELU_X, requires_grad=True)
    y = torch.relu(x)
    y.sum().backward()
    np.testing.assert_array_equal(y.detach().numpy(), _RELU_Y)
    assert list(torch.signbit(y[:4])) == [False, False, True, False]
    np.testing.assert_array_equal(x.grad.numpy(), _RELU_GRAD)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_relu_of_a_large_tensor_is_pytorchs_bit_for_bit(dtype):
    """Above 1024 elements relu is ``max(0, x)`` with a constant zero array (once a select):
    ``-0.0`` and NaN payloads kept, ``-inf`` to ``+0``; gradient 0 at 0, 1 through NaN
    (PyTorch's mask), against live PyTorch."""
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(7)
    x = rng.standard_normal(64 * 16 * 28).astype(dtype)
    u = x.view(f"u{x.itemsize}")
    x[::7], x[1::7], x[2::11] = 0.0, -0.0, -np.inf
    u[3::13] = np.array(np.nan, dtype).view(u.dtype) | 0x15  # NaNs with payloads, both signs
    u[4::17] = np.array(-np.nan, dtype).view(u.dtype) | 0x3
    x = x.reshape(64, 16, 28)
    fx = ft.from_numpy(x.copy()).requires_grad_()
    tx = torch.from_numpy(x.copy()).requires_grad_()
    fy, ty = FF.relu(fx), torch.nn.functional.relu(tx)
    np.testing.assert_array_equal(fy.detach().numpy().view(u.dtype), ty.detach().numpy().view(u.dtype))
    fy.sum().backward()
    ty.sum().backward()
    np.testing.assert_array_equal(fx.grad.numpy(), tx.grad.numpy())
    np.testing.assert_array_equal(ft.relu(ft.from_numpy(x)).numpy().view(u.dtype),
                                  torch.relu(torch.from_numpy(x)).numpy().view(u.dtype))
