"""``torch.utils.data._utils``: the private package path PyTorch programs import the collate
functions from (``from torch.utils.data._utils.collate import default_collate``).

Example::

    >>> from fgrad.torch.utils.data._utils.collate import default_collate
    >>> default_collate([1, 2])
    tensor([1, 2])
"""

from . import collate  # noqa: F401

__all__ = ["collate"]
