// The OpenCL devices of this machine, and choosing one by index or name (--device=SPEC, -N).
// Parsing and matching are pure functions over a list, so tests need no device.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cl.hpp"

namespace gb {

struct DeviceInfo {
  std::string platform;
  std::string name;
  std::string vendor;
  std::string driver_version;
  std::string opencl_version;    // CL_DEVICE_VERSION
  std::string opencl_c_version;  // CL_DEVICE_OPENCL_C_VERSION
  std::string extensions;
  std::string type;  // "gpu", "cpu", "accelerator", "other"
  unsigned compute_units = 0;
  unsigned max_clock_mhz = 0;
  uint64_t global_mem_bytes = 0;
  uint64_t max_alloc_bytes = 0;
  uint64_t local_mem_bytes = 0;
  size_t max_work_group_size = 0;
  size_t max_work_item_sizes[3] = {0, 0, 0};
  size_t timer_resolution_ns = 0;
  bool images = false;
  // NVIDIA's compute capability as major*10 + minor (cl_nv_device_attribute_query); 0 elsewhere.
  unsigned nv_compute_capability = 0;

  bool has_extension(const std::string& ext) const;
  bool has_fp64() const { return has_extension("cl_khr_fp64"); }
  bool has_fp16() const { return has_extension("cl_khr_fp16"); }
  bool is_gpu() const { return type == "gpu"; }
};

struct DeviceEntry {
  cl::Device device;
  DeviceInfo info;
};

// Every device of every platform, in platform order, numbered 1.. as --list_devices shows.
std::vector<DeviceEntry> enumerate_devices();
DeviceInfo query_device_info(const cl::Platform& platform, const cl::Device& device);
// A device's number in that list (from 1, as --device=N takes it), or 0 when it is not there: how
// a child process (support/child_process) is told which device its parent measures.
size_t device_number(const cl::Device& device);
// "platform / name": with its number, how a child process (support/child_process) checks that it
// opened its parent's device.
std::string device_label(const DeviceInfo& info);

// --device=SPEC and -N, parsed. An empty spec with no index means "the default device".
struct DeviceSpec {
  std::string match;         // lower-case substring of "platform device", or "cpu"/"gpu"
  std::optional<int> index;  // 1-based: N-th device, or N-th match when `match` is set
  bool is_default() const { return match.empty() && !index; }
};

// Throws std::invalid_argument with a one-line message on a malformed spec or index.
DeviceSpec parse_device_spec(const std::string& device_flag, const std::string& index_flag);

struct DeviceChoice {
  size_t chosen;                // position in the list
  std::vector<size_t> matches;  // all positions the spec matched
};

// Default: the first GPU, else the first device. Throws std::out_of_range naming the spec when
// nothing matches or the index is beyond the matches.
DeviceChoice choose_device(const std::vector<DeviceInfo>& devices, const DeviceSpec& spec);

// The --list_devices table.
std::string device_table(const std::vector<DeviceInfo>& devices);
// Every field of every device, as a JSON array (--list_devices=json).
std::string devices_json(const std::vector<DeviceInfo>& devices);

}  // namespace gb
