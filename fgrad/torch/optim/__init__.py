# ruff: noqa: F401
"""``fgrad.torch.optim``: PyTorch's optimizers and learning-rate schedulers on fgrad tensors."""

import fgrad.torch.optim.lr_scheduler as lr_scheduler  # noqa: F401
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .optimizer import Optimizer
from .rmsprop import RMSprop
from .sgd import SGD

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "lr_scheduler"]
