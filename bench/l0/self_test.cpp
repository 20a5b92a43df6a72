// Test hooks, not benchmarks, registered only when the environment asks, so the benchmark list is
// otherwise unchanged. GPU_BENCH_SELFTEST_HANG=1: L0/SelfTest/spin/size:N, whose kernel never
// finishes (tests/cli/test_kernel_timeout.py: --kernel_timeout ends a hung run).
// GPU_BENCH_SELFTEST_POISON=1: L0/SelfTest/poison_{first,second}/size:N, two variants sharing one
// output buffer, each checking that the harness filled it with poison before its first run
// (tests/cli/test_poison.py).
#include <cstdlib>
#include <cstring>
#include <memory>

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

// The poison probe: one output shared by both variants (the key leaves the variant out), set to
// zeros when made, so that only the harness's poison can make it all 0xFF at a first run.
constexpr size_t kProbeWords = 4096;
constexpr cl_uint kProbeAnswer = 7;
struct SharedOutput {
  cl::Buffer out = gb::upload(std::vector<cl_uint>(kProbeWords, 0));
};
struct Probe {
  int poisoned_at_first_run = -1;  // -1: not run yet
};

void poison_probe(benchmark::State& state) {
  auto& shared = gb::cached_problem<SharedOutput>(gb::name_key_without({""}), [] { return std::make_unique<SharedOutput>(); });
  auto& probe = gb::cached_fixture<Probe>(gb::name_key(), [] { return std::make_unique<Probe>(); });
  const size_t bytes = kProbeWords * sizeof(cl_uint);
  gb::Timer timer = [&](int units) {
    if (probe.poisoned_at_first_run < 0) {
      const auto got = gb::read_back<cl_uint>(shared.out, kProbeWords);
      probe.poisoned_at_first_run = 1;
      for (cl_uint w : got) probe.poisoned_at_first_run &= w == 0xFFFFFFFFu;
    }
    auto& q = gb::session().queue();
    return gb::Sample{gb::host_seconds([&] {
      for (int u = 0; u < units; ++u) GB_CL(q.enqueueFillBuffer(shared.out, kProbeAnswer, 0, bytes));
      GB_CL(gb::finish(q));
    })};
  };
  gb::measure(state, gb::Measurement::timed(timer).poison(shared.out, bytes).check([&] {
    const gb::Check poisoned{probe.poisoned_at_first_run == 1 ? 0.0 : 1.0, 0, "output poisoned before the first run"};
    return gb::worst({poisoned, gb::check_exact(gb::read_back<cl_uint>(shared.out, kProbeWords),
                                                std::vector<cl_uint>(kProbeWords, kProbeAnswer), "output")});
  }));
}

bool hook_on(const char* variable) {
  const char* hook = std::getenv(variable);
  return hook && std::strcmp(hook, "1") == 0;
}

void register_self_test() {
  const std::string size = std::to_string(gb::session().size_class());
  if (hook_on("GPU_BENCH_SELFTEST_POISON"))
    for (const char* variant : {"L0/SelfTest/poison_first", "L0/SelfTest/poison_second"})
      gb::add_benchmark(gb::bench_name(variant, {{"size", size}}), poison_probe);
  if (!hook_on("GPU_BENCH_SELFTEST_HANG")) return;
  gb::add_benchmark(gb::bench_name("L0/SelfTest/spin", {{"size", size}}), spin,
                    [] { return std::vector<gb::ProgramKey>{program()}; });
}
// Registered with the host-timed cases, the last to run: the benchmarks a run selects beside it
// finish first, and the test sees them kept in the output file.
GB_HOST_TIMED_CASE(register_self_test);

}  // namespace
