// The one header a case includes: session and programs, buffers, timing, work-group sweeps,
// verification, registration and axes, device fit, device waits (gb::finish under --kernel_timeout),
// child processes.
#pragma once
#include <benchmark/benchmark.h>

#include "axes.hpp"
#include "buffers.hpp"
#include "child_process.hpp"
#include "cl.hpp"
#include "cl_error.hpp"
#include "code_paths.hpp"
#include "device_fit.hpp"
#include "fixture_cache.hpp"
#include "measure.hpp"
#include "options.hpp"
#include "registry.hpp"
#include "session.hpp"
#include "timing.hpp"
#include "verify.hpp"
#include "watchdog.hpp"
#include "wg_sweep.hpp"
#include "working_sets.hpp"
