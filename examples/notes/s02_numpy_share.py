"""pytorch-summary.md: tensor.numpy() and from_numpy share memory (block 1)."""
import numpy as np

import fgrad.torch as torch

a = torch.ones(5)
b = a.numpy()
a.add_(1)  # (2, 2, 2, 2, 2)
print(b)  # (2, 2, 2, 2, 2)
n = np.zeros(5)
tn = torch.from_numpy(n)
n += 3
print(tn)
