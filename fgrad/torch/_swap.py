"""``torch.utils.swap_tensors``: two tensor objects exchange everything they hold."""

from __future__ import annotations

from ._tensor import Tensor

_SLOTS = ("_buf", "_gfn", "_rg", "_vc")


def swap_tensors(t1: Tensor, t2: Tensor) -> None:
    """Swap the contents (data, autograd state, attributes and class) of ``t1`` and ``t2``:
    each Python object keeps its identity and takes the other's tensor.

    Example::

        >>> import fgrad.torch as torch
        >>> a, b = torch.ones(2), torch.zeros(3)
        >>> torch.utils.swap_tensors(a, b)
        >>> a, b
        (tensor([0., 0., 0.]), tensor([1., 1.]))
    """
    if not isinstance(t1, Tensor) or not isinstance(t2, Tensor):
        raise TypeError(f"Expected two tensors, but got {type(t1).__name__} and {type(t2).__name__}")
    for t in (t1, t2):
        if t._base is not None:
            raise RuntimeError("Cannot swap t1 and t2 if they are views of another tensor "
                               "(swap_tensors needs sole ownership of the memory)")
    for name in _SLOTS:
        a, b = getattr(t1, name), getattr(t2, name)
        setattr(t1, name, b)
        setattr(t2, name, a)
    d1, d2 = dict(t1.__dict__), dict(t2.__dict__)
    t1.__dict__.clear()
    t1.__dict__.update(d2)
    t2.__dict__.clear()
    t2.__dict__.update(d1)
    c1, c2 = type(t1), type(t2)
    if c1 is not c2:
        t1.__class__, t2.__class__ = c2, c1
