// Host references for the FFT cases, with Eigen's FFT module (unsupported/Eigen/FFT) in double:
// batched 1-D transforms of selected batch members, and 2-D transforms of row-major images.
#pragma once
#include <cstddef>
#include <vector>

namespace ref {

// Complex data as interleaved floats (re, im). Forward: X[k] = sum_n x[n] e^(-2 pi i nk/N);
// inverse: e^(+2 pi i nk/N) scaled by 1/N (Eigen's default, as clFFT's backward transform).

// The 1-D transforms of the batch members `which` of a batch of contiguous length-n sequences;
// the result holds them one after the other, as interleaved doubles.
std::vector<double> fft_1d(const std::vector<float>& data, size_t n, const std::vector<size_t>& which,
                           bool inverse);

// The 2-D transform of each of `batch` row-major images of ny rows and nx columns.
std::vector<double> fft_2d(const std::vector<float>& data, size_t nx, size_t ny, size_t batch,
                           bool inverse);

}  // namespace ref
