"""``torch.distributed.nn``: collectives that autograd differentiates (see `functional`).

Example::

    >>> import fgrad.torch.distributed.nn as dnn
    >>> callable(dnn.all_reduce) and callable(dnn.functional.all_gather)
    True
"""

from fgrad.torch.distributed.nn import functional
from fgrad.torch.distributed.nn.functional import all_gather, all_reduce, broadcast, reduce_scatter

__all__ = ["functional", "all_gather", "all_reduce", "broadcast", "reduce_scatter"]
