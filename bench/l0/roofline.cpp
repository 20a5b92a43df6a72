// L0/Roofline: operational-intensity sweep (mixbench-style: each float read and written once, K
// multiply-adds on it; 8 bytes and 2K FLOPs per float, 0.25 to 256 FLOP/byte), whose low end is
// the bandwidth ceiling and high end the compute ceiling; and the seed's relative metric, float4
// add throughput over 128-bit read throughput (add_per_read: float4 adds per 16 bytes read).
#include <algorithm>
#include <cmath>
#include <memory>

#include "gpu_bench.hpp"
#include "reference/compute.hpp"
#include "reference/global_bandwidth.hpp"
#include "reference/roofline.hpp"
#include "sample_stats.hpp"
#include "sampling.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
constexpr int kItems = 4;              // ITEMS: float4 elements per work item (fma sweep)
constexpr int kReadItems = 8;          // ITEMS for the 128-bit read kernel
constexpr int kKUnrollMax = 32;        // K_UNROLL knob
constexpr size_t kLocal = 256;
constexpr float kA = 0.999f, kB = 0.001f;  // x -> a x + b keeps values near [-1, 1]
constexpr size_t kSampledLanes = 16384;

// Buffer bytes per size class (each of in and out): far past the last cache level from size 3.
// A device that cannot hold them skips the benchmark (registration).
size_t buffer_bytes(int size_class) {
  static const size_t by_class[] = {4u << 20, 64u << 20, 512u << 20, size_t(2) << 30};
  return by_class[size_class - 1];
}

// K = 4 x intensity: 2K FLOPs per 8 bytes. Intensities 0.25, 0.5, ... 256 FLOP/byte.
std::vector<int> ks() {
  std::vector<int> v;
  for (int k = 1; k <= 1024; k *= 2) v.push_back(k);
  return v;
}
std::string intensity_label(int k) {
  if (k == 1) return "0.25";
  if (k == 2) return "0.5";
  return std::to_string(k / 4);
}

// ---- set-up of the sweep (once per configuration) ---------------------------------------------
// The sweep's program at intensity k: built by make_sweep, declared at registration.
gb::ProgramKey fma_program(int k) {
  return {"l0/roofline.cl", "-DK=" + std::to_string(k) + " -DK_UNROLL=" + std::to_string(std::min(k, kKUnrollMax)) +
                                " -DITEMS=" + std::to_string(kItems)};
}

struct SweepFixture {
  size_t bytes = 0, floats = 0, work_items = 0;
  std::vector<float> input;
  cl::Buffer in, out;
  cl::Kernel kernel;
  cl::NDRange global, local{kLocal};
};

std::unique_ptr<SweepFixture> make_sweep(int k, int size_class) {
  auto& s = gb::session();
  auto fx = std::make_unique<SweepFixture>();
  fx->bytes = buffer_bytes(size_class);
  fx->floats = fx->bytes / sizeof(float);
  fx->work_items = fx->floats / 4 / kItems;
  fx->kernel = s.kernel(fma_program(k), "roofline_fma");
  gb::require_work_group(fx->kernel, kLocal);
  fx->input = gb::random_vector<float>(fx->floats, 11);
  fx->in = gb::upload(fx->input);
  fx->out = gb::make_buffer(fx->bytes);
  fx->global = gb::padded_global(fx->work_items, 1, 1, {kLocal, 1, 1, 1});
  GB_SET_ARGS(fx->kernel, fx->in, fx->out, kA, kB, static_cast<cl_ulong>(fx->work_items));
  return fx;
}

// Every output finite (the poison is NaN), and a spread of lanes equal to the host chain.
gb::Check verify_sweep(const SweepFixture& fx, int k) {
  auto got = gb::download<float>(fx.out, fx.floats);
  for (float v : got)
    if (!std::isfinite(v)) return {INFINITY, gb::scaled_margin(1e-5), "fma chains (non-finite output)"};
  const auto lanes = gb::sample_indices(fx.floats, kSampledLanes);
  // mad rounds once (fused) or twice per step: the closer of the two host models counts.
  // Each sampled lane on its own, within 1e-5 of its value (at least of 1e-5: a chain may pass 0).
  const auto sampled = gb::gather(got, lanes);
  auto check = [&](bool fused, const char* what) {
    const auto want = ref::roofline_fma(fx.input, lanes, k, kA, kB, fused);
    return gb::check_bounded(sampled, want, [&](size_t i) { return 1e-5 * std::max(std::abs(want[i]), 1.0); }, what);
  };
  auto fused = check(true, "mad chains of sampled lanes (fused)");
  auto unfused = check(false, "mad chains of sampled lanes (unfused)");
  return unfused.error < fused.error ? unfused : fused;
}

void run_sweep(benchmark::State& state, int k, int size_class) {
  auto& fx = gb::cached_fixture<SweepFixture>(gb::name_key(), [&] { return make_sweep(k, size_class); });
  gb::measure(state, gb::Measurement::device([&](gb::Batch& b) { b.launch(fx.kernel, fx.global, fx.local); })
                         .work(gb::Work().bytes(2.0 * fx.bytes).flops(2.0 * k * fx.floats).items(fx.floats))
                         .poison(fx.out, fx.bytes)
                         .check([&] { return verify_sweep(fx, k); })
                         .counter("flop_per_byte", k / 4.0));
}

// ---- the relative metric: float4 adds against 128-bit reads -----------------------------------
constexpr int kAddChains = 4, kAddUnroll = 64;
constexpr long kAddLaneSteps[] = {512, 4096, 32768, 65536};  // as L0/Compute: ~3 ms at size 3
constexpr size_t kAddGroupsPerCu[] = {4, 24, 96, 192};
constexpr float kAddB = 0x1p-12f;

struct RatioFixture {
  // float4 add chains
  size_t add_items = 0;
  long add_steps = 0;
  cl::Kernel add;
  cl::Buffer add_out;
  cl::NDRange add_global;
  // 128-bit reads
  size_t read_bytes = 0, read_items = 0;
  std::vector<float> input;
  cl::Kernel read;
  cl::Buffer in, sums;
  cl::NDRange read_global;
};

long add_steps(int size_class) { return kAddLaneSteps[size_class - 1] / (4 * kAddChains); }
// At most half the steps: the loop around the unrolled adds takes 2+ trips at every size.
int add_unroll(int size_class) { return static_cast<int>(std::clamp<long>(add_steps(size_class) / 2, 1, kAddUnroll)); }

// The ratio's two programs: built by make_ratio, declared at registration.
gb::ProgramKey add_program(int size_class) {
  return {"l0/roofline.cl",
          "-DCHAINS=" + std::to_string(kAddChains) + " -DUNROLL=" + std::to_string(add_unroll(size_class))};
}
gb::ProgramKey read_program() { return {"l0/roofline.cl", "-DITEMS=" + std::to_string(kReadItems)}; }

std::unique_ptr<RatioFixture> make_ratio(int size_class) {
  auto& s = gb::session();
  auto fx = std::make_unique<RatioFixture>();
  fx->add_items = s.info().compute_units * kAddGroupsPerCu[size_class - 1] * kLocal;
  fx->add_steps = add_steps(size_class);
  const int unroll = add_unroll(size_class);
  fx->add = s.kernel(add_program(size_class), "roofline_add");
  gb::require_work_group(fx->add, kLocal);
  fx->add_out = gb::make_buffer(fx->add_items * sizeof(float));
  fx->add_global = cl::NDRange(fx->add_items);
  GB_SET_ARGS(fx->add, fx->add_out, kAddB, static_cast<cl_int>(fx->add_steps / unroll));

  fx->read_bytes = buffer_bytes(size_class);
  fx->read_items = fx->read_bytes / 16 / kReadItems;
  fx->read = s.kernel(read_program(), "roofline_read");
  gb::require_work_group(fx->read, kLocal);
  fx->input = gb::random_vector<float>(fx->read_bytes / sizeof(float), 12);
  fx->in = gb::upload(fx->input);
  fx->sums = gb::make_buffer(fx->read_items * sizeof(float));
  fx->read_global = gb::padded_global(fx->read_items, 1, 1, {kLocal, 1, 1, 1});
  GB_SET_ARGS(fx->read, fx->in, fx->sums, static_cast<cl_ulong>(fx->read_items));
  return fx;
}

gb::Check verify_ratio(const RatioFixture& fx) {
  const auto gids = gb::sample_indices(fx.add_items, 2048);
  auto adds = gb::download<float>(fx.add_out, fx.add_items);
  // Float adds in a fixed order: the host model is exact.
  const auto add_want = ref::peak_chain_float_add(gids, {4, kAddChains, fx.add_steps}, kAddB);
  auto add_check = gb::check_bounded(gb::gather(adds, gids), add_want,
                                     [&](size_t i) { return 1e-6 * std::abs(add_want[i]); },
                                     "float4 add chains of sampled work items");
  // Each work item's sum of kReadItems float4 in [-1, 1): 4 kReadItems terms through as many additions.
  const double terms = 4.0 * kReadItems;
  ref::BandwidthLayout layout{4, kReadItems, fx.read_items, false};
  auto read_check = gb::check_bounded(gb::read_back<float>(fx.sums, fx.read_items), ref::bandwidth_read_sums(fx.input, layout),
                                      gb::sum_error_bound(terms, terms, gb::unit_roundoff<float>()), "128-bit read sums");
  return gb::worst({add_check, read_check});
}

// The median of the last n values: gb::Result::samples counts the timer's last calls.
double median_of_last(const std::vector<double>& v, int n) {
  const size_t k = std::min(v.size(), static_cast<size_t>(n));
  return gb::summarize(std::vector<double>(v.end() - k, v.end())).median;
}

// One unit is one add kernel and one read kernel, each batch of K timed on its own: the unit's
// time is the sum, and each rate comes from the median of its own kernel's per-unit times.
void run_ratio(benchmark::State& state, int size_class) {
  auto& fx = gb::cached_fixture<RatioFixture>(gb::name_key(), [&] { return make_ratio(size_class); });
  const gb::Unit add = [&](gb::Batch& b) { b.launch(fx.add, fx.add_global, cl::NDRange(kLocal)); };
  const gb::Unit read = [&](gb::Batch& b) { b.launch(fx.read, fx.read_global, cl::NDRange(kLocal)); };
  std::vector<double> add_seconds, read_seconds;  // per unit, one entry per call of the timer
  const gb::Timer timer = [&](int units) {
    const gb::BatchTime ta = gb::run_batch(add, units), tr = gb::run_batch(read, units);
    add_seconds.push_back(ta.device_seconds / units);
    read_seconds.push_back(tr.device_seconds / units);
    return gb::Sample{ta.device_seconds + tr.device_seconds, ta.host_seconds + tr.host_seconds};
  };
  const gb::Result r = gb::measure(state, gb::Measurement::timed(timer)
                                              .poison(fx.add_out, fx.add_items * sizeof(float))
                                              .poison(fx.sums, fx.read_items * sizeof(float))
                                              .check([&] { return verify_ratio(fx); }));

  const double add_unit = median_of_last(add_seconds, r.samples);
  const double read_unit = median_of_last(read_seconds, r.samples);
  if (add_unit > 0 && read_unit > 0) {
    const double add_rate = static_cast<double>(fx.add_items) * kAddChains * fx.add_steps / add_unit;
    const double read_rate = static_cast<double>(fx.read_bytes) / read_unit;
    state.counters["float4_add_per_second"] = add_rate;
    state.counters["read_bytes_per_second"] = read_rate;
    state.counters["add_per_read"] = add_rate / (read_rate / 16);  // float4 adds per 128-bit read
    state.counters["flop_per_byte"] = 4 * add_rate / read_rate;    // lane adds per byte read
  }
}

// ---- code paths ------------------------------------------------------------------------------
gb::PathSet code_paths(int size_class, size_t) {
  gb::PathSet paths;
  for (int k : ks()) gb::path_if(paths, k / std::min(k, kKUnrollMax) >= 2, "fma: loop of unrolled steps, 2+ trips");
  gb::path_if(paths, add_steps(size_class) / add_unroll(size_class) >= 2, "add: loop of unrolled steps, 2+ trips");
  return paths;
}

// ---- registration ----------------------------------------------------------------------------
void register_roofline() {
  const int size = gb::session().size_class();
  gb::declare_paths("L0/Roofline", code_paths);
  const uint64_t bytes = buffer_bytes(size);
  const std::string sweep_shortfall = gb::memory_shortfall({bytes, bytes});  // in, out
  for (int k : ks()) {
    const std::string name = gb::bench_name("L0/Roofline", {{"", "fma"},
                                                            {"type", "float4"},
                                                            {"intensity", intensity_label(k)},
                                                            {"size", std::to_string(size)}});
    if (!sweep_shortfall.empty())
      gb::skip_variant(name, sweep_shortfall);
    else
      gb::add_benchmark(name, [k, size](benchmark::State& st) { run_sweep(st, k, size); },
                        [k] { return std::vector<gb::ProgramKey>{fma_program(k)}; });
  }
  const std::string ratio = gb::bench_name("L0/Roofline/add_per_read", {{"type", "float4"}, {"size", std::to_string(size)}});
  if (auto why = gb::memory_shortfall({bytes, bytes / 16 / kReadItems * sizeof(float)}); !why.empty())  // in, sums
    gb::skip_variant(ratio, why);
  else
    gb::add_benchmark(ratio, [size](benchmark::State& st) { run_ratio(st, size); },
                      [size] { return std::vector<gb::ProgramKey>{add_program(size), read_program()}; });
}
GB_CASE(register_roofline);

}  // namespace
