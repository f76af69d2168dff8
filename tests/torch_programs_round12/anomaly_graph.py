"""Debugging autograd as in forum answers: the grad_fn graph walked through next_functions,
anomaly detection (torch.autograd.detect_anomaly / set_detect_anomaly) naming the backward
function that produced NaN, the error of backward through a freed graph and of an in-place
change of a saved tensor (the version counter), retain_grad on intermediates, register_hook
that scales a gradient, saved_tensors_hooks and torch.autograd.graph.save_on_cpu."""
# ruff: noqa: B007, E501  (written as the published program is)

import torch

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = (x * w).sin().sum()
print(y.grad_fn.name(), type(y.grad_fn).__name__)


def walk(fn, depth=0):
    print("  " * depth + type(fn).__name__)
    for nxt, _ in fn.next_functions:
        if nxt is not None:
            walk(nxt, depth + 1)


walk(y.grad_fn)
print(x.is_leaf, y.is_leaf, y.requires_grad, (x * 2).detach().requires_grad)

z = torch.tensor([0.0, 1.0], requires_grad=True)
with torch.autograd.detect_anomaly():
    try:
        out = (z.sqrt() * 0 + z).sum()
        out2 = (torch.sqrt(z) / z).sum()
        out2.backward()
    except RuntimeError as e:
        print("RuntimeError", str(e).split(".")[0])
print(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(True)
print(torch.is_anomaly_enabled())
torch.autograd.set_detect_anomaly(False)

a = torch.tensor([2.0], requires_grad=True)
b = a ** 2
b.backward(retain_graph=True)
b.backward()
print("accumulated", a.grad)
c = (a * 3).exp()
c.backward()
try:
    c.backward()
except RuntimeError as e:
    print("RuntimeError", str(e).split(".")[0])

v = torch.tensor([1.0, 2.0], requires_grad=True)
s = v.sigmoid()
s.mul_(2)
try:
    s.sum().backward()
except RuntimeError as e:
    print("RuntimeError", "modified by an inplace operation" in str(e), "version" in str(e))
print(s._version)

h = torch.tensor([1.0, -2.0], requires_grad=True)
mid = h * 3
mid.retain_grad()
handle = h.register_hook(lambda g: g * 10)
(mid ** 2).sum().backward()
print(mid.grad, h.grad)
handle.remove()
h.grad = None
(h * 3).pow(2).sum().backward()
print(h.grad)

packed = []


def pack(t):
    packed.append(tuple(t.shape))
    return t * 1


def unpack(t):
    return t


with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    p = torch.tensor([0.5, 1.5], requires_grad=True)
    q = (p.exp() * p).sum()
q.backward()
print(packed, p.grad)
with torch.autograd.graph.save_on_cpu():
    r = torch.tensor([1.0, 2.0], requires_grad=True)
    (r * r).sum().backward()
print(r.grad)
print(torch.autograd.grad((x ** 3).sum(), x, create_graph=True)[0].grad_fn is not None)
