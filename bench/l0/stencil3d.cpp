// L0/Stencil3D: a 7-point stencil over an n^3 grid in a 3-D NDRange, swept over 3-D work-group
// shapes (and the driver's choice): how the shape of a group over a volume meets the memory
// system. Bytes per unit: one read and one write of the grid (the neighbours come from caches).
#include <algorithm>
#include <memory>

#include "gpu_bench.hpp"
#include "reference/stencil3d.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
// The shapes swept: long rows, square and cubic blocks, deep columns; each is also the name's wg.
const gb::WorkGroup kShapes[] = {{0, 1, 1},   {256, 1, 1}, {64, 4, 1},  {32, 8, 1}, {16, 16, 1},
                                 {32, 4, 2},  {16, 4, 4},  {8, 8, 4},   {4, 8, 8},  {8, 4, 8},
                                 {128, 2, 4}, {32, 4, 8},  {16, 16, 4}, {64, 2, 2}};

struct Params {
  gb::WorkGroup wg;
  int size_class;
  // n^3 cells: 23 (ragged against every group, on a CPU in CI), 96, 256 (64 MiB a grid), 384.
  size_t n() const {
    static const size_t by_class[] = {23, 96, 256, 384};
    return by_class[size_class - 1];
  }
  size_t cells() const { return n() * n() * n(); }
};

// ---- set-up (once per grid; every shape shares it) ---------------------------------------------
struct Problem {
  std::vector<float> grid;
  cl::Buffer in, out;
};

gb::ProgramKey program() { return {"l0/stencil3d.cl", ""}; }

std::unique_ptr<Problem> make_problem(const Params& p) {
  auto pb = std::make_unique<Problem>();
  pb->grid = gb::random_multiples<float>(p.cells(), 51, 0, 15, 1.0 / 16);  // k / 16, k in [0, 15]
  pb->in = gb::upload(pb->grid, CL_MEM_READ_ONLY);
  pb->out = gb::make_buffer(p.cells() * sizeof(float));
  return pb;
}

// Every cell exactly: the inputs and weights make each sum exact in float (kernels/l0/stencil3d.cl).
gb::Check verify(const Problem& pb, const Params& p) {
  return gb::check_exact(gb::read_back<float>(pb.out, p.cells()), ref::stencil7(pb.grid, p.n()), "stencil cells");
}

// ---- the benchmark -------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  const auto& pb = gb::cached_problem<Problem>(gb::name_key_without({"wg"}), [&] { return make_problem(p); });
  auto& kernel = gb::cached_fixture<cl::Kernel>(gb::name_key(), [&] {
    auto k = std::make_unique<cl::Kernel>(gb::session().kernel(program(), "stencil3d"));
    if (!p.wg.is_auto()) gb::require_work_group(*k, p.wg.size());
    GB_SET_ARGS(*k, pb.in, pb.out, static_cast<cl_uint>(p.n()));
    return k;
  });
  const cl::NDRange global = gb::padded_global(p.n(), p.n(), p.n(), p.wg);
  const gb::Unit unit = [&](gb::Batch& b) { b.launch(kernel, global, p.wg.local()); };
  const double bytes = 2.0 * p.cells() * sizeof(float);
  gb::measure(state, gb::Measurement::device(unit)
                         .work(gb::Work().bytes(bytes).items(static_cast<double>(p.cells())))
                         .poison(pb.out, p.cells() * sizeof(float))
                         .check([&] { return verify(pb, p); }));
}

// ---- registration ----------------------------------------------------------------------------
gb::PathSet code_paths(int size_class, size_t) {
  const Params p{{}, size_class};
  gb::PathSet paths{"clamped faces"};
  gb::path_if(paths, p.n() % 8 != 0, "items past the grid's edge");
  return paths;
}

void register_stencil3d() {
  const int size = gb::session().size_class();
  gb::declare_paths("L0/Stencil3D", code_paths);
  const auto& info = gb::session().info();
  for (gb::WorkGroup wg : kShapes) {
    wg.dims = 3;
    const Params p{wg, size};
    const auto name = gb::bench_name("L0/Stencil3D/stencil7", {{"wg", wg.label()}, {"size", std::to_string(size)}});
    if (!wg.is_auto() && (wg.size() > info.max_work_group_size || wg.x > info.max_work_item_sizes[0] ||
                          wg.y > info.max_work_item_sizes[1] || wg.z > info.max_work_item_sizes[2]))
      gb::skip_variant(name, "work group above the device's limits");
    else if (auto why = gb::memory_shortfall({2 * p.cells() * sizeof(float)}); !why.empty())
      gb::skip_variant(name, why);
    else
      gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); },
                        [] { return std::vector<gb::ProgramKey>{program()}; });
  }
}
GB_CASE(register_stencil3d);

}  // namespace
