"""cass-cc: build CUDA programs for AMD RDNA3 GPUs."""

import os as _os

__version__ = "0.1.0"

# In a checkout the passes live in the top-level passes/ folder and are installed as
# cass_cc.passes; this makes bin/ scripts and tests run from the checkout see the same name.
_checkout_root = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
if not _os.path.isdir(_os.path.join(__path__[0], "passes")) and _os.path.isfile(
    _os.path.join(_checkout_root, "passes", "__init__.py")
):
    __path__.append(_checkout_root)
