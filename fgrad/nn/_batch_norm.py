"""Batch normalisation with a per-channel affine part, as one differentiable value.

``batch_normalize_affine(x, weight, bias, axes, eps)`` returns ``(out, y, rstd)``: ``y = (x -
mean) * rstd`` normalised over ``axes`` (biased variance, ``rstd = 1 / sqrt(var + eps)``,
keepdims), ``out = y * weight + bias`` with ``weight``/``bias`` of one value per kept
position (the channels of BatchNorm's ``(N, C, ...)`` over ``(0, 2, ...)``).

Its derivative is a `custom_jvp` written so that its transpose (what reverse mode runs)
does PyTorch's work: the batch-norm backward

    dx = w * rstd * (g - mean(g) - y * mean(y * g)),  dw = sum(y * g),  db = sum(g)

sums the two full arrays ``g`` and ``y * g`` once each and uses them for all three results.
The rule keeps the per-channel factor ``w * rstd`` outside the sums (the tangent is
``h * dx + (db - h * mean(dx)) + y * (dw - h * mean(y * dx))`` with ``h = w * rstd`` a
per-channel value), so the transposed sums read the cotangent itself; composing
`fgrad.nn._activations.normalize_with_rstd` with the affine part instead summed
``g``, ``y * g``, ``w * rstd * g`` and ``y * w * rstd * g``.  The rule is made of
differentiable ops, so every derivative order works (``create_graph=True``, `fgrad.grad` of
grad).

Example::

    >>> import fgrad.numpy as fnp
    >>> out, y, rstd = batch_normalize_affine(fnp.array([[1.0], [3.0]]), fnp.array([2.0]),
    ...                                       fnp.array([0.5]), (0,), 0.0)
    >>> out
    Array([[-1.5],
           [ 2.5]], dtype=float64)
"""

from __future__ import annotations

import math

from .. import numpy as fnp
from ..core.array import get_aval as _get_aval
from ..transforms.custom import custom_jvp as _custom_jvp
from ._activations import normalize_with_rstd as _normalize_with_rstd


def _per_channel_shape(x, axes: tuple) -> tuple:
    """The keepdims shape of a statistic of ``x`` over ``axes`` (``(1, C, 1, 1)``)."""
    shape = _get_aval(x).shape
    return tuple(1 if a in axes else s for a, s in enumerate(shape))


class _Layout:
    """The 2-D view the rule computes in, so that per-channel values are per-row or
    per-column operands (what the host's native elementwise kernels read in place): ``x``
    of shape ``(N, C, S...)`` as ``(N * C, prod(S))`` rows with one value per row, or, with no
    spatial axes, as ``(N, C)`` with one value per column."""

    def __init__(self, shape: tuple) -> None:
        self.n, self.c = shape[0], shape[1]
        self.s = math.prod(shape[2:])
        self.view = (self.n * self.c, self.s) if self.s > 1 else (self.n, self.c)

    def channel_sums(self, v):
        """The per-channel sums ``(C,)`` of a value in the view, summed over ``(N, S)`` of its
        ``(N, C, S)`` form (the host's native float32 sums run this in NumPy's order)."""
        if self.s > 1:
            return fnp.sum(fnp.reshape(v, (self.n, self.c, self.s)), axis=(0, 2))
        return fnp.sum(v, axis=0)

    def tangent_sums(self, v):
        """`channel_sums` of a tangent, as row sums then a sum over ``N``: its transpose (what
        reverse mode runs) spreads a per-channel value as a per-row operand, which the native
        kernels read without making it full size."""
        if self.s > 1:
            rows = fnp.sum(v, axis=1, keepdims=True)  # (N * C, 1)
            return fnp.sum(fnp.reshape(rows, (self.n, self.c)), axis=0)
        return fnp.sum(v, axis=0)

    def spread(self, c):
        """A per-channel value ``(C,)`` as an operand of the view (per row or per column)."""
        if self.s > 1:
            return fnp.reshape(fnp.broadcast_to(c, (self.n, self.c)), (self.n * self.c, 1))
        return fnp.reshape(c, (1, self.c))

    def spread_tangent(self, c):
        """`spread` of a per-channel tangent, made full size through the ``(N, C, S)`` form:
        its transpose is `channel_sums` (one native sum) instead of row sums."""
        if self.s > 1:
            full = fnp.broadcast_to(fnp.reshape(c, (1, self.c, 1)), (self.n, self.c, self.s))
            return fnp.reshape(full, self.view)
        return fnp.reshape(c, (1, self.c))


_VIEW_ROWS = 128  # rows at least this long: the forward's affine part runs in the view too


def _value(x, weight, bias, axes: tuple, eps: float):
    shape = _get_aval(x).shape
    lay = _Layout(shape)
    y, rstd = _normalize_with_rstd(x, axes, eps)  # (its statistics as layer norm's; rule unused)
    if lay.s >= _VIEW_ROWS:  # one native pass with per-row operands
        out = fnp.add(fnp.multiply(fnp.reshape(y, lay.view), lay.spread(weight)), lay.spread(bias))
        return fnp.reshape(out, shape), y, rstd
    # short rows: NumPy's broadcasting costs less than spreading the weight and bias per row
    keep = _per_channel_shape(x, axes)
    return fnp.add(fnp.multiply(y, fnp.reshape(weight, keep)), fnp.reshape(bias, keep)), y, rstd


batch_normalize_affine = _custom_jvp(_value, nondiff_argnums=(3, 4))


@batch_normalize_affine.defjvp
def _jvp(axes, eps, primals, tangents):
    x, weight, bias = primals
    dx, dw, db = tangents
    out, y, rstd = batch_normalize_affine(x, weight, bias, axes, eps)
    shape = _get_aval(x).shape
    count = float(math.prod(shape[a] for a in axes))
    lay = _Layout(shape)
    h = fnp.multiply(weight, fnp.reshape(rstd, (lay.c,)))  # w * rstd per channel, small
    h_per_count = fnp.divide(h, count)
    y2, dx2 = fnp.reshape(y, lay.view), fnp.reshape(dx, lay.view)
    # the two sums of tangents, kept small; the per-channel factors multiply them afterwards,
    # so reverse mode sums the cotangent g and y * g, not h * g
    sum_dx = lay.tangent_sums(dx2)
    sum_y_dx = lay.tangent_sums(fnp.multiply(y2, dx2))
    shift = fnp.subtract(db, fnp.multiply(h_per_count, sum_dx))
    scale = fnp.subtract(dw, fnp.multiply(h_per_count, sum_y_dx))
    d_out = fnp.add(fnp.add(fnp.multiply(lay.spread(h), dx2), lay.spread_tangent(shift)),
                    fnp.multiply(y2, lay.spread_tangent(scale)))
    # y's and rstd's own tangents (the outputs the backward reads; no cotangent reaches them
    # in a first-order backward, which stages them as symbolic zeros)
    keep = _per_channel_shape(x, axes)
    mean_dx = fnp.reshape(fnp.divide(sum_dx, count), keep)
    mean_y_dx = fnp.reshape(fnp.divide(sum_y_dx, count), keep)
    d_y = fnp.multiply(rstd, fnp.subtract(fnp.subtract(dx, mean_dx), fnp.multiply(y, mean_y_dx)))
    d_rstd = fnp.multiply(fnp.multiply(rstd, rstd), fnp.negative(mean_y_dx))
    return (out, y, rstd), (fnp.reshape(d_out, shape), d_y, d_rstd)
