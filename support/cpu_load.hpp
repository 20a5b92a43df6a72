// Host load before measuring: a busy host delays enqueues and syncs and skews GPU results.
#pragma once
#include <optional>
#include <string>

namespace gb {
// The 1-minute load average from /proc/loadavg text ("0.52 0.58 0.59 1/123 4567").
std::optional<double> parse_loadavg(const std::string& text);
std::optional<double> read_loadavg();  // from /proc/loadavg
}  // namespace gb
