# L1 FFT cases at --size=1 on the default device (our kernels, and clFFT/VkFFT where built in),
# and the unit test of reference/fft against a direct DFT.
add_case_test(L1.FFT "^L1/FFT/")
add_case_test(L1.FFT2D "^L1/FFT2D/")

add_executable(fft_reference_test ${CMAKE_CURRENT_SOURCE_DIR}/reference/fft_reference_test.cpp)
target_link_libraries(fft_reference_test PRIVATE gpu_bench_reference GTest::gtest_main)
gtest_discover_tests(fft_reference_test)
