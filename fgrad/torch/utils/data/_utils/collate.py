"""``torch.utils.data._utils.collate``: `default_collate` and `default_convert` where PyTorch
keeps them (defined in ``fgrad.torch.utils.data._collate``).

Example::

    >>> import numpy as np
    >>> from fgrad.torch.utils.data._utils.collate import default_convert
    >>> default_convert(np.array([1, 2]))
    tensor([1, 2])
"""

from .._collate import default_collate, default_convert

__all__ = ["default_collate", "default_convert"]
