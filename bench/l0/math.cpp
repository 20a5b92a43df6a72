// L0/Math: throughput of log, exp, sin, cos, tan, sqrt, rsqrt, pow in full, native_ and half_
// form, strict or -cl-fast-relaxed-math, on varied or repeated inputs, and of the strict full form
// on the inputs that take the slow paths (large, denormal, special); items = calls, each adding
// ~6 simple float ops that derive its input; max_ulp against a double host reference.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>

#include "gpu_bench.hpp"
#include "reference/math.hpp"
#include "sampling.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
using ref::MathFunction;
struct Function {
  const char* name;
  MathFunction id;
  const char* full;  // OpenCL C names of the three forms (pow's native_/half_ forms are powr)
  const char* native;
  const char* half;
  float lo, range;   // domain [lo, lo + range]
  double max_slope;  // max |f'| on the domain: sets the feedback so replay errors do not grow
  double strict_ulp; // OpenCL full-profile bound for the full form
};
constexpr float kPowExponent = 2.37f;
const Function kFunctions[] = {
    {"log", MathFunction::log, "log", "native_log", "half_log", 0.5f, 8.0f, 2.0, 3},
    {"exp", MathFunction::exp, "exp", "native_exp", "half_exp", -4.0f, 8.0f, 54.6, 3},
    {"sin", MathFunction::sin, "sin", "native_sin", "half_sin", -10.0f, 20.0f, 1.0, 4},
    {"cos", MathFunction::cos, "cos", "native_cos", "half_cos", -10.0f, 20.0f, 1.0, 4},
    {"tan", MathFunction::tan, "tan", "native_tan", "half_tan", -1.2f, 2.4f, 7.62, 5},
    {"sqrt", MathFunction::sqrt, "sqrt", "native_sqrt", "half_sqrt", 0.25f, 16.0f, 1.0, 3},
    {"rsqrt", MathFunction::rsqrt, "rsqrt", "native_rsqrt", "half_rsqrt", 0.25f, 16.0f, 4.0, 2},
    {"pow", MathFunction::pow, "pow", "native_powr", "half_powr", 0.5f, 4.0f, 18.6, 16},
};
enum class Form { full, native, half };
const gb::Axis<Form> kForm{"form", {{Form::full, "full"}, {Form::native, "native"}, {Form::half, "half"}}};
const gb::Axis<bool> kMode{"mode", {{false, "strict"}, {true, "relaxed"}}};  // relaxed: -cl-fast-relaxed-math

// The inputs axis: the function's ordinary domain walked (varied) or one input repeated
// (unvaried); or a slow-path set of the strict full form, whose timed domain is kSlowPaths'.
enum class Inputs { varied, unvaried, large, denormal, special };
const gb::Axis<Inputs> kInputs{"inputs",
                               {{Inputs::varied, "varied"},
                                {Inputs::unvaried, "unvaried"},
                                {Inputs::large, "large"},
                                {Inputs::denormal, "denormal"},
                                {Inputs::special, "special"}}};
// Slow paths. Only the strict full form has an accuracy bound there: native_ is
// implementation-defined, half_sin/cos/tan are defined on |x| <= 2^16 only, relaxed mode bounds
// sin and cos on [-pi, pi] only and allows flushing denormals and any result for inf and NaN.
struct SlowPath {
  MathFunction fn;
  Inputs inputs;
  ref::MathEdge edge;  // the accuracy set beside the timed domain
  float lo, range;     // timed domain [lo, lo + range]
  float p;             // pow's exponent
};
const SlowPath kSlowPaths[] = {
    // Past the short (Cody-Waite) range reductions, which libraries use up to about 1e5 (CUDA: 105615).
    {MathFunction::sin, Inputs::large, ref::MathEdge::large, 0x1p17f, 0x1p20f, 0},
    {MathFunction::cos, Inputs::large, ref::MathEdge::large, 0x1p17f, 0x1p20f, 0},
    {MathFunction::tan, Inputs::large, ref::MathEdge::large, 0x1p17f, 0x1p20f, 0},
    // Denormal inputs 2^-149 .. 2^-126 - 2^-149; exp's inputs give denormal results.
    {MathFunction::log, Inputs::denormal, ref::MathEdge::denormal, 0x1p-149f, 0x1p-126f - 0x1p-148f, 0},
    {MathFunction::sqrt, Inputs::denormal, ref::MathEdge::denormal, 0x1p-149f, 0x1p-126f - 0x1p-148f, 0},
    {MathFunction::rsqrt, Inputs::denormal, ref::MathEdge::denormal, 0x1p-149f, 0x1p-126f - 0x1p-148f, 0},
    {MathFunction::exp, Inputs::denormal, ref::MathEdge::denormal, -103.0f, 15.6f, 0},
    // Negative bases with an odd integer exponent (the sign path); the accuracy set adds the rest.
    {MathFunction::pow, Inputs::special, ref::MathEdge::special, -4.0f, 3.75f, 3.0f},
};

constexpr int kChains = 4;  // CHAINS knob
constexpr size_t kLocal = 256;
constexpr size_t kGroupsPerCu[] = {4, 24, 96, 192};
constexpr int kIters[] = {16, 64, 256, 512};
constexpr float kPhi = 0.618034f;  // the walk's step: golden-ratio fraction
constexpr size_t kAccuracyInputs = 4096;
constexpr size_t kSampledWorkItems = 1024;

struct Params {
  const Function* fn;
  Form form;
  bool relaxed;
  Inputs inputs;
  int size_class;
  const SlowPath* slow = nullptr;  // the slow-path set, for inputs other than varied and unvaried

  float lo() const { return slow ? slow->lo : fn->lo; }
  float range() const { return slow ? slow->range : fn->range; }
  float exponent() const { return slow ? slow->p : kPowExponent; }

  const char* opencl_name() const {
    return form == Form::full ? fn->full : form == Form::native ? fn->native : fn->half;
  }
  // The one program of a configuration (throughput and accuracy kernels): declared at registration.
  // One program per form and mode holds every function's kernels (math_<f>, math_accuracy_<f>).
  gb::ProgramKey program() const {
    const char* form_option = form == Form::full ? "" : form == Form::native ? "-DFORM_NATIVE " : "-DFORM_HALF ";
    return {"l0/math.cl", std::string(form_option) + "-DCHAINS=" + std::to_string(kChains) +
                              (relaxed ? " -cl-fast-relaxed-math" : "")};
  }
  // Strict full form: the throughput output replays within float rounding; everything else
  // is allowed the wide bound of the accuracy check below.
  bool exact_form() const { return form == Form::full && !relaxed; }
};

// ---- accuracy on a fixed input set ------------------------------------------------------------
// The bound each (form, mode) is held to, per input: the spec's ulp for the strict full form
// (ref::ulp_error: special values exact); 8192 ulp (the spec's half_ bound) or 2^-11 absolute near
// zeros for half_; and for native_ (implementation-defined) and relaxed-mode full forms, 1e-2
// relative or 1e-3 absolute (the allowed error returned here).
double allowed_error(const Params& p, double want) {
  if (p.form == Form::half) return std::max(8192 * ref::float_ulp(want), 0x1p-11);
  return std::max(1e-2 * std::fabs(want), 1e-3);
}

struct Accuracy {
  double max_ulp = 0;
  gb::Check check;  // worst error over its allowed error, against 1
};

// The timed domain's cell centres (pow: at the timed exponent), and for a slow path as many
// random inputs of its edge set (ref::math_edge_inputs: up to FLT_MAX, every denormal binade,
// pow's special cases).
std::vector<ref::MathInput> accuracy_inputs(const Params& p) {
  std::vector<ref::MathInput> in;
  for (float x : ref::math_accuracy_inputs(p.lo(), p.range(), kAccuracyInputs)) in.push_back({x, p.exponent()});
  if (p.slow) {
    const auto edge = ref::math_edge_inputs(p.fn->id, p.slow->edge, kAccuracyInputs, 0x5EED + static_cast<int>(p.fn->id));
    in.insert(in.end(), edge.begin(), edge.end());
  }
  return in;
}

Accuracy measure_accuracy(const Params& p) {
  auto& s = gb::session();
  cl::Kernel k = s.kernel(p.program(), std::string("math_accuracy_") + p.fn->name);
  const auto in = accuracy_inputs(p);
  std::vector<float> xs, ys;
  for (const auto& v : in) {
    xs.push_back(v.x);
    ys.push_back(v.y);
  }
  cl::Buffer x_buf = gb::upload(xs), y_buf = gb::upload(ys), out_buf = gb::make_buffer(in.size() * sizeof(float));
  gb::poison(out_buf, in.size() * sizeof(float));
  GB_SET_ARGS(k, x_buf, y_buf, out_buf);
  GB_CL(s.queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(in.size()), cl::NullRange));
  const auto got = gb::download<float>(out_buf, in.size());
  Accuracy a;
  double worst_ratio = 0;
  size_t worst = 0;
  for (size_t i = 0; i < in.size(); ++i) {
    const double want = ref::math_exact(p.fn->id, in[i].x, in[i].y);
    const double ulp = ref::ulp_error(got[i], want);
    a.max_ulp = std::max(a.max_ulp, ulp);
    const double ratio = p.exact_form() ? ulp / p.fn->strict_ulp
                                        : (std::isfinite(got[i]) ? std::fabs(got[i] - want) : INFINITY) / allowed_error(p, want);
    if (!(ratio <= worst_ratio)) {
      worst_ratio = ratio;
      worst = i;
    }
  }
  std::string what = std::string(p.opencl_name()) + " on " + std::to_string(in.size()) + " inputs (error / allowed)";
  if (worst_ratio > 0) {
    char detail[160];
    std::snprintf(detail, sizeof detail, "; worst at x = %a, y = %a: got %a, want %a", in[worst].x, in[worst].y, got[worst],
                  ref::math_exact(p.fn->id, in[worst].x, in[worst].y));
    what += detail;
  }
  a.check = {worst_ratio, gb::scaled_margin(1.0), what};
  return a;
}

// ---- set-up (once per configuration) ----------------------------------------------------------
struct Fixture {
  size_t work_items = 0;
  ref::MathChain chain{};
  cl::Kernel kernel;
  cl::Buffer out;
  cl::NDRange global;
  Accuracy accuracy;
};

std::unique_ptr<Fixture> make_fixture(const Params& p) {
  auto& s = gb::session();
  auto fx = std::make_unique<Fixture>();
  fx->work_items = s.info().compute_units * kGroupsPerCu[p.size_class - 1] * kLocal;
  // Varied: the walk plus feedback of each result (c * range * max |f'| = 1/2 keeps replay errors
  // from growing); slow paths: the walk alone (c = 0 still costs the dependent fma), since over a
  // steep domain (sin at 2^20: a float's spacing is 0.125) feedback would not contract; unvaried:
  // neither, the same input every call.
  const bool walk = p.inputs != Inputs::unvaried, feedback = p.inputs == Inputs::varied;
  const float c = feedback ? static_cast<float>(0.5 / (p.fn->range * p.fn->max_slope)) : 0.0f;
  fx->chain = {p.lo(), p.range(), c, walk ? kPhi : 0.0f, p.exponent(), kChains, kIters[p.size_class - 1]};
  fx->kernel = s.kernel(p.program(), std::string("math_") + p.fn->name);
  gb::require_work_group(fx->kernel, kLocal);
  fx->out = gb::make_buffer(fx->work_items * sizeof(float));
  fx->global = cl::NDRange(fx->work_items);
  auto& k = fx->kernel;
  GB_SET_ARGS(k, fx->out, fx->chain.lo, fx->chain.range, fx->chain.c, fx->chain.phi, fx->chain.p,
              static_cast<cl_int>(fx->chain.iters));
  fx->accuracy = measure_accuracy(p);
  return fx;
}

// ---- verification: the chains' sums against the host replay, and the accuracy bound -----------
gb::Check verify(const Fixture& fx, const Params& p) {
  auto got = gb::download<float>(fx.out, fx.work_items);
  const double margin = p.exact_form() ? 1e-5 : 5e-2;
  for (float v : got)  // every work item wrote a finite sum (the poison is NaN)
    if (!std::isfinite(v)) return {INFINITY, gb::scaled_margin(margin), "call chain sums (non-finite output)"};
  const auto gids = gb::sample_indices(fx.work_items, kSampledWorkItems);
  // Strict full forms replay within float rounding: each sampled work item on its own; the others
  // are held to the accuracy check below, element by element, and to a relative L2 error here.
  const auto want = ref::math_chain_replay(p.fn->id, gids, fx.chain);
  auto chains = p.exact_form()
                    ? gb::check_max_relative(gb::gather(got, gids), want, margin, "call chain sums of sampled work items")
                    : gb::check_relative(gb::gather(got, gids), want, margin, "call chain sums of sampled work items");
  return gb::worst({chains, fx.accuracy.check});
}

// ---- the benchmark -------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key(), [&] { return make_fixture(p); });
  gb::measure(state, gb::Measurement::device([&](gb::Batch& b) { b.launch(fx.kernel, fx.global, cl::NDRange(kLocal)); })
                         .work(gb::Work().items(static_cast<double>(fx.work_items) * kChains * fx.chain.iters))
                         .poison(fx.out, fx.work_items * sizeof(float))
                         .check([&] { return verify(fx, p); })
                         .counter("max_ulp", std::isfinite(fx.accuracy.max_ulp) ? fx.accuracy.max_ulp : 1e300));
}

// ---- registration ----------------------------------------------------------------------------
// Denormal inputs and results need CL_FP_DENORM: without it a device may flush them to zero
// (OpenCL C: "edge case behavior in flush to zero mode"), and the denormal set would time and
// check another path. It is then skipped.
bool device_has_denormals() {
  cl_device_fp_config config = 0;
  GB_CL(gb::session().device().getInfo(CL_DEVICE_SINGLE_FP_CONFIG, &config));
  return (config & CL_FP_DENORM) != 0;
}

gb::PathSet code_paths(int size_class, size_t) {
  gb::PathSet paths{"full, native_ and half_ forms, strict and relaxed", "sin, cos, tan: large-argument reduction",
                    "pow: special cases, negative bases"};
  gb::path_if(paths, kIters[size_class - 1] >= 2, "chains of 2+ calls");
  gb::path_if(paths, device_has_denormals(), "log, exp, sqrt, rsqrt: denormal inputs or results");
  return paths;
}

void register_math() {
  const int size = gb::session().size_class();
  gb::declare_paths("L0/Math", code_paths);
  const bool denormals = device_has_denormals();
  auto name_of = [&](const Params& p) {
    return gb::bench_name("L0/Math", {{"", p.fn->name},
                                      kForm.part(p.form),
                                      kMode.part(p.relaxed),
                                      kInputs.part(p.inputs),
                                      {"size", std::to_string(size)}});
  };
  auto add = [&](const Params& p) {
    gb::add_benchmark(name_of(p), [p](benchmark::State& st) { run(st, p); },
                      [p] { return std::vector<gb::ProgramKey>{p.program()}; });
  };
  for (const Function& fn : kFunctions) {
    for (Form form : kForm.all())
      for (bool relaxed : kMode.all())
        for (Inputs inputs : {Inputs::varied, Inputs::unvaried}) add(Params{&fn, form, relaxed, inputs, size});
    for (const SlowPath& slow : kSlowPaths) {
      if (slow.fn != fn.id) continue;
      const Params p{&fn, Form::full, false, slow.inputs, size, &slow};
      if (slow.inputs == Inputs::denormal && !denormals)
        gb::skip_variant(name_of(p), "no denormal floats (CL_FP_DENORM not in CL_DEVICE_SINGLE_FP_CONFIG)");
      else
        add(p);
    }
  }
}
GB_CASE(register_math);

}  // namespace
