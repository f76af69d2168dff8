"""pytorch-cs231n-overview.md, "自定义函数": our own autograd ReLU (slides' code, written with the
static forward/backward that PyTorch >= 0.4 requires)."""
import fgrad.torch as torch
from fgrad.torch.autograd import Variable


class ReLU(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_y):
        x, = ctx.saved_tensors
        grad_input = grad_y.clone()
        grad_input[x < 0] = 0
        return grad_input


torch.manual_seed(0)
N, D_in, H, D_out = 64, 1000, 100, 10
x = Variable(torch.randn(N, D_in), requires_grad=False)
y = Variable(torch.randn(N, D_out), requires_grad=False)
w1 = Variable(torch.randn(D_in, H), requires_grad=True)
w2 = Variable(torch.randn(H, D_out), requires_grad=True)

learning_rate = 1e-6
losses = []
for t in range(500):  # noqa: B007
    relu = ReLU.apply
    y_pred = relu(x.mm(w1)).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    losses.append(loss.item())
    if w1.grad is not None:
        w1.grad.data.zero_()
        w2.grad.data.zero_()
    loss.backward()
    w1.data -= learning_rate * w1.grad.data
    w2.data -= learning_rate * w2.grad.data

print(losses[0], losses[-1])
print('loss fell:', losses[-1] < 0.01 * losses[0])

a = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
out = ReLU.apply(a)
print(out)
out.backward(torch.tensor([1.0, 2.0, 3.0]))
print(a.grad)
