// Device classes for the tuning tables (bench/tuning/): vendor and compute capability.
#include "tuning.hpp"

#include "devices.hpp"
#include "session.hpp"

namespace gb::tuning {

std::string device_class(const DeviceInfo& info) {
  // Only NVIDIA's devices report one (cl_nv_device_attribute_query).
  if (info.nv_compute_capability > 0) return "nvidia-sm" + std::to_string(info.nv_compute_capability);
  return "generic";
}

std::string device_class() { return device_class(session().info()); }

}  // namespace gb::tuning
