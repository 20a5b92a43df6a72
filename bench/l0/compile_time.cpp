// L0/CompileTime: clCreateProgramWithSource + clBuildProgram of a short and a long program, cold
// (new code every build) and again (the same source and options as a build before). Host clock;
// one build per sample, so the time is ms per build and items_per_second builds per second.
#include <chrono>
#include <memory>
#include <unistd.h>

#include "gpu_bench.hpp"
#include "host_timing.hpp"
#include "reference/compile_time.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
constexpr size_t kCheckItems = 1024;

struct Params {
  bool long_program;
  bool cold;
  int size_class;
  // The long program's functions (64 unrolled steps each): 10 on PoCL in CI, 100 on a GPU.
  unsigned tens() const { return size_class == 1 ? 1 : 10; }
  std::string options(uint32_t salt) const {
    std::string o = "-DSALT=" + std::to_string(salt) + "u";
    if (long_program) o += " -DLONG -DTENS=" + std::to_string(tens());
    return o;
  }
};

// A salt no earlier build has used, in this process or (through NVIDIA's ~/.nv/ComputeCache or
// PoCL's kernel cache) any before it: process id, start time and a counter, mixed.
uint32_t fresh_salt() {
  static uint64_t counter = 0;
  static const uint64_t base = (static_cast<uint64_t>(getpid()) << 32) ^
                               static_cast<uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
  uint64_t z = base + 0x9E3779B97F4A7C15ull * ++counter;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return static_cast<uint32_t>(z ^ (z >> 31));
}

// ---- set-up (once per configuration) ----------------------------------------------------------
struct Fixture {
  uint32_t again_salt = 0;  // the salt every "again" build repeats
  cl::Program last;         // the last timed build, and its salt
  uint32_t last_salt = 0;
};

std::unique_ptr<Fixture> make_fixture(const Params& p) {
  auto fx = std::make_unique<Fixture>();
  fx->again_salt = fresh_salt();
  // "again" repeats a build done here; "cold" warms the compiler itself (its libraries loaded).
  gb::session().build(gb::kernel_source("l0/compile_time.cl"), p.options(fx->again_salt), "l0/compile_time.cl");
  return fx;
}

gb::Check verify(const Fixture& fx, const Params& p) {
  auto& q = gb::session().queue();
  cl_int err = CL_SUCCESS;
  cl::Kernel k(fx.last, p.long_program ? "compile_time_long" : "compile_time_short", &err);
  GB_CL(err);
  cl::Buffer out = gb::make_buffer(kCheckItems * sizeof(cl_uint));
  gb::poison(out, kCheckItems * sizeof(cl_uint));
  GB_SET_ARGS(k, out);
  GB_CL(q.enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(kCheckItems)));
  const auto want = p.long_program ? ref::compile_time_long(kCheckItems, fx.last_salt, 10 * p.tens())
                                   : ref::compile_time_short(kCheckItems, fx.last_salt);
  return gb::check_exact(gb::read_back<uint32_t>(out, kCheckItems), want, "built kernel's output");
}

// ---- the benchmark -------------------------------------------------------------------------
// One build per sample, timed alone (the salt and the options string are outside the time).
void run(benchmark::State& state, const Params& p) {
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key(), [&] { return make_fixture(p); });
  auto& s = gb::session();
  const std::string& source = gb::kernel_source("l0/compile_time.cl");
  const gb::Timer builds = [&](int units) {
    gb::Sample t;
    for (int i = 0; i < units; ++i) {
      const uint32_t salt = p.cold ? fresh_salt() : fx.again_salt;
      const std::string options = p.options(salt);
      t.seconds += gb::host_seconds([&] { fx.last = s.build(source, options, "l0/compile_time.cl"); });
      fx.last_salt = salt;
    }
    return t;
  };
  gb::Measurement m = gb::Measurement::timed(builds)
                          .max_batch(1)
                          .work(gb::Work().items(1))
                          .counter("source_bytes", static_cast<double>(source.size()))
                          .no_poison("the check runs the last build's kernel into a buffer it poisons (see verify)")
                          .check([&] { return verify(fx, p); });
  if (p.long_program) m.counter("functions", 10.0 * p.tens());
  gb::measure(state, m);
}

// ---- registration ----------------------------------------------------------------------------
gb::PathSet code_paths(int, size_t) { return {"builds: the checked kernel runs once"}; }

void register_compile_time() {
  gb::declare_paths("L0/CompileTime", code_paths);
  const int size = gb::session().size_class();
  for (bool long_program : {false, true})
    for (bool cold : {true, false}) {
      Params p{long_program, cold, size};
      gb::add_benchmark(gb::bench_name("L0/CompileTime", {{"", long_program ? "long" : "short"},
                                                          {"build", cold ? "cold" : "again"},
                                                          {"size", std::to_string(size)}}),
                        [p](benchmark::State& st) { run(st, p); });
    }
}
GB_HOST_TIMED_CASE(register_compile_time);

}  // namespace
