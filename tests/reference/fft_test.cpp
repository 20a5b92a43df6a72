// reference/fft against a direct O(n^2) DFT on small sizes: sign convention, inverse scaling,
// batch member selection and the 2-D row/column order, also with the transforms split into tasks.
#include "reference/fft.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <random>

#include "random_data.hpp"

namespace {

using Complex = std::complex<double>;

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
  auto data = testdata::random_floats(2 * n * batch, 1);
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
  auto data = testdata::random_floats(2 * nx * ny * batch, 2);
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

TEST(FftReference, ManyTransformsSplitOverTasks) {
  // 1-D: 2500 members of 64 points, several of the reference's tasks (1024 transforms each).
  const size_t n = 64, members = 2500;
  auto data = testdata::random_floats(2 * n * members, 3);
  std::vector<size_t> which(members);
  for (size_t b = 0; b < members; ++b) which[b] = members - 1 - b;  // any order
  const auto got = ref::fft_1d(data, n, which, false);
  for (size_t m : {0u, 1023u, 1024u, 2499u}) {
    std::vector<Complex> x(n);
    for (size_t i = 0; i < n; ++i) x[i] = Complex(data[2 * (which[m] * n + i)], data[2 * (which[m] * n + i) + 1]);
    const auto want = direct_dft(x, false);
    for (size_t k = 0; k < n; ++k) {
      ASSERT_NEAR(got[2 * (m * n + k)], want[k].real(), 1e-12);
      ASSERT_NEAR(got[2 * (m * n + k) + 1], want[k].imag(), 1e-12);
    }
  }
  // 2-D, 512 x 256: rows and columns in several tasks. The rows' 1-D transforms (checked above),
  // then a few columns by the direct DFT.
  const size_t nx = 512, ny = 256;
  auto image = testdata::random_floats(2 * nx * ny, 4);
  std::vector<size_t> rows(ny);
  for (size_t r = 0; r < ny; ++r) rows[r] = r;
  for (bool inverse : {false, true}) {
    const auto got2 = ref::fft_2d(image, nx, ny, 1, inverse);
    const auto by_row = ref::fft_1d(image, nx, rows, inverse);
    for (size_t c : {0u, 1u, 255u, 511u}) {
      std::vector<Complex> x(ny);
      for (size_t r = 0; r < ny; ++r) x[r] = Complex(by_row[2 * (r * nx + c)], by_row[2 * (r * nx + c) + 1]);
      const auto want = direct_dft(x, inverse);
      for (size_t r = 0; r < ny; ++r) {
        ASSERT_NEAR(got2[2 * (r * nx + c)], want[r].real(), 1e-9) << c << "," << r;
        ASSERT_NEAR(got2[2 * (r * nx + c) + 1], want[r].imag(), 1e-9) << c << "," << r;
      }
    }
  }
}

}  // namespace
