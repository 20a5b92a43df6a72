// Device enumeration, --device parsing and matching, and the device table.
#include "devices.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <iomanip>
#include <sstream>
#include <stdexcept>

#include "cl_error.hpp"

namespace gb {

bool DeviceInfo::has_extension(const std::string& ext) const {
  std::istringstream words(extensions);
  std::string w;
  while (words >> w)
    if (w == ext) return true;
  return false;
}

static std::string trim(std::string s) {
  while (!s.empty() && (std::isspace(static_cast<unsigned char>(s.back())) || s.back() == '\0'))
    s.pop_back();
  size_t b = 0;
  while (b < s.size() && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  return s.substr(b);
}

static std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

template <typename T>
static T device_get(const cl::Device& d, cl_device_info what) {
  T value{};
  GB_CL(d.getInfo(what, &value));
  return value;
}

DeviceInfo query_device_info(const cl::Platform& platform, const cl::Device& d) {
  DeviceInfo i;
  std::string pname;
  GB_CL(platform.getInfo(CL_PLATFORM_NAME, &pname));
  i.platform = trim(pname);
  i.name = trim(device_get<std::string>(d, CL_DEVICE_NAME));
  i.vendor = trim(device_get<std::string>(d, CL_DEVICE_VENDOR));
  i.driver_version = trim(device_get<std::string>(d, CL_DRIVER_VERSION));
  i.opencl_version = trim(device_get<std::string>(d, CL_DEVICE_VERSION));
  i.opencl_c_version = trim(device_get<std::string>(d, CL_DEVICE_OPENCL_C_VERSION));
  i.extensions = device_get<std::string>(d, CL_DEVICE_EXTENSIONS);
  auto type = device_get<cl_device_type>(d, CL_DEVICE_TYPE);
  i.type = (type & CL_DEVICE_TYPE_GPU)           ? "gpu"
           : (type & CL_DEVICE_TYPE_CPU)         ? "cpu"
           : (type & CL_DEVICE_TYPE_ACCELERATOR) ? "accelerator"
                                                 : "other";
  i.compute_units = device_get<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS);
  i.max_clock_mhz = device_get<cl_uint>(d, CL_DEVICE_MAX_CLOCK_FREQUENCY);
  i.global_mem_bytes = device_get<cl_ulong>(d, CL_DEVICE_GLOBAL_MEM_SIZE);
  i.max_alloc_bytes = device_get<cl_ulong>(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  i.local_mem_bytes = device_get<cl_ulong>(d, CL_DEVICE_LOCAL_MEM_SIZE);
  i.max_work_group_size = device_get<size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  auto items = device_get<std::vector<size_t>>(d, CL_DEVICE_MAX_WORK_ITEM_SIZES);
  for (size_t k = 0; k < 3 && k < items.size(); ++k) i.max_work_item_sizes[k] = items[k];
  i.timer_resolution_ns = device_get<size_t>(d, CL_DEVICE_PROFILING_TIMER_RESOLUTION);
  i.images = device_get<cl_bool>(d, CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE;
  if (i.has_extension("cl_nv_device_attribute_query")) {
    constexpr cl_device_info kMajor = 0x4000, kMinor = 0x4001;  // CL_DEVICE_COMPUTE_CAPABILITY_*_NV
    i.nv_compute_capability = device_get<cl_uint>(d, kMajor) * 10 + device_get<cl_uint>(d, kMinor);
  }
  return i;
}

std::vector<DeviceEntry> enumerate_devices() {
  std::vector<cl::Platform> platforms;
  cl_int err = cl::Platform::get(&platforms);
  // The ICD loader reports "no platforms" as an error; that is an empty list here.
  if (err == CL_PLATFORM_NOT_FOUND_KHR || platforms.empty()) return {};
  GB_CL(err);
  std::vector<DeviceEntry> out;
  for (auto& p : platforms) {
    std::vector<cl::Device> devices;
    err = p.getDevices(CL_DEVICE_TYPE_ALL, &devices);
    if (err == CL_DEVICE_NOT_FOUND) continue;
    GB_CL(err);
    for (auto& d : devices) out.push_back({d, query_device_info(p, d)});
  }
  return out;
}

std::string device_label(const DeviceInfo& info) { return info.platform + " / " + info.name; }

size_t device_number(const cl::Device& device) {
  const auto all = enumerate_devices();
  for (size_t k = 0; k < all.size(); ++k)
    if (all[k].device() == device()) return k + 1;
  return 0;
}

static int parse_positive_index(const std::string& text, const std::string& flag) {
  if (text.empty() || !std::all_of(text.begin(), text.end(), [](char c) { return std::isdigit(c); }))
    throw std::invalid_argument(flag + ": expected a device number counted from 1, got '" + text +
                                "'");
  if (text.size() > 6) throw std::invalid_argument(flag + ": no device numbered " + text);
  const int n = std::stoi(text);
  if (n < 1) throw std::invalid_argument(flag + ": device numbers count from 1");
  return n;
}

DeviceSpec parse_device_spec(const std::string& device_flag, const std::string& index_flag) {
  DeviceSpec spec;
  std::string d = lower(trim(device_flag));
  if (d.empty() && !device_flag.empty())
    throw std::invalid_argument("--device: expected a name substring, cpu, gpu or a number, got '" + device_flag + "'");
  bool numeric = !d.empty() && std::all_of(d.begin(), d.end(), [](char c) { return std::isdigit(c); });
  if (numeric)
    spec.index = parse_positive_index(d, "--device");
  else
    spec.match = d;
  if (!index_flag.empty()) {
    if (spec.index) throw std::invalid_argument("--device=N and -N given together");
    spec.index = parse_positive_index(index_flag, "-N");
  }
  return spec;
}

static bool matches(const DeviceInfo& d, const std::string& match) {
  if (match == "gpu" || match == "cpu") return d.type == match;
  // The OpenCL version string names the implementation where the platform name does not
  // (PoCL's platform is "Portable Computing Language", its version "OpenCL 3.0 PoCL ...").
  return lower(d.platform + " " + d.name).find(match) != std::string::npos ||
         lower(d.vendor).find(match) != std::string::npos ||
         lower(d.opencl_version).find(match) != std::string::npos;
}

DeviceChoice choose_device(const std::vector<DeviceInfo>& devices, const DeviceSpec& spec) {
  DeviceChoice c{};
  if (devices.empty()) throw std::out_of_range("no OpenCL device found");
  if (spec.is_default()) {
    for (size_t k = 0; k < devices.size(); ++k)
      if (devices[k].is_gpu()) c.matches.push_back(k);
    if (c.matches.empty()) c.matches.push_back(0);
    c.chosen = c.matches.front();
    return c;
  }
  for (size_t k = 0; k < devices.size(); ++k)
    if (spec.match.empty() || matches(devices[k], spec.match)) c.matches.push_back(k);
  if (c.matches.empty()) throw std::out_of_range("no device matches '" + spec.match + "'");
  size_t n = spec.index ? static_cast<size_t>(*spec.index) : 1;
  if (n > c.matches.size()) {
    std::ostringstream s;
    s << "device " << n << " requested but "
      << (spec.match.empty() ? std::string("the list has ")
                             : "'" + spec.match + "' matches only ")
      << c.matches.size();
    throw std::out_of_range(s.str());
  }
  c.chosen = c.matches[n - 1];
  return c;
}

std::string device_table(const std::vector<DeviceInfo>& devices) {
  // Columns as wide as their longest entry: names are never cut.
  size_t platform_w = 8, name_w = 6;
  for (const auto& d : devices) {
    platform_w = std::max(platform_w, d.platform.size());
    name_w = std::max(name_w, d.name.size());
  }
  std::ostringstream s;
  s << std::left << std::setw(4) << "#" << std::setw(static_cast<int>(platform_w + 2)) << "platform"
    << std::setw(static_cast<int>(name_w + 2)) << "device" << std::setw(6) << "type" << std::right << std::setw(5)
    << "CUs" << std::setw(7) << "MHz" << std::setw(10) << "mem GiB" << std::setw(10) << "alloc GiB" << "  version\n";
  for (size_t k = 0; k < devices.size(); ++k) {
    const auto& d = devices[k];
    s << std::left << std::setw(4) << (k + 1) << std::setw(static_cast<int>(platform_w + 2)) << d.platform
      << std::setw(static_cast<int>(name_w + 2)) << d.name << std::setw(6) << d.type << std::right << std::setw(5)
      << d.compute_units << std::setw(7) << d.max_clock_mhz << std::fixed << std::setprecision(1) << std::setw(10)
      << d.global_mem_bytes / 1073741824.0 << std::setw(10) << d.max_alloc_bytes / 1073741824.0 << "  "
      << d.opencl_version << "\n";
  }
  return s.str();
}

static std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

std::string devices_json(const std::vector<DeviceInfo>& devices) {
  std::ostringstream s;
  s << "[";
  for (size_t k = 0; k < devices.size(); ++k) {
    const auto& d = devices[k];
    std::istringstream words(d.extensions);
    std::string ext, extensions;
    while (words >> ext) extensions += (extensions.empty() ? "" : ", ") + json_string(ext);
    s << (k ? ",\n " : "\n ") << "{\"number\": " << k + 1 << ", \"platform\": " << json_string(d.platform)
      << ", \"device\": " << json_string(d.name) << ", \"vendor\": " << json_string(d.vendor)
      << ", \"type\": " << json_string(d.type) << ", \"driver_version\": " << json_string(d.driver_version)
      << ", \"opencl_version\": " << json_string(d.opencl_version)
      << ", \"opencl_c_version\": " << json_string(d.opencl_c_version) << ", \"compute_units\": " << d.compute_units
      << ", \"max_clock_mhz\": " << d.max_clock_mhz << ", \"global_mem_bytes\": " << d.global_mem_bytes
      << ", \"max_alloc_bytes\": " << d.max_alloc_bytes << ", \"local_mem_bytes\": " << d.local_mem_bytes
      << ", \"max_work_group_size\": " << d.max_work_group_size << ", \"max_work_item_sizes\": ["
      << d.max_work_item_sizes[0] << ", " << d.max_work_item_sizes[1] << ", " << d.max_work_item_sizes[2]
      << "], \"timer_resolution_ns\": " << d.timer_resolution_ns << ", \"images\": " << (d.images ? "true" : "false")
      << ", \"extensions\": [" << extensions << "]}";
  }
  s << (devices.empty() ? "]\n" : "\n]\n");
  return s.str();
}

}  // namespace gb
