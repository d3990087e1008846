# CUDA rules override from cass.cmake (read after CMake's rules for NVIDIA's compiler): include
# folders on the command line, where compiler launchers (sccache) see them.
set(CMAKE_CUDA_USE_RESPONSE_FILE_FOR_INCLUDES 0)
