// gpu_bench's side of a fleet run (gpu_bench_mpi, support/fleet_main.cpp): the launcher starts
// gpu_bench on each rank with GPU_BENCH_FLEET_FDS="IN,OUT", two pipes, and gpu_bench tells it
// over OUT what it runs and what it measured, one tab-separated line each, and waits on IN before
// sampling where the launcher lines the ranks up (--fleet=concurrent):
//   device  FINGERPRINT  DEVICE NAME  PCI BUS ID        once, before the first benchmark
//   ready   BENCHMARK                                   before each sampling; then reads "go"
//   result  BENCHMARK  PRIMARY METRIC  SECONDS PER UNIT  NOISE  BYTES PER UNIT
// Without the variable every call here does nothing.
#pragma once
#include <string>

namespace gb {

// The protocol's names, shared with the launcher.
constexpr const char* kFleetFdsVariable = "GPU_BENCH_FLEET_FDS";
constexpr const char* kSlowFactorVariable = "GPU_BENCH_TEST_SLOW_FACTOR";
constexpr const char* kFleetDevice = "device";
constexpr const char* kFleetReady = "ready";
constexpr const char* kFleetResult = "result";
constexpr const char* kFleetGo = "go\n";

bool in_fleet();
void fleet_send_device(const std::string& fingerprint, const std::string& device, const std::string& pci_bus_id,
                       const std::string& gpu_uuid);
void fleet_wait_to_sample(const std::string& benchmark);
void fleet_send_result(const std::string& benchmark, const std::string& primary_metric, double unit_seconds,
                       double noise, double bytes_per_unit);
// GPU_BENCH_TEST_SLOW_FACTOR (tests: the launcher sets it for one rank): every time measured is
// multiplied by it, as on a slower GPU; 1 without it.
double fleet_test_slow_factor();

}  // namespace gb
