"""pytorch-cs231n-overview.md, "使用optimizer训练": Adam updates the parameters (slides' code)."""
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
loss_fn = torch.nn.MSELoss(reduction='sum')

learning_rate = 1e-4
optimizer = torch.optim.Adam(model.parameters(), lr=learning_rate)
losses = []
for t in range(500):  # noqa: B007
    y_pred = model(x)
    loss = loss_fn(y_pred, y)
    losses.append(loss.item())

    optimizer.zero_grad()
    loss.backward()

    optimizer.step()

print(losses[0], losses[-1])
print('loss fell:', losses[-1] < 0.01 * losses[0])
print(optimizer)
