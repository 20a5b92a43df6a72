// --device=all and --device=SPEC,SPEC...: the selected benchmarks run on each device in turn, one
// gpu_bench process per device (a process holds one OpenCL session and one Google Benchmark
// registry), each writing its own --benchmark_out file whose name says which device it holds.
#pragma once
#include <string>
#include <vector>

#include "devices.hpp"

namespace gb {

// Whether --device asks for several devices ("all", or a comma-separated list).
bool is_multi_device(const std::string& device_flag);

// The devices, as enumerate_devices() lists them (the fields that name and match a device), read
// in a forked child: this process never loads an OpenCL driver, which could keep a GPU in an
// exclusive compute mode from the children that run on it.
std::vector<DeviceInfo> device_infos_from_child();

// The 0-based positions in `devices` that "all" or "SPEC,SPEC,..." selects, in list order, each
// once. Throws std::invalid_argument or std::out_of_range (one line) for a spec that selects none.
std::vector<size_t> select_devices(const std::vector<DeviceInfo>& devices, const std::string& device_flag);

// "run.json", device 2 "NVIDIA H200" -> "run.device2-nvidia-h200.json" (no extension: appended).
std::string per_device_path(const std::string& path, size_t index, const DeviceInfo& device);

// Runs this executable (`self`) once per selected device with `args` (argv without argv[0]),
// --device replaced by the device's number and --benchmark_out by its per-device file. SIGINT,
// SIGTERM and SIGHUP go to the running child, and no further device is started. Returns the
// first non-zero exit status of the children (a signal's 128 + N), or 0.
int run_on_each_device(const std::string& self, const std::vector<std::string>& args,
                       const std::vector<DeviceInfo>& devices, const std::vector<size_t>& selected,
                       const std::string& benchmark_out);

}  // namespace gb
