# ruff: noqa: F401
"""``fgrad.torch.optim``: PyTorch's optimizers and learning-rate schedulers on fgrad tensors."""

import fgrad.torch.optim.lr_scheduler as lr_scheduler  # noqa: F401
import fgrad.torch.optim.swa_utils as swa_utils  # noqa: F401
from .adadelta import Adadelta
from .adagrad import Adagrad
from .adam import Adam, AdamW
from .adamax import Adamax
from .asgd import ASGD
from .lbfgs import LBFGS
from .nadam import NAdam
from .optimizer import Optimizer
from .radam import RAdam
from .rmsprop import RMSprop
from .rprop import Rprop
from .sgd import SGD
from .sparse_adam import SparseAdam

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "RMSprop", "Adagrad", "Adadelta", "Adamax", "NAdam", "RAdam",
           "ASGD", "Rprop", "LBFGS", "SparseAdam", "lr_scheduler"]
