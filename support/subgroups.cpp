// Sub-group detection: extensions first, then CL_DEVICE_OPENCL_C_FEATURES on OpenCL 3.0 devices.
#include "subgroups.hpp"

#include <optional>
#include <sstream>

#include "session.hpp"

namespace gb {

static bool has_word(const std::string& list, const std::string& word) {
  std::istringstream in(list);
  for (std::string w; in >> w;)
    if (w == word) return true;
  return false;
}

SubgroupSupport subgroup_support(const std::string& extensions, const std::string& c_features,
                                 bool supports_opencl_c_3) {
  if (has_word(extensions, "cl_khr_subgroups") || has_word(extensions, "cl_intel_subgroups"))
    return {true, "", ""};
  if (supports_opencl_c_3 && has_word(c_features, "__opencl_c_subgroups")) return {true, "-cl-std=CL3.0", ""};
  return {false, "", "no sub-groups (neither cl_khr_subgroups nor __opencl_c_subgroups)"};
}

const SubgroupSupport& device_subgroup_support() {
  static std::optional<SubgroupSupport> cached;
  if (cached) return *cached;
  auto& s = session();
  std::string features;
  bool c3 = false;
  if (s.info().opencl_version.rfind("OpenCL 3.", 0) == 0) {
    std::vector<cl_name_version> list;
    if (s.device().getInfo(CL_DEVICE_OPENCL_C_FEATURES, &list) == CL_SUCCESS)
      for (const auto& f : list) features += std::string(f.name) + " ";
    std::vector<cl_name_version> versions;
    if (s.device().getInfo(CL_DEVICE_OPENCL_C_ALL_VERSIONS, &versions) == CL_SUCCESS)
      for (const auto& v : versions) c3 = c3 || CL_VERSION_MAJOR(v.version) >= 3;
  }
  cached = subgroup_support(s.info().extensions, features, c3);
  return *cached;
}

}  // namespace gb
