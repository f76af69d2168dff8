"""``torch.backends.mkldnn``: not used by fgrad.torch."""

enabled: bool = False


def is_available() -> bool:
    return False
