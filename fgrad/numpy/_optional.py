"""Collects the NumPy-API modules written family by family.  Each module defines
``__all__``; a missing function is an AttributeError, never a silent fallback."""
# ruff: noqa: F401,F403
from ._indexing import *
from ._indexing import _getitem, _scatter
from ._products import *
from ._sorting import *
import fgrad.numpy.linalg as linalg
import fgrad.numpy.fft as fft
