"""The routes a .cu can take to AMD code, as data.

"source" (hipify + hipcc) is source_route; "binary" (SASS translation) is binary.py. Both offer
    compile_jobs(action: plan.Compile, settings, work, allow_fallback) -> list[Job]
      (allow_fallback: kernels a translator refuses may take the hipify fallback, reported; only
      when the route was chosen automatically, so an explicit --cass-route=binary means "SASS
      translation or an error")
    link_jobs(action: plan.Link, settings, work) -> list[Job]
    implicit_link_args() -> list[str]     (what every link names after the user's libraries)
    implicit_include_dirs() -> list[str]  (the runtime headers every compile sees)
where `work` is a private folder for the step; `-v` prints the last two as nvcc's LIBRARIES and
INCLUDES, and the link line must contain LIBRARIES as printed (CMake finds the link line by it).
"auto" means AUTO_ROUTE, relocatable device code (-rdc=true, -dc) included: the binary route
compiles such a translation unit with nvcc alone and translates its kernels at the program's
link, after nvcc's device link (device_link.py); objects that hipcc compiled with -fgpu-rdc (on
the source route) are linked by the source route. A route whose module is missing is refused
with a clear message.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from ..errors import CassError

ROUTES = {"source": "cass_cc.driver.source_route", "binary": "cass_cc.driver.binary"}
AUTO_ROUTE = "binary"


def resolve(name: str, relocatable: bool = False) -> str:
    """The route `name` stands for; `relocatable` (the code has relocatable device code) no
    longer changes it: both routes link device code."""
    return AUTO_ROUTE if name == "auto" else name


def allows_fallback(name: str) -> bool:
    return name == "auto"


def route_module(name: str, relocatable: bool = False) -> ModuleType:
    name = resolve(name, relocatable)
    try:
        return importlib.import_module(ROUTES[name])
    except ModuleNotFoundError as e:
        if e.name != ROUTES[name]:
            raise
        raise CassError(f"the {name} route is not available yet in this cass-cc; use "
                        "--cass-route=source (or auto)") from None
