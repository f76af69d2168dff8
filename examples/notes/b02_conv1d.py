"""pytorch-basics.md: Conv1d over word vectors (block 1)."""
import fgrad.torch as torch
from fgrad.torch import nn

conv1 = nn.Conv1d(in_channels=256, out_channels=100, kernel_size=2)
input = torch.randn(32, 35, 256)
# batch_size x text_len x embedding_size -> batch_size x embedding_size x text_len
input = input.permute(0, 2, 1)
out = conv1(input)
print(out.size())
# torch.Size([32, 100, 34])
print(conv1)
print(conv1.weight.shape, conv1.bias.shape)

# fixed weights: the numbers are deterministic
conv = nn.Conv1d(2, 3, kernel_size=2, stride=1, padding=1, dilation=1, bias=True)
with torch.no_grad():
    conv.weight.copy_(torch.arange(12.).view(3, 2, 2) / 10)
    conv.bias.copy_(torch.tensor([0.5, -0.5, 0.0]))
x = torch.arange(10.).view(1, 2, 5)
print(conv(x))
