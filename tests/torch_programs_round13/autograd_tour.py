"""The "Automatic differentiation with torch.autograd" tutorial and the "autograd mechanics"
notes as students run them: requires_grad_, grad_fn names and next_functions, retain_grad on
non-leaves, backward of a non-scalar with gradient=, retain_graph and accumulation, detach and
no_grad/enable_grad/set_grad_enabled, torch.autograd.grad with create_graph, allow_unused and
grad_outputs, tensor hooks that change the gradient, in-place ops on leaves under no_grad,
is_leaf, and the Jacobian-vector product the tutorial prints."""
# ruff: noqa: E501

import torch

x = torch.ones(5)
y = torch.zeros(3)
torch.manual_seed(0)
w = torch.randn(5, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
z = torch.matmul(x, w) + b
loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
print(f"Gradient function for z = {type(z.grad_fn).__name__}")
print(f"Gradient function for loss = {loss.grad_fn.name()}")
loss.backward()
print(w.grad)
print(b.grad)
z = torch.matmul(x, w) + b
print(z.requires_grad)
with torch.no_grad():
    z = torch.matmul(x, w) + b
print(z.requires_grad)
z = torch.matmul(x, w) + b
z_det = z.detach()
print(z_det.requires_grad)

inp = torch.eye(4, 5, requires_grad=True)
out = (inp + 1).pow(2).t()
out.backward(torch.ones_like(out), retain_graph=True)
print(f"First call\n{inp.grad}")
out.backward(torch.ones_like(out), retain_graph=True)
print(f"\nSecond call\n{inp.grad}")
inp.grad.zero_()
out.backward(torch.ones_like(out))
print(f"\nCall after zeroing gradients\n{inp.grad}")

a = torch.tensor([2.0, 3.0], requires_grad=True)
bb = a * a
bb.retain_grad()
c = bb.sum() * 3
c.backward()
print(a.grad, bb.grad, a.is_leaf, bb.is_leaf, c.is_leaf, bb.grad_fn.name(), c.grad_fn.name())
print([type(f[0]).__name__ if f[0] is not None else None for f in c.grad_fn.next_functions])

v = torch.tensor([1.0, 0.1, 0.01])
xx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
yy = xx * 2
while yy.data.norm() < 1000:
    yy = yy * 2
yy.backward(v)
print(yy, xx.grad)

p = torch.randn(3)
print(p.requires_grad)
p.requires_grad_()
print(p.requires_grad)
q = p ** 3
g, = torch.autograd.grad(q.sum(), p, create_graph=True)
print(g)
gg, = torch.autograd.grad(g.sum(), p)
print(gg, 6 * p)
u = torch.tensor(1.0, requires_grad=True)
unused = torch.tensor(2.0, requires_grad=True)
r = torch.autograd.grad(u * 3, [u, unused], allow_unused=True)
print(r)
r2 = torch.autograd.grad(u * 3, [u, unused], allow_unused=True, materialize_grads=True)
print(r2)
m = torch.randn(2, 2, requires_grad=True)
print(torch.autograd.grad(m @ m, m, grad_outputs=torch.ones(2, 2)))

h = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
handle = h.register_hook(lambda grad: grad * 10)
(h * h).sum().backward()
print(h.grad)
handle.remove()
h.grad = None
(h * h).sum().backward()
print(h.grad)
k = torch.tensor([1.0, 2.0], requires_grad=True)
mid = k.exp()
mid.register_hook(lambda grad: print("mid grad", grad))
mid.sum().backward()
print(k.grad)

print(torch.is_grad_enabled())
with torch.no_grad():
    print(torch.is_grad_enabled())
    with torch.enable_grad():
        e = k * 2
    print(e.requires_grad)
with torch.set_grad_enabled(False):
    print((k * 2).requires_grad)
torch.set_grad_enabled(True)

lw = torch.ones(3, requires_grad=True)
with torch.no_grad():
    lw.mul_(2)
    lw[0] = 7
print(lw, lw.requires_grad, lw.grad_fn)
try:
    lw.mul_(2)
except RuntimeError as err:
    print("RuntimeError:", str(err).split("\n")[0])

s = torch.tensor([0.5, 1.5], requires_grad=True)
o = torch.stack([s.sin(), s.cos(), s.prod().expand(2)], 0)
o.backward(torch.tensor([[1.0, 1.0], [1.0, 0.0], [0.5, 0.5]]))
print(s.grad, o.grad_fn.name())
acc = torch.zeros(2, requires_grad=True)
for _ in range(3):
    (acc.sigmoid() * torch.tensor([1.0, 2.0])).sum().backward()
print(acc.grad)
print(torch.autograd.grad(s.norm(), s)[0], torch.autograd.grad(s.max(), s)[0], torch.autograd.grad(torch.tensor([1.0, 1.0], requires_grad=True).max(), s, allow_unused=True))
