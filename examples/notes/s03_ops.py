"""pytorch-summary.md: Variable, no_grad, detach, zero_grad, backward(gradient), narrow, t,
Embedding, stack, squeeze, div, in-place ops, permute (prose)."""
import fgrad.torch as torch
from fgrad.torch import nn
from fgrad.torch.autograd import Variable

v = Variable(torch.tensor([1.0, 2.0]), requires_grad=True)
print(v.data, type(v).__name__)
(v * v).sum().backward()
print(v.grad)

with torch.no_grad():
    print((v * 2).requires_grad)

h = v * 3
d = h.detach()
print(d.requires_grad, d.grad_fn, h.grad_fn is not None)

m = nn.Linear(2, 1)
m(v).sum().backward()
print(m.weight.grad is not None)
m.zero_grad()
print(m.weight.grad)

y = v * 2
y.backward(torch.tensor([1.0, 0.5]))
print(v.grad)

x = torch.arange(12.).view(3, 4)
print(x.narrow(0, 1, 2))
print(x.narrow(1, 1, 2))
print(x.t(), x.t().shape, torch.equal(x.t(), x.transpose(0, 1)))

emb = nn.Embedding(10, 3)
print(emb(torch.tensor([[1, 2, 3, 4], [4, 5, 6, 9]])).shape)
# torch.Size([2, 4, 3])

s = torch.stack([torch.arange(5.) + i for i in range(10)], dim=0)
print(s.shape, s[3])
print(torch.stack([torch.ones(2), torch.zeros(2)], dim=1))
print(torch.zeros(10, 1, 5).squeeze().shape)
print(torch.tensor([2.0, 4.0]).div(2))
a, b = torch.ones(2), torch.tensor([1.0, 2.0])
a.add_(b)
print(a)
c = torch.arange(6.).view(2, 3)
c.t_()
print(c, c.shape)
print(torch.arange(6).view(2, 3).permute(1, 0))
print(torch.zeros(2, 3, 4).permute(2, 0, 1).shape)
