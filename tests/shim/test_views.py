"""Views, storage and in-place semantics of fgrad.torch match PyTorch: views share memory
(with each other and with NumPy), strides/offsets/data pointers are PyTorch's, in-place ops
are visible through every alias and bump a shared version counter."""

from __future__ import annotations

import contextlib
import io
import re
import warnings

import numpy as np
import pytest

import fgrad.torch as ft

_ADDR = re.compile(r"0x[0-9a-fA-F]+")


def _run(code: str, lib) -> str:
    buf = io.StringIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            with contextlib.redirect_stdout(buf):
                exec(code, {"t": lib, "np": np})
        except Exception as e:  # noqa: BLE001
            buf.write(f"EXC {type(e).__name__}: {e}\n")
    return _ADDR.sub("0x?", buf.getvalue())


def same_as_torch(code: str, expected: str | None = None) -> None:
    ours = _run(code, ft)
    try:
        import torch
    except Exception:  # noqa: BLE001
        torch = None
    if torch is not None:
        assert ours == _run(code, torch), code
    elif expected is not None:
        assert ours == expected, code
    else:
        pytest.skip("torch not installed and no recorded expectation")


def shares(a, b) -> bool:
    return np.shares_memory(a._buf, b._buf)


VIEW_OPS = [
    lambda x: x.view(4, 3),
    lambda x: x.view(-1),
    lambda x: x.view_as(ft.ones(2, 6)),
    lambda x: x.reshape(12),
    lambda x: x.flatten(),
    lambda x: x.unsqueeze(1),
    lambda x: x[None],
    lambda x: x.view(1, 3, 4).squeeze(0),
    lambda x: x.t(),
    lambda x: x.T,
    lambda x: x.transpose(0, 1),
    lambda x: x.permute(1, 0),
    lambda x: x.narrow(1, 1, 2),
    lambda x: x.select(0, 2),
    lambda x: x[1],
    lambda x: x[:, 1:3],
    lambda x: x[::2, ::3],
    lambda x: x[..., -1],
    lambda x: x.unbind(0)[1],
    lambda x: x.chunk(2, 1)[1],
    lambda x: x.split(1, 0)[2],
    lambda x: x.detach(),
    lambda x: x.data,
    lambda x: x.diagonal(),
    lambda x: x.unfold(1, 2, 1),
    lambda x: x[:1].expand(5, 4),
    lambda x: x.movedim(0, 1),
    lambda x: x.as_strided((2, 2), (1, 4)),
]


@pytest.mark.parametrize("op", VIEW_OPS)
def test_views_share_memory_and_see_writes(op):
    x = ft.arange(12.0).view(3, 4)
    v = op(x)
    assert shares(v, x)
    before = v.clone()
    x.add_(100)  # through the base
    assert ft.equal(v, before + 100)
    if v._buf.strides and 0 in v._buf.strides:
        return  # expanded views are not writable without overlap
    v.mul_(0)  # through the view
    assert float(x.abs().sum()) < float((ft.arange(12.0) + 100).sum())


def test_view_errors():
    with pytest.raises(RuntimeError, match=r"shape '\[4\]' is invalid for input of size 6"):
        ft.ones(3, 2).view(4)
    with pytest.raises(RuntimeError, match="view size is not compatible with input tensor's size and stride"):
        ft.ones(3, 4).t().view(12)
    with pytest.raises(RuntimeError, match="only one dimension can be inferred"):
        ft.ones(4).view(-1, -1)
    with pytest.raises(
        RuntimeError, match="The expanded size of the tensor \\(3\\) must match the existing size"
    ):
        ft.ones(2, 3).expand(3, 3)
    with pytest.raises(RuntimeError, match="t\\(\\) expects a tensor with <= 2 dimensions"):
        ft.ones(2, 2, 2).t()
    with pytest.raises(ValueError, match="step must be greater than zero"):
        ft.arange(4)[::-1]
    with pytest.raises(IndexError, match="index 5 is out of bounds for dimension 0 with size 2"):
        ft.ones(2)[5]


def test_reshape_copies_only_when_needed():
    x = ft.arange(12.0).view(3, 4)
    assert shares(x.reshape(4, 3), x)
    y = x.t().reshape(12)
    assert not shares(y, x) and y.tolist() == x.t().contiguous().view(12).tolist()
    assert shares(x.t().contiguous(), x) is False and x.contiguous() is x


def test_strides_offsets_and_contiguity():
    same_as_torch(
        "x = t.Tensor([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]]); print(x.stride(), x.t().stride())\n"
        "a = t.arange(0, 6, dtype=t.float32); b = a.view(2, 3); c = a[2:]; print(c.data_ptr() - "
        "a.data_ptr())\n"
        "c[0] = -100; print(a); d = t.Tensor(c.storage()); d[0] = 6666; print(b)\n"
        "print(a.storage_offset(), c.storage_offset(), d.storage_offset())\n"
        "e = b[::2, ::2]; print(b.stride(), e.stride(), e.is_contiguous(), e.contiguous().is_contiguous())\n"
        "print(len({x.untyped_storage().data_ptr() for x in (a, b, c, d)}))\n"
        "x = t.ones(3, 4); print(x[:, 1].stride(), x[1].stride(), x[:, None].stride(), "
        "x.unsqueeze(0).stride(), "
        "x.t().contiguous().stride(), x[1].storage_offset(), t.tensor(3.).stride(), t.ones(2, 3).expand(4, "
        "2, 3).stride())",
        "(5, 1) (1, 5)\n8\ntensor([   0.,    1., -100.,    3.,    4.,    5.])\n"
        "tensor([[ 6.6660e+03,  1.0000e+00, -1.0000e+02],\n        [ 3.0000e+00,  4.0000e+00,  "
        "5.0000e+00]])\n"
        "0 2 0\n(3, 1) (6, 2) False True\n1\n(4,) (1,) (4, 4, 1) (12, 4, 1) (3, 1) 4 () (0, 3, 1)\n",
    )


def test_storage_printing():
    same_as_torch(
        "a = t.arange(0, 6, dtype=t.float32); print(a.storage()); print(a[1:3].storage())\n"
        "print(t.arange(3).storage())"
    )


def test_storage_identity_and_sharing():
    a = ft.arange(6.0)
    b = a.view(2, 3)
    c = a[2:]
    assert a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr() == c.untyped_storage().data_ptr()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert id(a.storage()) == id(b.storage()) == id(c.storage())
        assert a.storage().size() == 6 and a.untyped_storage().nbytes() == 24
    d = ft.Tensor(c.storage())
    d[5] = 42
    assert float(a[5]) == 42 and d.storage_offset() == 0


def test_expand_allocates_nothing():
    a = ft.ones(3, 2)
    e = a.unsqueeze(0).expand(10000000000000, 3, 2)
    assert e.shape == (10000000000000, 3, 2) and e.stride() == (0, 2, 1) and shares(e, a)
    a[0, 0] = 7
    assert float(e[123456789, 0, 0]) == 7
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        ft.ones(1, 3).expand(2, 3).add_(1)


def test_numpy_sharing_both_ways():
    a = ft.ones(5)
    b = a.numpy()
    a.add_(1)
    assert b.tolist() == [2.0] * 5 and b.dtype == np.float32
    b[0] = 9
    assert float(a[0]) == 9
    n = np.ones(5)
    t = ft.from_numpy(n)
    t.add_(1)
    assert n.tolist() == [2.0] * 5 and t.dtype is ft.float64
    n[1] = -3
    assert float(t[1]) == -3
    m = np.arange(12.0).reshape(3, 4)[:, 1:3]
    tm = ft.from_numpy(m)
    tm.zero_()
    assert m.sum() == 0 and tm.stride() == (4, 1)
    with pytest.raises(ValueError, match="negative"):
        ft.from_numpy(np.arange(3.0)[::-1])
    assert np.asarray(ft.arange(3.0)).tolist() == [0.0, 1.0, 2.0]
    assert not shares(ft.tensor(n), t)


def test_as_tensor_shares_numpy_memory():
    n = np.zeros(3, np.float32)
    t = ft.as_tensor(n)
    n[0] = 5
    assert float(t[0]) == 5 and ft.as_tensor(t) is t


def test_detach_shares_version_counter_but_data_does_not():
    x = ft.ones(3)
    d = x.detach()
    d.add_(1)
    assert x._version == 1 and d._version == 1 and float(x[0]) == 2
    dd = x.data
    dd.add_(1)
    assert x._version == 1 and float(x[0]) == 3


def test_versions_are_shared_by_views():
    x = ft.arange(6.0).view(2, 3)
    v = x[:, 1]
    v.mul_(10)
    assert x._version == v._version == 1
    x += 1
    assert v._version == 2 and v.tolist() == [11.0, 41.0]
    x[0, 0] = 5
    assert x._version == 3


def test_inplace_ops_visible_through_views_and_numpy():
    x = ft.zeros(3, 4)
    n = x.numpy()
    row = x[1]
    col = x[:, 2]
    x[1] = 5
    x[:, 2] = ft.arange(3.0)
    assert row.tolist() == [5.0, 5.0, 1.0, 5.0] and n[1, 0] == 5 and col.tolist() == [0.0, 1.0, 2.0]
    x[x > 4] = -1
    assert n[1].tolist() == [-1.0, -1.0, 1.0, -1.0]
    x[[0, 2], [1, 3]] = 7
    assert n[0, 1] == 7 and n[2, 3] == 7
    y = ft.ones(2, 3)
    y.t_()
    assert y.shape == (3, 2)
    y.unsqueeze_(0)
    assert y.shape == (1, 3, 2)
    y.squeeze_()
    assert y.shape == (3, 2)
    z = ft.ones(3)
    z.fill_(2).mul_(3).sub_(1).div_(5).clamp_(max=0.5)
    assert z.tolist() == [0.5, 0.5, 0.5]
    z.copy_(ft.tensor([1, 2, 3]))
    assert z.tolist() == [1.0, 2.0, 3.0] and z.dtype is ft.float32
    z.zero_()
    assert z.tolist() == [0.0, 0.0, 0.0]


def test_inplace_dtype_rules():
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        ft.tensor([1, 2]).add_(1.5)
    x = ft.tensor([1.0, 2.0], dtype=ft.float16)
    x.add_(ft.tensor([1.0], dtype=ft.float64))
    assert x.dtype is ft.float16 and x.tolist() == [2.0, 3.0]
    with pytest.raises(RuntimeError, match="output with shape \\[2\\] doesn't match the broadcast shape"):
        ft.ones(2).add_(ft.ones(3, 2))


def test_resize_keeps_data_and_grows():
    same_as_torch(
        "a = t.arange(0, 6); b = a.view(2, 3); c = b.view(1, 1, 1, 2, 3); c.squeeze_(0); print(c.shape)\n"
        "a[1] = 100; print(b); b.resize_(1, 3); print(b); b.resize_(3, 3); print(b.shape, b[:2])",
        "torch.Size([1, 1, 2, 3])\ntensor([[  0, 100,   2],\n        [  3,   4,   5]])\n"
        "tensor([[  0, 100,   2]])\ntorch.Size([3, 3]) tensor([[  0, 100,   2],\n        [  3,   4,   5]])\n",
    )


def test_clone_contiguous_and_copy_semantics():
    x = ft.arange(6.0).view(2, 3)
    c = x.clone()
    assert not shares(c, x) and ft.equal(c, x)
    tc = x.t().clone()
    assert tc.stride() == (1, 3)  # clone preserves the layout, as PyTorch
    assert x.t().contiguous().stride() == (2, 1)
    assert x.t().contiguous().is_contiguous() and not x.t().is_contiguous()


def test_out_argument():
    x, y = ft.ones(5, 3), ft.ones(5, 3)
    result = ft.Tensor(5, 3)
    r = ft.add(x, y, out=result)
    assert r is result and result.tolist() == [[2.0] * 3] * 5 and result._version == 1
    out = ft.empty(0)
    ft.mul(x, 3, out=out)
    assert out.shape == (5, 3)
    with pytest.raises(RuntimeError, match="result type Float can't be cast to the desired output type Long"):
        ft.add(x, y, out=ft.empty(5, 3, dtype=ft.int64))
    with pytest.raises(RuntimeError, match="functions with out=... arguments don't support automatic"):
        ft.add(ft.ones(3, requires_grad=True), 1, out=ft.empty(3))
    v, i = ft.empty(0), ft.empty(0, dtype=ft.int64)
    ft.max(ft.tensor([[1.0, 3.0], [4.0, 2.0]]), 1, out=(v, i))
    assert v.tolist() == [3.0, 4.0] and i.tolist() == [1, 0]


def test_unbind_split_chunk_values():
    same_as_torch(
        "x = t.arange(6.).view(2, 3); print(x.unbind(1), x.chunk(2, 1), x.split(2, 1), x.split([1, 2], 1), "
        "x.narrow(1, 1, 2), x.select(1, 0), t.tensor_split(t.arange(7), 3))"
    )


def test_indexing_matches_pytorch():
    same_as_torch(
        "x = t.arange(12).view(3, 4); print(x[1], x[1:, ::2], x[..., 1], x[None].shape, x[:, None, 1].shape, "
        "x[[0, 2]], x[[0, 2], [1, 3]], x[x > 5], x[t.tensor([True, False, True])], x[t.tensor(1)], x[0, -1])"
    )


def test_iteration_and_containment():
    x = ft.arange(6.0).view(3, 2)
    rows = list(x)
    assert len(rows) == 3 and shares(rows[1], x) and rows[1].tolist() == [2.0, 3.0]
    assert 3.0 in x and 7.0 not in x
    with pytest.raises(TypeError, match="iteration over a 0-d tensor"):
        iter(ft.tensor(1.0))
