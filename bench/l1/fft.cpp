// L1/FFT: batched 1-D complex single-precision FFTs, forward and inverse; N <= 4096 in one kernel
// (Stockham passes in local memory: radix 32 or 16 below 2048, from there radix-8 butterflies four
// a work item), longer N in global passes, or (pieces:) in one
// kernel whose exchanges go through local memory a piece at a time (several radix-8 butterflies
// per work item, or one of a larger radix). 5 N log2 N FLOPs and 16 N bytes per pass (one float2
// read and written per point) per transform.
#include <memory>
#include <optional>

#include "fft_common.hpp"
#include "fft_stockham.hpp"
#include "gpu_bench.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
struct Params {
  fft::Problem problem;
  fft::Knobs knobs;
  int size_class;
};

// ---- set-up (once per configuration) ----------------------------------------------------------
struct Fixture {
  fft::Input input;
  cl::Buffer in, out, tmp, round_trip;
  fft::Pipeline pipeline;  // timed: in -> out
  fft::Pipeline back;      // opposite direction, out -> round_trip (verification only)
};

std::unique_ptr<Fixture> make_fixture(const Params& p) {
  auto fx = std::make_unique<Fixture>();
  fx->input = fft::make_input(p.problem);
  fx->in = fft::device_input(fx->input, CL_MEM_READ_ONLY);
  fx->out = gb::make_buffer(p.problem.bytes());
  fx->round_trip = gb::make_buffer(p.problem.bytes());
  const bool multi_pass = fft::global_passes(p.problem.nx, p.knobs).size() > 1;
  fx->tmp = multi_pass ? gb::make_buffer(p.problem.bytes()) : fx->out;
  fx->pipeline = fft::pipeline_1d(p.problem, p.knobs, fx->in, fx->out, fx->tmp);
  fft::Problem back = p.problem;
  back.dir = fft::opposite(p.problem.dir);
  fx->back = fft::pipeline_1d(back, p.knobs, fx->out, fx->round_trip, fx->tmp);
  fx->pipeline.require_work_groups();
  return fx;
}

// ---- verification against reference/fft (Eigen), and the round trip -------------------------
gb::Check verify(const Fixture& fx, const Params& p) {
  const auto output = gb::read_back<float>(fx.out, 2 * p.problem.points(), 0);
  fx.back.run_once();
  const auto round_trip = gb::read_back<float>(fx.round_trip, 2 * p.problem.points(), 1);
  return fft::check_all(p.problem, *fx.input, output, round_trip, fft::accuracy_of(fft::twiddle_for(p.problem.nx, p.knobs)));
}

// ---- the benchmark ---------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key(), [&] { return make_fixture(p); });
  gb::measure(state, fft::with_work(gb::Measurement::device([&](gb::Batch& b) { fx.pipeline.enqueue(b); }),
                                    p.problem, fx.pipeline.passes())
                         .counter("work_group", static_cast<double>(fx.pipeline.stages.front().work_group()))
                         .poison(fx.out, p.problem.bytes())
                         .check([&] { return verify(fx, p); }));
}

// ---- registration ----------------------------------------------------------------------------
// Registers one variant, or names why this device cannot run it. A kernel whose own work-group
// limit is too small is found when it is built, at run time, and skipped then.
void add(const std::string& name, const Params& p) {
  std::string why = fft::too_large(p.problem, fft::global_passes(p.problem.nx, p.knobs).size() > 1 ? 4 : 3);
  if (why.empty()) why = fft::rows_pieces_shortfall(p.problem.nx, p.knobs);
  if (why.empty() && fft::largest_work_group(p.problem, p.knobs) > gb::session().info().max_work_group_size)
    why = "work group above CL_DEVICE_MAX_WORK_GROUP_SIZE";
  if (!why.empty()) return gb::skip_variant(name, why);
  // The round trip (verification) runs the opposite direction's pipeline.
  gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); }, [p] {
    fft::Problem back = p.problem;
    back.dir = fft::opposite(p.problem.dir);
    auto keys = fft::programs_1d(p.problem, p.knobs);
    for (auto& key : fft::programs_1d(back, p.knobs)) keys.push_back(key);
    return keys;
  });
}

// The library variants' lengths, and at size 1 (CI) three more for the radix plans a GPU's
// sizes take (2048: a dft8 first pass; 2^16 and 2^20: column passes of 256 and 1024 points).
std::vector<size_t> stockham_lengths(int size) {
  auto lengths = fft::lengths_1d(size);
  if (size == 1) lengths.insert(lengths.end(), {2048, size_t(1) << 16, size_t(1) << 20});
  return lengths;
}

// Every configuration of a size class, named.
std::vector<std::pair<std::string, Params>> configs(int size) {
  std::vector<std::pair<std::string, Params>> all;
  auto add = [&](const std::string& name, const Params& p) { all.emplace_back(name, p); };
  // The problems, both directions, with the default knobs.
  for (size_t n : stockham_lengths(size))
    for (fft::Dir dir : fft::kDir.all()) {
      Params p{fft::problem_1d(n, dir, size), fft::Knobs{}, size};
      add(fft::name("stockham", p.problem, size), p);
    }

  // Twiddles: cospi/sinpi of the exact angle, native_cos/native_sin, or a table (the default).
  for (size_t n : {size_t(1024), fft::lengths_1d(size).back()})
    for (fft::Twiddle tw : fft::kTwiddle.all()) {
      fft::Knobs k;
      k.twiddle = tw;
      Params p{fft::problem_1d(n, fft::Dir::forward, size), k, size};
      add(fft::name("stockham_twiddle", p.problem, size, {fft::kTwiddle.part(tw)}), p);
    }

  // The longest length in three global passes where the fewest is two (2^20: 128 x 128 x 64
  // points instead of 1024 x 1024): what one more pass over memory costs. At size 1 it is what
  // runs the three-pass pipeline that a GPU's 2^22 takes.
  if (const size_t n = stockham_lengths(size).back(); n >= (size_t(1) << 20) && fft::global_passes(n).size() < 3) {
    fft::Knobs k;
    k.passes = 3;
    Params p{fft::problem_1d(n, fft::Dir::forward, size), k, size};
    add(fft::name("stockham", p.problem, size, {{"passes", "3"}}), p);
  }

  // One pass over memory for lengths above local memory (16384, and 8192 forward at sizes >= 2): the
  // transform held in its work items' registers, each exchange through local memory in `pieces`
  // turns (the fewest for 48 KiB: 16384 in 4, 8192 in 2), against the default's two global passes.
  // The plan is fft::rows_plan's: fft_rows_multi (32 points per work item, four radix-8 butterflies
  // per pass: 16384 in 512 work items, 8192 in 256) where the device allows the group, else fft_rows
  // (one butterfly per work item: 16384 radix 64 in 256). Beside it fft_rows at 16384 with radix 64
  // (256 work items, the plan where 512 are not allowed; radix 32 in 512 was slower than
  // fft_rows_multi on the H100 and the H200 and is not registered). At size 1 also 2048 in
  // 4 pieces by fft_rows, radix 8 (8 x 8 x 8 x 4: the first exchange rotated, a middle one
  // relabelling the butterflies; 16384's exchanges do neither), and 1024 by fft_rows_multi (2 x 8 x
  // 8 x 8 in 32 work items: 8192's first radix, twiddles per butterfly in the last pass as 16384's),
  // so that every path of the exchange in pieces runs on a short length, in a batch of 64 Ki points
  // (as the 2-D cases: what Oclgrind runs, tests/oclgrind).
  {
    std::vector<std::pair<size_t, fft::Dir>> long_ones{{16384, fft::Dir::forward}, {16384, fft::Dir::inverse}};
    if (size >= 2) long_ones.insert(long_ones.begin(), {8192, fft::Dir::forward});
    for (const auto& [n, dir] : long_ones) {
      fft::Knobs k;
      k.pieces = fft::fewest_pieces(n);
      Params p{fft::problem_1d(n, dir, size), k, size};
      add(fft::name("stockham", p.problem, size, {{"pieces", std::to_string(k.pieces)}}), p);
    }
    {
      fft::Knobs k;
      k.radix = 64;
      k.pieces = fft::fewest_pieces(16384);
      Params p{fft::problem_1d(16384, fft::Dir::forward, size), k, size};
      add(fft::name("stockham", p.problem, size, {{"radix", "64"}, {"pieces", std::to_string(k.pieces)}}), p);
    }
    if (size == 1) {
      fft::Knobs k;
      k.radix = 8;
      k.pieces = 4;
      Params p{fft::Problem{2048, 1, 32, fft::Dir::inverse}, k, size};
      add(fft::name("stockham", p.problem, size, {{"radix", "8"}, {"pieces", "4"}}), p);
      k.points = 32;
      p = Params{fft::Problem{1024, 1, 64, fft::Dir::inverse}, k, size};
      add(fft::name("stockham", p.problem, size, {{"radix", "8"}, {"points", "32"}, {"pieces", "4"}}), p);
      // fft_rows with a radix-8 first pass (2048 = 8 x 16 x 16), which a GPU's 4096 takes at
      // radix:8 in the work-group sweep: 2048 itself now takes fft_rows_multi.
      k = fft::Knobs{};
      k.radix = 16;
      p = Params{fft::Problem{2048, 1, 32, fft::Dir::forward}, k, size};
      add(fft::name("stockham", p.problem, size, {{"radix", "16"}}), p);
      // Global passes whose columns go through local memory in turns, the first one's contiguous
      // store too (as 2^20's 1024-point passes take 8 columns where 4 fit), on 64 Ki points that
      // Oclgrind runs: 256 x 256 with 32 columns where 16 fit (radix 32: groups of 256 items).
      k = fft::Knobs{};
      k.cols_per_group = 32;
      k.radix = 32;
      p = Params{fft::Problem{65536, 1, 1, fft::Dir::forward}, k, size};
      add(fft::name("stockham", p.problem, size, {{"radix", "32"}, {"cols", "32"}}), p);
    }
  }

  // The seed's work-group sweep (expected to matter little for FFT): work group = N/radix work
  // items per transform times transforms per group, for each radix; at size 1 only the default
  // radix is swept over transforms per group.
  const std::vector<size_t> sweep_lengths = size == 1 ? std::vector<size_t>{1024} : std::vector<size_t>{1024, 4096};
  for (size_t n : sweep_lengths)
    for (int radix : {32, 16, 8, 4})
      for (size_t rows = 1; rows * fft::padded(n) * 8 <= fft::kLocalBytes; rows *= 2) {
        if (size == 1 && radix != fft::rows_radix_plan(n, 0).radix && rows > 1) break;
        fft::Knobs k;
        k.radix = radix;
        k.rows_per_group = rows;
        Params p{fft::problem_1d(n, fft::Dir::forward, size), k, size};
        const size_t wg = n / fft::radix_plan(n, radix).radix * rows;
        if (wg > 1024) break;  // no GPU runs larger groups
        add(fft::name("stockham", p.problem, size, {{"radix", std::to_string(radix)}, {"wg", std::to_string(wg)}}), p);
      }
  return all;
}

// The paths of the programs every configuration of a size class builds (both directions).
gb::PathSet code_paths(int size, size_t) {
  gb::PathSet paths;
  for (const auto& [name, p] : configs(size)) {
    if (!fft::rows_pieces_shortfall(p.problem.nx, p.knobs).empty()) continue;  // not registered either
    fft::Problem back = p.problem;
    back.dir = fft::opposite(p.problem.dir);
    for (const fft::Problem* problem : {&p.problem, static_cast<const fft::Problem*>(&back)})
      for (const auto& key : fft::programs_1d(*problem, p.knobs)) fft::add_program_paths(paths, key);
    paths.insert(std::string(fft::kDir.label(p.problem.dir)) + " transforms");
    const size_t passes = fft::global_passes(p.problem.nx, p.knobs).size();
    paths.insert(passes > 1 ? "global passes: " + std::to_string(passes) : "one kernel per transform");
  }
  return paths;
}

void register_fft() {
  gb::declare_paths("L1/FFT", code_paths);
  for (const auto& [name, p] : configs(gb::session().size_class())) add(name, p);
}
GB_CASE(register_fft);

}  // namespace
