// NVML through dlopen: the few entry points gpu_bench reads, declared here by their C signatures
// (nvml.h is not a build dependency); AMD and Intel GPUs through sysfs. The OpenCL device is
// matched to its NVML device or sysfs folder by PCI bus id.
#include "telemetry.hpp"

#include <dirent.h>
#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
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

// "0000000d:00:06.0"-style bus id of an OpenCL device, from cl_khr_pci_bus_info, AMD's topology
// or NVIDIA's attribute query; "" when the device has none of them.
std::string pci_bus_id(const cl::Device& device, const DeviceInfo& info) {
  char text[32];
  if (info.has_extension("cl_khr_pci_bus_info")) {
    struct { cl_uint domain, bus, device, function; } bus{};
    if (clGetDeviceInfo(device(), 0x410F /* CL_DEVICE_PCI_BUS_INFO_KHR */, sizeof bus, &bus, nullptr) == CL_SUCCESS) {
      std::snprintf(text, sizeof text, "%08x:%02x:%02x.%x", bus.domain, bus.bus, bus.device, bus.function);
      return text;
    }
  }
  if (info.has_extension("cl_amd_device_attribute_query")) {
    struct { cl_uint type; cl_char unused[17]; cl_char bus, device, function; } topology{};  // cl_device_topology_amd
    if (clGetDeviceInfo(device(), 0x4037 /* CL_DEVICE_TOPOLOGY_AMD */, sizeof topology, &topology, nullptr) == CL_SUCCESS &&
        topology.type == 1 /* CL_DEVICE_TOPOLOGY_TYPE_PCIE_AMD */) {
      std::snprintf(text, sizeof text, "%08x:%02x:%02x.%x", 0u, static_cast<unsigned char>(topology.bus),
                    static_cast<unsigned char>(topology.device), static_cast<unsigned char>(topology.function));
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

std::optional<double> read_number(const std::string& path) {
  std::ifstream in(path);
  double value = 0;
  if (in >> value) return value;
  return std::nullopt;
}

// The entries of a folder whose names start with `prefix`, sorted.
std::vector<std::string> entries(const std::string& dir, const std::string& prefix) {
  std::vector<std::string> names;
  if (DIR* d = opendir(dir.c_str())) {
    while (const dirent* e = readdir(d))
      if (std::string name = e->d_name; name.rfind(prefix, 0) == 0) names.push_back(name);
    closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

// amdgpu's pp_dpm_sclk and pp_dpm_mclk: "0: 500Mhz\n1: 2100Mhz *\n", the starred level current.
std::optional<double> current_dpm_level(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (line.find('*') != std::string::npos) {
      const auto colon = line.find(':');
      if (colon == std::string::npos) return std::nullopt;
      return std::strtod(line.c_str() + colon + 1, nullptr);
    }
  return std::nullopt;
}

}  // namespace

std::string sysfs_bus_id(const std::string& bus_id) {
  unsigned domain = 0, bus = 0, slot = 0, function = 0;
  char tail = 0;
  if (std::sscanf(bus_id.c_str(), "%x:%x:%x.%x%c", &domain, &bus, &slot, &function, &tail) != 4) return "";
  char text[16];
  std::snprintf(text, sizeof text, "%04x:%02x:%02x.%x", domain, bus, slot, function);
  return text;
}

std::string device_pci_bus_id() { return pci_bus_id(session().device(), session().info()); }

std::string only_sysfs_gpu(const std::string& root) {
  std::vector<std::string> gpus;
  for (const auto& name : entries(root + "/bus/pci/devices", ""))
    if (name[0] != '.' && SysfsGpu::open(root, name)) gpus.push_back(name);
  return gpus.size() == 1 ? gpus.front() : "";
}

std::optional<SysfsGpu> SysfsGpu::open(const std::string& root, const std::string& bus_id) {
  const std::string bdf = sysfs_bus_id(bus_id);
  if (bdf.empty()) return std::nullopt;
  SysfsGpu gpu;
  gpu.dir_ = root + "/bus/pci/devices/" + bdf;
  char target[4096];
  const ssize_t n = readlink((gpu.dir_ + "/driver").c_str(), target, sizeof target - 1);
  if (n <= 0) return std::nullopt;
  target[n] = 0;
  const std::string link = target;
  gpu.driver_ = link.substr(link.rfind('/') + 1);
  if (gpu.driver_ != "amdgpu" && gpu.driver_ != "i915" && gpu.driver_ != "xe") return std::nullopt;
  const auto hwmons = entries(gpu.dir_ + "/hwmon", "hwmon");
  if (!hwmons.empty()) gpu.hwmon_ = gpu.dir_ + "/hwmon/" + hwmons.front();
  return gpu;
}

DeviceReading SysfsGpu::read() const {
  DeviceReading r;
  if (!hwmon_.empty()) {
    if (auto t = read_number(hwmon_ + "/temp1_input")) r.temperature_c = *t / 1000;  // millidegrees
    auto power = read_number(hwmon_ + "/power1_average");  // microwatts
    if (!power) power = read_number(hwmon_ + "/power1_input");
    if (power) r.power_w = *power / 1e6;
  }
  if (driver_ == "amdgpu") {
    r.sm_clock_mhz = current_dpm_level(dir_ + "/pp_dpm_sclk");
    r.mem_clock_mhz = current_dpm_level(dir_ + "/pp_dpm_mclk");
    r.busy_percent = read_number(dir_ + "/gpu_busy_percent");
  } else if (driver_ == "i915") {
    for (const auto& card : entries(dir_ + "/drm", "card")) {
      const std::string base = dir_ + "/drm/" + card;
      r.sm_clock_mhz = read_number(base + "/gt/gt0/rps_act_freq_mhz");  // kernels from 5.16
      if (!r.sm_clock_mhz) r.sm_clock_mhz = read_number(base + "/gt_act_freq_mhz");
      if (r.sm_clock_mhz) break;
    }
  } else if (driver_ == "xe") {
    r.sm_clock_mhz = read_number(dir_ + "/tile0/gt0/freq0/act_freq");
  }
  return r;
}

std::string SysfsGpu::unique_id() const {
  std::ifstream in(dir_ + "/unique_id");
  std::string id;
  std::getline(in, id);
  return id;
}

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
    if (const auto at = text.find("uuid="); at != std::string::npos) {
      const auto end = text.find(',', at);
      gpu_uuid_ = text.substr(at + 5, end == std::string::npos ? std::string::npos : end - at - 5);
    }
    if (const auto at = text.find("remapped_rows="); at != std::string::npos)
      memory_health_ = "{\"remapped_rows_correctable\":" +
                       std::to_string(std::strtoull(text.c_str() + at + 14, nullptr, 10)) + "}";
    source_ = "test hook";
    return;
  }
  const DeviceInfo& info = session().info();
  if (info.vendor.find("NVIDIA") == std::string::npos) {
    const char* test_root = std::getenv("GPU_BENCH_TEST_SYSFS_ROOT");
    const bool test = test_root && *test_root;
    if (!info.is_gpu() && !test) return;  // a CPU device has no GPU's readings
    const std::string root = test ? test_root : "/sys";
    std::string bus = pci_bus_id(session().device(), info);
    if (bus.empty()) bus = only_sysfs_gpu(root);  // one AMD or Intel GPU: it is this one
    sysfs_ = SysfsGpu::open(root, bus);
    if (sysfs_) {
      source_ = "sysfs " + sysfs_->driver() + " (" + sysfs_bus_id(bus) + ")";
      gpu_uuid_ = sysfs_->unique_id();
    }
    return;
  }
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
  char uuid[96] = "";  // NVML_DEVICE_UUID_V2_BUFFER_SIZE
  if (auto f = symbol<int (*)(Device, char*, unsigned)>(library_, "nvmlDeviceGetUUID"); f && f(device_, uuid, sizeof uuid) == kSuccess)
    gpu_uuid_ = uuid;
  std::vector<std::string> health;
  unsigned correctable = 0, uncorrectable = 0, pending = 0, failed = 0;
  if (auto f = symbol<int (*)(Device, unsigned*, unsigned*, unsigned*, unsigned*)>(library_, "nvmlDeviceGetRemappedRows");
      f && f(device_, &correctable, &uncorrectable, &pending, &failed) == kSuccess) {
    health.push_back("\"remapped_rows_correctable\":" + std::to_string(correctable));
    health.push_back("\"remapped_rows_uncorrectable\":" + std::to_string(uncorrectable));
    health.push_back("\"remapping_pending\":" + std::to_string(pending));
    health.push_back("\"remapping_failed\":" + std::to_string(failed));
  }
  // nvmlDeviceGetTotalEccErrors(device, error type (0 corrected, 1 uncorrected), counter type
  // (0 volatile: since the driver loaded, 1 aggregate: the GPU's life), count).
  if (auto f = symbol<int (*)(Device, int, int, unsigned long long*)>(library_, "nvmlDeviceGetTotalEccErrors")) {
    const char* names[2][2] = {{"ecc_corrected_volatile", "ecc_corrected_aggregate"},
                               {"ecc_uncorrected_volatile", "ecc_uncorrected_aggregate"}};
    for (int error = 0; error < 2; ++error)
      for (int counter = 0; counter < 2; ++counter) {
        unsigned long long n = 0;
        if (f(device_, error, counter, &n) == kSuccess)
          health.push_back("\"" + std::string(names[error][counter]) + "\":" + std::to_string(n));
      }
  }
  if (!health.empty()) {
    memory_health_ = "{";
    for (size_t i = 0; i < health.size(); ++i) memory_health_ += (i ? "," : "") + health[i];
    memory_health_ += "}";
  }
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
  if (sysfs_) return sysfs_->read();
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
