"""``torch.__future__``: switches for behaviour PyTorch will make the default.

Both change what ``nn.Module`` conversions (``to``, ``float``, ``double``, ``cuda``, ...) do to
the module's parameters: by default a parameter keeps its object and gets the converted data
(``param.data = converted``).  With *overwrite*, the module gets new Parameter objects; with
*swap* (which takes precedence), each parameter object swaps its contents with the converted
tensor (`fgrad.torch.utils.swap_tensors`), and ``load_state_dict`` swaps too.
"""

from __future__ import annotations

_overwrite_module_params_on_conversion: bool = False
_swap_module_params_on_conversion: bool = False


def set_overwrite_module_params_on_conversion(value: bool) -> None:
    """Whether module conversions assign new Parameter objects instead of changing ``.data``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.__future__.set_overwrite_module_params_on_conversion(True)
        >>> m = torch.nn.Linear(2, 2)
        >>> w = m.weight
        >>> m.double().weight is w
        False
        >>> torch.__future__.set_overwrite_module_params_on_conversion(False)
    """
    global _overwrite_module_params_on_conversion
    _overwrite_module_params_on_conversion = value


def get_overwrite_module_params_on_conversion() -> bool:
    """The value `set_overwrite_module_params_on_conversion` set (default False).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.__future__.get_overwrite_module_params_on_conversion()
        False
    """
    return _overwrite_module_params_on_conversion


def set_swap_module_params_on_conversion(value: bool) -> None:
    """Whether module conversions and ``load_state_dict`` swap parameter contents in place
    (`fgrad.torch.utils.swap_tensors`); takes precedence over the overwrite switch.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.__future__.set_swap_module_params_on_conversion(True)
        >>> m = torch.nn.Linear(2, 2)
        >>> w = m.weight
        >>> (m.double().weight is w, w.dtype)
        (True, torch.float64)
        >>> torch.__future__.set_swap_module_params_on_conversion(False)
    """
    global _swap_module_params_on_conversion
    _swap_module_params_on_conversion = value


def get_swap_module_params_on_conversion() -> bool:
    """The value `set_swap_module_params_on_conversion` set (default False).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.__future__.get_swap_module_params_on_conversion()
        False
    """
    return _swap_module_params_on_conversion


__all__ = ["get_overwrite_module_params_on_conversion", "get_swap_module_params_on_conversion",
           "set_overwrite_module_params_on_conversion", "set_swap_module_params_on_conversion"]
