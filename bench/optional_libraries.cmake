# Optional vendor libraries for the L1 library variants: each one found adds its library and a
# GPU_BENCH_HAVE_* definition; without them the build still works.
find_package(CLBlast CONFIG QUIET)
if(CLBlast_FOUND)
  list(APPEND GPU_BENCH_OPTIONAL_LIBS clblast)
  list(APPEND GPU_BENCH_OPTIONAL_DEFINES GPU_BENCH_HAVE_CLBLAST)
endif()
