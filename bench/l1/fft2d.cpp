// L1/FFT2D: one n x n complex single-precision 2-D FFT, forward and inverse, as the seed's four
// kernels (rows, transpose, rows, transpose) and as two (rows, then columns in place of
// transposes): what splitting into kernels costs. 5 n^2 log2(n^2) FLOPs; 16 n^2 bytes per pass.
#include <memory>
#include <optional>

#include "fft_common.hpp"
#include "fft_stockham.hpp"
#include "gpu_bench.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
enum class Shape { pipeline4, rows_cols };
const char* shape_name(Shape s) { return s == Shape::pipeline4 ? "pipeline4" : "rows_cols"; }

struct Params {
  fft::Problem problem;
  Shape shape;
  int size_class;
  std::string key() const { return std::string("fft2d/") + shape_name(shape) + "/" + problem.key(); }
};

// ---- set-up (once per configuration) ----------------------------------------------------------
// rows: transforms along x of every row; pipeline4 then transposes, transforms the rows again
// (the former columns) and transposes back; rows_cols transforms the columns where they are,
// several adjacent columns per work group so that global accesses come in runs.
fft::Pipeline make_pipeline(const fft::Problem& p, Shape shape, const cl::Buffer& in, const cl::Buffer& out,
                            const cl::Buffer& a, const cl::Buffer& b) {
  const fft::Knobs k;
  fft::Pipeline pl;
  pl.stages.push_back(fft::rows_stage(p.nx, p.ny * p.batch, p.dir, k, in, a));
  if (shape == Shape::pipeline4) {
    pl.stages.push_back(fft::transpose_stage(p.nx, p.ny, p.batch, a, b));
    pl.stages.push_back(fft::rows_stage(p.ny, p.nx * p.batch, p.dir, k, b, a));
    pl.stages.push_back(fft::transpose_stage(p.ny, p.nx, p.batch, a, out));
  } else {
    pl.stages.push_back(fft::cols_stage(p.ny, p.nx, p.nx, p.batch, false, p.dir, k, a, out));
  }
  return pl;
}

struct Fixture {
  fft::Input input;
  cl::Buffer in, out, a, b, round_trip;
  fft::Pipeline pipeline;  // timed: in -> out
  fft::Pipeline back;      // opposite direction, out -> round_trip (verification only)
  gb::Calibration calibration;
  std::optional<gb::Check> check;
};

std::unique_ptr<Fixture> make_fixture(const Params& p) {
  auto fx = std::make_unique<Fixture>();
  fx->input = fft::make_input(p.problem);
  fx->in = gb::upload(*fx->input, CL_MEM_READ_ONLY);
  for (cl::Buffer* buf : {&fx->out, &fx->a, &fx->b, &fx->round_trip}) *buf = gb::make_buffer(p.problem.bytes());
  fx->pipeline = make_pipeline(p.problem, p.shape, fx->in, fx->out, fx->a, fx->b);
  fft::Problem back = p.problem;
  back.dir = fft::opposite(p.problem.dir);
  fx->back = make_pipeline(back, p.shape, fx->out, fx->round_trip, fx->a, fx->b);
  if (auto why = fx->pipeline.unsupported(); !why.empty()) throw std::runtime_error(why);
  return fx;
}

// ---- verification against reference/fft (Eigen, row then column transforms), and the round trip
gb::Check verify(const Fixture& fx, const Params& p) {
  auto output = gb::download<float>(fx.out, 2 * p.problem.points());
  fx.back.run_once();
  auto round_trip = gb::download<float>(fx.round_trip, 2 * p.problem.points());
  return fft::check_all(p.problem, *fx.input, output, round_trip, fft::accuracy_of(fft::Knobs{}.twiddle));
}

// ---- the benchmark ---------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  auto& fx = gb::cached_fixture<Fixture>(p.key(), [&] { return make_fixture(p); });
  const gb::Unit unit = [&](gb::Batch& b) { fx.pipeline.enqueue(b); };
  if (fx.calibration.unit_seconds == 0) fx.calibration = gb::calibrate(unit);
  if (!fx.check) gb::poison(fx.out, p.problem.bytes());

  gb::Sampler sampler(state, fx.calibration);
  for (auto _ : state) sampler.sample(unit);

  if (!fx.check) fx.check = verify(fx, p);
  fft::report_work(state, sampler, p.problem, fx.pipeline.passes());
  gb::report_check(state, *fx.check);
}

// ---- registration ----------------------------------------------------------------------------
void register_fft2d() {
  const int size = gb::session().size_class();
  for (size_t n : fft::sizes_2d(size))
    for (Shape shape : {Shape::pipeline4, Shape::rows_cols})
      for (fft::Dir dir : {fft::Dir::forward, fft::Dir::inverse}) {
        Params p{fft::problem_2d(n, dir), shape, size};
        const std::string name = fft::name(shape_name(shape), p.problem, size);
        if (auto why = fft::too_large(p.problem, 5); !why.empty()) {
          gb::skip_variant(name, why);
          continue;
        }
        gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); });
      }
}
GB_CASE(register_fft2d);

}  // namespace
