"""``torch.utils.tensorboard``: `SummaryWriter`, writing TensorBoard's event files without the
``tensorboard`` package (see ``writer``; view the logs with ``tensorboard --logdir runs``).

Example::

    >>> import tempfile
    >>> from fgrad.torch.utils.tensorboard import SummaryWriter
    >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
    ...     writer.add_scalar("loss", 0.25, 1)
"""

from .writer import FileWriter, SummaryWriter

__all__ = ["FileWriter", "SummaryWriter"]
