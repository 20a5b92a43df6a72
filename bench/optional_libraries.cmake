# Optional vendor libraries for the L1 library variants (.../clblast, .../clfft, .../vkfft).
# Included by the top-level CMakeLists.txt before gpu_bench is made; fills GPU_BENCH_OPTIONAL_LIBS
# and GPU_BENCH_OPTIONAL_DEFINES (GPU_BENCH_HAVE_CLBLAST, GPU_BENCH_HAVE_CLFFT,
# GPU_BENCH_HAVE_VKFFT). A library that is not found is left out: its variants are not compiled.
# -DGPU_BENCH_WITHOUT_LIBRARIES=ON leaves all three out (to check the build without them).
option(GPU_BENCH_WITHOUT_LIBRARIES "Build without CLBlast, clFFT and VkFFT even where found" OFF)

set(GPU_BENCH_OPTIONAL_LIBS "")
set(GPU_BENCH_OPTIONAL_DEFINES "")
set(_gpu_bench_found "")
set(_gpu_bench_missing "")

if(NOT GPU_BENCH_WITHOUT_LIBRARIES)
  # CLBlast (Debian libclblast-dev ships a CMake package config).
  find_package(CLBlast CONFIG QUIET)
  # clFFT (Debian libclfft-dev: /usr/lib/<triplet>/cmake/clFFT, imported target clFFT).
  find_package(clFFT CONFIG QUIET)
  # VkFFT is one header (Debian libvkfft-dev: /usr/include/vkFFT.h); used with its OpenCL backend.
  find_path(VKFFT_INCLUDE_DIR vkFFT.h)
endif()

if(CLBlast_FOUND AND TARGET clblast)
  list(APPEND GPU_BENCH_OPTIONAL_LIBS clblast)
  list(APPEND GPU_BENCH_OPTIONAL_DEFINES GPU_BENCH_HAVE_CLBLAST)
  list(APPEND _gpu_bench_found CLBlast)
else()
  list(APPEND _gpu_bench_missing CLBlast)
endif()

if(clFFT_FOUND AND TARGET clFFT)
  list(APPEND GPU_BENCH_OPTIONAL_LIBS clFFT)
  list(APPEND GPU_BENCH_OPTIONAL_DEFINES GPU_BENCH_HAVE_CLFFT)
  list(APPEND _gpu_bench_found "clFFT ${clFFT_VERSION}")
else()
  list(APPEND _gpu_bench_missing clFFT)
endif()

if(VKFFT_INCLUDE_DIR AND NOT GPU_BENCH_WITHOUT_LIBRARIES)
  # Header-only; its OpenCL backend (VKFFT_BACKEND=3) needs only OpenCL, linked already.
  add_library(gpu_bench_vkfft INTERFACE)
  target_include_directories(gpu_bench_vkfft SYSTEM INTERFACE ${VKFFT_INCLUDE_DIR})
  target_compile_definitions(gpu_bench_vkfft INTERFACE VKFFT_BACKEND=3)
  target_link_libraries(gpu_bench_vkfft INTERFACE OpenCL::OpenCL)
  list(APPEND GPU_BENCH_OPTIONAL_LIBS gpu_bench_vkfft)
  list(APPEND GPU_BENCH_OPTIONAL_DEFINES GPU_BENCH_HAVE_VKFFT)
  list(APPEND _gpu_bench_found "VkFFT (${VKFFT_INCLUDE_DIR}/vkFFT.h)")
else()
  list(APPEND _gpu_bench_missing VkFFT)
endif()

string(REPLACE ";" ", " _gpu_bench_found_text "${_gpu_bench_found}")
string(REPLACE ";" ", " _gpu_bench_missing_text "${_gpu_bench_missing}")
if(NOT _gpu_bench_found_text)
  set(_gpu_bench_found_text "none")
endif()
if(NOT _gpu_bench_missing_text)
  set(_gpu_bench_missing_text "none")
endif()
message(STATUS "gpu_bench optional libraries: found ${_gpu_bench_found_text}; missing ${_gpu_bench_missing_text}")
