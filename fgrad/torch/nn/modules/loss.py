"""Loss modules: ``MSELoss``, ``L1Loss``, ``CrossEntropyLoss``, ``NLLLoss``, ``BCELoss``,
``BCEWithLogitsLoss``, ``SmoothL1Loss`` and others, each with ``reduction=`` ('mean', 'sum',
'none') and the legacy ``size_average``/``reduce`` arguments.

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.MSELoss(reduction='sum')(torch.ones(3), torch.zeros(3))
    tensor(3.)
"""

from __future__ import annotations

import warnings

import fgrad.torch.nn.functional as F
from .distance import PairwiseDistance
from .module import Module
from fgrad.torch.types import Tensor
from collections.abc import Callable, Sequence

__all__ = [
    "L1Loss", "MSELoss", "CrossEntropyLoss", "NLLLoss", "BCELoss", "BCEWithLogitsLoss", "SmoothL1Loss",
    "HuberLoss", "KLDivLoss", "PoissonNLLLoss", "GaussianNLLLoss", "SoftMarginLoss", "MarginRankingLoss",
    "HingeEmbeddingLoss", "CosineEmbeddingLoss", "TripletMarginLoss", "MultiLabelSoftMarginLoss", "NLLLoss2d"
]


class _Loss(Module):
    def __init__(self, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__()
        if size_average is not None or reduce is not None:
            self.reduction = F._reduction_from_legacy(size_average, reduce)
        else:
            self.reduction = reduction


class _WeightedLoss(_Loss):
    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.weight = weight


class L1Loss(_Loss):
    """Mean (``reduction``) absolute error between input and target.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.L1Loss()(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 4.0]))
        tensor(1.5000)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.l1_loss(input, target, reduction=self.reduction)


class MSELoss(_Loss):
    """Mean (``reduction``) squared error between input and target.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.MSELoss()(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 4.0]))
        tensor(2.5000)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.mse_loss(input, target, reduction=self.reduction)


class NLLLoss(_WeightedLoss):
    """Negative log-likelihood of class indices given log-probabilities (`functional.nll_loss`).

    Example::

        >>> import fgrad.torch as torch
        >>> logp = torch.log(torch.tensor([[0.25, 0.75], [0.5, 0.5]]))
        >>> torch.nn.NLLLoss()(logp, torch.tensor([1, 0]))
        tensor(0.4904)
    """

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 ignore_index: int = -100, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class NLLLoss2d(NLLLoss):
    """``NLLLoss`` under its old name for per-pixel targets (deprecated by PyTorch, which warns
    with a FutureWarning on construction; the loss is ``NLLLoss``'s, any input rank).

    Example::

        >>> import warnings
        >>> import fgrad.torch as torch
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     torch.nn.NLLLoss2d()(torch.log(torch.full((1, 2, 1, 1), 0.5)), torch.tensor([[[1]]]))
        tensor(0.6931)
    """

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 ignore_index: int = -100, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        warnings.warn("`NLLLoss2d` has been deprecated. Please use `NLLLoss` instead as a drop-in "
                      "replacement and see https://pytorch.org/docs/main/nn.html#torch.nn.NLLLoss for more "
                      "details.",
                      FutureWarning, stacklevel=2)
        super().__init__(weight, size_average, ignore_index, reduce, reduction)


class CrossEntropyLoss(_WeightedLoss):
    """Cross entropy of logits and class indices or probabilities (`functional.cross_entropy`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.CrossEntropyLoss()(torch.tensor([[2.0, 0.0], [0.0, 1.0]]), torch.tensor([0, 1]))
        tensor(0.2201)
        >>> torch.nn.CrossEntropyLoss(label_smoothing=0.1)(torch.tensor([[2.0, 0.0]]), torch.tensor([0]))
        tensor(0.2269)
    """

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 ignore_index: int = -100, reduce: bool | None = None,
                 reduction: str = "mean", label_smoothing: float = 0.0) -> None:
        super().__init__(weight, size_average, reduce, reduction)
        self.ignore_index = ignore_index
        self.label_smoothing = label_smoothing

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)


class BCELoss(_WeightedLoss):
    """Binary cross entropy of probabilities and targets (`functional.binary_cross_entropy`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.BCELoss()(torch.tensor([0.8, 0.4]), torch.tensor([1.0, 0.0]))
        tensor(0.3670)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy(input, target, weight=self.weight, reduction=self.reduction)


class BCEWithLogitsLoss(_Loss):
    """Binary cross entropy of logits (a sigmoid, then BCE, computed stably), with optional ``pos_weight``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.BCEWithLogitsLoss()(torch.tensor([2.0, -1.0]), torch.tensor([1.0, 0.0]))
        tensor(0.2201)
    """

    def __init__(self, weight: Tensor | None = None, size_average: bool | None = None,
                 reduce: bool | None = None, reduction: str = "mean",
                 pos_weight: Tensor | None = None) -> None:
        super().__init__(size_average, reduce, reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)
        self.weight = weight
        self.pos_weight = pos_weight

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.binary_cross_entropy_with_logits(input, target, self.weight, pos_weight=self.pos_weight,
                                                  reduction=self.reduction)


class SmoothL1Loss(_Loss):
    """Squared error below ``beta`` (halved and scaled), absolute error above (`functional.smooth_l1_loss`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.SmoothL1Loss(beta=1.0)(torch.tensor([0.5, 3.0]), torch.tensor([0.0, 0.0]))
        tensor(1.3125)
    """

    def __init__(self, size_average: bool | None = None, reduce: bool | None = None, reduction: str = "mean",
                 beta: float = 1.0) -> None:
        super().__init__(size_average, reduce, reduction)
        self.beta = beta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class HuberLoss(_Loss):
    """Huber loss: squared error below ``delta``, linear above (`functional.huber_loss`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.HuberLoss(delta=2.0)(torch.tensor([0.5, 3.0]), torch.tensor([0.0, 0.0]))
        tensor(2.0625)
    """

    def __init__(self, reduction: str = "mean", delta: float = 1.0) -> None:
        super().__init__(reduction=reduction)
        self.delta = delta

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class KLDivLoss(_Loss):
    """Kullback-Leibler divergence of ``target`` from the log-probabilities ``input`` (`functional.kl_div`).

    Example::

        >>> import fgrad.torch as torch
        >>> logq = torch.log(torch.tensor([0.25, 0.75]))
        >>> torch.nn.KLDivLoss(reduction='sum')(logq, torch.tensor([0.5, 0.5]))
        tensor(0.1438)
    """

    def __init__(self, size_average: bool | None = None, reduce: bool | None = None, reduction: str = "mean",
                 log_target: bool = False) -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_target = log_target

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class PoissonNLLLoss(_Loss):
    """Negative log-likelihood of a Poisson target (``log_input``: the input is the log-rate).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.PoissonNLLLoss()(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 2.0]))
        tensor(0.8591)
    """

    def __init__(self, log_input: bool = True, full: bool = False, size_average: bool | None = None,
                 eps: float = 1e-8,
                 reduce: bool | None = None, reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.log_input, self.full, self.eps = log_input, full, eps

    def forward(self, log_input: Tensor, target: Tensor) -> Tensor:
        return F.poisson_nll_loss(log_input, target, log_input=self.log_input, full=self.full, eps=self.eps,
                                  reduction=self.reduction)


class GaussianNLLLoss(_Loss):
    """Negative log-likelihood of a Gaussian target with predicted mean and variance.

    Example::

        >>> import fgrad.torch as torch
        >>> mean, target, var = torch.tensor([0.0, 1.0]), torch.tensor([1.0, 1.0]), torch.tensor([1.0, 2.0])
        >>> torch.nn.GaussianNLLLoss()(mean, target, var)
        tensor(0.4233)
    """

    def __init__(self, *, full: bool = False, eps: float = 1e-6, reduction: str = "mean") -> None:
        super().__init__(None, None, reduction)
        self.full, self.eps = full, eps

    def forward(self, input: Tensor, target: Tensor, var: Tensor | float) -> Tensor:
        return F.gaussian_nll_loss(input, target, var, full=self.full, eps=self.eps, reduction=self.reduction)


class SoftMarginLoss(_Loss):
    """Two-class logistic loss ``log(1 + exp(-y * x))`` for targets of +-1.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.SoftMarginLoss()(torch.tensor([1.0, -2.0]), torch.tensor([1.0, -1.0]))
        tensor(0.2201)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.soft_margin_loss(input, target, reduction=self.reduction)


class MarginRankingLoss(_Loss):
    """``max(0, -y * (x1 - x2) + margin)``: ``x1`` should rank above ``x2`` where ``y = 1``.

    Example::

        >>> import fgrad.torch as torch
        >>> x1, x2, y = torch.tensor([1.0, 2.0]), torch.tensor([1.5, 0.0]), torch.tensor([1.0, 1.0])
        >>> torch.nn.MarginRankingLoss(margin=0.5)(x1, x2, y)
        tensor(0.5000)
    """

    def __init__(self, margin: float = 0.0, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return F.margin_ranking_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class HingeEmbeddingLoss(_Loss):
    """``x`` where ``y = 1``, ``max(0, margin - x)`` where ``y = -1``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.HingeEmbeddingLoss()(torch.tensor([0.3, 0.4]), torch.tensor([1.0, -1.0]))
        tensor(0.4500)
    """

    def __init__(self, margin: float = 1.0, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.hinge_embedding_loss(input, target, margin=self.margin, reduction=self.reduction)


class CosineEmbeddingLoss(_Loss):
    """``1 - cos(x1, x2)`` where ``y = 1``, ``max(0, cos(x1, x2) - margin)`` where ``y = -1``.

    Example::

        >>> import fgrad.torch as torch
        >>> x1, x2, y = torch.tensor([[1.0, 0.0]]), torch.tensor([[1.0, 1.0]]), torch.tensor([1.0])
        >>> torch.nn.CosineEmbeddingLoss()(x1, x2, y)
        tensor(0.2929)
    """

    def __init__(self, margin: float = 0.0, size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin = margin

    def forward(self, input1: Tensor, input2: Tensor, target: Tensor) -> Tensor:
        return F.cosine_embedding_loss(input1, input2, target, margin=self.margin, reduction=self.reduction)


class TripletMarginLoss(_Loss):
    """``max(0, d(a, p) - d(a, n) + margin)`` with the p-norm distance.

    Example::

        >>> import fgrad.torch as torch
        >>> a, p, n = torch.tensor([[0.0, 0.0]]), torch.tensor([[1.0, 0.0]]), torch.tensor([[0.0, 1.5]])
        >>> torch.nn.TripletMarginLoss(margin=1.0)(a, p, n)
        tensor(0.5000)
    """

    def __init__(self, margin: float = 1.0, p: float = 2.0, eps: float = 1e-6, swap: bool = False,
                 size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__(size_average, reduce, reduction)
        self.margin, self.p, self.eps, self.swap = margin, p, eps, swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return F.triplet_margin_loss(anchor, positive, negative, margin=self.margin, p=self.p, eps=self.eps,
                                     swap=self.swap, reduction=self.reduction)


class MultiLabelSoftMarginLoss(_WeightedLoss):
    """Mean over the classes of the binary cross entropy of logits, for multi-label targets.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.MultiLabelSoftMarginLoss()(torch.tensor([[2.0, -1.0]]), torch.tensor([[1.0, 0.0]]))
        tensor(0.2201)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.multilabel_soft_margin_loss(input, target, weight=self.weight, reduction=self.reduction)

class MultiMarginLoss(_WeightedLoss):
    """The multi-class hinge loss.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.MultiMarginLoss()(torch.tensor([[0.1, 0.2, 0.4, 0.8]]), torch.tensor([3]))
        tensor(0.3250)
    """

    def __init__(self, p: int = 1, margin: float = 1.0, weight: Tensor | None = None,
                 size_average: bool | None = None, reduce: bool | None = None,
                 reduction: str = "mean") -> None:
        super().__init__(weight, size_average, reduce, reduction)
        if p not in (1, 2):
            raise ValueError("only p == 1 and p == 2 supported")
        if weight is not None and weight.dim() != 1:
            raise ValueError(f"MultiMarginLoss: expected weight to be None or 1D tensor, got {weight.dim()}D "
                             "instead")
        self.p = p
        self.margin = margin

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.multi_margin_loss(input, target, p=self.p, margin=self.margin, weight=self.weight,
                                   reduction=self.reduction)


class MultiLabelMarginLoss(_Loss):
    """The multi-label hinge loss.

    Example::

        >>> import fgrad.torch as torch
        >>> loss = torch.nn.MultiLabelMarginLoss()
        >>> loss(torch.tensor([[0.1, 0.2, 0.4, 0.8]]), torch.tensor([[3, 0, -1, 1]]))
        tensor(0.8500)
    """

    def forward(self, input: Tensor, target: Tensor) -> Tensor:
        return F.multilabel_margin_loss(input, target, reduction=self.reduction)


class TripletMarginWithDistanceLoss(_Loss):
    """The triplet loss with a custom distance (default ``PairwiseDistance()``, a submodule).

    Example::

        >>> import fgrad.torch as torch
        >>> a, p, n = torch.zeros(1, 2), torch.zeros(1, 2), torch.ones(1, 2)
        >>> torch.nn.TripletMarginWithDistanceLoss(margin=2.0)(a, p, n)
        tensor(0.5858)
    """

    def __init__(self, *, distance_function: Callable[[Tensor, Tensor], Tensor] | None = None,
                 margin: float = 1.0, swap: bool = False,
                 reduction: str = "mean") -> None:
        super().__init__(size_average=None, reduce=None, reduction=reduction)
        if margin <= 0:
            raise ValueError(f"TripletMarginWithDistanceLoss: expected margin to be greater than 0, got "
                             f"{margin} "
                             "instead")
        self.distance_function = distance_function if distance_function is not None else PairwiseDistance()
        self.margin = margin
        self.swap = swap

    def forward(self, anchor: Tensor, positive: Tensor, negative: Tensor) -> Tensor:
        return F.triplet_margin_with_distance_loss(anchor, positive, negative,
                                                   distance_function=self.distance_function,
                                                   margin=self.margin,
                                                   swap=self.swap, reduction=self.reduction)


class CTCLoss(_Loss):
    """The connectionist temporal classification loss.

    Example::

        >>> import fgrad.torch as torch
        >>> lp = torch.full((3, 1, 2), 0.5).log()
        >>> torch.nn.CTCLoss(reduction="sum")(lp, torch.tensor([[1]]), torch.tensor([3]), torch.tensor([1]))
        tensor(0.2877)
    """

    __constants__ = ["blank", "reduction"]

    def __init__(self, blank: int = 0, reduction: str = "mean", zero_infinity: bool = False) -> None:
        super().__init__(reduction=reduction)
        self.blank = blank
        self.zero_infinity = zero_infinity

    def forward(self, log_probs: Tensor, targets: Tensor, input_lengths: Tensor | Sequence[int],
                target_lengths: Tensor | Sequence[int]) -> Tensor:
        return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                          self.zero_infinity)

__all__ += ['MultiMarginLoss', 'MultiLabelMarginLoss', 'TripletMarginWithDistanceLoss', 'CTCLoss']
