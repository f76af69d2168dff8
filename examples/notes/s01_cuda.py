"""pytorch-summary.md: move tensors to the GPU when there is one (block 0)."""
import fgrad.torch as torch

x = torch.ones(3)
y = torch.arange(3.)
if torch.cuda.is_available():
    x = x.cuda()
    y = y.cuda()
c = x + y
print(c.cpu())
