"""pytorch-cs231n-overview.md, "Pytorch: nn": Sequential + MSELoss, manual parameter updates
(slides' code)."""
import fgrad.torch as torch
from fgrad.torch.autograd import Variable

torch.manual_seed(0)
N, D_in, H, D_out = 64, 1000, 100, 10
x = Variable(torch.randn(N, D_in))
y = Variable(torch.randn(N, D_out), requires_grad=False)

model = torch.nn.Sequential(
    torch.nn.Linear(D_in, H),
    torch.nn.ReLU(),
    torch.nn.Linear(H, D_out))
loss_fn = torch.nn.MSELoss(size_average=False)

learning_rate = 1e-4
losses = []
for t in range(500):  # noqa: B007
    y_pred = model(x)
    loss = loss_fn(y_pred, y)
    losses.append(loss.item())

    model.zero_grad()
    loss.backward()

    for param in model.parameters():
        param.data -= learning_rate * param.grad.data

print(losses[0], losses[-1])
print('loss fell:', losses[-1] < 0.1 * losses[0])
print(model)
print(loss_fn.reduction)
print([tuple(p.shape) for p in model.parameters()])
