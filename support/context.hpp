// The JSON context: what device and build produced a run, and a short fingerprint of the device
// so that tools refuse to compare runs of different devices.
#pragma once
#include <string>

#include "devices.hpp"

namespace gb {

// 16 hex digits over platform, device, vendor, driver, OpenCL version and compute units.
std::string device_fingerprint(const DeviceInfo& d);

// "gpu-bench 0.1.0 (revision ...)" and the libraries it was built with, one per line.
std::string version_text();

// AddCustomContext for every device field, the suite's version and git revision, size class.
void add_device_context(const DeviceInfo& d, int size_class);

// Rewrites bare NaN/Infinity (which Google Benchmark writes) as null, so the file is strict JSON.
// Returns false if the file could not be read or written.
bool make_json_strict(const std::string& path);
std::string strict_json_text(const std::string& text);

}  // namespace gb
