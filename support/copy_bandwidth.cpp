// Copy-bandwidth reference: measured once, cached, and turned into copy_fraction counters.
#include "copy_bandwidth.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

#include "buffers.hpp"
#include "session.hpp"
#include "timing.hpp"

namespace gb {

size_t copy_bandwidth_buffer_bytes(bool is_gpu, size_t max_alloc_bytes, size_t global_mem_bytes) {
  size_t bytes = is_gpu ? size_t(1) << 30 : size_t(64) << 20;
  while (bytes > max_alloc_bytes || bytes > global_mem_bytes / 8) bytes /= 2;
  return std::max<size_t>(bytes, 1 << 20);
}

const CopyBandwidth& device_copy_bandwidth() {
  static std::optional<CopyBandwidth> cached;
  if (cached) return *cached;
  auto& s = session();
  constexpr size_t kItems = 4, kLocal = 256;
  const size_t bytes = copy_bandwidth_buffer_bytes(s.info().is_gpu(), s.info().max_alloc_bytes,
                                                   s.info().global_mem_bytes);
  const cl_ulong work_items = bytes / 16 / kItems;
  cl::Kernel kernel = s.kernel("support/copy_bandwidth.cl", "copy_bandwidth", "-DITEMS=4");
  cl::Buffer in = make_buffer(bytes), out = make_buffer(bytes);
  GB_CL(s.queue().enqueueFillBuffer(in, cl_float(1.5f), 0, bytes));
  GB_CL(kernel.setArg(0, in));
  GB_CL(kernel.setArg(1, out));
  GB_CL(kernel.setArg(2, work_items));
  const size_t local = std::min(kLocal, s.kernel_work_group_size(kernel));
  const cl::NDRange global((work_items + local - 1) / local * local);
  const Unit unit = [&](Batch& b) { b.launch(kernel, global, cl::NDRange(local)); };
  const Calibration c = calibrate(unit);
  double best = 0;
  for (int batch = 0; batch < 5; ++batch) {
    const double t = run_batch(unit, c.units).device_seconds;
    if (t > 0) best = std::max(best, 2.0 * bytes * c.units / t);
  }
  cached = CopyBandwidth{best, bytes};
  std::fprintf(stderr, "copy bandwidth reference: %.1f GB/s (float4 copy, 2 x %zu MiB, best of 5 batches)\n",
               best * 1e-9, bytes >> 20);
  return *cached;
}

void report_copy_fraction(benchmark::State& state, double bytes_per_unit) {
  const auto& copy = device_copy_bandwidth();
  const auto it = state.counters.find("unit_seconds");
  if (it == state.counters.end() || it->second.value <= 0 || copy.bytes_per_second <= 0) return;
  state.counters["copy_fraction"] = bytes_per_unit / it->second.value / copy.bytes_per_second;
  state.counters["copy_bytes_per_second"] = copy.bytes_per_second;
}

}  // namespace gb
