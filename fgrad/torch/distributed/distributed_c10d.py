"""``torch.distributed.distributed_c10d``'s module path: the same functions and classes as
`fgrad.torch.distributed` (programs import ``ProcessGroup``, ``ReduceOp`` or
``_get_default_group`` from here).

Example::

    >>> from fgrad.torch.distributed.distributed_c10d import ReduceOp, is_initialized
    >>> ReduceOp.SUM, is_initialized()
    (<RedOpType.SUM: 0>, False)
"""

from fgrad.torch.distributed import *  # noqa: F401,F403
from fgrad.torch.distributed import __all__ as _public
from fgrad.torch.distributed import _get_default_group, get_group_rank  # noqa: F401

__all__ = list(_public)
