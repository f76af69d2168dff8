"""Regression: hypothesis's pytest plugin nests a parametrized @given test's settings one
level deeper per invocation; without conftest.py's reset, one test function with ~1000
parametrized cases (test_op_table's test_forward) hit RecursionError reading a setting."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

_DEPTHS: list[int] = []


def _chain_depth(s) -> int:
    depth = 0
    while getattr(s, "_fallback", None) is not None:
        s = s._fallback
        depth += 1
    return depth


@pytest.mark.parametrize("case", range(4))
@given(x=st.integers())
def test_parametrized_given(case, x):
    fn = test_parametrized_given.hypothesis.inner_test
    outer = getattr(test_parametrized_given, "__func__", test_parametrized_given)
    own = getattr(outer, "_hypothesis_internal_use_settings", None) or getattr(
        fn, "_hypothesis_internal_use_settings", None)
    _DEPTHS.append(_chain_depth(own))


def test_settings_chain_does_not_grow():
    if len(_DEPTHS) < 8:
        pytest.skip("run together with test_parametrized_given")
    assert max(_DEPTHS) == min(_DEPTHS), f"settings chain grows across parametrized cases: {_DEPTHS}"
