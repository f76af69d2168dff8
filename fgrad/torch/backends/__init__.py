"""``torch.backends``: PyTorch's backend switches, as a package so ``import
torch.backends.cudnn`` works. fgrad.torch reads none of them (its kernels are NumPy's and
CuPy's); they hold PyTorch's CPU defaults so code that sets or reads them runs unchanged.

Example::

    >>> import fgrad.torch as torch
    >>> torch.backends.cudnn.benchmark = True
    >>> torch.backends.cuda.matmul.allow_tf32, torch.backends.mps.is_available()
    (False, False)
"""

from . import cpu, cuda, cudnn, mha, mkl, mkldnn, mps, openmp, opt_einsum  # noqa: F401

__all__ = ["cpu", "cuda", "cudnn", "mha", "mkl", "mkldnn", "mps", "openmp", "opt_einsum"]
