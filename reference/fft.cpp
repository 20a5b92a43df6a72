// Eigen FFT references (kissfft backend, double precision): transforms are independent (batch
// members, rows, columns), so they are split over the host's cores, one Eigen::FFT per task.
#include "fft.hpp"

#include <algorithm>
#include <complex>
#include <unsupported/Eigen/FFT>

#include "parallel.hpp"

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

// Calls body(fft, i) for i in [0, n), in tasks of about `per_task` transforms, each with its own
// Eigen::FFT (its plan cache is not shared between threads).
template <typename Body>
void transforms(size_t n, size_t per_task, const Body& body) {
  per_task = std::max<size_t>(1, per_task);
  parallel_for((n + per_task - 1) / per_task, [&](size_t task) {
    Eigen::FFT<double> fft;
    for (size_t i = task * per_task, end = std::min(n, i + per_task); i < end; ++i) body(fft, i);
  });
}

// Transforms of about 2^16 points per task: enough to amortise a plan.
size_t per_task(size_t length) { return std::max<size_t>(1, (size_t(1) << 16) / length); }
}  // namespace

std::vector<double> fft_1d(const std::vector<float>& data, size_t n, const std::vector<size_t>& which,
                           bool inverse) {
  std::vector<double> result = filled_vector<double>(2 * n * which.size());
  transforms(which.size(), per_task(n), [&](Eigen::FFT<double>& fft, size_t m) {
    std::vector<Complex> in(n), out(n);
    const float* x = data.data() + 2 * n * which[m];
    for (size_t i = 0; i < n; ++i) in[i] = Complex(x[2 * i], x[2 * i + 1]);
    transform(fft, out, in, inverse);
    double* y = result.data() + 2 * n * m;
    for (size_t i = 0; i < n; ++i) {
      y[2 * i] = out[i].real();
      y[2 * i + 1] = out[i].imag();
    }
  });
  return result;
}

std::vector<double> fft_2d(const std::vector<float>& data, size_t nx, size_t ny, size_t batch,
                           bool inverse) {
  std::vector<double> result = filled_vector<double>(2 * nx * ny * batch);
  std::vector<Complex> image = filled_vector<Complex>(nx * ny);
  for (size_t b = 0; b < batch; ++b) {
    const float* x = data.data() + 2 * nx * ny * b;
    transforms(ny, per_task(nx), [&](Eigen::FFT<double>& fft, size_t r) {  // rows
      std::vector<Complex> in(nx), out(nx);
      for (size_t c = 0; c < nx; ++c) in[c] = Complex(x[2 * (r * nx + c)], x[2 * (r * nx + c) + 1]);
      transform(fft, out, in, inverse);
      std::copy(out.begin(), out.end(), image.begin() + r * nx);
    });
    double* y = result.data() + 2 * nx * ny * b;
    transforms(nx, per_task(ny), [&](Eigen::FFT<double>& fft, size_t c) {  // columns
      std::vector<Complex> in(ny), out(ny);
      for (size_t r = 0; r < ny; ++r) in[r] = image[r * nx + c];
      transform(fft, out, in, inverse);
      for (size_t r = 0; r < ny; ++r) {
        y[2 * (r * nx + c)] = out[r].real();
        y[2 * (r * nx + c) + 1] = out[r].imag();
      }
    });
  }
  return result;
}

}  // namespace ref
