"""pytorch-study-notes.md: only leaves keep .grad; retain_grad on an intermediate (blocks 0-1)."""
import fgrad.torch as torch
from fgrad.torch.autograd import Variable

A = Variable(torch.ones(2), requires_grad=True)
B = A*2
B.retain_grad()
C = B.norm()
C.backward()
print(B.grad)
# tensor([0.7071, 0.7071])
print(A.grad)
print(B.retains_grad, A.is_leaf, B.is_leaf)
