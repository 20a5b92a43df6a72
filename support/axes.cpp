// Cache keys from benchmark names: a name's segments, kept or dropped by axis.
#include "axes.hpp"

#include <algorithm>

#include "registry.hpp"

namespace gb {

// Keeps the family (L<level>/<Case>) and each later segment whose axis `keep` accepts: the part
// before ':', or "" for the variant.
template <class Keep>
static std::string filter_axes(const std::string& name, Keep keep) {
  std::string out;
  size_t index = 0;
  for (size_t at = 0, end; at <= name.size(); at = end + 1, ++index) {
    end = std::min(name.find('/', at), name.size());
    const std::string segment = name.substr(at, end - at);
    const size_t colon = segment.find(':');
    if (index < 2 || keep(colon == std::string::npos ? std::string_view() : std::string_view(segment).substr(0, colon)))
      out += (out.empty() ? "" : "/") + segment;
  }
  return out;
}

static bool listed(std::initializer_list<std::string_view> axes, std::string_view axis) {
  return std::find(axes.begin(), axes.end(), axis) != axes.end();
}

std::string name_without(const std::string& name, std::initializer_list<std::string_view> axes) {
  return filter_axes(name, [&](std::string_view axis) { return !listed(axes, axis); });
}

std::string name_only(const std::string& name, std::initializer_list<std::string_view> axes) {
  return filter_axes(name, [&](std::string_view axis) { return listed(axes, axis); });
}

std::string name_key() {
  const std::string& name = current_benchmark_name();
  if (name.empty()) throw std::logic_error("a cache key from the benchmark name, outside a benchmark");
  return name;
}

std::string name_key_without(std::initializer_list<std::string_view> axes) { return name_without(name_key(), axes); }

std::string name_key_only(std::initializer_list<std::string_view> axes) { return name_only(name_key(), axes); }

}  // namespace gb
