// /proc/loadavg parsing.
#include "cpu_load.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace gb {

std::optional<double> parse_loadavg(const std::string& text) {
  std::istringstream in(text);
  std::string first;
  if (!(in >> first)) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(first.c_str(), &end);
  if (end == first.c_str() || *end != '\0' || v < 0) return std::nullopt;
  return v;
}

std::optional<double> read_loadavg() {
  std::ifstream f("/proc/loadavg");
  std::string line;
  if (!std::getline(f, line)) return std::nullopt;
  return parse_loadavg(line);
}

}  // namespace gb
