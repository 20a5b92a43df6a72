// Device context, fingerprint and strict-JSON fix-up.
#include "context.hpp"

#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <sstream>

#ifndef GPU_BENCH_VERSION
#define GPU_BENCH_VERSION "0.0.0"
#endif
#include "cl.hpp"
#include "git_revision.hpp"  // generated at build time

namespace gb {

std::string device_fingerprint(const DeviceInfo& d) {
  std::ostringstream key;
  // What identifies the device and driver, nothing that drifts: PoCL reports the free memory and
  // a CPU's current clock, which change from run to run on one machine.
  key << d.platform << '|' << d.name << '|' << d.vendor << '|' << d.driver_version << '|'
      << d.opencl_version << '|' << d.compute_units;
  uint64_t h = 1469598103934665603ull;  // FNV-1a
  for (unsigned char c : key.str()) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

#ifndef GPU_BENCH_BENCHMARK_VERSION
#define GPU_BENCH_BENCHMARK_VERSION "unknown"
#endif

std::string version_text() {
  std::ostringstream out;
  out << "gpu-bench " << GPU_BENCH_VERSION << " (revision " << GPU_BENCH_GIT_REVISION << ")\n"
      << "Google Benchmark " << GPU_BENCH_BENCHMARK_VERSION << "\n"
      << "OpenCL headers: target version " << CL_TARGET_OPENCL_VERSION << "\n";
  return out.str();
}

void add_device_context(const DeviceInfo& d, int size_class) {
  auto add = [](const char* k, const std::string& v) { benchmark::AddCustomContext(k, v); };
  add("gpu_bench_version", GPU_BENCH_VERSION);
  add("git_revision", GPU_BENCH_GIT_REVISION);
  add("platform", d.platform);
  add("device", d.name);
  add("vendor", d.vendor);
  add("driver_version", d.driver_version);
  add("device_opencl_version", d.opencl_version);
  add("opencl_c_version", d.opencl_c_version);
  add("device_type", d.type);
  add("compute_units", std::to_string(d.compute_units));
  add("max_clock_mhz", std::to_string(d.max_clock_mhz));
  add("global_mem_bytes", std::to_string(d.global_mem_bytes));
  add("max_alloc_bytes", std::to_string(d.max_alloc_bytes));
  add("local_mem_bytes", std::to_string(d.local_mem_bytes));
  add("max_work_group_size", std::to_string(d.max_work_group_size));
  add("timer_resolution_ns", std::to_string(d.timer_resolution_ns));
  if (d.nv_compute_capability)  // which PTX the kernels' NVIDIA-only paths may use (sm_80: mma.sync f64)
    add("nv_compute_capability", std::to_string(d.nv_compute_capability / 10) + "." +
                                     std::to_string(d.nv_compute_capability % 10));
  add("device_fingerprint", device_fingerprint(d));
  add("size_class", std::to_string(size_class));
}

std::string strict_json_text(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) out += text[++i];
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
      out += c;
      continue;
    }
    bool replaced = false;
    for (const char* token : {"-Infinity", "Infinity", "-NaN", "NaN", "-nan", "nan", "-inf", "inf"}) {
      size_t n = std::char_traits<char>::length(token);
      if (text.compare(i, n, token) == 0) {
        out += "null";
        i += n - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) out += c;
  }
  return out;
}

bool make_json_strict(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::stringstream buf;
  buf << in.rdbuf();
  std::string fixed = strict_json_text(buf.str());
  if (fixed == buf.str()) return true;
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!(out << fixed)) return false;
  }
  return std::rename(tmp.c_str(), path.c_str()) == 0;
}

}  // namespace gb
