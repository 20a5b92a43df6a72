// Copy-bandwidth reference: measured once, cached, and turned into copy_fraction counters.
#include "copy_bandwidth.hpp"

#include <algorithm>
#include <string>
#include <cstdio>
#include <optional>

#include "buffers.hpp"
#include "options.hpp"
#include "session.hpp"
#include "timing.hpp"

namespace gb {

size_t copy_bandwidth_buffer_bytes(bool is_gpu, size_t max_alloc_bytes, size_t global_mem_bytes) {
  size_t bytes = is_gpu ? size_t(1) << 30 : size_t(64) << 20;
  while (bytes > max_alloc_bytes || bytes > global_mem_bytes / 8) bytes /= 2;
  return std::max<size_t>(bytes, 1 << 20);
}

constexpr size_t kCopyItems = kCopyBytesPerWorkItem / 16;  // float4s per work item

ProgramKey copy_bandwidth_program() { return {"support/copy_bandwidth.cl", "-DITEMS=" + std::to_string(kCopyItems)}; }

const CopyBandwidth& device_copy_bandwidth() {
  static std::optional<CopyBandwidth> cached;
  if (cached) return *cached;
  auto& s = session();
  constexpr size_t kLocal = 256;
  const size_t bytes = copy_bandwidth_buffer_bytes(s.info().is_gpu(), s.info().max_alloc_bytes,
                                                   s.info().global_mem_bytes);
  const cl_ulong work_items = bytes / 16 / kCopyItems;
  cl::Kernel kernel = s.kernel(copy_bandwidth_program(), "copy_bandwidth");
  cl::Buffer in = make_buffer(bytes), out = make_buffer(bytes);
  GB_CL(s.queue().enqueueFillBuffer(in, cl_float(1.5f), 0, bytes));
  GB_SET_ARGS(kernel, in, out, work_items);
  const size_t local = std::min(kLocal, s.kernel_work_group_size(kernel));
  const cl::NDRange global((work_items + local - 1) / local * local);
  const Unit unit = [&](Batch& b) { b.launch(kernel, global, cl::NDRange(local)); };
  if (!options().verify_only) run_batch(unit, 1);  // first use
  const double one = std::max(run_batch(unit, 1).device_seconds, 1e-9);
  const int units = static_cast<int>(std::clamp(min_sample_seconds() / one + 1, 1.0, 4096.0));
  double best = options().verify_only ? 2.0 * bytes / one : 0;  // --verify_only: one unit, a rough figure
  for (int batch = 0; batch < (options().verify_only ? 0 : 5); ++batch) {
    const double t = run_batch(unit, units).device_seconds;
    if (t > 0) best = std::max(best, 2.0 * bytes * units / t);
  }
  cached = CopyBandwidth{best, bytes};
  std::fprintf(stderr, "copy bandwidth reference: %.1f GB/s (float4 copy, 2 x %zu MiB, best of 5 batches)\n",
               best * 1e-9, bytes >> 20);
  return *cached;
}

double copy_fraction(double bytes_per_unit, double unit_seconds) {
  const auto& copy = device_copy_bandwidth();
  static bool in_context = false;
  if (!in_context) {  // a constant of the device: once, in the context
    benchmark::AddCustomContext("copy_bytes_per_second", std::to_string(copy.bytes_per_second));
    in_context = true;
  }
  if (unit_seconds <= 0 || copy.bytes_per_second <= 0) return 0;
  return bytes_per_unit / unit_seconds / copy.bytes_per_second;
}

}  // namespace gb
