// L1/FFT2D frames: the pipeline4 transform (its four kernels) run as an application runs frames,
// enqueued one after another with the queue finished every 1, 10 or 100 frames, timed on the host
// clock (seed: a 2-D FFT's variance fell from 8.2% at 256 x 256 to 1.6% at 1024 x 1024 with a
// clFinish every frame, and to 1.2% with one every 10 frames). A sample is one sync window, so
// `noise` is the spread of windows: of single frames at sync_every:1. Per frame: pipeline4's work.
#include <chrono>
#include <memory>

#include "fft_common.hpp"
#include "fft_stockham.hpp"
#include "gpu_bench.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
struct Params {
  fft::Problem problem;
  int every;  // frames per finish
  int size_class;
};

// The sizes of the seed's variance figures, 256^2 to 1024^2, of those the size class runs
// (fft::sizes_2d: size 1 has 256^2 only: the larger plans take minutes to compile on PoCL).
std::vector<size_t> frame_sizes(int size_class) {
  std::vector<size_t> out;
  for (size_t n : fft::sizes_2d(size_class))
    if (n <= 1024) out.push_back(n);
  return out;
}

// ---- set-up (once per size) ---------------------------------------------------------------------
struct Fixture {
  fft::Input input;
  cl::Buffer in, out, a, b, round_trip;
  fft::Pipeline frame, back;  // back: the inverse, for the round-trip check
};

std::unique_ptr<Fixture> make_fixture(const fft::Problem& p) {
  auto fx = std::make_unique<Fixture>();
  fx->input = fft::make_input(p);
  fx->in = fft::device_input(fx->input, CL_MEM_READ_ONLY);
  for (cl::Buffer* buf : {&fx->out, &fx->a, &fx->b, &fx->round_trip}) *buf = gb::make_buffer(p.bytes());
  fx->frame = fft::pipeline4(p, fx->in, fx->out, fx->a, fx->b);
  fft::Problem back = p;
  back.dir = fft::opposite(p.dir);
  fx->back = fft::pipeline4(back, fx->out, fx->round_trip, fx->a, fx->b);
  fx->frame.require_work_groups();
  return fx;
}

std::vector<gb::ProgramKey> programs(const fft::Problem& p) {
  fft::Problem back = p;
  back.dir = fft::opposite(p.dir);
  auto keys = fft::pipeline4_programs(p);
  for (auto& key : fft::pipeline4_programs(back)) keys.push_back(key);
  return keys;
}

// As L1/FFT2D checks pipeline4: every point against Eigen's FFT, and the round trip.
gb::Check verify(const Fixture& fx, const fft::Problem& p) {
  const auto output = gb::read_back<float>(fx.out, 2 * p.points(), 0);
  fx.back.run_once();
  const auto round_trip = gb::read_back<float>(fx.round_trip, 2 * p.points(), 1);
  return fft::check_all(p, *fx.input, output, round_trip, fft::accuracy_of(fft::knobs_2d(p).twiddle));
}

// ---- the benchmark ---------------------------------------------------------------------------
// A sample is `every` frames and one finish (at most `every` units per sample); a smaller batch
// still runs the whole window and is given its share of the time.
void run(benchmark::State& state, const Params& p) {
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key_without({"sync_every"}), [&] { return make_fixture(p.problem); });
  auto& queue = gb::session().queue();
  const gb::Timer timer = [&](int units) -> gb::Sample {
    using clock = std::chrono::steady_clock;
    const int frames = (units + p.every - 1) / p.every * p.every;
    const auto t0 = clock::now();
    for (int f = 0; f < frames; ++f) {
      for (const auto& s : fx.frame.stages) GB_CL(queue.enqueueNDRangeKernel(s.kernel, cl::NullRange, s.global, s.local));
      if ((f + 1) % p.every == 0) GB_CL(gb::finish(queue));
    }
    const double host = std::chrono::duration<double>(clock::now() - t0).count();
    return {host * units / frames, host};
  };
  gb::measure(state, fft::with_work(gb::Measurement::timed(timer), p.problem, fx.frame.passes())
                         .max_batch(p.every)
                         .counter("sync_every", p.every)
                         .poison(fx.out, p.problem.bytes())
                         .check([&] { return verify(fx, p.problem); }));
}

// ---- registration ----------------------------------------------------------------------------
// By default the seed's three points: 256^2 and 1024^2 synchronised every frame, 1024^2 every 10
// (at size 1, 256^2 every frame); the rest with a filter. Code paths: pipeline4's, in L1/FFT2D's
// table (fft2d.cpp), at sizes that table covers.
void register_fft2d_frames() {
  const int size = gb::session().size_class();
  const auto sizes = frame_sizes(size);
  for (size_t n : sizes)
    for (int every : {1, 10, 100}) {
      const Params p{fft::problem_2d(n, fft::Dir::forward), every, size};
      const bool by_default = (every == 1 && (n == sizes.front() || n == sizes.back())) || (every == 10 && n == 1024);
      const std::string name = fft::name("pipeline4", p.problem, size, {{"sync_every", std::to_string(every)}});
      if (const std::string why = fft::too_large(p.problem, 5); !why.empty()) {
        gb::skip_variant(name, why);
        continue;
      }
      gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); }, [p] { return programs(p.problem); },
                        by_default ? gb::DefaultRun::yes : gb::DefaultRun::no);
    }
}
GB_HOST_TIMED_CASE(register_fft2d_frames);

}  // namespace
