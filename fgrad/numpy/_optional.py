"""Collects the NumPy-API modules written family by family.  Each module defines
``__all__``; a missing function is an AttributeError, never a silent fallback."""
# ruff: noqa: F401,F403
from ._indexing import *
from ._indexing import _at_apply, _at_get, _at_mode, _at_power, _getitem, _no_wrap_index, _scatter, _SET_MODES
from ._products import *
from ._sorting import *
from ._array_api import *
from ._array_api import __array_namespace_info__
import fgrad.numpy.linalg as linalg
import fgrad.numpy.fft as fft
from ._calculus import *
from ._statistics import *
from ._polynomial import *
from ._setops import *
from ._windows import *
from ._elementwise_extra import *
from ._array_tools import *
from ._text_io import *
