// Numbers for people: SI prefixes with three significant digits ("4.38 T", "12.5 m").
#pragma once
#include <string>

namespace gb {
std::string si(double value, int digits = 3);
}
