// NVML through dlopen: the few entry points gpu_bench reads, declared here by their C signatures
// (nvml.h is not a build dependency). The OpenCL device is matched to its NVML device by PCI bus id.
#include "telemetry.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

#include "child_process.hpp"
#include "cl.hpp"
#include "session.hpp"

namespace gb {

namespace {

using Device = void*;
constexpr int kSuccess = 0, kInsufficientSize = 7;
constexpr int kSensorGpu = 0, kClockSm = 1, kClockMem = 2;
struct ProcessInfo {  // nvmlProcessInfo_t (v2 layout, what the _v3 query fills)
  unsigned pid;
  unsigned long long used_memory;
  unsigned gpu_instance, compute_instance;
};

template <typename F>
F symbol(void* library, const char* name) {
  return library ? reinterpret_cast<F>(dlsym(library, name)) : nullptr;
}

// "0000000d:00:06.0"-style bus id of an OpenCL device, from cl_khr_pci_bus_info or NVIDIA's
// attribute query; "" when the device has neither.
std::string pci_bus_id(const cl::Device& device, const DeviceInfo& info) {
  char text[32];
  if (info.has_extension("cl_khr_pci_bus_info")) {
    struct { cl_uint domain, bus, device, function; } bus{};
    if (clGetDeviceInfo(device(), 0x410F /* CL_DEVICE_PCI_BUS_INFO_KHR */, sizeof bus, &bus, nullptr) == CL_SUCCESS) {
      std::snprintf(text, sizeof text, "%08x:%02x:%02x.%x", bus.domain, bus.bus, bus.device, bus.function);
      return text;
    }
  }
  if (info.has_extension("cl_nv_device_attribute_query")) {
    cl_uint bus = 0, slot = 0, domain = 0;
    if (clGetDeviceInfo(device(), 0x4008 /* CL_DEVICE_PCI_BUS_ID_NV */, sizeof bus, &bus, nullptr) == CL_SUCCESS &&
        clGetDeviceInfo(device(), 0x4009 /* CL_DEVICE_PCI_SLOT_ID_NV */, sizeof slot, &slot, nullptr) == CL_SUCCESS) {
      clGetDeviceInfo(device(), 0x400A /* CL_DEVICE_PCI_DOMAIN_ID_NV */, sizeof domain, &domain, nullptr);
      std::snprintf(text, sizeof text, "%08x:%02x:%02x.%x", domain, bus, slot >> 3, slot & 7);
      return text;
    }
  }
  return "";
}

}  // namespace

std::string throttle_names(uint64_t reasons) {
  static const std::pair<uint64_t, const char*> names[] = {
      {0x4, "power cap"}, {0x8, "hardware slowdown"}, {0x20, "thermal (software)"},
      {0x40, "thermal (hardware)"}, {0x80, "power brake"}};
  std::string out;
  for (const auto& [bit, name] : names)
    if (reasons & bit) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

DeviceReading Telemetry::parse_test_hook(const std::string& text) {
  DeviceReading r;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) continue;
    const std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    const double number = std::strtod(value.c_str(), nullptr);
    if (key == "throttle") r.throttle_reasons = std::strtoull(value.c_str(), nullptr, 0);
    else if (key == "sm_clock") r.sm_clock_mhz = number;  // steady_sm_clock: not a reading
    else if (key == "mem_clock") r.mem_clock_mhz = number;
    else if (key == "temperature") r.temperature_c = number;
    else if (key == "power") r.power_w = number;
    else if (key == "other_processes") r.other_processes = static_cast<int>(number);
  }
  return r;
}

Telemetry& Telemetry::instance() {
  static Telemetry telemetry;
  return telemetry;
}

Telemetry::Telemetry() {
  if (const char* hook = std::getenv("GPU_BENCH_TEST_TELEMETRY"); hook && *hook) {
    hook_ = parse_test_hook(hook);
    const std::string text = hook;
    if (const auto at = text.find("steady_sm_clock="); at != std::string::npos)
      hook_steady_sm_clock_ = std::strtod(text.c_str() + at + 16, nullptr);
    source_ = "test hook";
    return;
  }
  const DeviceInfo& info = session().info();
  if (info.vendor.find("NVIDIA") == std::string::npos) return;  // AMD and Intel: no source read yet
  library_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  auto init = symbol<int (*)()>(library_, "nvmlInit_v2");
  if (!init || init() != kSuccess) return;
  const std::string bus = pci_bus_id(session().device(), info);
  auto by_bus = symbol<int (*)(const char*, Device*)>(library_, "nvmlDeviceGetHandleByPciBusId_v2");
  auto count = symbol<int (*)(unsigned*)>(library_, "nvmlDeviceGetCount_v2");
  auto by_index = symbol<int (*)(unsigned, Device*)>(library_, "nvmlDeviceGetHandleByIndex_v2");
  Device device = nullptr;
  unsigned devices = 0;
  if (!bus.empty() && by_bus && by_bus(bus.c_str(), &device) == kSuccess) {
    device_ = device;
  } else if (count && by_index && count(&devices) == kSuccess && devices == 1 && by_index(0, &device) == kSuccess) {
    device_ = device;  // one NVIDIA GPU: it is this one
  } else {
    return;  // several GPUs and no bus id to tell them apart: no reading rather than another GPU's
  }
  char version[96] = "";
  if (auto driver = symbol<int (*)(char*, unsigned)>(library_, "nvmlSystemGetDriverVersion")) driver(version, sizeof version);
  source_ = "NVML (driver " + std::string(version) + (bus.empty() ? "" : ", " + bus) + ")";
}

std::optional<double> Telemetry::steady_sm_clock() {
  if (hook_steady_sm_clock_) return hook_steady_sm_clock_;
  return read().sm_clock_mhz;
}

int other_processes_of(unsigned listed, const std::vector<unsigned>& pids, unsigned self,
                       const std::vector<pid_t>& children) {
  if (std::find(pids.begin(), pids.end(), self) == pids.end()) {
    // In a PID namespace NVML lists host PIDs: this process and each running child of ours is one
    // entry all the same (its context is open), so that many entries are taken as ours.
    return std::max(0, static_cast<int>(listed) - 1 - static_cast<int>(children.size()));
  }
  int others = static_cast<int>(listed - pids.size());  // entries beyond the buffer: not ours
  for (unsigned pid : pids)
    others += pid != self && std::find(children.begin(), children.end(), static_cast<pid_t>(pid)) == children.end();
  return others;
}

DeviceReading Telemetry::read() {
  if (hook_) return *hook_;
  DeviceReading r;
  if (!device_) return r;
  unsigned value = 0;
  if (auto f = symbol<int (*)(Device, int, unsigned*)>(library_, "nvmlDeviceGetTemperature"); f && f(device_, kSensorGpu, &value) == kSuccess)
    r.temperature_c = value;
  auto clock = symbol<int (*)(Device, int, unsigned*)>(library_, "nvmlDeviceGetClockInfo");
  if (clock && clock(device_, kClockSm, &value) == kSuccess) r.sm_clock_mhz = value;
  if (clock && clock(device_, kClockMem, &value) == kSuccess) r.mem_clock_mhz = value;
  if (auto f = symbol<int (*)(Device, unsigned*)>(library_, "nvmlDeviceGetPowerUsage"); f && f(device_, &value) == kSuccess)
    r.power_w = value / 1000.0;
  unsigned long long reasons = 0;
  auto events = symbol<int (*)(Device, unsigned long long*)>(library_, "nvmlDeviceGetCurrentClocksEventReasons");
  if (!events) events = symbol<int (*)(Device, unsigned long long*)>(library_, "nvmlDeviceGetCurrentClocksThrottleReasons");
  if (events && events(device_, &reasons) == kSuccess) r.throttle_reasons = reasons;
  if (auto f = symbol<int (*)(Device, unsigned*, ProcessInfo*)>(library_, "nvmlDeviceGetComputeRunningProcesses_v3")) {
    std::vector<ProcessInfo> infos(64);
    unsigned n = static_cast<unsigned>(infos.size());
    const int status = f(device_, &n, infos.data());
    if (status == kSuccess || status == kInsufficientSize) {
      std::vector<unsigned> pids;
      for (unsigned i = 0; i < std::min<unsigned>(n, static_cast<unsigned>(infos.size())); ++i) pids.push_back(infos[i].pid);
      r.other_processes = other_processes_of(n, pids, static_cast<unsigned>(getpid()), running_child_pids());
    }
  }
  return r;
}

}  // namespace gb
