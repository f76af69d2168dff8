# ruff: noqa: F401
"""``torch.nn.utils``: gradient clipping, parameter/vector conversion, variable-length
sequences (``rnn``), parametrizations (``parametrize``, ``parametrizations``) and the older hook-based
`weight_norm`/`spectral_norm`."""

from . import parametrizations, parametrize, rnn
from .clip_grad import clip_grad_norm_, clip_grad_value_, get_total_norm
from .convert_parameters import parameters_to_vector, vector_to_parameters
from .norm_hooks import remove_spectral_norm, remove_weight_norm, spectral_norm, weight_norm

__all__ = ["parametrizations", "parametrize", "rnn", "clip_grad_norm_", "clip_grad_value_",
           "get_total_norm", "parameters_to_vector", "vector_to_parameters", "remove_spectral_norm",
           "remove_weight_norm", "spectral_norm", "weight_norm"]
