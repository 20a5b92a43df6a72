// Eigen FFT references (kissfft backend, double precision).
#include "fft.hpp"

#include <complex>
#include <unsupported/Eigen/FFT>

namespace ref {

namespace {
using Complex = std::complex<double>;

void transform(Eigen::FFT<double>& fft, std::vector<Complex>& out, const std::vector<Complex>& in,
               bool inverse) {
  if (inverse)
    fft.inv(out, in);  // scaled by 1/n
  else
    fft.fwd(out, in);
}
}  // namespace

std::vector<double> fft_1d(const std::vector<float>& data, size_t n, const std::vector<size_t>& which,
                           bool inverse) {
  Eigen::FFT<double> fft;
  std::vector<Complex> in(n), out(n);
  std::vector<double> result;
  result.reserve(2 * n * which.size());
  for (size_t b : which) {
    const float* x = data.data() + 2 * n * b;
    for (size_t i = 0; i < n; ++i) in[i] = Complex(x[2 * i], x[2 * i + 1]);
    transform(fft, out, in, inverse);
    for (const Complex& c : out) {
      result.push_back(c.real());
      result.push_back(c.imag());
    }
  }
  return result;
}

std::vector<double> fft_2d(const std::vector<float>& data, size_t nx, size_t ny, size_t batch,
                           bool inverse) {
  Eigen::FFT<double> fft;
  std::vector<double> result(2 * nx * ny * batch);
  std::vector<Complex> image(nx * ny), in, out;
  for (size_t b = 0; b < batch; ++b) {
    const float* x = data.data() + 2 * nx * ny * b;
    for (size_t i = 0; i < nx * ny; ++i) image[i] = Complex(x[2 * i], x[2 * i + 1]);
    in.resize(nx);
    for (size_t r = 0; r < ny; ++r) {  // rows
      std::copy(image.begin() + r * nx, image.begin() + (r + 1) * nx, in.begin());
      transform(fft, out, in, inverse);
      std::copy(out.begin(), out.end(), image.begin() + r * nx);
    }
    in.resize(ny);
    for (size_t c = 0; c < nx; ++c) {  // columns
      for (size_t r = 0; r < ny; ++r) in[r] = image[r * nx + c];
      transform(fft, out, in, inverse);
      for (size_t r = 0; r < ny; ++r) image[r * nx + c] = out[r];
    }
    double* y = result.data() + 2 * nx * ny * b;
    for (size_t i = 0; i < nx * ny; ++i) {
      y[2 * i] = image[i].real();
      y[2 * i + 1] = image[i].imag();
    }
  }
  return result;
}

}  // namespace ref
