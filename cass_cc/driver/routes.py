"""The routes a .cu can take to AMD code, chosen here and nowhere else (as clang's driver picks a
toolchain once and asks it for every job).

"binary" (the default, "auto"): nvcc compiles, the kernels' SASS is translated to AMD code and
embedded in nvcc's object (binary_compile, object_translation), the link is the host linker's
against libcassrt (binary_link), relocatable device code through nvcc's device link first
(device_link). Under "auto" a kernel the translators refuse comes from the hipify fallback,
reported; under an explicit "binary" it is an error (object_translation.fallback_refusal).
"source": hipify and hipcc (source_route).

Every route offers
    compile_jobs(action: plan.Compile, settings, work) -> list[Job]
    link_jobs(action: plan.Link, settings, work) -> list[Job]
    implicit_link_args() -> list[str]     (what every link names after the user's libraries)
    implicit_include_dirs() -> list[str]  (the runtime headers every compile sees)
where `work` is a private folder for the step; `-v` prints the last two as nvcc's LIBRARIES and
INCLUDES, and the link line must contain LIBRARIES as printed (CMake finds the link line by it).
A route's modules are imported when it is asked for jobs, so a compile's nvcc starts sooner.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from .jobs import Job
from .plan import Compile, Link
from .settings import Settings

AUTO_ROUTE = "binary"


@dataclass(frozen=True)
class Route:
    name: str
    compile_module: str   # has compile_jobs
    link_module: str      # has link_jobs, implicit_link_args, implicit_include_dirs

    def compile_jobs(self, action: Compile, settings: Settings, work: str) -> list[Job]:
        return importlib.import_module(self.compile_module).compile_jobs(action, settings, work)

    def link_jobs(self, action: Link, settings: Settings, work: str) -> list[Job]:
        return importlib.import_module(self.link_module).link_jobs(action, settings, work)

    def implicit_link_args(self) -> list[str]:
        return importlib.import_module(self.link_module).implicit_link_args()

    def implicit_include_dirs(self) -> list[str]:
        return importlib.import_module(self.link_module).implicit_include_dirs()


ROUTES = {"binary": Route("binary", "cass_cc.driver.binary_compile", "cass_cc.driver.binary_link"),
          "source": Route("source", "cass_cc.driver.source_route", "cass_cc.driver.source_route")}


def route_for(settings: Settings) -> Route:
    """The route of this build: --cass-route (CASS_ROUTE), "auto" meaning AUTO_ROUTE."""
    return ROUTES[AUTO_ROUTE if settings.route == "auto" else settings.route]
