"""pytorch-study-notes.md: in-place ops end with '_'; fill_ (block 4)."""
import fgrad.torch as torch
from fgrad.torch.autograd import Variable

A = Variable(torch.ones(2), requires_grad=False)
A.fill_(3.0)
print(A)
# tensor([3., 3.])

L = torch.ones(2, requires_grad=True)
try:
    L.fill_(3.0)
except RuntimeError as e:
    print('RuntimeError:', e)
