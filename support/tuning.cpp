// Device classes for the tuning tables (bench/tuning/): vendor and compute capability, and the
// device's name for a model's own entries.
#include "tuning.hpp"

#include "devices.hpp"
#include "session.hpp"

namespace gb::tuning {

std::string device_class(const DeviceInfo& info) {
  // Only NVIDIA's devices report one (cl_nv_device_attribute_query).
  if (info.nv_compute_capability > 0) return "nvidia-sm" + std::to_string(info.nv_compute_capability);
  return "generic";
}

std::string device_key(const DeviceInfo& info) { return device_class(info) + "/" + info.name; }

std::string device_key() { return device_key(session().info()); }

}  // namespace gb::tuning
