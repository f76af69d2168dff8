"""``F.ctc_loss``: the connectionist temporal classification loss.

The loss is one op (``CtcLossBackward0``) whose fgrad definition is the forward
(alpha) recursion of Graves et al. over the blank-extended targets, a ``lax.scan`` over time
in log space; its gradient is the engine's reverse mode of that scan (the beta recursion
is what the transposed scan computes).  PyTorch's kernel returns, as the gradient with
respect to ``log_probs``, ``exp(log_probs) - gamma`` (the gradient with respect to the
logits under a ``log_softmax``), not the derivative of the loss in ``log_probs``
(``-gamma``); the definition adds ``S - stop_gradient(S)`` with ``S`` the sum of
``exp(log_probs)`` over the valid frames (value 0, derivative ``exp(log_probs)``) so that
``log_probs.grad`` prints PyTorch's numbers.  Second derivatives are those of this
definition (PyTorch has none).

Example::

    >>> import fgrad.torch as torch
    >>> import fgrad.torch.nn.functional as F
    >>> lp = torch.full((3, 1, 2), 0.5).log()
    >>> F.ctc_loss(lp, torch.tensor([[1]]), torch.tensor([3]), torch.tensor([1]), reduction="sum")
    tensor(0.2877)
"""

from __future__ import annotations

import numpy as np

import fgrad.numpy as fnp
import fgrad.torch as torch
from fgrad import lax
import fgrad.torch._device as _dev
from .._tensor import Tensor
from ._defop import buf as _buf, defop as _defop

__all__ = ["ctc_loss"]

_CHECK = " (while checking arguments for ctc_loss_allocate_outputs)"


def _lse(*xs):
    """``log(sum(exp(x)))`` of a few arrays, elementwise, as PyTorch's kernel writes it
    (``max`` shifted, ``max = 0`` when every term is ``-inf``); all ``-inf`` gives ``-inf``
    with a zero (not NaN) derivative."""
    m = xs[0]
    for x in xs[1:]:
        m = fnp.maximum(m, x)
    m = lax.stop_gradient(fnp.where(fnp.isneginf(m), 0.0, m))
    s = fnp.exp(xs[0] - m)
    for x in xs[1:]:
        s = s + fnp.exp(x - m)
    pos = s > 0
    return fnp.where(pos, fnp.log(fnp.where(pos, s, 1.0)) + m, -np.inf)


def _ctc_nll(lp, ext, skip, il, tl, first, times):
    """Per-sequence negative log likelihood (with PyTorch's gradient convention, see the
    module docstring).  ``lp`` (T, N, C); ``ext`` (N, L) the blank-extended targets;
    ``skip`` (N, L) where the transition s-2 -> s is allowed; ``il``/``tl`` (N,) lengths;
    ``first`` (L,) the two states a path may start in; ``times`` ``arange(T)`` (index
    arrays are operands, so they live on the operands' device)."""
    t_len = lp.shape[0]
    width = ext.shape[1]
    lpe = fnp.take_along_axis(lp, fnp.broadcast_to(ext[None], (t_len,) + tuple(ext.shape)), axis=2)
    a0 = fnp.where(first[None, :], lpe[0], -np.inf)

    def step(alpha, xs):
        lpt, t = xs
        padded = fnp.concatenate([fnp.full_like(alpha[:, :2], -np.inf), alpha], axis=1)
        a1 = padded[:, 1:width + 1]
        a2 = fnp.where(skip, padded[:, :width], -np.inf)
        new = _lse(alpha, a1, a2) + lpt
        return fnp.where((t < il)[:, None], new, alpha), None

    alpha, _ = lax.scan(step, a0, (lpe[1:], times[1:]))
    last = fnp.take_along_axis(alpha, (2 * tl)[:, None], axis=1)[:, 0]
    prev = fnp.take_along_axis(alpha, fnp.maximum(2 * tl - 1, 0)[:, None], axis=1)[:, 0]
    prev = fnp.where(tl > 0, prev, -np.inf)
    nll = -_lse(last, prev)
    valid = (times[:, None] < il[None, :])[..., None]
    s = fnp.sum(fnp.where(valid, fnp.exp(lp), 0.0), axis=(0, 2))
    return nll + (s - lax.stop_gradient(s))


def _lengths(v, name: str) -> np.ndarray:
    if isinstance(v, Tensor):
        return np.asarray(_dev.to_host(_buf(v)), np.int64).reshape(-1)
    return np.asarray(v, np.int64).reshape(-1)


def ctc_loss(log_probs: Tensor, targets: Tensor, input_lengths: Tensor | list[int] | tuple[int, ...],
             target_lengths: Tensor | list[int] | tuple[int, ...], blank: int = 0, reduction: str = "mean",
             zero_infinity: bool = False) -> Tensor:
    """The CTC loss of ``log_probs`` ((T, N, C) or (T, C), log-softmax outputs) against
    ``targets`` ((N, S) padded or the targets concatenated in 1-D); ``reduction='mean'``
    divides each loss by its target length, then averages.

    Example::

        >>> import fgrad.torch as torch
        >>> lp = torch.full((3, 1, 2), 0.5).log()
        >>> ctc_loss(lp, torch.tensor([[1]]), torch.tensor([3]), torch.tensor([1]), reduction="none")
        tensor([0.2877])
    """
    if reduction not in ("mean", "sum", "none"):
        raise ValueError(f"{reduction} is not a valid value for reduction")
    batched = log_probs.dim() == 3
    if log_probs.dim() not in (2, 3):
        raise RuntimeError(f"ctc_loss: expected log_probs to be 2-D or 3-D (T, [N,] C), got "
                           f"{log_probs.dim()}-D")
    lp = log_probs if batched else log_probs.unsqueeze(1)
    tgt_host = np.asarray(_dev.to_host(_buf(targets)), np.int64)
    if not batched:
        tgt_host = tgt_host.reshape(1, -1)
    il = _lengths(input_lengths, "input_lengths")
    tl = _lengths(target_lengths, "target_lengths")
    t_len, n, c = lp.shape
    if il.size != n:
        raise RuntimeError("input_lengths must be of size batch_size")
    if tl.size != n:
        raise RuntimeError("target_lengths must be of size batch_size")
    if not 0 <= blank < c:
        raise RuntimeError("blank must be in label range")
    if (il > t_len).any():
        raise RuntimeError(f"Expected input_lengths to have value at most {t_len}, but got value "
                           f"{int(il.max())}{_CHECK}")
    if (il < 0).any() or (tl < 0).any():
        raise RuntimeError("ctc_loss: input_lengths and target_lengths must be non-negative")
    if tgt_host.ndim == 1:  # the targets of the batch concatenated
        if tgt_host.size < tl.sum():
            raise RuntimeError(f"Expected tensor to have size at least {int(tl.sum())} at dimension 0, but "
                               f"got size "
                               f"{tgt_host.size} for argument #2 'targets'{_CHECK}")
        offs = np.concatenate([[0], np.cumsum(tl)[:-1]])
        rows = [tgt_host[o:o + k] for o, k in zip(offs, tl)]
    else:
        if tl.size and tl.max() > tgt_host.shape[1]:
            raise RuntimeError(f"Expected tensor to have size at least {int(tl.max())} at dimension 1, but "
                               f"got size "
                               f"{tgt_host.shape[1]} for argument #2 'targets'{_CHECK}")
        rows = [tgt_host[i, :k] for i, k in enumerate(tl)]
    width = 2 * int(tl.max() if tl.size else 0) + 1
    ext = np.full((n, width), blank, np.int64)
    skip = np.zeros((n, width), bool)
    for i, r in enumerate(rows):
        ext[i, 1:2 * len(r):2] = r
        for s in range(3, 2 * len(r), 2):
            skip[i, s] = r[(s - 1) // 2] != r[(s - 3) // 2]
    dev = lp.device
    args = (lp, torch.tensor(ext, device=dev), torch.tensor(skip, device=dev), torch.tensor(il, device=dev),
            torch.tensor(tl, device=dev), torch.tensor(np.arange(width) < 2, device=dev),
            torch.arange(t_len, device=dev))
    res = _defop("CtcLossBackward0", ("ctc_loss",), _ctc_nll, args, edges=(0,))
    if zero_infinity:
        res = torch.where(res == float("inf"), torch.zeros((), dtype=res.dtype, device=dev), res)
    if reduction == "mean":
        return (res / torch.tensor(tl, dtype=res.dtype, device=dev).clamp_min(1)).mean()
    if reduction == "sum":
        return res.sum()
    return res if batched else res.squeeze(0)
