// A test hook, not a benchmark: L0/SelfTest/spin/size:N, whose kernel never finishes, registered
// only when the environment has GPU_BENCH_SELFTEST_HANG=1 (tests/cli/test_kernel_timeout.py), so
// the benchmark list is otherwise unchanged. It shows --kernel_timeout ending a hung run.
#include <cstdlib>
#include <cstring>

#include "gpu_bench.hpp"

namespace {

gb::ProgramKey program() { return {"l0/self_test.cl", ""}; }

void spin(benchmark::State& state) {
  auto& s = gb::session();
  cl::Kernel kernel = s.kernel(program(), "self_test_spin");
  cl::Buffer flag = gb::upload(std::vector<cl_int>{0});  // never set: the kernel never returns
  cl::Buffer out = gb::make_buffer(sizeof(cl_int));
  GB_SET_ARGS(kernel, flag, out);
  gb::measure(state, gb::Measurement::device([&](gb::Batch& b) { b.launch(kernel, cl::NDRange(1), cl::NDRange(1)); }));
}

void register_self_test() {
  const char* hook = std::getenv("GPU_BENCH_SELFTEST_HANG");
  if (!hook || std::strcmp(hook, "1") != 0) return;
  gb::add_benchmark(gb::bench_name("L0/SelfTest/spin", {{"size", std::to_string(gb::session().size_class())}}), spin,
                    [] { return std::vector<gb::ProgramKey>{program()}; });
}
// Registered with the host-timed cases, the last to run: the benchmarks a run selects beside it
// finish first, and the test sees them kept in the output file.
GB_HOST_TIMED_CASE(register_self_test);

}  // namespace
