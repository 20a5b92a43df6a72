// Work-group sizes and shapes to sweep: for each N = 2^k up to the kernel's limit, the shapes
// (N,1), (N/2,2) ... (1,N) in 2-D (all power-of-two factorisations in 3-D), plus the driver's own
// choice (a NULL local size). Shapes the device cannot run are left out.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "cl.hpp"

namespace gb {

struct WorkGroup {
  size_t x = 0, y = 1, z = 1;  // x == 0: driver's choice
  bool is_auto() const { return x == 0; }
  size_t size() const { return x * y * z; }
  std::string label() const;  // "auto", "256", "16x16", "8x8x4" (by the sweep's dimensions)
  int dims = 1;
  cl::NDRange local() const;  // cl::NullRange for auto
};

struct SweepLimits {
  size_t max_size;            // CL_KERNEL_WORK_GROUP_SIZE (or the device's maximum)
  size_t max_items[3];        // CL_DEVICE_MAX_WORK_ITEM_SIZES
  size_t min_size = 1;        // smallest N swept
};

std::vector<WorkGroup> work_group_shapes(int dims, const SweepLimits& limits,
                                         bool include_auto = true);

// Rounds each global dimension up to a multiple of the work group (kernels guard their edges).
cl::NDRange padded_global(size_t gx, size_t gy, size_t gz, const WorkGroup& wg);
size_t round_up(size_t value, size_t multiple);

}  // namespace gb
