"""The warnings PyTorch 2.13 gives for deprecated calls and for notices about a call's
effect, with PyTorch's words (less the "Triggered internally at <C++ file>" suffix).

PyTorch gives most of the C++ ones once per process (``TORCH_WARN_ONCE``: a second call is
silent even under ``warnings.simplefilter("always")``); `warn_once` does the same.  The
others (Python ``warnings.warn``, ``TORCH_WARN``) are given on every call, through Python's
filters: `warn`.

Example::

    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_once("index_reduce")
    ...     warn_once("index_reduce")
    >>> len(caught) <= 1  # once per process (an earlier call may have given it already)
    True
"""

from __future__ import annotations

import os
import sys
import warnings

__all__ = ["MESSAGES", "warn", "warn_once", "dof_warning", "nested_tensor_reason"]

MESSAGES: dict[str, str] = {
    'chain_matmul': (
        'torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use '
        'torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than '
        'multiple parameters.'
    ),
    'cholesky': (
        'torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a '
        'future PyTorch release.\n'
        'L = torch.cholesky(A)\n'
        'should be replaced with\n'
        'L = torch.linalg.cholesky(A)\n'
        'and\n'
        'U = torch.cholesky(A, upper=True)\n'
        'should be replaced with\n'
        'U = torch.linalg.cholesky(A).mH\n'
        'This transform will produce equivalent results for all valid (symmetric positive '
        'definite) inputs.'
    ),
    'lu': (
        'torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and '
        'will be removed in a future PyTorch release.\n'
        'LU, pivots = torch.lu(A, compute_pivots)\n'
        'should be replaced with\n'
        'LU, pivots = torch.linalg.lu_factor(A, compute_pivots)\n'
        'and\n'
        'LU, pivots, info = torch.lu(A, compute_pivots, get_infos=True)\n'
        'should be replaced with\n'
        'LU, pivots, info = torch.linalg.lu_factor_ex(A, compute_pivots)'
    ),
    'lu_solve': (
        'torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a '
        'future PyTorch release.\n'
        'Note that torch.linalg.lu_solve has its arguments reversed.\n'
        'X = torch.lu_solve(B, LU, pivots)\n'
        'should be replaced with\n'
        'X = torch.linalg.lu_solve(LU, pivots, B)'
    ),
    'qr': (
        'torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future '
        'PyTorch release.\n'
        "The boolean parameter 'some' has been replaced with a string parameter 'mode'.\n"
        'Q, R = torch.qr(A, some)\n'
        'should be replaced with\n'
        "Q, R = torch.linalg.qr(A, 'reduced' if some else 'complete')"
    ),
    'set_default_tensor_type': (
        'torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use '
        'torch.set_default_dtype() and torch.set_default_device() as alternatives.'
    ),
    'cross': (
        'Using torch.cross without specifying the dim arg is deprecated.\n'
        'Please either pass the dim explicitly or simply use torch.linalg.cross.\n'
        'The default value of dim will change to agree with that of linalg.cross in a future '
        'release.'
    ),
    'index_reduce': (
        'index_reduce() is in beta and the API may change at any time.'
    ),
    'meshgrid': (
        'torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument.'
    ),
    'state_dict': (
        'Positional args are being deprecated, use kwargs instead. Refer to '
        'https://pytorch.org/docs/main/generated/torch.nn.Module.html#torch.nn.Module.state_dict '
        'for details.'
    ),
}

_GIVEN: set[str] = set()


_FGRAD = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _outside_fgrad() -> int:
    """The ``stacklevel`` (seen from `warn`/`warn_once`) of the first frame outside the fgrad
    package: the user's line, as PyTorch's C++ warnings report it (Python 3.11 has no
    ``skip_file_prefixes``)."""
    level, frame = 1, sys._getframe(2)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(_FGRAD):
        level, frame = level + 1, frame.f_back
    return level + 1


def warn_once(name: str) -> None:
    """Give the UserWarning ``MESSAGES[name]`` the first time only (PyTorch's
    ``TORCH_WARN_ONCE``), attributed to the user's line.

    Example::

        >>> warn_once("meshgrid")  # doctest: +SKIP
    """
    if name not in _GIVEN:
        _GIVEN.add(name)
        warnings.warn(MESSAGES[name], UserWarning, stacklevel=_outside_fgrad())


def warn(message: str, category: type[Warning] = UserWarning) -> None:
    """Give ``message`` (a key of ``MESSAGES`` or the text itself) on every call, attributed
    to the user's line.

    Example::

        >>> import warnings
        >>> with warnings.catch_warnings(record=True) as caught:
        ...     warnings.simplefilter("always")
        ...     warn("state_dict", FutureWarning)
        >>> caught[0].category.__name__
        'FutureWarning'
    """
    warnings.warn(MESSAGES.get(message, message), category, stacklevel=_outside_fgrad())


def dof_warning(name: str, numel: int, out_numel: int, correction: float) -> None:
    """PyTorch's warning when ``std``/``var`` (``name``) divide by ``N - correction <= 0``:
    ``N`` is the reduction factor ``numel / out_numel``.

    Example::

        >>> dof_warning("std", 4, 2, 1)  # two values per output: no warning
    """
    n = numel // out_numel if out_numel else 0
    if n - correction <= 0:
        warn(f"{name}(): degrees of freedom is <= 0. Correction should be strictly less than the "
             "reduction factor (input numel divided by output numel).")


def nested_tensor_reason(layer: object, layer_type: type) -> str:
    """Why ``TransformerEncoder`` cannot take PyTorch's nested-tensor ("sparsity") fast path
    with ``layer`` (PyTorch's first failing condition, in its words), or ``""``.

    Example::

        >>> nested_tensor_reason(object(), int)
        'encoder_layer was not TransformerEncoderLayer'
    """
    e = "encoder_layer"
    if not isinstance(layer, layer_type):
        return f"{e} was not TransformerEncoderLayer"
    sa = layer.self_attn
    if layer.norm_first:
        return f"{e}.norm_first was True"
    if not sa.batch_first:
        return f"{e}.self_attn.batch_first was not True(use batch_first for better inference performance)"
    if not sa._qkv_same_embed_dim:
        return f"{e}.self_attn._qkv_same_embed_dim was not True"
    if sa.in_proj_bias is None:
        return f"{e}.self_attn was passed bias=False"
    if not getattr(layer, "activation_relu_or_gelu", 0):
        return f"{e}.activation_relu_or_gelu was not True"
    if not layer.norm1.eps == layer.norm2.eps:
        return f"{e}.norm1.eps was not equal to {e}.norm2.eps"
    if sa.num_heads % 2 == 1:
        return f"{e}.self_attn.num_heads is odd"
    return ""
