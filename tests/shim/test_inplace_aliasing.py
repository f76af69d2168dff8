"""In-place ops whose operands alias the written tensor, against PyTorch.

Each case is a small program run twice, with ``torch`` bound to fgrad.torch and to PyTorch
(when installed; otherwise to the PyTorch output stored next to it).  The printed values,
gradients and ``_version`` numbers must agree, and so must the exception type and message:
PyTorch's memory-overlap error ("unsupported operation: some elements of the input tensor
and the written-to tensor refer to a single memory location"), its version-counter error
("one of the variables needed for gradient computation has been modified by an inplace
operation") and its leaf errors.  ``fix`` cases gave other numbers (or no error) before the
version/overlap rules of docs/autograd-inplace.md; ``guard`` cases already agreed and keep
the common, legal in-place patterns working.
"""

from __future__ import annotations

import io
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fgrad.torch as ft
from _peers import comparable_text, torch_or_none

ALIAS = (
    "unsupported operation: some elements of the input tensor and the written-to tensor refer to a single "
    "memory location. Please clone() the tensor before performing the operation."
)


def run_case(code: str, lib) -> str:
    """Run ``code`` with ``torch`` bound to ``lib``; return what its ``show`` calls printed,
    then ``EXC <type>: <first line of the message>`` if it raised."""
    out = io.StringIO()

    def show(*xs):
        items = []
        for x in xs:
            if hasattr(x, "detach"):
                vals = np.asarray(x.detach().tolist(), dtype=float).reshape(-1)
                items.append(repr([round(float(v), 4) for v in vals]))
            else:
                items.append(repr(x))
        print(*items, file=out)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            exec(code, {"torch": lib, "np": np, "show": show})
        except Exception as e:  # noqa: BLE001
            out.write(f"EXC {type(e).__name__}: {str(e).splitlines()[0]}\n")
    return out.getvalue()


def _torch():
    return torch_or_none()


# (kind, category, program, PyTorch 2.13's output)
CASES: list[tuple[str, str, str, str]] = [
    (
        'guard', 'values',
        'a = torch.tensor([1., 2, 3, 4]); a.mul_(a); show(a, a._version)',
        '[1.0, 4.0, 9.0, 16.0] 1\n',
    ),
    (
        'fix', 'values',
        'a = torch.tensor([1., 2, 3, 4]); a[1:].mul_(a[:-1]); show(a, a._version)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'a = torch.tensor([1., 2, 3, 4]); a[:-1].mul_(a[1:]); show(a, a._version)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'a = torch.tensor([1., 2, 3, 4]); a[1:].add_(a[:-1]); show(a)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'a = torch.tensor([1., 2, 3, 4]); a[1:].copy_(a[:-1]); show(a)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'a = torch.tensor([1., 2, 3, 4]); a[:-1].copy_(a[1:]); show(a)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'a = torch.tensor([1., 2, 3, 4]); a.detach()[1:].mul_(a[:-1]); show(a, a._version)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'a = torch.tensor([1., 2, 3, 4]); a[1:].addcmul_(a[:-1], a[:-1]); show(a)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'a = torch.tensor([1., 2, 3, 4]); a[1:].addcmul_(a[:-1], a[1:], value=2); show(a)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'a = torch.tensor([1., 2, 3, 4]); a[1:].addcdiv_(a[:-1], a[1:], value=2); show(a)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'guard', 'values',
        'a = torch.arange(6.).view(2,3); a.t().mul_(a.t()); show(a)',
        '[0.0, 1.0, 4.0, 9.0, 16.0, 25.0]\n',
    ),
    (
        'fix', 'values',
        'a = torch.arange(4.).view(2,2); a.add_(a.t()); show(a)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'a = torch.arange(4.).view(2,2); a.copy_(a.t()); show(a)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'a = torch.arange(9.).view(3,3); a.copy_(a.t()); show(a)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'a = torch.tensor([1., 2, 3, 4]); torch.mul(a[1:], a[:-1], out=a[:-1]); show(a)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'a = torch.tensor([1., 2, 3, 4]); torch.add(a[1:], a[:-1], out=a[:-1]); show(a)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'a = torch.tensor([1., 2, 3, 4]); torch.exp(a[1:], out=a[:-1]); show(a)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'guard', 'values',
        'a = torch.tensor([1., 2, 3, 4]); torch.cumsum(a, 0, out=a); show(a)',
        '[1.0, 3.0, 6.0, 10.0]\n',
    ),
    (
        'guard', 'values',
        'a = torch.tensor([1., 2, 3, 4]); torch.mul(a, 2, out=a); show(a, a._version)',
        '[2.0, 4.0, 6.0, 8.0] 1\n',
    ),
    (
        'fix', 'values',
        'a = torch.arange(4.).view(2,2); a.t().copy_(a); show(a)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'guard', 'values',
        'x = torch.tensor([1., 2, 3, 4]); idx = torch.tensor([0, 2]); x[idx] = x[idx] * 2; show(x'
        ', x._version)',
        '[2.0, 2.0, 6.0, 4.0] 1\n',
    ),
    (
        'fix', 'values',
        'x = torch.tensor([1., 2, 3, 4]); x[1:] = x[:-1]; show(x, x._version)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'x = torch.tensor([1., 2, 3, 4]); x[1:] += x[:-1]; show(x, x._version)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'guard', 'values',
        'x = torch.tensor([1., 2, 3, 4]); x[torch.tensor([1,2,3])] = x[torch.tensor([0,1,2])]; sh'
        'ow(x)',
        '[1.0, 1.0, 2.0, 3.0]\n',
    ),
    (
        'fix', 'values',
        'x = torch.tensor([1., 2, 3, 4]); x.index_copy_(0, torch.tensor([1,2,3]), x[:-1]); show(x'
        ')',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'x = torch.tensor([1., 2, 3, 4]); x.index_add_(0, torch.tensor([1,2,3]), x[:-1]); show(x)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'x = torch.tensor([1., 2, 3, 4]); x.scatter_(0, torch.tensor([1,2,3]), x[:-1]); show(x)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'guard', 'values',
        'x = torch.tensor([1., 2, 3, 4]); x.expand(2, 4).add_(1); show(x)',
        'EXC RuntimeError: unsupported operation: more than one element of the written-to tensor '
        'refers to a single memory location. Please clone() the tensor before performing the oper'
        'ation.\n',
    ),
    (
        'guard', 'values',
        'x = torch.tensor([1.]); x.expand(3).mul_(2); show(x)',
        'EXC RuntimeError: unsupported operation: more than one element of the written-to tensor '
        'refers to a single memory location. Please clone() the tensor before performing the oper'
        'ation.\n',
    ),
    (
        'guard', 'values',
        'x = torch.tensor([1., 2, 3, 4]); x.add_(x.expand(1, 4)[0]); show(x)',
        '[2.0, 4.0, 6.0, 8.0]\n',
    ),
    (
        'fix', 'values',
        'x = torch.tensor([1., 2, 3, 4]); x.clamp_(min=x[1:2]); show(x)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'x = torch.tensor([1., 2, 3, 4]); x[1:].lerp_(x[:-1], 0.5); show(x)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'x = torch.tensor([1., 2, 3, 4]); x[1:].sub_(x[:-1], alpha=2); show(x)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'x = torch.tensor([1., 2, 3, 4]); x[1:].div_(x[:-1]); show(x)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'x = torch.tensor([1., 2, 3, 4]); x[1:].pow_(x[:-1]); show(x)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'guard', 'values',
        'x = torch.tensor([1., 2, 3, 4]); torch.where(x > 2, x[:], x * 0, out=x); show(x)',
        '[0.0, 0.0, 3.0, 4.0]\n',
    ),
    (
        'guard', 'values',
        'a = torch.tensor([1., 2, 3, 4]); a[::2].mul_(a[1::2]); show(a)',
        '[2.0, 2.0, 12.0, 4.0]\n',
    ),
    (
        'guard', 'values',
        'a = torch.arange(8.).view(2,4); a[1].add_(a[0]); show(a)',
        '[0.0, 1.0, 2.0, 3.0, 4.0, 6.0, 8.0, 10.0]\n',
    ),
    (
        'guard', 'values',
        'a = torch.arange(4.); a.flip(0).mul_(a); show(a)',
        '[0.0, 1.0, 2.0, 3.0]\n',
    ),
    (
        'fix', 'values',
        'x = torch.arange(4.).view(2,2); x.add_(x[0]); show(x)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'x = torch.arange(4.); x.mul_(x[0]); show(x)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'guard', 'values',
        'x = torch.arange(8.).view(2,4); a = x[:, ::2]; a.mul_(x[:, ::2]); show(x)',
        '[0.0, 1.0, 4.0, 3.0, 16.0, 5.0, 36.0, 7.0]\n',
    ),
    (
        'fix', 'values',
        'x = torch.arange(4.); x.index_copy_(0, torch.tensor([3,2,1,0]), x); show(x)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'x = torch.arange(4.); x.index_add_(0, torch.tensor([3,2,1,0]), x); show(x)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'x = torch.arange(4.); x.scatter_(0, torch.tensor([3,2,1,0]), x); show(x)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'guard', 'values',
        'x = torch.arange(4.); x.copy_(x); show(x, x._version)',
        '[0.0, 1.0, 2.0, 3.0] 1\n',
    ),
    (
        'guard', 'values',
        'x = torch.arange(4.); x.copy_(x.detach()); show(x, x._version)',
        '[0.0, 1.0, 2.0, 3.0] 1\n',
    ),
    (
        'guard', 'values',
        'x = torch.arange(4.); x.copy_(x.data); show(x, x._version)',
        '[0.0, 1.0, 2.0, 3.0] 1\n',
    ),
    (
        'guard', 'values',
        'x = torch.arange(4.); x[:] = x; show(x, x._version)',
        '[0.0, 1.0, 2.0, 3.0] 1\n',
    ),
    (
        'guard', 'values',
        'x = torch.arange(4.); x[:2] = x[2:]; show(x, x._version)',
        '[2.0, 3.0, 2.0, 3.0] 1\n',
    ),
    (
        'fix', 'values',
        'x = torch.arange(4.); x[[0, 1]] = x[2:]; show(x, x._version)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'values',
        'x = torch.arange(4.); x[torch.tensor([True, True, False, False])] = x[1:3]; show(x, x._v'
        'ersion)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'guard', 'values',
        'x = torch.arange(4.); x[1:] = x[:-1] * 2; show(x, x._version)',
        '[0.0, 0.0, 2.0, 4.0] 1\n',
    ),
    (
        'fix', 'values',
        'x = torch.arange(4.); x.data[1:].mul_(x[:-1]); show(x)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'guard', 'values',
        'x = torch.arange(4.); torch.add(x, x, out=x); show(x, x._version)',
        '[0.0, 2.0, 4.0, 6.0] 1\n',
    ),
    (
        'guard', 'values',
        'x = torch.arange(4.); torch.sin(x, out=x); show(x, x._version)',
        '[0.0, 0.8415, 0.9093, 0.1411] 1\n',
    ),
    (
        'fix', 'values',
        'x = torch.arange(4.); torch.neg(x[:2], out=x[1:3]); show(x, x._version)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'guard', 'values',
        'x = torch.arange(4.); torch.add(x[:2], 1, out=x[2:]); show(x, x._version)',
        '[0.0, 1.0, 1.0, 2.0] 1\n',
    ),
    (
        'guard', 'values',
        'x = torch.arange(4.); torch.cumsum(x, 0, out=x); show(x, x._version)',
        '[0.0, 1.0, 3.0, 6.0] 1\n',
    ),
    (
        'guard', 'values',
        'x = torch.arange(4.); x.add_(1).mul_(2); x[0] = 1; x.zero_(); show(x, x._version)',
        '[0.0, 0.0, 0.0, 0.0] 4\n',
    ),
    (
        'guard', 'values',
        'x = torch.arange(4.); v = x.view(2, 2); v.t().add_(1); d = x.detach(); d[0] = 3; show(x.'
        '_version, v._version, d._version)',
        '2 2 2\n',
    ),
    (
        'guard', 'values',
        'x = torch.arange(4.); x += 1; x *= 2; x -= x; show(x, x._version)',
        '[0.0, 0.0, 0.0, 0.0] 3\n',
    ),
    (
        'guard', 'values',
        'x = torch.arange(4., requires_grad=True); y = x * 2; y += 1; y *= y; show(y._version)',
        '2\n',
    ),
    (
        'guard', 'values',
        'x = torch.tensor([1., 2, 3], requires_grad=True); opt = torch.optim.SGD([x], lr=0.1, mom'
        'entum=0.9); (x ** 2).sum().backward(); opt.step(); show(x, x._version)',
        '[0.8, 1.6, 2.4] 1\n',
    ),
    (
        'guard', 'values',
        'x = torch.tensor([1., 2, 3], requires_grad=True); opt = torch.optim.Adam([x], lr=0.1); ('
        'x ** 2).sum().backward(); opt.step(); opt.step(); show(x, x._version)',
        '[0.8, 1.8, 2.8] 2\n',
    ),
    (
        'fix', 'values',
        'x = torch.tensor([1., 2, 3], requires_grad=True); y = x.max(); y.add_(1); y.backward()',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor []], which is output 0 of Max1, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'guard', 'values',
        'x = torch.tensor([1., 2, 3], requires_grad=True); a = x * 1; y = a.max(); a.add_(1); y.b'
        'ackward()',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Add, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'guard', 'values',
        'x = torch.tensor([1., 2, 3], requires_grad=True); a = x * 1; y = a.sum(0); a.add_(1); sh'
        'ow(y.grad_fn.name()); y.backward(); show(x.grad)',
        "'SumBackward1'\n[1.0, 1.0, 1.0]\n",
    ),
    (
        'guard', 'values',
        'x = torch.tensor([1., 2, 3], requires_grad=True); a = x * 1; y = a.max(0)[0]; a.add_(1);'
        ' show(y.grad_fn.name()); y.backward(); show(x.grad)',
        "'MaxBackward0'\n[0.0, 0.0, 1.0]\n",
    ),
    (
        'guard', 'values',
        'x = torch.tensor([1., 2, 3], requires_grad=True); a = x * 1; y = a[1:].mul(a[:-1]); a.ad'
        'd_(1); y.sum().backward()',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [2]], which is output 0 of AsStrided, is at'
        ' version 1; expected version 0 instead. Hint: enable anomaly detection to find the opera'
        'tion that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, c'
        'heck_nan=False).\n',
    ),
    (
        'guard', 'values',
        'x = torch.tensor([1., 2, 3], requires_grad=True); a = x * 1; y = a.pow(2); a.mul_(2); y.'
        'sum().backward()',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Mul, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'guard', 'values',
        'x = torch.tensor([1., 2, 3], requires_grad=True); a = x * 1; y = a.pow(2); a.data.mul_(2'
        '); y.sum().backward(); show(x.grad)',
        '[4.0, 8.0, 12.0]\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3], requires_grad=True); a = x * 1; a.mul_(a); a.sum().backward'
        '(); show(a, x.grad, a._version, a.grad_fn.name())',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Mul, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; a[1:].mul_(a[:-1]); a.su'
        'm().backward(); show(a, x.grad)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; a.mul_(a.detach()); a.su'
        'm().backward(); show(a, x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [4]] is at version 1; expected version 0 in'
        'stead. Hint: enable anomaly detection to find the operation that failed to compute its g'
        'radient, with torch.autograd.set_detect_anomaly(True, check_nan=False).\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; b = a.detach(); b.mul_(2'
        '); a.sum().backward(); show(a, x.grad)',
        '[2.0, 4.0, 6.0, 8.0] [1.0, 1.0, 1.0, 1.0]\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x.exp(); b = a.detach(); b.mul_'
        '(2); a.sum().backward(); show(a, x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [4]], which is output 0 of Exp, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x.exp(); b = a.data; b.mul_(2);'
        ' a.sum().backward(); show(a, x.grad, a._version, b._version)',
        '[5.4366, 14.7781, 40.1711, 109.1963] [5.4366, 14.7781, 40.1711, 109.1963] 0 1\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3], requires_grad=True); y = x.exp(); y.add_(1); y.sum().backwa'
        'rd(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Exp, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3], requires_grad=True); a = x * 1; y = a.sin(); a.add_(1); y.s'
        'um().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Add, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3], requires_grad=True); a = x * 1; y = a.sin(); a[0].add_(1); '
        'y.sum().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of torch::autograd:'
        ':CopySlices, is at version 1; expected version 0 instead. Hint: enable anomaly detection'
        ' to find the operation that failed to compute its gradient, with torch.autograd.set_dete'
        'ct_anomaly(True, check_nan=False).\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3], requires_grad=True); a = x * 1; y = a.sin(); a.detach().add'
        '_(1); y.sum().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Mul, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3], requires_grad=True); a = x * 1; y = a.sin(); a.data.add_(1)'
        '; y.sum().backward(); show(x.grad, a._version)',
        '[-0.4161, -0.99, -0.6536] 0\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3], requires_grad=True); x.add_(1)',
        'EXC RuntimeError: a leaf Variable that requires grad is being used in an in-place operat'
        'ion.\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3], requires_grad=True); x[0].add_(1)',
        'EXC RuntimeError: a view of a leaf Variable that requires grad is being used in an in-pl'
        'ace operation.\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3], requires_grad=True); x[0] = 5',
        'EXC RuntimeError: a view of a leaf Variable that requires grad is being used in an in-pl'
        'ace operation.\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3], requires_grad=True); x.detach().add_(1); show(x, x._version'
        ')',
        '[2.0, 3.0, 4.0] 1\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3], requires_grad=True); x.data.add_(1); show(x, x._version)',
        '[2.0, 3.0, 4.0] 0\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3], requires_grad=True); y = x.sin(); x.data.add_(1); y.sum().b'
        'ackward(); show(x.grad)',
        '[-0.4161, -0.99, -0.6536]\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3], requires_grad=True); y = x.sin(); x.detach().add_(1); y.sum'
        '().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]] is at version 1; expected version 0 in'
        'stead. Hint: enable anomaly detection to find the operation that failed to compute its g'
        'radient, with torch.autograd.set_detect_anomaly(True, check_nan=False).\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3], requires_grad=True); y = x * 2; y.relu_(); y.sum().backward'
        '(); show(x.grad, y._version, y.grad_fn.name())',
        "[2.0, 2.0, 2.0] 1 'ReluBackward0'\n",
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([-1., 2, 3], requires_grad=True); y = x * 2; z = y.relu_(); w = z * 3; '
        'w.sum().backward(); show(x.grad)',
        '[0.0, 6.0, 6.0]\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([-1., 2, 3], requires_grad=True); y = x.relu(); y.mul_(2); y.sum().back'
        'ward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Relu, is at vers'
        'ion 1; expected version 0 instead. Hint: enable anomaly detection to find the operation '
        'that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_'
        'nan=False).\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([-1., 2, 3], requires_grad=True); y = x.sigmoid(); y.mul_(2); y.sum().b'
        'ackward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Sigmoid, is at v'
        'ersion 1; expected version 0 instead. Hint: enable anomaly detection to find the operati'
        'on that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, che'
        'ck_nan=False).\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([-1., 2, 3], requires_grad=True); y = x.tanh(); z = y * 1; y.mul_(2); z'
        '.sum().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Tanh, is at vers'
        'ion 1; expected version 0 instead. Hint: enable anomaly detection to find the operation '
        'that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_'
        'nan=False).\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3], requires_grad=True); w = torch.tensor([4., 5, 6], requires_'
        'grad=True); y = x * w; w2 = w * 1; y2 = x * w2; w2.add_(1); y2.sum().backward(); show(x.'
        'grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Add, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3], requires_grad=True); a = x * 1; y = a * a; a.mul_(2); y.sum'
        '().backward()',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Mul, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3], requires_grad=True); a = x * 1; y = a + a; a.mul_(2); y.sum'
        '().backward(); show(x.grad)',
        '[2.0, 2.0, 2.0]\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3], requires_grad=True); a = x * 1; y = a * 2; a.mul_(2); y.sum'
        '().backward(); show(x.grad)',
        '[2.0, 2.0, 2.0]\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3], requires_grad=True); a = x * 1; v = a[:2]; y = v.exp(); a.a'
        'dd_(1); y.sum().backward()',
        '',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3], requires_grad=True); a = x * 1; v = a[:2]; y = v.exp(); v2 '
        '= a[2:]; v2.add_(1); y.sum().backward(); show(x.grad)',
        '[2.7183, 7.3891, 0.0]\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; a[1:].add_(a[:-1])',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; a[1:] = a[:-1] * 2; a.su'
        'm().backward(); show(a, x.grad, a._version)',
        '[1.0, 2.0, 4.0, 6.0] [3.0, 2.0, 2.0, 0.0] 1\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; idx = torch.tensor([0, 2'
        ']); a[idx] = a[idx].exp(); a.sum().backward(); show(a, x.grad, a._version)',
        '[2.7183, 2.0, 20.0855, 4.0] [2.7183, 1.0, 20.0855, 1.0] 1\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; a[a > 2] = a[a > 2] ** 2'
        '; a.sum().backward(); show(a, x.grad, a._version)',
        '[1.0, 2.0, 9.0, 16.0] [1.0, 1.0, 6.0, 8.0] 1\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x.exp(); a[0] = 0; a.sum().back'
        'ward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [4]], which is output 0 of Exp, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; b = a.exp(); a[0] = 0; b'
        '.sum().backward(); show(x.grad)',
        '[2.7183, 7.3891, 20.0855, 54.5981]\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; a.addcmul_(a, a, value=2'
        '); a.sum().backward(); show(a, x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [4]], which is output 0 of Addcmul, is at v'
        'ersion 1; expected version 0 instead. Hint: enable anomaly detection to find the operati'
        'on that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, che'
        'ck_nan=False).\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; a.addcdiv_(a, a + 1); a.'
        'sum().backward(); show(a, x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [4]], which is output 0 of Addcdiv, is at v'
        'ersion 1; expected version 0 instead. Hint: enable anomaly detection to find the operati'
        'on that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, che'
        'ck_nan=False).\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; a.add_(a, alpha=3); a.su'
        'm().backward(); show(a, x.grad)',
        '[4.0, 8.0, 12.0, 16.0] [4.0, 4.0, 4.0, 4.0]\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; a.copy_(a); a.sum().back'
        'ward(); show(a, x.grad, a._version)',
        '[1.0, 2.0, 3.0, 4.0] [1.0, 1.0, 1.0, 1.0] 1\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; a.copy_(a * 2); a.sum().'
        'backward(); show(a, x.grad, a._version)',
        '[2.0, 4.0, 6.0, 8.0] [2.0, 2.0, 2.0, 2.0] 1\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; a.pow_(a); a.sum().backw'
        'ard(); show(a, x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [4]], which is output 0 of Pow1, is at vers'
        'ion 1; expected version 0 instead. Hint: enable anomaly detection to find the operation '
        'that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_'
        'nan=False).\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; a.div_(a); a.sum().backw'
        'ard(); show(a, x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [4]], which is output 0 of Div, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; a.lerp_(a * 2, 0.3); a.s'
        'um().backward(); show(a, x.grad)',
        '[1.3, 2.6, 3.9, 5.2] [1.3, 1.3, 1.3, 1.3]\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; a.mul_(a).mul_(a); a.sum'
        '().backward(); show(a, x.grad, a._version)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [4]], which is output 0 of Mul, is at versi'
        'on 2; expected version 1 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; v = a.view(2, 2); v.mul_'
        '(v.t()); a.sum().backward(); show(a, x.grad)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; v = a.view(2, 2); v.mul_'
        '(v); a.sum().backward(); show(a, x.grad, a._version, v._version)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [2, 2]], which is output 0 of AsStrided, is'
        ' at version 1; expected version 0 instead. Hint: enable anomaly detection to find the op'
        'eration that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True'
        ', check_nan=False).\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; v = a[1:3]; v.mul_(v); a'
        '.sum().backward(); show(a, x.grad, a._version)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [2]], which is output 0 of AsStrided, is at'
        ' version 1; expected version 0 instead. Hint: enable anomaly detection to find the opera'
        'tion that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, c'
        'heck_nan=False).\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; v = a[1:3]; v.mul_(a[1:3'
        ']); a.sum().backward(); show(a, x.grad, a._version)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [2]], which is output 0 of AsStrided, is at'
        ' version 1; expected version 0 instead. Hint: enable anomaly detection to find the opera'
        'tion that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, c'
        'heck_nan=False).\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; a[::2].mul_(a[1::2]); a.'
        'sum().backward(); show(a, x.grad, a._version)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [2]], which is output 0 of AsStrided, is at'
        ' version 1; expected version 0 instead. Hint: enable anomaly detection to find the opera'
        'tion that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, c'
        'heck_nan=False).\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; a[:2].mul_(a[2:]); a.sum'
        '().backward(); show(a, x.grad, a._version)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [2]], which is output 0 of AsStrided, is at'
        ' version 1; expected version 0 instead. Hint: enable anomaly detection to find the opera'
        'tion that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, c'
        'heck_nan=False).\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; a[:2].mul_(a[2:].exp());'
        ' (a * a).sum().backward(); show(a, x.grad, a._version)',
        '[20.0855, 109.1963, 3.0, 4.0] [806.8576, 11923.8311, 812.8576, 23855.6621] 1\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; a[:2].copy_(a[2:]); (a *'
        ' a).sum().backward(); show(a, x.grad, a._version)',
        '[3.0, 4.0, 3.0, 4.0] [0.0, 0.0, 12.0, 16.0] 1\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; a[:2] = a[2:]; (a * a).s'
        'um().backward(); show(a, x.grad, a._version)',
        '[3.0, 4.0, 3.0, 4.0] [0.0, 0.0, 12.0, 16.0] 1\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; b = a[2:]; a[:2] = b; b.'
        'mul_(2); (a * a).sum().backward(); show(a, x.grad, a._version)',
        '[3.0, 4.0, 6.0, 8.0] [0.0, 0.0, 30.0, 40.0] 2\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x * 1; a[:2].mul_(a[2:]); a[2:]'
        '.mul_(a[:2]); (a * a).sum().backward(); show(a, x.grad, a._version)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [2]], which is output 0 of AsStrided, is at'
        ' version 2; expected version 1 instead. Hint: enable anomaly detection to find the opera'
        'tion that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, c'
        'heck_nan=False).\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x.clone(); b = a[:2]; c = b * a'
        '[2:]; a[2:].zero_(); c.sum().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [2]], which is output 0 of AsStrided, is at'
        ' version 1; expected version 0 instead. Hint: enable anomaly detection to find the opera'
        'tion that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, c'
        'heck_nan=False).\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x.clone(); c = a[:2] * a[2:]; a'
        '[2:].zero_(); c.sum().backward()',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [2]], which is output 0 of AsStrided, is at'
        ' version 1; expected version 0 instead. Hint: enable anomaly detection to find the opera'
        'tion that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, c'
        'heck_nan=False).\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x.clone(); c = a[:2] * 3; a[2:]'
        '.zero_(); c.sum().backward(); show(x.grad)',
        '[3.0, 3.0, 0.0, 0.0]\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x.clone(); c = a[:2].exp(); a[2'
        ':].zero_(); c.sum().backward()',
        '',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x.clone(); c = a.exp(); d = c[:'
        '2]; c[2:].zero_(); d.sum().backward()',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [4]], which is output 0 of Exp, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); a = x.clone(); c = a.exp(); d = c[:'
        '2] * 1; c[2:].zero_(); c.sum().backward()',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [4]], which is output 0 of Exp, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'guard', 'grads',
        'w = torch.tensor([1., 2, 3], requires_grad=True); opt = torch.optim.SGD([w], lr=0.1, mom'
        'entum=0.9, weight_decay=0.1); \nfor _ in range(3):\n    opt.zero_grad(); (w ** 2).sum().ba'
        'ckward(); opt.step()\nshow(w, w._version)',
        '[0.0243, 0.0486, 0.073] 3\n',
    ),
    (
        'guard', 'grads',
        'w = torch.tensor([1., 2, 3], requires_grad=True); opt = torch.optim.Adam([w], lr=0.1, we'
        'ight_decay=0.1, amsgrad=True)\nfor _ in range(3):\n    opt.zero_grad(); (w ** 2).sum().bac'
        'kward(); opt.step()\nshow(w, w._version)',
        '[0.7016, 1.7006, 2.7004] 3\n',
    ),
    (
        'guard', 'grads',
        'w = torch.tensor([1., 2, 3], requires_grad=True); opt = torch.optim.AdamW([w], lr=0.1)\nf'
        'or _ in range(3):\n    opt.zero_grad(); (w ** 3).sum().backward(); opt.step()\nshow(w, w._'
        'version, w.grad._version)',
        '[0.7015, 1.6958, 2.6922] 6 0\n',
    ),
    (
        'guard', 'grads',
        'w = torch.tensor([1., 2, 3], requires_grad=True); opt = torch.optim.SGD([w], lr=0.1); y '
        '= w.exp(); opt.step() if w.grad is not None else None; y.sum().backward(); opt.step(); s'
        'how(w, w._version)',
        '[0.7282, 1.2611, 0.9914] 1\n',
    ),
    (
        'guard', 'grads',
        'w = torch.tensor([1., 2, 3], requires_grad=True); y = w.sin(); opt = torch.optim.SGD([w]'
        ', lr=0.1); w.grad = torch.ones(3); opt.step(); y.sum().backward()',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]] is at version 1; expected version 0 in'
        'stead. Hint: enable anomaly detection to find the operation that failed to compute its g'
        'radient, with torch.autograd.set_detect_anomaly(True, check_nan=False).\n',
    ),
    (
        'guard', 'grads',
        'w = torch.tensor([1., 2, 3], requires_grad=True); y = w * 2; opt = torch.optim.SGD([w], '
        'lr=0.1); w.grad = torch.ones(3); opt.step(); y.sum().backward(); show(w.grad)',
        '[3.0, 3.0, 3.0]\n',
    ),
    (
        'guard', 'grads',
        'w = torch.tensor([1., 2, 3], requires_grad=True); y = (w * w).sum(); \nwith torch.no_grad'
        '():\n    w.mul_(w)\ny.backward()',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]] is at version 1; expected version 0 in'
        'stead. Hint: enable anomaly detection to find the operation that failed to compute its g'
        'radient, with torch.autograd.set_detect_anomaly(True, check_nan=False).\n',
    ),
    (
        'fix', 'grads',
        'w = torch.tensor([1., 2, 3], requires_grad=True)\nwith torch.no_grad():\n    w[1:].mul_(w['
        ':-1])',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'guard', 'grads',
        'w = torch.tensor([1., 2, 3], requires_grad=True)\nwith torch.no_grad():\n    w.mul_(w); w.'
        'add_(w, alpha=2); w.addcmul_(w, w, value=0.5)\nshow(w, w._version)',
        '[7.5, 84.0, 391.5] 3\n',
    ),
    (
        'guard', 'grads',
        'ws = [torch.tensor([1., 2, 3], requires_grad=True), torch.tensor([4., 5], requires_grad='
        'True)]\ngs = [torch.ones(3), torch.ones(2) * 2]\nwith torch.no_grad():\n    for w, g in zip'
        '(ws, gs):\n        w.add_(g, alpha=-0.1); g.mul_(0.9).add_(w)\nshow(ws[0], ws[1], gs[0], g'
        's[1], ws[0]._version, gs[0]._version)',
        '[0.9, 1.9, 2.9] [3.8, 4.8] [1.8, 2.8, 3.8] [5.6, 6.6] 1 2\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); y = x * 1; y[torch.tensor([0, 2])] '
        '= y[torch.tensor([1, 3])] * 10; y.sum().backward(); show(y, x.grad, y._version)',
        '[20.0, 2.0, 40.0, 4.0] [0.0, 11.0, 0.0, 11.0] 1\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); y = x * 1; y[1:] = y[:-1].exp(); (y'
        ' * y).sum().backward(); show(y, x.grad, y._version)',
        '[1.0, 2.7183, 7.3891, 20.0855] [16.7781, 109.1963, 806.8576, 0.0] 1\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); y = x * 1; y[y > 2] = 0; (y * y).su'
        'm().backward(); show(y, x.grad, y._version)',
        '[1.0, 2.0, 0.0, 0.0] [2.0, 4.0, 0.0, 0.0] 1\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); y = x * 1; y[0] = y[1]; (y * y).sum'
        '().backward(); show(y, x.grad, y._version)',
        '[2.0, 2.0, 3.0, 4.0] [0.0, 8.0, 6.0, 8.0] 1\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); y = x * 1; y[0] = y[1] * y[2]; (y *'
        ' y).sum().backward(); show(y, x.grad, y._version)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor []], which is output 0 of AsStrided, is at '
        'version 1; expected version 0 instead. Hint: enable anomaly detection to find the operat'
        'ion that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, ch'
        'eck_nan=False).\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); y = x * 1; z = y[1] * y[2]; y[1] = '
        '0; z.backward()',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor []], which is output 0 of AsStrided, is at '
        'version 1; expected version 0 instead. Hint: enable anomaly detection to find the operat'
        'ion that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, ch'
        'eck_nan=False).\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); y = x * 1; y[:2] = y[2:]; (y * y).s'
        'um().backward(); show(y, x.grad, y._version)',
        '[3.0, 4.0, 3.0, 4.0] [0.0, 0.0, 12.0, 16.0] 1\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); y = x * 1; y.copy_(y.flip(0)); (y *'
        ' y).sum().backward(); show(y, x.grad, y._version)',
        '[4.0, 3.0, 2.0, 1.0] [2.0, 4.0, 6.0, 8.0] 1\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); y = x * 1; y.copy_(y.detach().flip('
        '0)); (y * y).sum().backward(); show(y, x.grad, y._version)',
        '[4.0, 3.0, 2.0, 1.0] [0.0, 0.0, 0.0, 0.0] 1\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); y = x * 1; torch.mul(y, 2, out=y)',
        "EXC RuntimeError: mul(): functions with out=... arguments don't support automatic differ"
        'entiation, but one of the arguments requires grad.\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); y = x * 1; y.clamp_(min=y.mean()); '
        'y.sum().backward(); show(y, x.grad)',
        '[2.5, 2.5, 3.0, 4.0] [0.5, 0.5, 1.5, 1.5]\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); y = x * 1; y.clamp_(min=y[1]); y.su'
        'm().backward(); show(y, x.grad)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); y = x * 1; y.mul_(y.sum()); y.sum()'
        '.backward(); show(y, x.grad)',
        '[10.0, 20.0, 30.0, 40.0] [20.0, 20.0, 20.0, 20.0]\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); y = x * 1; s = y.sum(); y.mul_(s); '
        'y.sum().backward(); show(y, x.grad)',
        '[10.0, 20.0, 30.0, 40.0] [20.0, 20.0, 20.0, 20.0]\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); y = x * 1; y.div_(y.norm()); y.sum('
        ').backward(); show(y, x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [4]], which is output 0 of Div, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); y = x * 1; y.lerp_(y.flip(0), 0.25)'
        '; (y * y).sum().backward(); show(y, x.grad)',
        '[1.75, 2.25, 2.75, 3.25] [4.25, 4.75, 5.25, 5.75]\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); y = x * 1; y.lerp_(y, 0.25); (y * y'
        ').sum().backward(); show(y, x.grad)',
        '[1.0, 2.0, 3.0, 4.0] [2.0, 4.0, 6.0, 8.0]\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); y = x * 1; y.addcdiv_(y.flip(0), y.'
        'flip(0) + 1, value=0.5); (y * y).sum().backward(); show(y, x.grad)',
        '[1.4, 2.375, 3.3333, 4.25] [3.8625, 5.1204, 6.8151, 8.556]\n',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); y = x * 1; y.addcmul_(x, x, value=0'
        '.5); (y * y).sum().backward(); show(y, x.grad)',
        '[1.5, 4.0, 7.5, 12.0] [6.0, 24.0, 60.0, 120.0]\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4], requires_grad=True); y = x * 1; y.addcmul_(x, y, value=0'
        '.5); (y * y).sum().backward(); show(y, x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [4]], which is output 0 of Addcmul, is at v'
        'ersion 1; expected version 0 instead. Hint: enable anomaly detection to find the operati'
        'on that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, che'
        'ck_nan=False).\n',
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4]); y = torch.tensor([1., 2, 3, 4], requires_grad=True); x.'
        'addcmul_(y, y); x.sum().backward(); show(x, y.grad, x.grad_fn.name())',
        "[2.0, 6.0, 12.0, 20.0] [2.0, 4.0, 6.0, 8.0] 'AddcmulBackward0'\n",
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4]); y = torch.tensor([1., 2, 3, 4], requires_grad=True); x.'
        'lerp_(y, 0.5); (x * x).sum().backward(); show(x, y.grad, x.grad_fn.name())',
        "[1.0, 2.0, 3.0, 4.0] [1.0, 2.0, 3.0, 4.0] 'LerpBackward0'\n",
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4]); y = torch.tensor([1., 2, 3, 4], requires_grad=True); x['
        '1:].addcdiv_(y[1:], y[:-1]); (x * x).sum().backward(); show(x, y.grad, x.grad_fn.name())',
        "[1.0, 4.0, 4.5, 5.3333] [-16.0, 1.25, -0.2407, 3.5556] 'torch::autograd::CopySlices'\n",
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1., 2, 3, 4], dtype=torch.float64, requires_grad=True); y = x.to(torch'
        '.float32); y.addcmul_(x, x)',
        '',
    ),
    (
        'guard', 'grads',
        'x = torch.tensor([1, 2, 3, 4]); x.addcmul_(torch.tensor([1., 2, 3, 4]), torch.ones(4))',
        "EXC RuntimeError: result type Float can't be cast to the desired output type Long\n",
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4]); x.lerp_(torch.ones(2, 4), 0.5)',
        "EXC RuntimeError: output with shape [4] doesn't match the broadcast shape [2, 4]\n",
    ),
    (
        'fix', 'grads',
        'x = torch.tensor([1., 2, 3, 4]); x.addcmul_(x[None], x[None]); show(x)',
        'EXC RuntimeError: unsupported operation: some elements of the input tensor and the writt'
        'en-to tensor refer to a single memory location. Please clone() the tensor before perform'
        'ing the operation.\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = torch.exp(x); y.add_(1); y.su'
        'm().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Exp, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); a = x * 1; y = torch.exp(a); a.ad'
        'd_(1); y.sum().backward(); show(x.grad)',
        '[1.2214, 1.6487, 2.0138]\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = torch.sin(x); y.add_(1); y.su'
        'm().backward(); show(x.grad)',
        '[0.9801, 0.8776, 0.7648]\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); a = x * 1; y = torch.sin(a); a.ad'
        'd_(1); y.sum().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Add, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = torch.tanh(x); y.add_(1); y.s'
        'um().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Tanh, is at vers'
        'ion 1; expected version 0 instead. Hint: enable anomaly detection to find the operation '
        'that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_'
        'nan=False).\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); a = x * 1; y = torch.tanh(a); a.a'
        'dd_(1); y.sum().backward(); show(x.grad)',
        '[0.961, 0.7864, 0.6347]\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = torch.sigmoid(x); y.add_(1); '
        'y.sum().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Sigmoid, is at v'
        'ersion 1; expected version 0 instead. Hint: enable anomaly detection to find the operati'
        'on that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, che'
        'ck_nan=False).\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); a = x * 1; y = torch.sigmoid(a); '
        'a.add_(1); y.sum().backward(); show(x.grad)',
        '[0.2475, 0.235, 0.2217]\n',
    ),
    (
        'fix', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = torch.relu(x); y.add_(1); y.s'
        'um().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Relu, is at vers'
        'ion 1; expected version 0 instead. Hint: enable anomaly detection to find the operation '
        'that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_'
        'nan=False).\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = torch.sqrt(x); y.add_(1); y.s'
        'um().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Sqrt, is at vers'
        'ion 1; expected version 0 instead. Hint: enable anomaly detection to find the operation '
        'that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_'
        'nan=False).\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); a = x * 1; y = torch.sqrt(a); a.a'
        'dd_(1); y.sum().backward(); show(x.grad)',
        '[1.118, 0.7071, 0.5976]\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = torch.rsqrt(x); y.add_(1); y.'
        'sum().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Rsqrt, is at ver'
        'sion 1; expected version 0 instead. Hint: enable anomaly detection to find the operation'
        ' that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check'
        '_nan=False).\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = torch.asin(x); y.add_(1); y.s'
        'um().backward(); show(x.grad)',
        '[1.0206, 1.1547, 1.4003]\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); a = x * 1; y = torch.asin(a); a.a'
        'dd_(1); y.sum().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Add, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = torch.nn.functional.leaky_rel'
        'u(x); y.add_(1); y.sum().backward(); show(x.grad)',
        '[1.0, 1.0, 1.0]\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); a = x * 1; y = torch.nn.functiona'
        'l.leaky_relu(a); a.add_(1); y.sum().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Add, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = torch.nn.functional.hardtanh('
        'x); y.add_(1); y.sum().backward(); show(x.grad)',
        '[1.0, 1.0, 1.0]\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); a = x * 1; y = torch.nn.functiona'
        'l.hardtanh(a); a.add_(1); y.sum().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Add, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = torch.nn.functional.relu6(x);'
        ' y.add_(1); y.sum().backward(); show(x.grad)',
        '[1.0, 1.0, 1.0]\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); a = x * 1; y = torch.nn.functiona'
        'l.relu6(a); a.add_(1); y.sum().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Add, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = torch.nn.functional.logsigmoi'
        'd(x); y.add_(1); y.sum().backward(); show(x.grad)',
        '[0.4502, 0.3775, 0.3318]\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); a = x * 1; y = torch.nn.functiona'
        'l.logsigmoid(a); a.add_(1); y.sum().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Add, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = torch.softmax(x, 0); y.add_(1'
        '); y.sum().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Softmax, is at v'
        'ersion 1; expected version 0 instead. Hint: enable anomaly detection to find the operati'
        'on that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, che'
        'ck_nan=False).\n',
    ),
    (
        'fix', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = torch.log_softmax(x, 0); y.ad'
        'd_(1); y.sum().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of LogSoftmax, is a'
        't version 1; expected version 0 instead. Hint: enable anomaly detection to find the oper'
        'ation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, '
        'check_nan=False).\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = torch.cumsum(x, 0); y.add_(1)'
        '; y.sum().backward(); show(x.grad)',
        '[3.0, 2.0, 1.0]\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); a = x * 1; y = torch.cumsum(a, 0)'
        '; a.add_(1); y.sum().backward(); show(x.grad)',
        '[3.0, 2.0, 1.0]\n',
    ),
    (
        'fix', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = torch.cumprod(x, 0); y.add_(1'
        '); y.sum().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Cumprod, is at v'
        'ersion 1; expected version 0 instead. Hint: enable anomaly detection to find the operati'
        'on that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, che'
        'ck_nan=False).\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); a = x * 1; y = torch.cumprod(a, 0'
        '); a.add_(1); y.sum().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Add, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'fix', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = torch.prod(x); y.add_(1); y.s'
        'um().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor []], which is output 0 of Prod, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); a = x * 1; y = torch.prod(a); a.a'
        'dd_(1); y.sum().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Add, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'fix', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = torch.norm(x); y.add_(1); y.s'
        'um().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor []], which is output 0 of LinalgVectorNorm,'
        ' is at version 1; expected version 0 instead. Hint: enable anomaly detection to find the'
        ' operation that failed to compute its gradient, with torch.autograd.set_detect_anomaly(T'
        'rue, check_nan=False).\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); a = x * 1; y = torch.norm(a); a.a'
        'dd_(1); y.sum().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Add, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'fix', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = torch.logsumexp(x, 0); y.add_'
        '(1); y.sum().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor []], which is output 0 of Logsumexp, is at '
        'version 1; expected version 0 instead. Hint: enable anomaly detection to find the operat'
        'ion that failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, ch'
        'eck_nan=False).\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); a = x * 1; y = torch.logsumexp(a,'
        ' 0); a.add_(1); y.sum().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Add, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = x.clone(); y.add_(1); y.sum()'
        '.backward(); show(x.grad)',
        '[1.0, 1.0, 1.0]\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); a = x * 1; y = a.clone(); a.add_('
        '1); y.sum().backward(); show(x.grad)',
        '[1.0, 1.0, 1.0]\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = x ** 2; y.add_(1); y.sum().ba'
        'ckward(); show(x.grad)',
        '[0.4, 1.0, 1.4]\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = x.pow(3.5); y.add_(1); y.sum('
        ').backward(); show(x.grad)',
        '[0.0626, 0.6187, 1.4349]\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); a = x * 1; y = a.pow(3.5); a.add_'
        '(1); y.sum().backward(); show(x.grad)',
        'EXC RuntimeError: one of the variables needed for gradient computation has been modified'
        ' by an inplace operation: [torch.FloatTensor [3]], which is output 0 of Add, is at versi'
        'on 1; expected version 0 instead. Hint: enable anomaly detection to find the operation t'
        'hat failed to compute its gradient, with torch.autograd.set_detect_anomaly(True, check_n'
        'an=False).\n',
    ),
    (
        'guard', 'saved',
        'x = torch.tensor([0.2, 0.5, 0.7], requires_grad=True); y = x * 2; y.add_(1); y.sum().bac'
        'kward(); show(x.grad)',
        '[2.0, 2.0, 2.0]\n',
    ),
]


@pytest.mark.parametrize(
    "kind,category,code,expected", CASES, ids=[f"{c[1]}-{i}-{c[0]}" for i, c in enumerate(CASES)]
)
def test_matches_pytorch(kind, category, code, expected):
    ours = run_case(code, ft)
    assert ours == expected, code
    torch = _torch()
    if torch is not None:  # the messages are PyTorch 2.13's: another release checks the rest
        assert comparable_text(ours, torch) == comparable_text(run_case(code, torch), torch), code


# Where PyTorch does not check an overlap (one operand is not dense, or the alias is a second
# storage over the same memory, as from_numpy gives) it computes an order-dependent result;
# fgrad refuses with PyTorch's overlap error instead.
ORDER_DEPENDENT = [
    "a = torch.arange(8.).view(2, 4); a[:, 1:].mul_(a[:, :-1])",
    "a = torch.arange(4.).view(2, 2); a.mul_(a[:, :1])",
    "a = torch.arange(4.); b = torch.from_numpy(a.numpy()); b[1:].mul_(a[:-1])",
    "a = torch.arange(8.).view(2, 4); a[:, 1:].add_(a[:, :-1], alpha=2)",
    "a = torch.arange(8.).view(2, 4); a[:, 1:].copy_(a[:, :-1])",
    "a = torch.arange(8.).view(2, 4); a[:, 1:] = a[:, :-1]",
    "a = torch.arange(8.).view(2, 4); torch.exp(a[:, :-1], out=a[:, 1:])",
]


@pytest.mark.parametrize("code", ORDER_DEPENDENT)
def test_overlap_pytorch_does_not_check_is_refused(code):
    assert run_case(code, ft) == f"EXC RuntimeError: {ALIAS}\n"
    torch = _torch()
    if torch is not None:  # PyTorch runs it: the values depend on its loop order
        assert "EXC" not in run_case(code, torch)


@pytest.mark.parametrize("code", [
    "a = torch.arange(8.).view(2, 4); a[:, ::2].mul_(a[:, 1::2])",  # interleaved, disjoint
    "a = torch.arange(8.).view(2, 4); a[:, ::2].mul_(a[:, ::2])",  # the same elements
    "a = torch.arange(8.).view(4, 2); a[::2].add_(a[1::2].t().t())",
])
def test_non_dense_operands_that_do_not_overlap_still_work(code):
    torch = _torch()
    ours = run_case(code + "; show(a)", ft)
    assert "EXC" not in ours
    if torch is not None:
        assert ours == run_case(code + "; show(a)", torch)


def test_out_aliasing_an_input_of_a_non_elementwise_op_reads_the_old_values():
    """PyTorch writes ``out`` while still reading it here (``mm`` gives zeros, ``sum`` a
    running total); fgrad computes the op first, as if ``out`` were a fresh tensor."""
    a = ft.arange(4.0).view(2, 2)
    ref = a.numpy() @ a.numpy()
    ft.mm(a, a, out=a)
    assert a.tolist() == ref.tolist() and a._version == 1
    b = ft.arange(6.0).view(2, 3)
    ref = b.numpy().sum(0)
    ft.sum(b, 0, out=b[0])
    assert b[0].tolist() == ref.tolist() and b[1].tolist() == [3.0, 4.0, 5.0]


@pytest.mark.parametrize("op", ["relu", "rsqrt"])
def test_modifying_an_input_pytorch_does_not_save_is_refused(op):
    """PyTorch's backward of these reads only the result; fgrad's reads the input, so
    modifying the input in place raises the version error (never a wrong gradient)."""
    x = ft.tensor([0.2, 0.5, 0.7], requires_grad=True)
    a = x * 1
    f = getattr(ft, op)
    y = f(a, 0) if "softmax" in op else f(a)
    a.add_(1)
    msg = "modified by an inplace operation.*output 0 of Add, is at version 1"
    with pytest.raises(RuntimeError, match=msg):
        y.sum().backward()


def test_log_softmax_reads_only_its_result_as_pytorch():
    """log_softmax's backward reads only its result now (session 12, as PyTorch's): modifying
    the input in place afterwards leaves the gradient right (it raised the version error)."""
    x = ft.tensor([0.2, 0.5, 0.7], requires_grad=True)
    a = x * 1
    y = ft.log_softmax(a, 0)
    a.add_(1)
    (y * ft.tensor([1.0, 2.0, 3.0])).sum().backward()
    sm = np.exp([0.2, 0.5, 0.7]) / np.exp([0.2, 0.5, 0.7]).sum()
    c = np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(x.grad.numpy(), c - sm * c.sum(), rtol=1e-5, atol=1e-7)


def test_softmax_reads_only_its_result_as_pytorch():
    """softmax's backward reads only its saved result (as PyTorch's, issue 16): modifying the
    input in place afterwards leaves the gradient right; modifying the result raises."""
    x = ft.tensor([0.2, 0.5, 0.7], requires_grad=True)
    a = x * 1
    y = ft.softmax(a, 0)
    a.add_(1)
    (y * ft.tensor([1.0, 2.0, 3.0])).sum().backward()
    yn = np.exp([0.2, 0.5, 0.7]) / np.exp([0.2, 0.5, 0.7]).sum()
    c = np.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(x.grad.numpy(), yn * (c - (yn * c).sum()), rtol=1e-5, atol=1e-7)
    z = ft.softmax(x * 1, 0)
    z.mul_(2)
    with pytest.raises(RuntimeError, match="modified by an inplace operation.*output 0 of Softmax"):
        z.sum().backward()
    torch = _torch()
    if torch is not None:
        xt = torch.tensor([0.2, 0.5, 0.7], requires_grad=True)
        at = xt * 1
        yt = torch.softmax(at, 0)
        at.add_(1)
        (yt * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
        # float32: within 2 ulp of the largest entry (the middle one is a cancellation)
        np.testing.assert_allclose(x.grad.numpy(), xt.grad.numpy(), rtol=1e-6, atol=1e-7)


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(1, 6),
    out_start=st.integers(0, 6),
    in_start=st.integers(0, 6),
    op=st.sampled_from(["mul_", "add_", "copy_", "sub_", "div_"]),
)
def test_slices_of_one_tensor(n, out_start, in_start, op):
    """``a[i:i+n].op_(a[j:j+n])``: PyTorch's error exactly when the slices partly overlap,
    else the values computed from the old elements (PyTorch's numbers)."""
    data = np.arange(1.0, 13.0, dtype=np.float32)
    a = ft.tensor(data)
    out, inp = a[out_start:out_start + n], a[in_start:in_start + n]
    partial = out_start != in_start and abs(out_start - in_start) < n
    if partial:
        with pytest.raises(RuntimeError, match="refer to a single memory location"):
            getattr(out, op)(inp)
        assert a.tolist() == data.tolist() and a._version == 0
    else:
        getattr(out, op)(inp)
        ref = data.copy()
        x, y = ref[out_start:out_start + n], data[in_start:in_start + n]
        new = {"mul_": x * y, "add_": x + y, "copy_": y, "sub_": x - y, "div_": x / y}[op]
        ref[out_start:out_start + n] = new
        np.testing.assert_allclose(a.numpy(), ref, rtol=1e-6)
        assert a._version == 1
    torch = _torch()
    if torch is not None:
        t = torch.tensor(data)
        try:
            getattr(t[out_start:out_start + n], op)(t[in_start:in_start + n])
            raised = False
        except RuntimeError:
            raised = True
        assert raised == partial
        if not raised:
            np.testing.assert_allclose(a.numpy(), t.numpy(), rtol=1e-6)


@settings(max_examples=30, deadline=None)
@given(
    start=st.tuples(st.integers(0, 3), st.integers(0, 3)),
    step=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    other=st.tuples(st.integers(0, 3), st.integers(0, 3)),
    transpose=st.booleans(),
)
def test_address_views_decide_overlap_like_numpy(start, step, other, transpose):
    """Device buffers are checked through `address_view` (addresses only); on host buffers
    it must agree with NumPy's exact overlap test."""
    from fgrad.torch._dispatch import address_view

    base = np.zeros((8, 8), np.float32)
    a = base[start[0]::step[0], start[1]::step[1]][:3, :3]
    b = base[other[0]::step[1], other[1]::step[0]][:3, :3]
    if transpose:
        b = b.T
    assert np.shares_memory(address_view(a), address_view(b)) == np.shares_memory(a, b)
