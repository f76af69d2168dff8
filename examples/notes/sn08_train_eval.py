"""pytorch-study-notes.md: train()/eval() switch Dropout and BatchNorm; F.dropout needs
self.training (prose)."""
import fgrad.torch as torch
import fgrad.torch.nn.functional as F
from fgrad.torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 4)
        self.bn = nn.BatchNorm1d(4)

    def forward(self, x):
        x = F.dropout(x, 0.2, self.training)
        return self.bn(self.fc(x))


torch.manual_seed(0)
net = Net()
print(net.training, net.bn.training)
x = torch.ones(8, 4)
y_train = F.dropout(x, 0.5, True)
print(sorted(set(y_train.flatten().tolist())) in ([0.0, 2.0], [0.0], [2.0]))
print(F.dropout(x, 0.5, False).equal(x))
net(torch.randn(8, 4))
print(net.bn.num_batches_tracked)
net.eval()  # 等价于 net.train(False)
print(net.training, net.bn.training)
print(net(x).equal(net(x)))
net.train(False)
print(net.training)
net.train()
print(net.training, net.bn.training)
