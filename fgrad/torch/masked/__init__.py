"""``torch.masked``: reductions and normalizations that skip the elements where ``mask`` is
False (PyTorch's masked semantics: a masked-out element acts as the operation's identity --
0 for sums, 1 for products, -inf for maxima and softmax -- so a fully masked slice gives
that identity, or nan where the result divides by the count, as PyTorch).

Every function is written with fgrad.torch's own ops (a ``where`` that fills the masked-out
elements, then the plain reduction), so gradients, ``torch.func`` and devices come with
them; the masked-out elements get zero gradient.  ``mask`` broadcasts to ``input``.

Example::

    >>> import fgrad.torch as torch
    >>> x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    >>> m = torch.tensor([[True, False, True], [False, False, False]])
    >>> torch.masked.sum(x, 1, mask=m), torch.masked.mean(x, 1, mask=m)
    (tensor([4., 0.]), tensor([2., nan]))
"""

from ._maskedtensor import MaskedTensor, as_masked_tensor, is_masked_tensor, masked_tensor
from ._reductions import (amax, amin, argmax, argmin, cumprod, cumsum, log_softmax, logaddexp, logsumexp,
                          mean, median, norm, normalize, prod, softmax, softmin, std, sum, var)

__all__ = ["amax", "amin", "argmax", "argmin", "as_masked_tensor", "cumprod", "cumsum", "is_masked_tensor",
           "log_softmax", "logaddexp", "logsumexp", "masked_tensor", "MaskedTensor", "mean", "median", "norm",
           "normalize", "prod", "softmax", "softmin", "std", "sum", "var"]
