# Included after every project() (CMAKE_PROJECT_INCLUDE, set by cass.cmake): CUDA::cublas and
# CUDA::curand (and their _static forms) name cass-cc's own cuBLAS and cuRAND, which cass-nvcc
# links for `-lcublas`/`-lcurand` (NVIDIA's would not run on an AMD GPU). FindCUDAToolkit keeps a
# target that exists, so these stand whether or not the project calls it.
foreach(_cass_lib IN ITEMS cublas cublas_static curand curand_static)
  if(NOT TARGET CUDA::${_cass_lib})
    add_library(CUDA::${_cass_lib} INTERFACE IMPORTED GLOBAL)
    set_target_properties(CUDA::${_cass_lib} PROPERTIES INTERFACE_LINK_LIBRARIES "-l${_cass_lib}")
  endif()
endforeach()
unset(_cass_lib)
