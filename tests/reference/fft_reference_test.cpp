// reference/fft against a direct O(n^2) DFT on small sizes: sign convention, inverse scaling,
// batch member selection and the 2-D row/column order.
#include "reference/fft.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>

namespace {

using Complex = std::complex<double>;

std::vector<float> random_data(size_t floats, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(floats);
  for (auto& x : v) x = dist(rng);
  return v;
}

// x[i * stride] for i < n, transformed directly.
std::vector<Complex> direct_dft(const std::vector<Complex>& x, bool inverse) {
  const size_t n = x.size();
  const double sign = inverse ? 1.0 : -1.0;
  std::vector<Complex> y(n);
  for (size_t k = 0; k < n; ++k) {
    Complex s = 0;
    for (size_t j = 0; j < n; ++j) s += x[j] * std::polar(1.0, sign * 2 * M_PI * double(j * k % n) / n);
    y[k] = inverse ? s / double(n) : s;
  }
  return y;
}

TEST(FftReference, OneDimensionalMatchesDirectDft) {
  const size_t n = 64, batch = 5;
  auto data = random_data(2 * n * batch, 1);
  for (bool inverse : {false, true}) {
    auto got = ref::fft_1d(data, n, {1, 4}, inverse);
    ASSERT_EQ(got.size(), 2 * n * 2);
    size_t out = 0;
    for (size_t b : {1, 4}) {
      std::vector<Complex> x(n);
      for (size_t i = 0; i < n; ++i) x[i] = Complex(data[2 * (b * n + i)], data[2 * (b * n + i) + 1]);
      auto want = direct_dft(x, inverse);
      for (size_t k = 0; k < n; ++k, ++out) {
        EXPECT_NEAR(got[2 * out], want[k].real(), 1e-12);
        EXPECT_NEAR(got[2 * out + 1], want[k].imag(), 1e-12);
      }
    }
  }
}

TEST(FftReference, TwoDimensionalMatchesDirectDft) {
  const size_t nx = 8, ny = 4, batch = 2;
  auto data = random_data(2 * nx * ny * batch, 2);
  for (bool inverse : {false, true}) {
    auto got = ref::fft_2d(data, nx, ny, batch, inverse);
    ASSERT_EQ(got.size(), 2 * nx * ny * batch);
    const double sign = inverse ? 1.0 : -1.0;
    for (size_t b = 0; b < batch; ++b)
      for (size_t ky = 0; ky < ny; ++ky)
        for (size_t kx = 0; kx < nx; ++kx) {
          Complex s = 0;
          for (size_t y = 0; y < ny; ++y)
            for (size_t x = 0; x < nx; ++x) {
              size_t i = b * nx * ny + y * nx + x;
              double angle = sign * 2 * M_PI * (double(x * kx) / nx + double(y * ky) / ny);
              s += Complex(data[2 * i], data[2 * i + 1]) * std::polar(1.0, angle);
            }
          if (inverse) s /= double(nx * ny);
          size_t o = b * nx * ny + ky * nx + kx;
          EXPECT_NEAR(got[2 * o], s.real(), 1e-12);
          EXPECT_NEAR(got[2 * o + 1], s.imag(), 1e-12);
        }
  }
}

}  // namespace
