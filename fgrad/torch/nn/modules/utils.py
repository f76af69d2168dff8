"""``torch.nn.modules.utils``: the argument normalizers custom layers import
(``_single``/``_pair``/``_triple``/``_quadruple``, ``_ntuple``, ``_reverse_repeat_tuple``,
``_list_with_default``) and ``consume_prefix_in_state_dict_if_present`` (strips the
``module.`` prefix ``DataParallel``/``DistributedDataParallel`` checkpoints carry).

Example::

    >>> from fgrad.torch.nn.modules.utils import _pair
    >>> _pair(3), _pair((1, 2))
    ((3, 3), (1, 2))
"""

from __future__ import annotations

import collections.abc
from itertools import repeat
from typing import Any, Callable

__all__ = ["consume_prefix_in_state_dict_if_present"]


def _ntuple(n: int, name: str = "parse") -> Callable[[Any], tuple]:
    """A function making an ``n``-tuple of a value (an iterable is made a tuple as is).

    Example::

        >>> _ntuple(3)(1)
        (1, 1, 1)
    """

    def parse(x: Any) -> tuple:
        if isinstance(x, collections.abc.Iterable):
            return tuple(x)
        return tuple(repeat(x, n))

    parse.__name__ = name
    return parse


_single = _ntuple(1, "_single")
_pair = _ntuple(2, "_pair")
_triple = _ntuple(3, "_triple")
_quadruple = _ntuple(4, "_quadruple")


def _reverse_repeat_tuple(t: tuple, n: int) -> tuple:
    """Each element of ``t``, last first, repeated ``n`` times (conv padding to F.pad order).

    Example::

        >>> _reverse_repeat_tuple((1, 2), 2)
        (2, 2, 1, 1)
    """
    return tuple(x for x in reversed(t) for _ in range(n))


def _list_with_default(out_size: Any, defaults: list[int]) -> list[int]:
    """``out_size`` with its None entries taken from the matching trailing ``defaults``
    (adaptive pooling's output size).

    Example::

        >>> _list_with_default([None, 4], [1, 3, 8, 9])
        [8, 4]
    """
    if isinstance(out_size, (int, float)):
        return out_size
    if len(defaults) <= len(out_size):
        raise ValueError(f"Input dimension should be at least {len(out_size) + 1}")
    tail = defaults[-len(out_size):]
    return [d if v is None else v for v, d in zip(out_size, tail)]


def consume_prefix_in_state_dict_if_present(state_dict: dict[str, Any], prefix: str) -> None:
    """Strip ``prefix`` from the keys of ``state_dict`` (and of its ``_metadata``) in place.

    Example::

        >>> from collections import OrderedDict
        >>> sd = OrderedDict([("module.w", 1), ("module.b", 2)])
        >>> consume_prefix_in_state_dict_if_present(sd, "module.")
        >>> list(sd)
        ['w', 'b']
    """
    for key in list(state_dict.keys()):
        if key.startswith(prefix):
            state_dict[key[len(prefix):]] = state_dict.pop(key)
    metadata = getattr(state_dict, "_metadata", None)
    if metadata is not None:
        for key in list(metadata.keys()):
            if len(key) == 0:
                continue
            if key == prefix.replace(".", "") or key.startswith(prefix):
                metadata[key[len(prefix):]] = metadata.pop(key)
