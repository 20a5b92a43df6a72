// Code paths: what a case's kernels do on a problem that a smaller problem might never do (a chunk
// loop's second trip, a scalar tail, a vector-aligned fast path, a second level or pass, a
// partial tile at an edge). A case names the paths of each size class in a table, computed from
// the same parameters its host code uses; `gpu_bench --list_paths` prints every table, and
// tests/cli/test_paths.py requires that --size=1 on the device at hand (PoCL's CPU in CI) takes
// every path the larger sizes take on a GPU, so that verification at size 1 sees every path.
#pragma once
#include <cstddef>
#include <functional>
#include <set>
#include <string>
#include <vector>

namespace gb {

using PathSet = std::set<std::string>;
// The paths a case's benchmarks take together at a size class, on a device of `compute_units`
// (what grid sizes depend on; other limits are the session device's, as in the host code).
using PathTable = std::function<PathSet(int size_class, size_t compute_units)>;

// Declared by a case's registrar, once per family ("L1/Scan").
void declare_paths(const std::string& family, PathTable table);

// The compute units of the GPUs the larger sizes are listed for (besides the device at hand).
const std::vector<size_t>& model_gpu_compute_units();

// {"L1/Scan": [{"size": 1, "compute_units": 2, "gpu": false, "paths": [...]}, ...,
// {"named": [...]}], ...}: size 1 on the device at hand, then sizes 1 to 4 on the model GPUs
// ("gpu": true), then every path the table names through path_if, taken or not at any size: a
// named path that no size takes is a branch no registered problem reaches.
std::string code_paths_json(size_t device_compute_units);

namespace detail {
void note_named_path(const std::string& name);
}

// Helpers for tables: "name" when `taken`; named either way (the "named" list above).
inline void path_if(PathSet& paths, bool taken, const std::string& name) {
  detail::note_named_path(name);
  if (taken) paths.insert(name);
}

}  // namespace gb
