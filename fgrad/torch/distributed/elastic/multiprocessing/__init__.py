"""``torch.distributed.elastic.multiprocessing``: see `errors`."""
