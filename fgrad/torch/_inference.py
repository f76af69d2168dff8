"""Whether ``torch.inference_mode`` is on in this thread: `fgrad.torch.autograd.grad_mode`
sets it, the tensor constructors read it (tensors made then are inference tensors), and both
import it from here, below them.

Example::

    >>> from fgrad.torch._inference import INFERENCE
    >>> INFERENCE.on
    False
"""

from __future__ import annotations

import threading


class _InferenceMode(threading.local):
    on = False


INFERENCE = _InferenceMode()
