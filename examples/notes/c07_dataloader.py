"""pytorch-cs231n-overview.md, "Pytorch: DataLoaders": minibatches from a DataLoader, with worker
processes (slides' code; the slide fed `x` instead of the batch, the intent is the batch)."""
import fgrad.torch as torch
from fgrad.torch.autograd import Variable
from fgrad.torch.utils.data import DataLoader, TensorDataset


class TwoLayerNet(torch.nn.Module):
    def __init__(self, D_in, H, D_out):
        super(TwoLayerNet, self).__init__()
        self.linear1 = torch.nn.Linear(D_in, H)
        self.linear2 = torch.nn.Linear(H, D_out)

    def forward(self, x):
        h_relu = self.linear1(x).clamp(min=0)
        y_pred = self.linear2(h_relu)
        return y_pred


if __name__ == '__main__':
    torch.manual_seed(0)
    N, D_in, H, D_out = 64, 1000, 100, 10
    x = torch.randn(N, D_in)
    y = torch.randn(N, D_out)

    loader = DataLoader(TensorDataset(x, y), batch_size=8, shuffle=True, num_workers=2)

    model = TwoLayerNet(D_in, H, D_out)

    criterion = torch.nn.MSELoss(reduction='sum')
    optimizer = torch.optim.SGD(model.parameters(), lr=1e-4)
    epoch_losses = []
    for epoch in range(10):  # noqa: B007
        total = 0.0
        for x_batch, y_batch in loader:
            x_var, y_var = Variable(x_batch), Variable(y_batch)
            y_pred = model(x_var)
            loss = criterion(y_pred, y_var)
            total += loss.item()

            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        epoch_losses.append(total)
    print(len(loader), [tuple(b.shape) for b in next(iter(loader))])
    print(epoch_losses[0], epoch_losses[-1])
    print('loss fell:', epoch_losses[-1] < epoch_losses[0])
