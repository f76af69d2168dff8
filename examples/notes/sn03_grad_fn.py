"""pytorch-study-notes.md: every non-leaf remembers the Function that made it (block 3)."""
import fgrad.torch as torch
from fgrad.torch.autograd import Variable

A = Variable(torch.ones(2), requires_grad=True)
B = A*2
# not B.creator now, ref: https://github.com/pytorch/tutorials/pull/91/files
print(B.grad_fn)
# <MulBackward0 object at 0x7f3b0536f710>
print(type(B.grad_fn).__name__, B.grad_fn.name())
print(A.grad_fn)
print((B + 1).grad_fn, B.sum().grad_fn, B.norm().grad_fn, B.mean().grad_fn)
print((B.exp()).grad_fn, (B / 3).grad_fn, (B - A).grad_fn, (B @ A).grad_fn)
