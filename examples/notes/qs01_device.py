"""pytorch-quickstart.md: torch.device and the device= argument (blocks 1-2)."""
import fgrad.torch as torch

print(repr(torch.device('cuda:0')))
# device(type='cuda', index=0)
print(repr(torch.device('cpu')))
# device(type='cpu')
print(repr(torch.device('cuda', 0)))
# device(type='cuda', index=0)

# Example of a function that takes in a torch.device
cuda1 = torch.device('cuda:1')
print(cuda1, cuda1.type, cuda1.index)
if torch.cuda.is_available() and torch.cuda.device_count() > 1:
    print(torch.randn((2, 3), device=cuda1).shape)
    # You can substitute the torch.device with a string
    print(torch.randn((2, 3), device='cuda:1').shape)
else:
    # the note's machine had two GPUs; on CPU the same calls take a cpu device
    print(torch.randn((2, 3), device=torch.device('cpu')).shape)
    print(torch.randn((2, 3), device='cpu').device)
