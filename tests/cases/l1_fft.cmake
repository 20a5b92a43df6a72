# L1 FFT cases at --size=1 on the default device (our kernels, and clFFT/VkFFT where built in)
# (reference/fft against a direct DFT: tests/reference/fft_test.cpp)
# CI leaves out the plain inverse transforms (every forward benchmark's round trip runs the same
# inverse kernels and checks them against the input), the libraries' sizes but 1024 (their own
# kernels, which CI checks at one size), 2^16 in columns taken in turns (there for Oclgrind:
# 2^20's forward transform takes the same paths), and the twiddle sweep's default points (the
# table at 1024, native at 16384: the plain forward transform of that length, the same programs).
add_case_test(L1.FFT "^L1/FFT/" CI_EXCLUDE
              "/dir:inverse/size:|/(clfft|vkfft)/n:(256|4096|16384)/|/radix:32/cols:32/|/n:1024/.*/twiddle:table/|/n:16384/.*/twiddle:native/")
# The batched 2-D transforms (every axis that may follow dir:), and the frames part
# (fft2d_frames.cpp): pipeline4 synchronised every 1, 10 or 100 frames.
# CI also leaves out the inner tuning candidates of the wide, transposed and split variants (the
# same kernels at knob values between the ones it keeps: each radix, the least and most columns).
add_case_test(L1.FFT2D "^L1/FFT2D/[a-z0-9_]+/n:[0-9x]+/dir:[a-z]+/(size|cols|rows|split|row_points):"
              CI_EXCLUDE "/dir:inverse/size:|/cols:(8|16)/radix:(16|32)/|/cols:4/radix:32/|/rows:4/radix:|/rows:2/radix:32/|/cols:(32|64)/radix:auto/")
add_case_test(L1.FFT2D.frames "^L1/FFT2D/pipeline4/.*/sync_every:")

