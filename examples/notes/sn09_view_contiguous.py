"""pytorch-study-notes.md: unsqueeze vs view; contiguous copies only when needed (prose)."""
import fgrad.torch as torch

a = torch.arange(6.)
print(a.unsqueeze(0).shape, a.view(1, 6).shape, torch.equal(a.unsqueeze(1), a.view(6, 1)))
m = a.view(2, 3).t()
print(m.is_contiguous())
c = m.contiguous()
print(c.is_contiguous(), c.data_ptr() == m.data_ptr())
n = a.view(2, 3)
print(n.contiguous() is n)
try:
    m.view(6)
except RuntimeError as e:
    print('RuntimeError:', str(e).split('.')[0])
print(m.contiguous().view(6))
print(m.reshape(6))
