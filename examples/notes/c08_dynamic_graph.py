"""pytorch-cs231n-overview.md, "Tensorflow静态图，Pytorch动态图": Python conditionals and loops
build the graph as they run (slides' code)."""
import fgrad.torch as torch
from fgrad.torch.autograd import Variable

torch.manual_seed(0)
# 条件判定
N, D, H = 3, 4, 5
x = Variable(torch.randn(N, D))
w1 = Variable(torch.randn(D, H), requires_grad=True)
w2 = Variable(torch.randn(D, H), requires_grad=True)
z = 10
if z > 0:
    y = x.mm(w1)
else:
    y = x.mm(w2)
y.sum().backward()
print(w1.grad is not None, w2.grad)
print(torch.allclose(w1.grad, x.sum(0).view(D, 1).expand(D, H)))

# 循环
T, D = 3, 4
y0 = Variable(torch.randn(D), requires_grad=True)
x = Variable(torch.randn(T, D))
w = Variable(torch.randn(D), requires_grad=True)
y = [y0]
for t in range(T):
    prev_y = y[-1]
    next_y = (prev_y + x[t]) * w
    y.append(next_y)
y[-1].sum().backward()
print(len(y), y[-1].grad_fn)
# d y_T / d y0 = w**T elementwise
print(torch.allclose(y0.grad, w.detach() ** T))

# the same loop on fixed numbers
y0 = torch.tensor([1.0, 2.0], requires_grad=True)
x = torch.tensor([[0.5, 0.5], [1.0, -1.0], [0.0, 2.0]])
w = torch.tensor([0.5, 2.0], requires_grad=True)
y = [y0]
for t in range(3):
    y.append((y[-1] + x[t]) * w)
print(y[-1])
y[-1].sum().backward()
print(y0.grad, w.grad)
