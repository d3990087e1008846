"""`python -m cass_cc ...`: the `cass-cc` command, for callers that have a Python but no
console script on PATH (libcassrt runs `python -m cass_cc translate-image`)."""

import sys

from .cli import main

sys.exit(main())
