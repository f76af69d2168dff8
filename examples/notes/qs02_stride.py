"""pytorch-quickstart.md: strides of a tensor and of its transpose (block 3)."""
import fgrad.torch as torch

x = torch.Tensor([[1, 2, 3, 4, 5], [6, 7, 8, 9, 10]])
print(x.stride())
# (5, 1)

print(x.t().stride())
# (1, 5)
