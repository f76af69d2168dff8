"""Which vector kernels this host's NumPy, OpenBLAS and XLA run.

A few tests pin the last bits of results that depend on the host's vector code, not on fgrad:
NumPy dispatches its transcendental ufuncs (``power``, ``arctan2``, ``log1p``, ...) to
different SIMD implementations on AVX-512 hosts, OpenBLAS's AVX-512 kernels sum in another
order (a singular determinant's gradient is 1e-17 instead of exactly 0, a Hermitian product's
diagonal gets a 1e-10 imaginary part), and XLA vectorizes float32 loops 32 lanes wide instead
of 8.  The stored values (and fgrad's emulations of XLA's loops) were made on an AVX2 host
(AMD EPYC Zen 3); on an AVX-512 host those tests skip with this reason, naming what they pin
(docs/numerics.md, "Numbers that depend on the host").

>>> isinstance(AVX512, bool)
True
"""

from __future__ import annotations

import pytest


def _cpu_features() -> dict:
    try:
        from numpy._core._multiarray_umath import __cpu_features__
    except ImportError:  # pragma: no cover - NumPy 1.x
        from numpy.core._multiarray_umath import __cpu_features__
    return dict(__cpu_features__)


AVX512: bool = bool(_cpu_features().get("AVX512F", False))


def skip_where_avx512_rounds_otherwise(what: str) -> None:
    """Skip the calling test on an AVX-512 host: ``what`` pins the last bits of an AVX2 host's
    NumPy/OpenBLAS/XLA vector code (see the module docstring)."""
    if AVX512:
        pytest.skip(f"{what} pins the rounding of an AVX2 host's vector kernels; this host runs "
                    "AVX-512 ones (docs/numerics.md, 'Numbers that depend on the host')")


def avx2_environment() -> dict:
    """Environment variables that make a subprocess's NumPy and OpenBLAS run their AVX2
    kernels on an AVX-512 host ({} elsewhere): NumPy's ``NPY_DISABLE_CPU_FEATURES`` naming the
    host's AVX-512 features and ``OPENBLAS_CORETYPE=Haswell``.  For the programs whose float32
    output amplifies the last bits of those kernels (an adaptive ODE adjoint, a hyperbolic
    embedding's training, SVGD) and whose stored numbers an AVX2 host's kernels made.

    >>> env = avx2_environment()
    >>> env == {} or env["OPENBLAS_CORETYPE"] == "Haswell"
    True
    """
    if not AVX512:
        return {}
    features = sorted(k for k, v in _cpu_features().items() if v and k.startswith("AVX512"))
    return {"NPY_DISABLE_CPU_FEATURES": " ".join(features), "OPENBLAS_CORETYPE": "Haswell"}
