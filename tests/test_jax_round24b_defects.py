"""Regression tests of what the round-24b JAX programs (tests/jax_programs_round24b/) found
(docs/jax-programs-round24b.md)."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.numpy as fnp
from fgrad import lax, random
from fgrad.example_libraries import stax


@pytest.mark.parametrize("layer", [stax.SumPool, stax.MaxPool, stax.AvgPool])
def test_pooling_init_of_an_any_size_batch_is_zero_as_in_jax(layer):
    """JAX's pooling layers compute their output shape by ``core.stride_dim``, which is never
    negative: the batch axis ``-1`` of ``init_fun(rng, (-1, 8, 8, 1))`` comes out ``0``; fgrad's
    said ``-1`` (a window of 1 over a length of -1), so a shape printed after a pooling layer
    differed from JAX's."""
    init_fun, _ = layer((2, 2), strides=(2, 2))
    assert init_fun(random.key(0), (-1, 8, 8, 1))[0] == (0, 4, 4, 1)
    assert init_fun(random.key(0), (3, 8, 8, 1))[0] == (3, 4, 4, 1)
    assert init_fun(random.key(0), (3, 1, 1, 1))[0] == (3, 0, 0, 1)  # a window larger than the input


def test_conv_shape_tuple_takes_a_padding_name():
    """``lax.conv_shape_tuple(lhs, rhs, strides, "SAME")`` resolves the name as JAX does (by
    ``padtype_to_pads``); fgrad raised TypeError."""
    assert lax.conv_shape_tuple((-1, 1, 8, 8), (8, 1, 3, 3), (1, 1), "SAME") == (-1, 8, 8, 8)
    assert lax.conv_shape_tuple((2, 1, 7, 9), (4, 1, 3, 2), (2, 3), "SAME") == (2, 4, 4, 3)
    assert lax.conv_shape_tuple((2, 1, 7, 9), (4, 1, 3, 2), (2, 3), "VALID") == (2, 4, 3, 3)
    explicit = lax.padtype_to_pads((7, 9), (3, 2), (2, 3), "SAME_LOWER")
    assert (lax.conv_shape_tuple((2, 1, 7, 9), (4, 1, 3, 2), (2, 3), "SAME_LOWER")
            == lax.conv_shape_tuple((2, 1, 7, 9), (4, 1, 3, 2), (2, 3), explicit))
    out = fnp.zeros((2, 1, 7, 9))
    conv = lax.conv_general_dilated(out, fnp.zeros((4, 1, 3, 2)), (2, 3), "SAME")
    assert conv.shape == tuple(int(d) for d in lax.conv_shape_tuple(out.shape, (4, 1, 3, 2), (2, 3), "SAME"))
    assert isinstance(lax.conv_shape_tuple((2, 1, 7, 9), (4, 1, 3, 2), (2, 3), "SAME")[2], np.integer)
