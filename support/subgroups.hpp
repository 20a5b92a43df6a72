// Whether the device has OpenCL sub-groups (cl_khr_subgroups, cl_intel_subgroups, or the OpenCL C
// 3.0 feature __opencl_c_subgroups), and the build options that expose them to a kernel.
#pragma once
#include <string>

namespace gb {

struct SubgroupSupport {
  bool available = false;
  std::string build_options;  // "-cl-std=CL3.0" when only the 3.0 feature provides them
  std::string reason;         // why not, for skip_variant
};

// Pure decision from the extension string, the OpenCL C feature names and the OpenCL C versions.
SubgroupSupport subgroup_support(const std::string& extensions, const std::string& c_features,
                                 bool supports_opencl_c_3);

// For the session's device (queried once).
const SubgroupSupport& device_subgroup_support();

}  // namespace gb
