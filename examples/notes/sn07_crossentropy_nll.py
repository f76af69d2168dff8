"""pytorch-study-notes.md: CrossEntropyLoss = LogSoftmax + NLLLoss (prose)."""
import fgrad.torch as torch
import fgrad.torch.nn.functional as F
from fgrad.torch import nn

logits = torch.tensor([[1.0, 2.0, 0.5], [0.1, -1.0, 3.0], [2.0, 2.0, 2.0], [-0.5, 0.0, 0.5]],
                      requires_grad=True)
target = torch.tensor([1, 2, 0, 2])

ce = nn.CrossEntropyLoss()(logits, target)
nll = nn.NLLLoss()(nn.LogSoftmax(dim=1)(logits), target)
print(ce, nll)
print(torch.allclose(ce, nll))
print(F.cross_entropy(logits, target, reduction='none'))
print(F.nll_loss(F.log_softmax(logits, dim=1), target, reduction='sum'))
# the mistake the note warns about: Softmax before CrossEntropyLoss gives another number
print(nn.CrossEntropyLoss()(F.softmax(logits, dim=1), target))
ce.backward()
print(logits.grad)
