# L1 FFT cases at --size=1 on the default device (our kernels, and clFFT/VkFFT where built in)
# (reference/fft against a direct DFT: tests/reference/fft_test.cpp)
# CI leaves out the plain inverse transforms: every forward benchmark's round trip runs the same
# inverse kernels and checks them against the input.
add_case_test(L1.FFT "^L1/FFT/" CI_EXCLUDE "/dir:inverse/size:")
# The batched 2-D transforms (every axis that may follow dir:), and the frames part
# (fft2d_frames.cpp): pipeline4 synchronised every 1, 10 or 100 frames.
add_case_test(L1.FFT2D "^L1/FFT2D/[a-z0-9_]+/n:[0-9x]+/dir:[a-z]+/(size|cols|rows|split|row_points):"
              CI_EXCLUDE "/dir:inverse/size:")
add_case_test(L1.FFT2D.frames "^L1/FFT2D/pipeline4/.*/sync_every:")

