"""pytorch-study-notes.md: save and load a whole model (block 6).  Loading a pickled module runs
code from the file, so PyTorch >= 2.6 asks for weights_only=False for it."""
import os
import tempfile

import fgrad.torch as torch
from fgrad.torch import nn

PATH = os.path.join(tempfile.mkdtemp(), 'model.pth')
the_model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
x = torch.linspace(-1, 1, 12).view(3, 4)

# save model
torch.save(the_model, PATH)

# load model
try:
    torch.load(PATH)
except Exception as e:
    print(type(e).__name__, 'weights_only' in str(e))
the_model2 = torch.load(PATH, weights_only=False)
print(the_model2)
print(torch.equal(the_model(x), the_model2(x)))
