"""pytorch-basics.md: torch.cat along dim 0 and dim 1 (prose)."""
import fgrad.torch as torch

A = torch.ones(2, 3)
B = 2 * torch.ones(4, 3)
C = torch.cat((A, B), 0)
print(C)
print(C.size())
# torch.Size([6, 3])
D = 2 * torch.ones(2, 4)
C = torch.cat((A, D), 1)
print(C)
print(C.size())
# torch.Size([2, 7])
