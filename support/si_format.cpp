// SI formatting.
#include "si_format.hpp"

#include <cmath>
#include <cstdio>

namespace gb {

std::string si(double value, int digits) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value > 0 ? "inf" : "-inf";
  if (value == 0) return "0";
  static const char* prefixes[] = {"a", "f", "p", "n", "u", "m", "", "k", "M", "G", "T", "P", "E"};
  double mag = std::fabs(value);
  int exp3 = static_cast<int>(std::floor(std::log10(mag) / 3.0));
  if (exp3 < -6) exp3 = -6;
  if (exp3 > 6) exp3 = 6;
  double scaled = value / std::pow(1000.0, exp3);
  // Rounding to `digits` may carry into the next prefix (999.7 -> 1.00 k).
  int int_digits = static_cast<int>(std::floor(std::log10(std::fabs(scaled)))) + 1;
  double factor = std::pow(10.0, digits - int_digits);
  double rounded = std::round(scaled * factor) / factor;
  if (std::fabs(rounded) >= 1000.0 && exp3 < 6) {
    ++exp3;
    rounded /= 1000.0;
    int_digits = 1;
  }
  int decimals = digits - int_digits;
  if (decimals < 0) decimals = 0;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, rounded);
  std::string s = buf;
  const char* p = prefixes[exp3 + 6];
  if (*p) s += std::string(" ") + p;
  return s;
}

}  // namespace gb
