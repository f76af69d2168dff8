"""``torch.layout``: the memory layout of a tensor, one object per layout (``torch.strided``,
``torch.sparse_coo``, ``torch.sparse_csr``), compared by identity as PyTorch's are.

Example::

    >>> import fgrad.torch as torch
    >>> torch.zeros(2).layout, isinstance(torch.sparse_coo, torch.layout)
    (torch.strided, True)
"""

from __future__ import annotations

__all__ = ["layout", "strided", "sparse_coo", "sparse_csr", "layout_by_name"]


class layout:  # noqa: N801 (PyTorch's name)
    """The type of a tensor's memory layout: ``torch.strided`` (dense), ``torch.sparse_coo``,
    ``torch.sparse_csr``.  One instance per layout; ``torch.save`` writes one as PyTorch does
    (``torch.serialization._get_layout("torch.strided")``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.zeros(2).layout
        torch.strided
        >>> isinstance(torch.strided, torch.layout)
        True
    """

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return "torch." + self.name

    __str__ = __repr__

    def __reduce__(self) -> str:
        return self.name  # the module-level instance of this module (pickle, copy keep identity)


strided = layout("strided")
sparse_coo = layout("sparse_coo")
sparse_csr = layout("sparse_csr")
_BY_NAME = {repr(x): x for x in (strided, sparse_coo, sparse_csr)}


def layout_by_name(name: str) -> layout:
    """The layout PyTorch names ``name`` ("torch.strided"); a ValueError for one fgrad lacks.

    Example::

        >>> layout_by_name("torch.sparse_coo")
        torch.sparse_coo
    """
    found = _BY_NAME.get(name)
    if found is None:
        raise ValueError(f"unknown layout {name!r}: fgrad.torch has {sorted(_BY_NAME)}")
    return found
