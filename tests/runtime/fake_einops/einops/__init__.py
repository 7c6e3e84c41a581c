"""A stand-in for the einops package (which cannot be installed here): its
functions are the reference chain of PyTorch operations. The run-time tests
put this folder on sys.path, to see that gshape's runtime finds the einops
functions it has rules for; samples/rules/einops_*.py append it, so that
they run without einops (and with it, when it is installed)."""
from einops_reference import EinopsError, pack, rearrange, reduce, repeat, unpack  # noqa: F401
