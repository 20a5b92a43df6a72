// Byte counts as they appear in benchmark names: 4096 -> "4KiB", 2^30 -> "1GiB", 100 -> "100B".
#pragma once
#include <cstddef>
#include <string>

namespace gb {

// The largest binary unit that divides the count exactly.
std::string bytes_label(size_t bytes);

}  // namespace gb
