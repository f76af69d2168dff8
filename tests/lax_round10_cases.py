"""Cases of tests/test_lax_round10.py, run with ``lax``/``np`` of fgrad or JAX (``cases(lax, jnp)``)."""

from __future__ import annotations

import numpy as np

CONV_LOCAL = [  # (lhs shape, window, strides, padding, lhs_dilation, rhs_dilation, dimension numbers)
    ((2, 3, 7), (3,), (1,), "VALID", None, None, ("NCH", "OIH", "NCH")),
    ((1, 6, 5, 2), (2, 2), (2, 1), "SAME", None, (1, 2), ("NHWC", "HWIO", "NHWC")),
    ((2, 2, 5, 4), (3, 2), (1, 1), ((1, 1), (0, 1)), (1, 1), None, ("NCHW", "OIHW", "NCHW")),
    ((1, 4, 4, 3), (2, 2), (1, 1), ((0, 0), (1, 0)), (2, 1), None, ("NHWC", "OIHW", "NCHW")),
]
MULHI_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


def mulhi_operands(dtype):
    info = np.iinfo(dtype)
    vals = [info.min, info.min + 1, -7 if info.min < 0 else 7, 0, 1, 3, info.max // 3, info.max - 1, info.max]
    x = np.array(vals, dtype)
    return x, x[::-1].copy()


def cases(lax, jnp):
    out = {}
    for d in MULHI_DTYPES:
        x, y = mulhi_operands(d)
        out[f"mulhi_{d}"] = np.asarray(lax.mulhi(x, y)).tolist()
    rng = np.random.default_rng(0)
    for k, (shape, window, strides, padding, ld, rd, dn) in enumerate(CONV_LOCAL):
        lhs = rng.standard_normal(shape)
        probe = lax.conv_general_dilated_patches(
            jnp.asarray(lhs), window, strides, padding, lhs_dilation=ld, rhs_dilation=rd, dimension_numbers=dn
        )
        out_spec = dn[2]
        spatial = [probe.shape[out_spec.index(c)] for c in dn[1] if c not in "OI"]
        feat = shape[dn[0].index("C")] * int(np.prod(window))
        rhs_shape = [0] * 4 if len(shape) == 4 else [0] * 3
        sp = iter(spatial)
        for i, c in enumerate(dn[1]):
            rhs_shape[i] = 2 if c == "O" else feat if c == "I" else next(sp)
        rhs = rng.standard_normal(rhs_shape)
        res = lax.conv_general_dilated_local(
            jnp.asarray(lhs),
            jnp.asarray(rhs),
            strides,
            padding,
            window,
            lhs_dilation=ld,
            rhs_dilation=rd,
            dimension_numbers=dn,
        )
        out[f"conv_local_{k}"] = np.asarray(res).tolist()
    out["permutations"] = [list(map(list, lax.conv_general_permutations(dn))) for *_, dn in CONV_LOCAL]
    return out
