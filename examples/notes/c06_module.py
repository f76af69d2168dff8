"""pytorch-cs231n-overview.md, "Pytorch: Modules": a model as an nn.Module subclass (slides'
code)."""
import fgrad.torch as torch
from fgrad.torch.autograd import Variable


class TwoLayerNet(torch.nn.Module):
    def __init__(self, D_in, H, D_out):
        super(TwoLayerNet, self).__init__()
        self.linear1 = torch.nn.Linear(D_in, H)
        self.linear2 = torch.nn.Linear(H, D_out)

    def forward(self, x):
        h_relu = self.linear1(x).clamp(min=0)
        y_pred = self.linear2(h_relu)
        return y_pred


torch.manual_seed(0)
N, D_in, H, D_out = 64, 1000, 100, 10
x = Variable(torch.randn(N, D_in))
y = Variable(torch.randn(N, D_out), requires_grad=False)

model = TwoLayerNet(D_in, H, D_out)

criterion = torch.nn.MSELoss(reduction='sum')
optimizer = torch.optim.SGD(model.parameters(), lr=1e-4)
losses = []
for t in range(500):  # noqa: B007
    y_pred = model(x)
    loss = criterion(y_pred, y)
    losses.append(loss.item())

    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

print(losses[0], losses[-1])
print('loss fell:', losses[-1] < 0.1 * losses[0])
print(model)
print([name for name, _ in model.named_parameters()])
