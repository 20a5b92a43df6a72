// Host-clock measurement, for quantities that are host costs: enqueue overhead, transfers as an
// application sees them (copy or map, then synchronised), program builds.
#pragma once
#include <benchmark/benchmark.h>

#include <functional>

#include "timing.hpp"

namespace gb {

// Runs `reps` repetitions of some work and returns once it is complete (synchronised).
using HostWork = std::function<void(int reps)>;

// Steady-clock seconds around fn().
double host_seconds(const std::function<void()>& fn);

}  // namespace gb
