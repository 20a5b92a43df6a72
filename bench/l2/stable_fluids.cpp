// L2/StableFluids: one Eulerian stable-fluids step on a periodic 2-D grid: advection (velocity and
// dye), divergence, J Jacobi pressure iterations, projection. Bytes per cell: 60 + 12 (J - 1).
// Variants: `jacobi` (a work item per cell) and `jacobi_blocked` (a work item per 4 x rows cells,
// float4 rows: more loads in flight per item), the same arithmetic.
#include <algorithm>
#include <cmath>
#include <memory>

#include "bench/tuning/stable_fluids.hpp"
#include "gpu_bench.hpp"
#include "reference/stable_fluids.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
constexpr int kJacobi = 40;                 // pressure iterations per step
constexpr float kDt = 0.5f;                 // velocities in [-1, 1] cells per unit time
constexpr int kReferenceSteps = 2;          // steps compared with the host reference
// Each cell of u, v and dye within this share of the field's largest value. The backtrace's
// position is off by about a rounding of a coordinate up to the grid edge n (a GPU's fused
// multiply-adds round otherwise than the host), which moves an interpolated value by that share of
// a neighbour difference (random fields: up to the field's range), once per step: 4 u n per step,
// at least 1e-4 (size 1).
double reference_margin(int n) { return std::max(1e-4, kReferenceSteps * 4 * 0x1p-24 * n); }
constexpr double kDivergenceReduction = 0.5;  // projection: |div after| <= 0.5 |div before|

struct Params {
  int jacobi;
  int rows;  // jacobi_blocked: rows of a work item's 4 x rows block; 0: a work item per cell
  gb::WorkGroup wg;
  int size_class;
};
constexpr int kBlockColumns = 4;                 // a float4 per block row
constexpr int kBlockedRows[] = {1, 2, 4, 8};     // swept at size >= 2
constexpr int kBlockedRowsSize1[] = {2};
// The default run's rows: a measured choice (bench/tuning/stable_fluids.hpp).
int blocked_default_rows() { return stable_fluids_tuning::tuned(stable_fluids_tuning::Param::blocked_default_rows); }

// Square grid edge per size class (size 3: 4096^2, 16.7 M cells, 604 MB of fields). A device
// that cannot hold the nine fields skips the benchmark (registration).
int grid_edge(int size_class) {
  static const int edge[] = {128, 1024, 4096, 8192};
  return edge[size_class - 1];
}

double bytes_per_cell(int jacobi) { return 60.0 + 12.0 * (jacobi - 1); }

// ---- set-up (once per configuration) ----------------------------------------------------------
// The host side of one grid, shared by its work-group variants: the random state and, made on
// first use, the reference after kReferenceSteps with the last advected field's divergence.
struct HostFluid {
  ref::FluidState initial, reference;
  std::vector<float> divergence_before;
};

std::shared_ptr<HostFluid> make_host_fluid(const Params& p) {
  auto h = std::make_shared<HostFluid>();
  const int n = grid_edge(p.size_class);
  const size_t cells = static_cast<size_t>(n) * n;
  h->initial.nx = h->initial.ny = n;
  h->initial.u = gb::random_vector<float>(cells, 21);
  h->initial.v = gb::random_vector<float>(cells, 22);
  h->initial.d = gb::random_vector<float>(cells, 23, 0.0, 1.0);
  return h;
}

std::shared_ptr<HostFluid> host_fluid(const Params& p) {
  return gb::cached_host<HostFluid>(gb::name_key_without({"wg"}), [&] { return make_host_fluid(p); });
}

// State (u, v, d) ping-pongs between slots 0 and 1: step c reads slot c and leaves slot 1 - c.
struct Fixture {
  int n = 0;
  cl::Buffer u[2], v[2], d[2], div, p[2];
  cl::Kernel advect[2], divergence[2], project[2], jacobi[2];
  cl::NDRange global, local;
  int slot = 0;
  long steps = 0;
  std::shared_ptr<HostFluid> host;

  void step(gb::Batch& b, int iterations) {
    const int c = slot;
    b.launch(advect[c], global, local);
    b.launch(divergence[c], global, local);
    for (int k = 1; k < iterations; ++k) b.launch(jacobi[(k - 1) & 1], global, local);
    b.launch(project[c], global, local);
    slot ^= 1;
    ++steps;
  }
};

// The one program of every kernel on a grid n x n (its size is compiled in): built by
// make_fixture, declared at registration.
gb::ProgramKey program_of(int n, int rows) {
  std::string options = "-DNX=" + std::to_string(n) + " -DNY=" + std::to_string(n);
  if (rows > 0) options += " -DROWS=" + std::to_string(rows);
  return {"l2/stable_fluids.cl", options};
}

std::unique_ptr<Fixture> make_fixture(const Params& p) {
  auto& s = gb::session();
  auto fx = std::make_unique<Fixture>();
  const int n = fx->n = grid_edge(p.size_class);
  const size_t cells = static_cast<size_t>(n) * n, bytes = cells * sizeof(float);
  const gb::ProgramKey program = program_of(n, p.rows);
  const std::string suffix = p.rows > 0 ? "_blocked" : "";
  auto kernel = [&](const char* name) { return s.kernel(program, name + suffix); };
  for (auto* b : {&fx->u[0], &fx->u[1], &fx->v[0], &fx->v[1], &fx->d[0], &fx->d[1], &fx->p[0], &fx->p[1], &fx->div})
    *b = gb::make_buffer(bytes);
  for (int c = 0; c < 2; ++c) {
    const int o = 1 - c;
    fx->advect[c] = kernel("stable_fluids_advect");
    GB_SET_ARGS(fx->advect[c], fx->u[c], fx->v[c], fx->d[c], fx->u[o], fx->v[o], fx->d[o], kDt);
    fx->divergence[c] = kernel("stable_fluids_divergence");
    GB_SET_ARGS(fx->divergence[c], fx->u[o], fx->v[o], fx->div, fx->p[0]);
    fx->jacobi[c] = kernel("stable_fluids_jacobi");  // p[c] -> p[1 - c]
    GB_SET_ARGS(fx->jacobi[c], fx->p[c], fx->div, fx->p[o]);
    fx->project[c] = kernel("stable_fluids_project");
    GB_SET_ARGS(fx->project[c], fx->u[o], fx->v[o], fx->p[(p.jacobi - 1) & 1]);  // p: the last iterate
  }
  fx->global = p.rows > 0 ? gb::padded_global(n / kBlockColumns, n / p.rows, 1, p.wg) : gb::padded_global(n, n, 1, p.wg);
  fx->local = p.wg.local();
  // The work group against each kernel's own limit, known now they are built.
  for (const auto* k : {&fx->advect[0], &fx->divergence[0], &fx->jacobi[0], &fx->project[0]})
    gb::require_work_group(*k, p.wg.size());
  fx->host = host_fluid(p);
  const ref::FluidState& initial = fx->host->initial;
  for (auto [buffer, field] : {std::pair{&fx->u[0], &initial.u}, {&fx->v[0], &initial.v}, {&fx->d[0], &initial.d}})
    gb::upload_into(*buffer, *field);
  return fx;
}

// ---- verification ------------------------------------------------------------------------------
// 1. The state after every step timed so far is finite.
// 2. kReferenceSteps steps from the random state against reference/stable_fluids.
// 3. The projection removes most of the advected field's divergence (Jacobi's residual).
gb::Check verify(Fixture& fx, const Params& p) {
  const size_t cells = static_cast<size_t>(fx.n) * fx.n;
  size_t non_finite = 0;
  for (const auto* b : {&fx.u[fx.slot], &fx.v[fx.slot], &fx.d[fx.slot]})
    for (float x : gb::download<float>(*b, cells)) non_finite += !std::isfinite(x);
  gb::Check finite{static_cast<double>(non_finite), 0, "non-finite values after " + std::to_string(fx.steps) + " steps"};

  HostFluid& h = *fx.host;
  gb::upload_into(fx.u[0], h.initial.u);
  gb::upload_into(fx.v[0], h.initial.v);
  gb::upload_into(fx.d[0], h.initial.d);
  fx.slot = 0;
  fx.steps = 0;
  gb::run_batch([&](gb::Batch& b) { fx.step(b, p.jacobi); }, kReferenceSteps);
  if (h.reference.u.empty()) {
    h.reference = h.initial;
    for (int i = 0; i < kReferenceSteps; ++i) ref::stable_fluids_step(h.reference, kDt, p.jacobi, &h.divergence_before);
  }
  const ref::FluidState& want = h.reference;
  const std::vector<float>& div_before = h.divergence_before;
  auto u = gb::download<float>(fx.u[fx.slot], cells), v = gb::download<float>(fx.v[fx.slot], cells);
  auto d = gb::download<float>(fx.d[fx.slot], cells);
  const std::string after = " after " + std::to_string(kReferenceSteps) + " steps";
  // Cell by cell, within the margin of each field's largest value.
  const double margin = reference_margin(fx.n);
  std::vector<gb::Check> checks = {finite, gb::check_max_relative(u, want.u, margin, "u" + after),
                                   gb::check_max_relative(v, want.v, margin, "v" + after),
                                   gb::check_max_relative(d, want.d, margin, "dye" + after)};
  const auto div_after = ref::fluid_divergence(fx.n, fx.n, u, v);
  auto norm = [](const std::vector<float>& x) {
    double sum = 0;
    for (float e : x) sum += static_cast<double>(e) * e;
    return std::sqrt(sum);
  };
  const double ratio = norm(div_after) / norm(div_before);
  checks.push_back({ratio, gb::scaled_margin(kDivergenceReduction), "divergence after / before projection"});
  return gb::worst(checks);
}

// ---- the benchmark -------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key(), [&] { return make_fixture(p); });
  const size_t bytes = static_cast<size_t>(fx.n) * fx.n * sizeof(float);
  const double cells = static_cast<double>(fx.n) * fx.n, moved = cells * bytes_per_cell(p.jacobi);
  const int next = 1 - fx.slot;  // the state the first step writes
  gb::measure(state, gb::Measurement::device([&](gb::Batch& b) { fx.step(b, p.jacobi); })
                         .work(gb::Work().bytes(moved).items(cells))  // items: cell updates (whole steps)
                         .poison(fx.u[next], bytes)
                         .poison(fx.v[next], bytes)
                         .poison(fx.d[next], bytes)
                         .check([&] { return verify(fx, p); })
                         .counter("bytes_per_cell", bytes_per_cell(p.jacobi))
                         .counter("cells", cells)
                         .copy_fraction());
}

// ---- registration ----------------------------------------------------------------------------
// Work groups of 256 in every shape at least 16 wide (and the driver's choice); two at size 1.
// jacobi: one cell per work item on a periodic grid: wrap-around neighbours and interior cells
// everywhere. jacobi_blocked: kBlockedRows (size 1: one of them, past the grid's 32 block columns
// with a 64-wide group, as no GPU size is).
gb::PathSet code_paths(int size_class, size_t) {
  gb::PathSet paths{"periodic neighbours across the edges", "blocked: 4 x rows cells per work item"};
  gb::path_if(paths, grid_edge(size_class) > 2, "interior cells");
  gb::path_if(paths, kJacobi >= 2, "2+ Jacobi iterations (ping-pong)");
  return paths;
}

void register_stable_fluids() {
  gb::declare_paths("L2/StableFluids", code_paths);
  auto& s = gb::session();
  const int size = s.size_class();
  const auto& d = s.info();
  std::vector<gb::WorkGroup> shapes;
  const gb::SweepLimits limits{std::min<size_t>(256, d.max_work_group_size),
                               {d.max_work_item_sizes[0], d.max_work_item_sizes[1], 1}, 256};
  for (const auto& wg : gb::work_group_shapes(2, limits))
    if (wg.is_auto() ? size > 1 : wg.x >= 16 && (size > 1 || wg.x == 16 || wg.x == 64)) shapes.push_back(wg);
  if (shapes.empty()) gb::skip_variant("L2/StableFluids", "the device runs no 256-item work group");
  const uint64_t field = uint64_t(grid_edge(size)) * grid_edge(size) * sizeof(float);
  if (auto why = gb::memory_shortfall(std::vector<uint64_t>(9, field)); !why.empty()) {  // the nine fields
    gb::skip_variant(gb::bench_name("L2/StableFluids", {{"", "jacobi"}, {"iterations", std::to_string(kJacobi)},
                                                        {"wg", "*"}, {"size", std::to_string(size)}}),
                     why);
    return;
  }
  auto add = [&](int rows, const gb::WorkGroup& wg, gb::DefaultRun in_default_run) {
    Params p{kJacobi, rows, wg, size};
    std::vector<std::pair<std::string, std::string>> parts{{"", rows > 0 ? "jacobi_blocked" : "jacobi"},
                                                           {"iterations", std::to_string(p.jacobi)}};
    if (rows > 0) parts.emplace_back("rows", std::to_string(rows));
    parts.emplace_back("wg", wg.label());
    parts.emplace_back("size", std::to_string(size));
    gb::add_benchmark(gb::bench_name("L2/StableFluids", parts), [p](benchmark::State& st) { run(st, p); },
                      [size, rows] { return std::vector<gb::ProgramKey>{program_of(grid_edge(size), rows)}; },
                      in_default_run);
  };
  for (const auto& wg : shapes) add(0, wg, gb::DefaultRun::yes);
  const auto blocked_rows = size == 1 ? std::vector<int>(std::begin(kBlockedRowsSize1), std::end(kBlockedRowsSize1))
                                      : std::vector<int>(std::begin(kBlockedRows), std::end(kBlockedRows));
  for (int rows : blocked_rows)
    for (const auto& wg : shapes)
      add(rows, wg, rows == blocked_default_rows() || size == 1 ? gb::DefaultRun::yes : gb::DefaultRun::no);
}
GB_CASE(register_stable_fluids);

}  // namespace
