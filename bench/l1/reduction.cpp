// L1/Reduction: sum, min and max of n floats or ints (int sums in int64, exact), with a local-memory
// tree or sub-group reductions, then one work group over the partials. Bytes per unit: n * 4.
#include <memory>

#include "gpu_bench.hpp"
#include "reference/reduction.hpp"
#include "subgroups.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
enum class Variant { local, subgroup };
enum class Op { sum, min, max };
const gb::Axis<Variant> kVariant{"", {{Variant::local, "local"}, {Variant::subgroup, "subgroup"}}};
const gb::Axis<Op> kOp{"op", {{Op::sum, "sum"}, {Op::min, "min"}, {Op::max, "max"}}};
const gb::Axis<bool> kType{"type", {{false, "float"}, {true, "int"}}};  // is_int

constexpr size_t kWorkGroup = 256;
constexpr size_t kGroupsPerComputeUnit = 8;  // 2048 resident work items per SM on Hopper
constexpr size_t kUnroll = 4;                // the kernel's UNROLL: vector loads per loop trip
// Size 1 launches a fixed 257 groups whatever the device: more partials than a work group, so the
// final kernel's loop takes two trips as it does on a GPU (8 groups per SM), on every CI machine.
constexpr size_t kSize1Groups = kWorkGroup + 1;
// Float inputs are multiples of 1/8 in [1/8, 7/8]: positive (a well-conditioned sum) and exactly
// summable while n * 7 <= 2^24 (all of size 1), so there the check demands the exact sum.
constexpr double kFloatQuantum = 0.125;
constexpr int64_t kFloatLevels = 7;

struct Params {
  Variant variant;
  Op op;
  bool is_int;
  int size_class;
  std::string type() const { return kType.label(is_int); }
};

// Elements: class 1 is not a multiple of 4 (the scalar tail runs) and, over kSize1Groups groups,
// gives every work item two trips of the unrolled loop and some a remainder load; 3 is 2^28 (1 GiB).
// A device that cannot hold the input skips the benchmark (registration).
size_t element_count(int size_class) {
  static const size_t by_class[] = {(size_t(1) << 21) + 3, size_t(1) << 24, size_t(1) << 28, size_t(1) << 29};
  return by_class[size_class - 1];
}

// Work groups of the first kernel: one per 4 * kWorkGroup elements, at most 8 per compute unit
// (size 1: kSize1Groups).
size_t group_count(size_t n, int size_class, size_t compute_units) {
  const size_t wanted = (n / 4 + kWorkGroup - 1) / kWorkGroup;
  const size_t limit = size_class == 1 ? kSize1Groups : compute_units * kGroupsPerComputeUnit;
  return std::max<size_t>(1, std::min(wanted, limit));
}

// The paths of thread_reduce and the final kernel at a size class (every variant and type shares them).
gb::PathSet code_paths(int size_class, size_t compute_units) {
  const size_t n = element_count(size_class), n4 = n / 4, groups = group_count(n, size_class, compute_units);
  const size_t stride = groups * kWorkGroup, chunk = kUnroll * stride;
  gb::PathSet paths;
  // Work item 0 makes the most trips of the unrolled loop: i = k * chunk while i + 3 stride < n4.
  const size_t trips = n4 > (kUnroll - 1) * stride ? (n4 - (kUnroll - 1) * stride - 1) / chunk + 1 : 0;
  gb::path_if(paths, trips >= 1, "unrolled vector loads");
  gb::path_if(paths, trips >= 2, "unrolled vector loads, 2+ trips");
  gb::path_if(paths, n4 % chunk != 0, "vector remainder after the unrolled loop");
  for (size_t r = 1; r < 4; ++r) gb::path_if(paths, n % 4 == r, "scalar tail of " + std::to_string(r) + " (n % 4)");
  gb::path_if(paths, groups > kWorkGroup, "final kernel: 2+ partials per work item");
  gb::path_if(paths, groups < kWorkGroup, "final kernel: idle work items");
  return paths;
}

// ---- set-up: the problem (once per type, shared by every variant and operation) ---------------
// The references are exact in double: min and max are inputs, the int sum is held in int64.
struct Problem {
  size_t n = 0;
  std::vector<float> input_float;
  std::vector<int32_t> input_int;
  cl::Buffer in;
  double sum_float = 0, min = 0, max = 0;
  int64_t sum_int = 0;
};

std::unique_ptr<Problem> make_problem(const Params& p) {
  auto pb = std::make_unique<Problem>();
  pb->n = element_count(p.size_class);
  if (p.is_int) {
    pb->input_int = gb::random_vector<int32_t>(pb->n, 61, -1000, 1000);
    pb->in = gb::upload(pb->input_int);
    pb->sum_int = ref::reduce_sum(pb->input_int);
    pb->min = ref::reduce_min(pb->input_int);
    pb->max = ref::reduce_max(pb->input_int);
  } else {
    pb->input_float = gb::random_multiples<float>(pb->n, 62, 1, kFloatLevels, kFloatQuantum);
    pb->in = gb::upload(pb->input_float);
    pb->sum_float = ref::reduce_sum(pb->input_float);
    pb->min = ref::reduce_min(pb->input_float);
    pb->max = ref::reduce_max(pb->input_float);
  }
  return pb;
}

// ---- set-up: one variant and operation --------------------------------------------------------
struct Fixture {
  size_t groups = 0;
  cl::Buffer in, partials, result;  // in: the problem's buffer (a retained handle)
  cl::Kernel reduce, final_reduce;
};

// The one program of a configuration (its reduce and final kernels): built by make_fixture,
// declared at registration.
gb::ProgramKey program_of(const Params& p) {
  std::string options = p.is_int ? "-DTYPE=int -DVEC=int4 -DACC=long -DIS_INT" : "-DTYPE=float -DVEC=float4 -DACC=float";
  options += std::string(" -DOP_") + (p.op == Op::sum ? "SUM" : p.op == Op::min ? "MIN" : "MAX");
  options += " -DWG=" + std::to_string(kWorkGroup);
  if (p.variant == Variant::subgroup) options += " " + gb::device_subgroup_support().build_options;
  return {"l1/reduction.cl", options};
}

std::unique_ptr<Fixture> make_fixture(const Params& p, const Problem& pb) {
  auto& s = gb::session();
  auto fx = std::make_unique<Fixture>();
  fx->in = pb.in;
  const size_t acc_bytes = p.is_int ? sizeof(cl_long) : sizeof(float);
  fx->groups = group_count(pb.n, p.size_class, s.info().compute_units);
  fx->partials = gb::make_buffer(fx->groups * acc_bytes);
  fx->result = gb::make_buffer(acc_bytes);
  const gb::ProgramKey program = program_of(p);
  const std::string base = std::string("reduction_") + kVariant.label(p.variant);
  fx->reduce = s.kernel(program, base);
  fx->final_reduce = s.kernel(program, base + "_final");
  gb::require_work_group(fx->reduce, kWorkGroup);
  gb::require_work_group(fx->final_reduce, kWorkGroup);
  GB_SET_ARGS(fx->reduce, fx->in, static_cast<cl_ulong>(pb.n), fx->partials);
  GB_SET_ARGS(fx->final_reduce, fx->partials, static_cast<cl_uint>(fx->groups), fx->result);
  return fx;
}

// ---- verification against reference/reduction -----------------------------------------------
template <typename T, typename R>
gb::Check exact(const Fixture& fx, R want, const std::string& what) {
  return gb::check_exact(gb::download<T>(fx.result, 1), std::vector<T>{static_cast<T>(want)}, what);
}

// The float sum's error bound: every element goes through at most `depth` additions (its work
// item's chain of vector loads, the 4 lanes, the scalar tail, a work group's reduction and the
// final kernel's), so it is within gamma_depth * sum |x| of the exact sum; the inputs' sum is exact
// where every partial sum is representable (size 1: the bound is 0, one element more or less fails).
double float_sum_bound(const Fixture& fx, const Problem& pb) {
  const size_t stride = fx.groups * kWorkGroup;
  const double depth = static_cast<double>((pb.n / 4 + stride - 1) / stride + 3 + 2 * kWorkGroup +
                                           (fx.groups + kWorkGroup - 1) / kWorkGroup);
  return gb::sum_error_bound(depth, pb.sum_float, gb::unit_roundoff<float>(), kFloatQuantum);  // inputs positive
}

gb::Check verify(const Fixture& fx, const Problem& pb, const Params& p) {
  const std::string what = std::string(kOp.label(p.op)) + " of " + p.type();
  if (p.is_int) {
    if (p.op == Op::sum) return exact<cl_long>(fx, pb.sum_int, what);
    return exact<cl_long>(fx, p.op == Op::min ? pb.min : pb.max, what);
  }
  if (p.op == Op::sum)
    return gb::check_bounded(gb::read_back<float>(fx.result, 1), std::vector<double>{pb.sum_float},
                             float_sum_bound(fx, pb), what);
  return exact<float>(fx, p.op == Op::min ? pb.min : pb.max, what);
}

// ---- the benchmark -------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  auto& pb = gb::cached_problem<Problem>(gb::name_key_without({"", "op"}), [&] { return make_problem(p); });
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key(), [&] { return make_fixture(p, pb); });
  const gb::Unit unit = [&](gb::Batch& b) {
    b.launch(fx.reduce, cl::NDRange(fx.groups * kWorkGroup), cl::NDRange(kWorkGroup));
    b.launch(fx.final_reduce, cl::NDRange(kWorkGroup), cl::NDRange(kWorkGroup));
  };
  const double n = static_cast<double>(pb.n);
  gb::measure(state, gb::Measurement::device(unit)
                         .work(gb::Work().bytes(4.0 * n).flops(n).items(n))
                         .poison(fx.result, p.is_int ? sizeof(cl_long) : sizeof(float))
                         .check([&] { return verify(fx, pb, p); })
                         .counter("elements", n)
                         .copy_fraction());
}

// ---- registration ----------------------------------------------------------------------------
void register_reduction() {
  const int size = gb::session().size_class();
  gb::declare_paths("L1/Reduction", code_paths);
  const auto& sub = gb::device_subgroup_support();
  const std::string shortfall = gb::memory_shortfall({element_count(size) * 4});  // the input; partials are small
  for (bool is_int : kType.all())  // the problem outer: variants and operations share it
    for (Variant v : kVariant.all())
      for (Op op : kOp.all()) {
        Params p{v, op, is_int, size};
        const std::string name = gb::bench_name(
            "L1/Reduction", {kVariant.part(v), kOp.part(op), kType.part(is_int), {"size", std::to_string(size)}});
        if (!shortfall.empty())
          gb::skip_variant(name, shortfall);
        else if (v == Variant::subgroup && !sub.available)
          gb::skip_variant(name, sub.reason);
        else if (kWorkGroup > gb::session().info().max_work_group_size)
          gb::skip_variant(name, "needs work groups of " + std::to_string(kWorkGroup));
        else
          gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); },
                            [p] { return std::vector<gb::ProgramKey>{program_of(p)}; });
      }
}
GB_CASE(register_reduction);

}  // namespace
