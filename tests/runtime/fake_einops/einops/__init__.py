"""A stand-in for the einops package (which cannot be installed here): its
functions are the reference chain of PyTorch operations. Only the run-time
tests put this folder on sys.path, to see that gshape's runtime finds the
einops functions it has rules for."""
from einops_reference import EinopsError, rearrange, reduce, repeat  # noqa: F401
