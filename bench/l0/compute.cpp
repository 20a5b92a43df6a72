// L0/Compute: peak multiply-add rate per type and vector width, from dependent chains the compiler
// cannot fold. Ops per unit: work items x 16 lanes x steps x 2 (8 per packed int8 dot-and-add).
// Convention: floating types report flop_per_second; integer types report iop_per_second (same
// counting, a multiply-add is 2 ops). peak_fraction: measured / (CUs x lanes x 2 x max clock),
// only where the small table below knows the device's lanes per compute unit.
#include <algorithm>
#include <cmath>
#include <memory>

#include "gpu_bench.hpp"
#include "reference/compute.hpp"
#include "sampling.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
enum class Kind { floating, integer, int24, dot };
struct Type {
  const char* name;    // in the benchmark name
  const char* scalar;  // OpenCL C element type
  Kind kind;
  int bits;            // element bits
  const char* extension;  // needed by the device, or nullptr
};
const Type kTypes[] = {
    {"float", "float", Kind::floating, 32, nullptr},
    {"double", "double", Kind::floating, 64, "cl_khr_fp64"},
    {"half", "half", Kind::floating, 16, "cl_khr_fp16"},
    {"int32", "uint", Kind::integer, 32, nullptr},  // unsigned: defined wraparound, same instructions
    {"int24", "uint", Kind::int24, 32, nullptr},
    {"int16", "ushort", Kind::integer, 16, nullptr},
    {"int8", "uchar", Kind::integer, 8, nullptr},
    {"int8_dot4", "uint", Kind::dot, 32, "cl_khr_integer_dot_product"},
};
constexpr int kWidths[] = {1, 2, 4, 8, 16};
constexpr int kLive = 16;     // scalar values in flight per work item: CHAINS = kLive / width
constexpr int kUnroll = 64;   // UNROLL knob: steps unrolled per loop trip
constexpr size_t kDefaultLocal = 256;

// Per size class: lane steps per work item, and work groups of 256 per compute unit. 96 groups of
// 256 per CU make a whole number of waves at 2048, 1536, 1024 or 512 resident work items per CU.
// Size 3 makes a sample of a few ms on a large GPU; start values and final
// sums are well under 1% of a work item's instructions.
constexpr long kLaneSteps[] = {512, 4096, 32768, 65536};
constexpr size_t kGroupsPerCu[] = {4, 24, 96, 192};

struct Params {
  const Type* type;
  int width;
  gb::WorkGroup wg;
  int size_class;

  int chains() const { return std::max(1, kLive / width); }
  long steps() const { return kLaneSteps[size_class - 1] / (width * chains()); }
  // At most half the steps, so the loop around the unrolled steps takes 2+ trips at every size
  // (size 1: 16 x 2; a GPU's size 3: 64 x 32).
  int unroll() const { return static_cast<int>(std::clamp<long>(steps() / 2, 1, kUnroll)); }
  int repeats() const { return static_cast<int>(steps() / unroll()); }
  double ops_per_step() const { return type->kind == Kind::dot ? 8.0 : 2.0 * width; }
  std::string vector_type() const {
    return std::string(type->scalar) + (width == 1 ? "" : std::to_string(width));
  }
};

size_t work_items(int size_class) {
  return gb::session().info().compute_units * kGroupsPerCu[size_class - 1] * kDefaultLocal;
}

// a slightly below 1 so that a^steps is about 1/2 and b = 2(1 - a): values stay near [0.5, 2],
// and the result still depends on every step.
double chain_a(long steps) { return std::exp2(-1.0 / static_cast<double>(steps)); }

// ---- set-up (once per configuration) ----------------------------------------------------------
struct Fixture {
  size_t work_items = 0;
  cl::Kernel kernel;
  cl::Buffer out;
  double a = 0, b = 0;      // floating chain constants (as the kernel's type holds them)
  uint32_t ia = 0, ib = 0;  // integer chain constants
  cl::NDRange global, local;
};

// The one program of a configuration: built by make_fixture, declared at registration.
gb::ProgramKey program_of(const Params& p) {
  std::string o = "-DTYPE=" + p.vector_type() + " -DSCALAR=" + p.type->scalar + " -DWIDTH=" +
                  std::to_string(p.width) + " -DCHAINS=" + std::to_string(p.chains()) +
                  " -DUNROLL=" + std::to_string(p.unroll());
  switch (p.type->kind) {
    case Kind::floating: o += " -DFLOATING"; break;
    case Kind::int24: o += " -DINT24"; break;
    case Kind::dot: o += " -DUSE_DOT"; break;
    case Kind::integer: break;
  }
  if (p.type->bits == 64) o += " -DUSE_FP64";
  if (p.type->bits == 16 && p.type->kind == Kind::floating) o += " -DUSE_FP16 -DARG=float";
  return {"l0/compute.cl", o};
}

std::unique_ptr<Fixture> make_fixture(const Params& p) {
  auto& s = gb::session();
  auto fx = std::make_unique<Fixture>();
  fx->work_items = work_items(p.size_class);
  fx->kernel = s.kernel(program_of(p), "compute");
  gb::require_work_group(fx->kernel, p.wg.size());
  fx->out = gb::make_buffer(fx->work_items * p.type->bits / 8);
  fx->global = gb::padded_global(fx->work_items, 1, 1, p.wg);
  fx->local = p.wg.local();
  if (fx->global[0] != fx->work_items) throw std::logic_error("work items not a multiple of the work group");

  auto& k = fx->kernel;
  GB_SET_ARGS(k, fx->out);
  const uint32_t mask = p.type->bits >= 32 ? 0xFFFFFFFFu : (1u << p.type->bits) - 1;
  switch (p.type->kind) {
    case Kind::floating: {
      const double a = chain_a(p.steps());
      if (p.type->bits == 64) {
        fx->a = a;
        fx->b = 2 * (1 - a);
        GB_SET_ARGS_FROM(k, 1, fx->a, fx->b);
      } else {
        if (p.type->bits == 16) {
          fx->a = std::min(ref::round_to_half(a), 1.0 - 0x1p-11);
          fx->b = ref::round_to_half(2 * (1 - fx->a));
        } else {
          fx->a = std::min(static_cast<double>(static_cast<float>(a)), 1.0 - 0x1p-24);
          fx->b = static_cast<float>(2 * (1 - fx->a));
        }
        GB_SET_ARGS_FROM(k, 1, static_cast<cl_float>(fx->a), static_cast<cl_float>(fx->b));
      }
      break;
    }
    case Kind::integer:
    case Kind::int24:
    case Kind::dot:
      fx->ia = p.type->kind == Kind::int24 ? 0x3779B1u : p.type->kind == Kind::dot ? 0x7F81C339u : 0x9E3779B5u & mask;
      fx->ib = 0x2545F491u & mask;
      if (p.type->bits == 8) {
        GB_SET_ARGS_FROM(k, 1, static_cast<cl_uchar>(fx->ia), static_cast<cl_uchar>(fx->ib));
      } else if (p.type->bits == 16) {
        GB_SET_ARGS_FROM(k, 1, static_cast<cl_ushort>(fx->ia), static_cast<cl_ushort>(fx->ib));
      } else {
        GB_SET_ARGS_FROM(k, 1, static_cast<cl_uint>(fx->ia), static_cast<cl_uint>(fx->ib));
      }
      break;
  }
  GB_SET_ARGS_FROM(k, 3, static_cast<cl_int>(p.repeats()));
  return fx;
}

// ---- verification against reference/compute, on a sample of work items ------------------
constexpr size_t kSampledWorkItems = 1024;

template <typename T>
std::vector<uint32_t> download_widened(const cl::Buffer& b, size_t n) {
  auto v = gb::download<T>(b, n);
  return {v.begin(), v.end()};
}

gb::Check verify(const Fixture& fx, const Params& p) {
  const auto gids = gb::sample_indices(fx.work_items, kSampledWorkItems);
  const ref::ChainLayout layout{p.width, p.chains(), p.steps()};
  if (p.type->kind == Kind::floating) {
    std::vector<double> all;
    std::vector<double> want, unfused;  // mad rounds once (fused) or twice: the closer model counts
    double margin = 0;
    if (p.type->bits == 64) {
      auto got = gb::download<double>(fx.out, fx.work_items);
      all.assign(got.begin(), got.end());
      want = ref::peak_chain_double(gids, layout, fx.a, fx.b, true);
      unfused = ref::peak_chain_double(gids, layout, fx.a, fx.b, false);
      margin = 1e-12;
    } else if (p.type->bits == 32) {
      auto got = gb::download<float>(fx.out, fx.work_items);
      all.assign(got.begin(), got.end());
      want = ref::peak_chain_float(gids, layout, static_cast<float>(fx.a), static_cast<float>(fx.b), true);
      unfused = ref::peak_chain_float(gids, layout, static_cast<float>(fx.a), static_cast<float>(fx.b), false);
      margin = 1e-5;
    } else {
      auto got = gb::download<cl_half>(fx.out, fx.work_items);
      for (cl_half h : got) {  // binary16 -> double
        const int e = (h >> 10) & 0x1F, m = h & 0x3FF;
        const double mag = e == 0 ? std::ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : std::ldexp(1024 + m, e - 25);
        all.push_back(h & 0x8000 ? -mag : mag);
      }
      want = ref::peak_chain_half(gids, layout, static_cast<float>(fx.a), static_cast<float>(fx.b), true);
      unfused = ref::peak_chain_half(gids, layout, static_cast<float>(fx.a), static_cast<float>(fx.b), false);
      margin = 2e-2;
    }
    for (double v : all)  // every work item wrote a finite value (the poison is NaN)
      if (!std::isfinite(v)) return {INFINITY, gb::scaled_margin(margin), "chain sums (non-finite output)"};
    // Each sampled work item on its own, within `margin` of its value under the closer model.
    const auto sampled = gb::gather(all, gids);
    auto bound = [&](const std::vector<double>& model) {
      return [&model, margin](size_t i) { return margin * std::abs(model[i]); };
    };
    auto fused_check = gb::check_bounded(sampled, want, bound(want), "chain sums of sampled work items (fused mad)");
    auto unfused_check =
        gb::check_bounded(sampled, unfused, bound(unfused), "chain sums of sampled work items (unfused mad)");
    return unfused_check.error < fused_check.error ? unfused_check : fused_check;
  }

  std::vector<uint32_t> all = p.type->bits == 8    ? download_widened<uint8_t>(fx.out, fx.work_items)
                              : p.type->bits == 16 ? download_widened<uint16_t>(fx.out, fx.work_items)
                                                   : download_widened<uint32_t>(fx.out, fx.work_items);
  std::vector<uint32_t> got;
  for (uint32_t g : gids) got.push_back(all[g]);
  const ref::IntStep step = p.type->kind == Kind::dot ? ref::IntStep::dot4x8 : ref::IntStep::mad;
  auto want = ref::peak_chain_int(gids, layout, p.type->bits, fx.ia, fx.ib, step);
  if (p.type->kind == Kind::int24) {
    // Outside 24 bits mad24 is implementation-defined: a full 32-bit multiply or one of the low
    // 24 bits of each operand are both accepted, per work item.
    auto low24 = ref::peak_chain_int(gids, layout, 32, fx.ia, fx.ib, ref::IntStep::mad24_low24);
    for (size_t i = 0; i < got.size(); ++i)
      if (got[i] == low24[i]) want[i] = low24[i];
  }
  return gb::check_exact(got, want, "chain sums of sampled work items");
}

// ---- % of peak where the lanes per compute unit are known ---------------------------------------
struct KnownDevice {
  const char* name_part;
  int fp32_lanes, fp64_lanes, int32_lanes;  // per compute unit per clock
};
const KnownDevice kKnownDevices[] = {
    {"H100", 128, 64, 64}, {"H200", 128, 64, 64}, {"H800", 128, 64, 64},  // NVIDIA Hopper SMs
};

double theoretical_ops_per_second(const Params& p) {
  const auto& d = gb::session().info();
  if (d.vendor.find("NVIDIA") == std::string::npos) return 0;
  for (const auto& k : kKnownDevices) {
    if (d.name.find(k.name_part) == std::string::npos) continue;
    const std::string t = p.type->name;
    const int lanes = t == "float" ? k.fp32_lanes : t == "double" ? k.fp64_lanes : t == "int32" ? k.int32_lanes : 0;
    return 2.0 * lanes * d.compute_units * d.max_clock_mhz * 1e6;
  }
  return 0;
}

// ---- the benchmark -------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key(), [&] { return make_fixture(p); });
  const gb::Unit unit = [&](gb::Batch& b) { b.launch(fx.kernel, fx.global, fx.local); };
  const double ops = p.ops_per_step() * p.chains() * p.steps() * fx.work_items;
  auto m = gb::Measurement::device(unit)
               .poison(fx.out, fx.work_items * p.type->bits / 8)
               .check([&] { return verify(fx, p); })
               .counter("work_items", static_cast<double>(fx.work_items));
  if (p.type->kind == Kind::floating)
    m.work(gb::Work().flops(ops));  // flop_per_second
  else
    m.rate("iop_per_second", ops);
  if (const double peak = theoretical_ops_per_second(p); peak > 0) m.rate("peak_fraction", ops / peak);
  gb::measure(state, m);
}

// ---- code paths ------------------------------------------------------------------------------
gb::PathSet code_paths(int size_class, size_t) {
  gb::PathSet paths;
  for (int width : kWidths) {
    const Params p{&kTypes[0], width, {kDefaultLocal, 1, 1, 1}, size_class};
    gb::path_if(paths, p.repeats() >= 2, "loop of unrolled steps: 2+ trips");
    gb::path_if(paths, p.chains() > 1, "2+ chains per work item");
  }
  return paths;
}

// ---- registration ----------------------------------------------------------------------------
std::string missing_feature(const Type& t) {
  const auto& d = gb::session().info();
  if (!t.extension || d.has_extension(t.extension)) {
    if (t.kind != Kind::dot) return "";
    cl_device_integer_dot_product_capabilities_khr caps = 0;
    if (gb::session().device().getInfo(CL_DEVICE_INTEGER_DOT_PRODUCT_CAPABILITIES_KHR, &caps) != CL_SUCCESS ||
        !(caps & CL_DEVICE_INTEGER_DOT_PRODUCT_INPUT_4x8BIT_PACKED_KHR))
      return "cl_khr_integer_dot_product without the packed 4x8-bit input";
    return "";
  }
  return std::string("no ") + t.extension;
}

// "L0/Compute/mad/type:float/width:4/wg:256/size:3"; the packed int8 dot is its own variant.
std::string bench_name(const Type& t, int width, const gb::WorkGroup& wg, int size) {
  const bool dot = t.kind == Kind::dot;
  return gb::bench_name("L0/Compute", {{"", dot ? "dot4" : "mad"},
                                       {"type", dot ? "int8" : t.name},
                                       {"width", std::to_string(width)},
                                       {"wg", wg.label()},
                                       {"size", std::to_string(size)}});
}

void register_compute() {
  const int size = gb::session().size_class();
  gb::declare_paths("L0/Compute", code_paths);
  const gb::WorkGroup fixed{kDefaultLocal, 1, 1, 1};
  for (const Type& t : kTypes)
    for (int width : kWidths) {
      if (t.kind == Kind::dot && width > 1) continue;  // one packed word of 4 int8 lanes
      Params p{&t, width, fixed, size};
      const std::string name = bench_name(t, width, fixed, size);
      if (auto why = missing_feature(t); !why.empty()) {
        gb::skip_variant(name, why);
        continue;
      }
      gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); },
                        [p] { return std::vector<gb::ProgramKey>{program_of(p)}; });
    }
  // The seed's shape question on a compute-bound kernel: float4 over 1-D work-group sizes. Shapes
  // within the device's limits are registered; one above the kernel's own limit skips at run time.
  const auto& d = gb::session().info();
  std::vector<gb::WorkGroup> shapes;
  for (size_t n = 32; n <= 1024; n *= 2) shapes.push_back({n, 1, 1, 1});
  shapes.push_back({0, 1, 1, 1});
  for (const auto& wg : shapes) {
    Params p{&kTypes[0], 4, wg, size};
    if (wg.label() == fixed.label()) continue;  // registered above
    const std::string name = bench_name(kTypes[0], 4, wg, size);
    if (wg.size() > d.max_work_group_size || wg.x > d.max_work_item_sizes[0]) {
      gb::skip_variant(name, "work group above the device's limit of " + std::to_string(d.max_work_group_size));
      continue;
    }
    gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); },
                      [p] { return std::vector<gb::ProgramKey>{program_of(p)}; });
  }
}
GB_CASE(register_compute);

}  // namespace
