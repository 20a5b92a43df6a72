// The code-path tables of the cases, and their listing.
#include "code_paths.hpp"

#include <map>
#include <sstream>

namespace gb {

namespace {
std::map<std::string, PathTable>& tables() {
  static std::map<std::string, PathTable> all;
  return all;
}

PathSet& named_paths() {
  static PathSet named;
  return named;
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}
}  // namespace

namespace detail {
void note_named_path(const std::string& name) { named_paths().insert(name); }
}  // namespace detail

void declare_paths(const std::string& family, PathTable table) { tables()[family] = std::move(table); }

const std::vector<size_t>& model_gpu_compute_units() {
  static const std::vector<size_t> units{132};  // H100 SXM and H200: 132 SMs
  return units;
}

std::string code_paths_json(size_t device_compute_units) {
  std::ostringstream out;
  out << "{";
  bool first_family = true;
  for (const auto& [family, table] : tables()) {
    out << (first_family ? "\n" : ",\n") << "  " << quoted(family) << ": [";
    first_family = false;
    // Size 1 on the device at hand (what the case tests run), then every size on the model GPUs.
    std::vector<std::pair<int, size_t>> points{{1, device_compute_units}};
    for (int size = 1; size <= 4; ++size)
      for (size_t cu : model_gpu_compute_units()) points.emplace_back(size, cu);
    bool first_entry = true;
    named_paths().clear();
    for (const auto& [size, cu] : points) {
      out << (first_entry ? "\n" : ",\n") << "    {\"size\": " << size << ", \"compute_units\": " << cu
          << ", \"gpu\": " << (first_entry ? "false" : "true") << ", \"paths\": [";
      first_entry = false;
      bool first_path = true;
      for (const auto& path : table(size, cu)) {
        out << (first_path ? "" : ", ") << quoted(path);
        first_path = false;
      }
      out << "]}";
    }
    out << ",\n    {\"named\": [";
    bool first_named = true;
    for (const auto& path : named_paths()) {
      out << (first_named ? "" : ", ") << quoted(path);
      first_named = false;
    }
    out << "]}\n  ]";
  }
  out << "\n}\n";
  return out.str();
}

}  // namespace gb
