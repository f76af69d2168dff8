"""What print shows: tensors of every common dtype and shape (scientific notation, integers
in floats, large tensors summarised, requires_grad and grad_fn), set_printoptions (precision,
sci_mode, threshold, edgeitems, linewidth, profiles), Parameters, module reprs with
extra_repr and nesting, Size, dtype, device, and the optimizer's repr."""

import torch
import torch.nn as nn

torch.manual_seed(0)
print(torch.tensor([1.0, 2.5, -3.0]))
print(torch.tensor([1.0, 2.0, 3.0]))
print(torch.tensor([1e-5, 1.0, 1e5]))
print(torch.tensor([1e-10, 1.0]))
print(torch.tensor([[1, -22, 333], [4, 5, 6]]))
print(torch.tensor([True, False]))
print(torch.tensor(3.14159), torch.tensor(7), torch.tensor([]))
print(torch.zeros(2, 0, 3))
print(torch.tensor([float("nan"), float("inf"), -float("inf"), 1.5]))
print(torch.tensor([0.1, 0.25], dtype=torch.float64))
print(torch.tensor([1.5, 2.0], dtype=torch.float16), torch.tensor([1, 2], dtype=torch.uint8))
print(torch.tensor([1.5, -2.25], dtype=torch.bfloat16))
print(torch.tensor([1 + 2j, -0.5j]))
print(torch.randn(2, 3, 4))
print(torch.arange(2000.0))
print(torch.arange(1200).reshape(40, 30))
x = torch.randn(3, requires_grad=True)
print(x)
print(x * 2)
print((x * 2).sum(), x.exp().mean())
print(x.detach().numpy().dtype, repr(x.data))
print(torch.randn(3, 3).T.contiguous().sum(0))
print(torch.ones(4).view(2, 2).shape, torch.Size([2, 3]), torch.float32, torch.int64, torch.device("cpu"))
print(repr(torch.tensor([123456.789, 0.001])))
print(torch.tensor([100.0, 2000.0, 30000.0]))
print(torch.tensor([0.00012, 0.5]))
print(torch.linspace(0, 1, 7))

torch.set_printoptions(precision=2)
print(torch.tensor([1.23456, 2.34567]))
torch.set_printoptions(sci_mode=True)
print(torch.tensor([1.23456, 234.5]))
torch.set_printoptions(sci_mode=False, precision=6)
print(torch.tensor([1e-5, 1.0]))
torch.set_printoptions(threshold=5, edgeitems=2)
print(torch.arange(10))
print(torch.arange(20.0).reshape(4, 5))
torch.set_printoptions(profile="default")
torch.set_printoptions(linewidth=40)
print(torch.arange(20.0) / 3)
torch.set_printoptions(profile="default")
print(torch.arange(12.0) / 7)

p = nn.Parameter(torch.tensor([[0.5, -1.0], [2.0, 0.25]]))
print(p)
print(nn.Parameter(torch.zeros(2), requires_grad=False))
model = nn.Sequential(
    nn.Conv2d(3, 8, kernel_size=3, stride=2, padding=1, bias=False),
    nn.BatchNorm2d(8, momentum=0.05),
    nn.ReLU(inplace=True),
    nn.MaxPool2d(2),
    nn.Flatten(),
    nn.Dropout(0.3),
    nn.Linear(32, 10),
)
print(model)


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(4, 4) for _ in range(2)])
        self.heads = nn.ModuleDict({"a": nn.LSTM(4, 8, num_layers=2, batch_first=True), "b": nn.GRU(4, 3)})
        self.emb = nn.Embedding(10, 4, padding_idx=0)
        self.norm = nn.LayerNorm(4, eps=1e-6)
        self.act = nn.GELU(approximate="tanh")
        self.plist = nn.ParameterList([nn.Parameter(torch.ones(2))])
        self.conv = nn.ConvTranspose1d(4, 2, 3)
        self.attn = nn.MultiheadAttention(4, 2)
        self.loss = nn.CrossEntropyLoss(label_smoothing=0.1)

    def extra_repr(self):
        return "custom=True"


print(Block())
print(torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.1, momentum=0.9))
print(torch.optim.AdamW(nn.Linear(2, 2).parameters()))
print(nn.Linear(3, 2).weight)
print(nn.Linear(3, 2).state_dict())
