"""pytorch-cs231n-overview.md, "PyTorch: Tensor/Variable" with autograd (slides' code; `if
w1.grad:` on a matrix is ambiguous, the intent is `is not None`)."""
import fgrad.torch as torch
from fgrad.torch.autograd import Variable

torch.manual_seed(0)
N, D_in, H, D_out = 64, 1000, 100, 10
x = Variable(torch.randn(N, D_in), requires_grad=False)
y = Variable(torch.randn(N, D_out), requires_grad=False)
w1 = Variable(torch.randn(D_in, H), requires_grad=True)
w2 = Variable(torch.randn(H, D_out), requires_grad=True)

learning_rate = 1e-6
losses = []
for t in range(500):  # noqa: B007
    y_pred = x.mm(w1).clamp(min=0).mm(w2)
    loss = (y_pred - y).pow(2).sum()
    losses.append(loss.item())

    if w1.grad is not None:
        w1.grad.data.zero_()
    if w2.grad is not None:
        w2.grad.data.zero_()
    loss.backward()

    w1.data -= learning_rate * w1.grad.data
    w2.data -= learning_rate * w2.grad.data

print(losses[0], losses[-1])
print('loss fell:', losses[-1] < 0.01 * losses[0])
# x.data is a Tensor, x.grad another tensor holding the gradient
print(type(w1.data).__name__, w1.grad.shape, x.grad)
