"""The float32 GELU's error over every float32 in a range (or every ``--stride``-th one).

    python tools/gelu_sweep.py                      # all float32 with 2**-20 <= |x| < 16
    python tools/gelu_sweep.py --stride 97          # a quick sample of the same range

Compares `fgrad.nn._activations.gelu_erf_float32_arithmetic` (the shim's ``F.gelu`` of float32
tensors) and, where PyTorch is installed, PyTorch's ``F.gelu`` with the exact GELU
``x Phi(x)`` evaluated in float64 (``scipy.special.erfc``, relative error about 1e-16).
Prints, for each, the largest error in float32 ulp of the result for ``x >= 0``, in ulp of
``|x|`` for ``x < 0`` (where ``Phi(x)`` is small and the result tiny: the units of
tests/test_speed_erf_gelu.py), and the largest absolute error; for fgrad also the largest
absolute error of its derivative ``Phi(x) + x phi(x)``.  The full range (402,653,184 inputs)
takes several minutes; the arrays are processed in chunks of ``--chunk`` inputs.
"""

from __future__ import annotations

import argparse
import math

import numpy as np


def _exact(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    from scipy.special import erfc

    xs = x.astype(np.float64)
    cdf = 0.5 * erfc(-xs / math.sqrt(2.0))
    return xs * cdf, cdf + xs * np.exp(-0.5 * xs * xs) / math.sqrt(2.0 * math.pi)


def _errors(y: np.ndarray, x: np.ndarray, want: np.ndarray) -> tuple[float, float, float]:
    err = np.abs(y.astype(np.float64) - want)
    pos = x >= 0
    ulp_pos = (err[pos] / np.spacing(np.abs(y[pos])).astype(np.float64)).max(initial=0.0)
    ulp_neg = (err[~pos] / np.spacing(np.abs(x[~pos])).astype(np.float64)).max(initial=0.0)
    return float(ulp_pos), float(ulp_neg), float(err.max(initial=0.0))


def main(argv: list[str] | None = None) -> None:
    """Run the sweep (see the module docstring) and print its table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lo", type=float, default=2.0 ** -20, help="smallest |x| (a float32)")
    ap.add_argument("--hi", type=float, default=16.0, help="|x| below this")
    ap.add_argument("--stride", type=int, default=1, help="every stride-th float32 of the range")
    ap.add_argument("--chunk", type=int, default=1 << 23, help="inputs per chunk")
    args = ap.parse_args(argv)

    from fgrad.nn._activations import gelu_erf_float32_arithmetic

    try:
        import torch
    except ImportError:
        torch = None
    lo = int(np.float32(args.lo).view(np.int32))
    hi = int(np.float32(args.hi).view(np.int32))
    rows = {"fgrad": [0.0, 0.0, 0.0, 0.0]}
    if torch is not None:
        rows["torch"] = [0.0, 0.0, 0.0, float("nan")]
    n = 0
    step = args.chunk * args.stride
    for start in range(lo, hi, step):
        bits = np.arange(start, min(start + step, hi), args.stride, dtype=np.int32)
        x = np.concatenate([bits.view(np.float32), -bits.view(np.float32)])
        n += x.size
        want, want_d = _exact(x)
        y, d = (np.asarray(v) for v in gelu_erf_float32_arithmetic(x))
        got = {"fgrad": y}
        if torch is not None:
            got["torch"] = torch.nn.functional.gelu(torch.from_numpy(x)).numpy()
        for name, v in got.items():
            row = rows[name]
            for k, e in enumerate(_errors(v, x, want)):
                row[k] = max(row[k], e)
        rows["fgrad"][3] = max(rows["fgrad"][3], float(np.abs(d.astype(np.float64) - want_d).max()))
    print(f"{n:,} float32 inputs, {args.lo:g} <= |x| < {args.hi:g}, stride {args.stride}")
    print(f"{'':6} {'x >= 0: ulp of y':>17} {'x < 0: ulp of |x|':>18} {'max abs':>10} {'derivative':>11}")
    for name, (up, un, ab, de) in rows.items():
        print(f"{name:6} {up:17.2f} {un:18.2f} {ab:10.3g} {de:11.3g}")


if __name__ == "__main__":
    main()
