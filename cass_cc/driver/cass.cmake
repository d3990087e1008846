# CMake toolchain file: CUDA code of a CMake project is compiled by cass-nvcc, a drop-in nvcc
# that builds programs for AMD GPUs (gfx1100 by default; set CASS_OFFLOAD_ARCH to change it).
#
#   cmake -DCMAKE_TOOLCHAIN_FILE=$(cass-cc toolchain-file) -S . -B build
#
# CMake identifies cass-nvcc as an NVIDIA CUDA compiler (it answers --version and -v like
# nvcc), so projects keep `project(... LANGUAGES CXX CUDA)` and CMAKE_CUDA_ARCHITECTURES as they
# are; NVIDIA targets are recorded and the AMD target is cass-nvcc's.

if(NOT CMAKE_CUDA_COMPILER)
  # PATH first; then the venv this file is installed in (<venv>/lib/pythonX.Y/site-packages/
  # cass_cc/driver), or, in a checkout, the checkout's .venv.
  find_program(CASS_NVCC NAMES cass-nvcc
    HINTS "$ENV{CASS_NVCC_DIR}" "${CMAKE_CURRENT_LIST_DIR}/../../../../../bin"
          "${CMAKE_CURRENT_LIST_DIR}/../../.venv/bin")
  if(NOT CASS_NVCC)
    message(FATAL_ERROR "cass-nvcc not found: put the folder holding it on PATH or set CASS_NVCC_DIR")
  endif()
  set(CMAKE_CUDA_COMPILER "${CASS_NVCC}" CACHE FILEPATH "CUDA compiler (cass-nvcc, for AMD GPUs)")
endif()

# C++ targets that link objects cass-nvcc compiled get the libraries nvcc's `-v` names (CMake
# reads them at the compiler check): on the binary route libcassrt, the CUDA runtime on HIP,
# which lives in cass-cc's cache. CMake does not give such implicit libraries a runtime path, so
# every program and library of the project gets one to that folder (the route is the compile's
# choice, so it is there whatever the route; it is harmless where nothing needs it).
if(NOT DEFINED CASS_RUNTIME_DIR)
  execute_process(COMMAND "${CMAKE_CUDA_COMPILER}" --cass-print-runtime-dir
    OUTPUT_VARIABLE _cass_runtime_dir ERROR_VARIABLE _cass_runtime_error
    RESULT_VARIABLE _cass_runtime_result OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT _cass_runtime_result EQUAL 0)
    message(FATAL_ERROR "cass-nvcc --cass-print-runtime-dir failed: ${_cass_runtime_error}")
  endif()
  set(CASS_RUNTIME_DIR "${_cass_runtime_dir}" CACHE INTERNAL "libcassrt's folder")
endif()
list(APPEND CMAKE_BUILD_RPATH "${CASS_RUNTIME_DIR}")
list(APPEND CMAKE_INSTALL_RPATH "${CASS_RUNTIME_DIR}")

# The programs call the HIP runtime that cass-nvcc links in; NVIDIA's cudart is not needed.
set(CMAKE_CUDA_RUNTIME_LIBRARY None CACHE STRING "CUDA runtime library (cass-nvcc links its own)")

# CUDA targets are linked by cass-nvcc itself (it knows which runtime the route needs); options
# CMake writes for a GNU linker (-Wl,-rpath,...) go through to the host linker.
set(CMAKE_CUDA_LINK_EXECUTABLE
  "<CMAKE_CUDA_COMPILER> -forward-unknown-to-host-linker <FLAGS> <CMAKE_CUDA_LINK_FLAGS> <LINK_FLAGS> <OBJECTS> -o <TARGET> <LINK_LIBRARIES>")
set(CMAKE_CUDA_CREATE_SHARED_LIBRARY
  "<CMAKE_CUDA_COMPILER> -forward-unknown-to-host-linker <LANGUAGE_COMPILE_FLAGS> <LINK_FLAGS> -shared <SONAME_FLAG><TARGET_SONAME> -o <TARGET> <OBJECTS> <LINK_LIBRARIES>")
set(CMAKE_CUDA_CREATE_SHARED_MODULE "${CMAKE_CUDA_CREATE_SHARED_LIBRARY}")

# Include folders go on the command line, not in an `--options-file` (NVIDIA's CMake rules put
# them in one for nvcc >= 11): compiler launchers such as sccache take that file for a second
# input and do not cache the compile. The compiler's rules are read after this file, so the
# setting lives in a rules override, which CMake reads after them.
if(NOT DEFINED CMAKE_USER_MAKE_RULES_OVERRIDE_CUDA)
  set(CMAKE_USER_MAKE_RULES_OVERRIDE_CUDA "${CMAKE_CURRENT_LIST_DIR}/cass_cuda_rules.cmake")
endif()

# CUDA::cublas and CUDA::curand are cass-cc's libraries (cass_cuda_libraries.cmake), linked by
# cass-nvcc: targets that use them link through CUDA (a C++-only target links with the host
# compiler, which does not know where cass-cc builds them).
if(NOT DEFINED CMAKE_PROJECT_INCLUDE)
  set(CMAKE_PROJECT_INCLUDE "${CMAKE_CURRENT_LIST_DIR}/cass_cuda_libraries.cmake")
endif()
