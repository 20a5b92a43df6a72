// L0/Atomics: global and local atomic add on int and float (native cl_ext_float_atomics, or a
// compare-and-swap loop), from each work item on its own address to all on one. Items per unit:
// atomic adds (work items * iterations); no bytes are declared.
#include <algorithm>
#include <memory>

#include "gpu_bench.hpp"
#include "reference/atomics.hpp"

#ifndef CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT  // cl_ext_float_atomics, absent from older headers
#define CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT 0x4231
#define CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT (1 << 1)
#define CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT (1 << 17)
#endif

namespace {

// ---- parameters -------------------------------------------------------------------------------
enum class Space { global, local };
enum class Type { int32, float_cas, float_native };
const gb::Axis<Space> kSpace{"", {{Space::global, "global"}, {Space::local, "local"}}};
// A Type names two axes: the element type, and how the add is done: the device's atomic (int,
// cl_ext_float_atomics) or a compare-and-swap loop.
const gb::Axis<Type> kType{"type", {{Type::int32, "int"}, {Type::float_cas, "float"}, {Type::float_native, "float"}}};
const gb::Axis<Type> kMethod{"method", {{Type::int32, "native"}, {Type::float_cas, "cas"}, {Type::float_native, "native"}}};
const char* define_of(Type t) {
  static const char* names[] = {"COUNTER_INT", "COUNTER_FLOAT_CAS", "COUNTER_FLOAT_NATIVE"};
  return names[static_cast<int>(t)];
}

constexpr size_t kGroup = 256;
// Iterations per work item. Float sums stay exact: global, 2^18 sharers x 16 x at most 4 is
// 2^24; local, 256 x 64 x 4.
constexpr uint32_t kGlobalIters = 16, kLocalIters = 64;
// A CAS loop under contention c costs O(c) failed attempts per success: above this the figure
// measures retry storms, and at 2^18 sharers a single launch would take seconds.
constexpr size_t kMaxCasContention = 256;

size_t work_items_of(int size_class) {
  static const size_t by_class[] = {4096, 65536, 262144, 262144};
  return by_class[size_class - 1];
}

struct Params {
  Space space;
  Type type;
  size_t contention;  // work items per address
  int size_class;
  size_t work_items() const { return work_items_of(size_class); }
  size_t sharers_max() const { return space == Space::global ? work_items() : kGroup; }
  size_t addresses() const { return sharers_max() / contention; }
  uint32_t iters() const { return space == Space::global ? kGlobalIters : kLocalIters; }
  size_t counters() const { return space == Space::global ? addresses() : work_items() / kGroup * addresses(); }
};

// ---- set-up (once per configuration) ----------------------------------------------------------
struct Fixture {
  cl::Kernel kernel;
  cl::Buffer counters;
};

// The one program of a configuration: built by make_fixture, declared at registration.
gb::ProgramKey program_of(const Params& p) {
  std::string o = std::string("-D") + define_of(p.type) + " -DITERS=" + std::to_string(p.iters()) +
                  " -DGROUP=" + std::to_string(kGroup);
  if (p.type == Type::float_native) {
    const auto& c = gb::session().info().opencl_c_version;  // "OpenCL C 3.0 ..." or "OpenCL C 2.0 ..."
    o += c.rfind("OpenCL C 3", 0) == 0 ? " -cl-std=CL3.0" : " -cl-std=CL2.0";
  }
  return {"l0/atomics.cl", o};
}

std::unique_ptr<Fixture> make_fixture(const Params& p) {
  auto fx = std::make_unique<Fixture>();
  fx->kernel = gb::session().kernel(program_of(p), p.space == Space::global ? "atomics_global" : "atomics_local");
  gb::require_work_group(fx->kernel, kGroup);
  fx->counters = gb::make_buffer(p.counters() * 4);
  // The timed launches add into the global counters: from zero, not from whatever bits a fresh
  // buffer holds (a float CAS on NaN or denormals would time other arithmetic).
  if (p.space == Space::global) {
    GB_CL(gb::session().queue().enqueueFillBuffer(fx->counters, cl_uint(0), 0, p.counters() * 4));
    GB_CL(gb::session().queue().finish());
  }
  GB_SET_ARGS(fx->kernel, fx->counters, static_cast<cl_uint>(p.addresses()));
  return fx;
}

// Global counters accumulate over the timed launches, so the check is one more launch from zero.
gb::Check verify(Fixture& fx, const Params& p) {
  auto& q = gb::session().queue();
  const size_t bytes = p.counters() * 4;
  if (p.space == Space::global)
    GB_CL(q.enqueueFillBuffer(fx.counters, cl_uint(0), 0, bytes));
  else
    gb::poison(fx.counters, bytes);
  GB_CL(q.enqueueNDRangeKernel(fx.kernel, cl::NullRange, cl::NDRange(p.work_items()), cl::NDRange(kGroup)));
  GB_CL(gb::finish(q));
  const auto want = p.space == Space::global ? ref::atomic_global_sums(p.work_items(), p.addresses(), p.iters())
                                             : ref::atomic_local_sums(p.work_items(), kGroup, p.addresses(), p.iters());
  if (p.type == Type::int32) return gb::check_exact(gb::read_back<int32_t>(fx.counters, p.counters()), want, "int sums");
  // Integer-valued floats below 2^24 add exactly in any order: the margin only allows rounding.
  return gb::check_relative(gb::read_back<float>(fx.counters, p.counters()), want, 1e-6, "float sums");
}

// ---- the benchmark -------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key(), [&] { return make_fixture(p); });
  const gb::Unit unit = [&](gb::Batch& b) { b.launch(fx.kernel, cl::NDRange(p.work_items()), cl::NDRange(kGroup)); };
  gb::measure(state, gb::Measurement::device(unit)
                         .work(gb::Work().items(static_cast<double>(p.work_items()) * p.iters()))
                         .no_poison("the check runs its own launch on counters it zeroes or poisons (see verify)")
                         .check([&] { return verify(fx, p); })
                         .counter("contention", static_cast<double>(p.contention))
                         .counter("addresses", static_cast<double>(p.addresses())));
}

// ---- registration ----------------------------------------------------------------------------
cl_bitfield float_atomic_caps() {
  if (!gb::session().info().has_extension("cl_ext_float_atomics")) return 0;
  cl_bitfield caps = 0;
  if (clGetDeviceInfo(gb::session().device()(), CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT, sizeof caps, &caps,
                      nullptr) != CL_SUCCESS)
    return 0;
  return caps;
}

gb::PathSet code_paths(int, size_t) { return {"global and local atomics, from one address to one per work item"}; }

void register_atomics() {
  gb::declare_paths("L0/Atomics", code_paths);
  auto& s = gb::session();
  const int size = s.size_class();
  const cl_bitfield caps = float_atomic_caps();
  const bool group_fits = s.info().max_work_group_size >= kGroup && s.info().max_work_item_sizes[0] >= kGroup;
  for (Space space : kSpace.all())
    for (Type type : kType.all()) {
      const size_t all = Params{space, type, 1, size}.sharers_max();
      // 1, 2, 4 ... all (size 1: 1, 4, 16 ... all).
      std::vector<size_t> contentions;
      for (size_t c = 1; c < all; c *= size == 1 ? 4 : 2) contentions.push_back(c);
      contentions.push_back(all);
      for (size_t c : contentions) {
        if (type == Type::float_cas && c > kMaxCasContention) continue;
        Params p{space, type, c, size};
        auto name = gb::bench_name("L0/Atomics", {kSpace.part(space),
                                                  kType.part(type),
                                                  kMethod.part(type),
                                                  {"contention", c == all ? "all" : std::to_string(c)},
                                                  {"size", std::to_string(size)}});
        const cl_bitfield needed = space == Space::global ? CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT : CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT;
        if (type == Type::float_native && !(caps & needed))
          gb::skip_variant(name, "no cl_ext_float_atomics fp32 add in this memory (float_cas is the CAS-loop variant)");
        else if (!group_fits)
          gb::skip_variant(name, "needs a work group of 256");
        else
          gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); },
                            [p] { return std::vector<gb::ProgramKey>{program_of(p)}; });
      }
    }
}
GB_CASE(register_atomics);

}  // namespace
