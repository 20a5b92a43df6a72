# L1/GEMM at --size=1 on PoCL: every kernel variant and work group, by precision, and CLBlast's
# Gemm where the build found it; plus the unit tests of reference/gemm.
add_case_test(L1.GEMM.float "^L1/GEMM/(naive|tiled|regblock)/type:float/")
add_case_test(L1.GEMM.double "^L1/GEMM/(naive|tiled|regblock)/type:double/")
if("GPU_BENCH_HAVE_CLBLAST" IN_LIST GPU_BENCH_OPTIONAL_DEFINES)
  add_case_test(L1.GEMM.clblast "^L1/GEMM/clblast/")
endif()

add_executable(gemm_reference_test ${CMAKE_CURRENT_SOURCE_DIR}/reference/gemm_test.cpp)
target_link_libraries(gemm_reference_test PRIVATE gpu_bench_reference GTest::gtest_main)
target_compile_options(gemm_reference_test PRIVATE ${WARNINGS})
gtest_discover_tests(gemm_reference_test)
