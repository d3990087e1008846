"""cass-nvcc, the drop-in nvcc: command line -> settings -> actions -> jobs, as clang's Driver.

One kernel from `cass-nvcc x.cu -o x` to the code object embedded in the program, module by module:

  main.py               the entry point: errors as nvcc's, signals, the build's private folder
  parse.py, options.py  the nvcc command line read with the option table (response files too)
  settings.py           what every step needs, derived once from the command line
  plan.py               actions from the inputs alone: preprocess, dependencies, compile, link,
                        archive, device link (what each input is comes from its suffix, or from
                        its bytes for objects and libraries that exist: nvidia_objects.py)
  routes.py             the one place the route is chosen; every action asks the route for jobs
  jobs.py               jobs: tool invocations and in-process steps, printed by -v/--dryrun/-###
                        as the commands that run

  binary route (default):
  binary_compile.py     compile: real nvcc -> `cass-cc translate-object` on its object; the
                        translation starts early on nvcc's kept cubin while the host compiler runs
  object_translation.py the translate step: what the object holds (nvidia_objects.py), then
  binary_kernels.py       every kernel through the translators (cass_cc/passes) and the hipify
                          fallback for what they refuse,
  binary_embed.py         the code objects bundled into the object's .nv_fatbin
  binary_link.py        link: nvcc's objects and libraries translated first, relocatable device
  device_link.py          code through nvcc -dlink and the translate step, then the host linker
                          against libcassrt

  source route and host files:
  source_route.py       hipify (mirror.py, cass_cc/hipify) and hipcc; frontend.py is what hipcc
  host.py                 and the host compiler share (messages in nvcc's shape: diagnostics.py)
  hip_fatbin.py         reading hipcc's .hip_fatbin back (reports, -fgpu-rdc links)

  reference.py (--cass-embed-reference), help.py, cmake.py (the CMake toolchain file).
"""
