// device_copy_bandwidth: a float4 copy kernel (embedded here, so the helper needs no kernel file),
// timed as a few batches of back-to-back copies; the best batch wins.
#include "copy_bandwidth.hpp"

#include <algorithm>
#include <map>

#include "buffers.hpp"
#include "cl_error.hpp"
#include "session.hpp"
#include "timing.hpp"
#include "wg_sweep.hpp"

namespace gb {

namespace {

const char* kCopySource = R"(
__kernel void copy_bandwidth_float4(__global const float4* in, __global float4* out, const uint n) {
  const uint i = get_global_id(0);
  if (i < n) out[i] = in[i];
}
)";

constexpr int kBatches = 4;
constexpr int kCopiesPerBatch = 8;

// Per buffer: 1 GiB on a GPU (far past any last-level cache), 128 MiB on a CPU device (its
// caches are a few MiB, and a CI machine has little time), always within the allocation limit.
size_t copy_bytes(const DeviceInfo& d) {
  size_t bytes = d.is_gpu() ? (size_t(1) << 30) : (size_t(128) << 20);
  while (bytes > d.max_alloc_bytes || 2 * bytes > d.global_mem_bytes / 2) bytes /= 2;
  return bytes;
}

double measure() {
  auto& s = session();
  const size_t bytes = copy_bytes(s.info());
  const cl_uint n = static_cast<cl_uint>(bytes / 16);
  cl::Program program = s.build(kCopySource, "", "copy_bandwidth (support/copy_bandwidth.cpp)");
  cl_int err = CL_SUCCESS;
  cl::Kernel kernel(program, "copy_bandwidth_float4", &err);
  GB_CL(err);
  cl::Buffer in = make_buffer(bytes), out = make_buffer(bytes);
  const cl_float pattern = 1.5f;  // not zero: zeros can compress in hardware
  GB_CL(s.queue().enqueueFillBuffer(in, pattern, 0, bytes));
  GB_CL(kernel.setArg(0, in));
  GB_CL(kernel.setArg(1, out));
  GB_CL(kernel.setArg(2, n));
  const cl::NDRange global(round_up(n, 256)), local(256);
  const Unit unit = [&](Batch& b) { b.launch(kernel, global, local); };
  run_batch(unit, 1);  // first touch of both buffers
  double best = 0;
  for (int i = 0; i < kBatches; ++i) {
    const double t = run_batch(unit, kCopiesPerBatch).device_seconds;
    if (t > 0) best = std::max(best, 2.0 * bytes * kCopiesPerBatch / t);
  }
  return best;
}

}  // namespace

double device_copy_bandwidth() {
  static std::map<cl_device_id, double> cache;  // per device, should a process open several
  const cl_device_id id = session().device()();
  auto it = cache.find(id);
  if (it != cache.end()) return it->second;
  return cache[id] = measure();
}

}  // namespace gb
