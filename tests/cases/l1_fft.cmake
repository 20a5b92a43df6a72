# L1 FFT cases at --size=1 on the default device (our kernels, and clFFT/VkFFT where built in)
# (reference/fft against a direct DFT: tests/reference/fft_test.cpp)
add_case_test(L1.FFT "^L1/FFT/")
add_case_test(L1.FFT2D "^L1/FFT2D/")

