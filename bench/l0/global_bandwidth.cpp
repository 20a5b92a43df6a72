// L0/GlobalBandwidth: streaming read, write, copy and STREAM triad over buffers far past the last
// cache level, a persistent read (a resident grid walking the buffer, groups per compute unit
// swept), and a copy in a tiled transpose's pattern (tiles moved to their transposed place, their
// contents not transposed: the ceiling of L1/Transpose's tiled kernels). Bytes per unit: read n
// (+ one float per work item), write n, copy 2n, triad 3n.
#include <memory>

#include "copy_bandwidth.hpp"
#include "gpu_bench.hpp"
#include "reference/global_bandwidth.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
enum class Op { read, write, copy, triad };
const gb::Axis<Op> kOp{"", {{Op::read, "read"}, {Op::write, "write"}, {Op::copy, "copy"}, {Op::triad, "triad"}}};
enum class Access { coalesced, blocked, strided, persistent, tiles_transposed };
const gb::Axis<Access> kAccess{"access",
                               {{Access::coalesced, "coalesced"},
                                {Access::blocked, "blocked"},
                                {Access::strided, "strided"},
                                {Access::persistent, "persistent"},
                                {Access::tiles_transposed, "tiles_transposed"}}};
int buffers_of(Op op) { return op == Op::triad ? 3 : op == Op::copy ? 2 : 1; }

constexpr int kWidths[] = {1, 2, 4, 8, 16};
// Elements per work item: 64 B for write and triad; for copy the copy_fraction reference's
// (gb::kCopyBytesPerWorkItem, one float4: on the H200 4.28 TB/s at 16 B, 4.25 at 32, 4.21 at 64,
// 4.15 at 128; H100 3.02, 3.01, 2.99, 2.95; loading all of a work item's elements before storing
// was slower); 16 loads of any width for read, as clpeak
// (float16 then has 1 KiB in flight per work item: more bytes in flight read faster).
constexpr size_t kBytesPerWorkItem = 64, kReadsPerWorkItem = 16;
constexpr size_t kDefaultLocal = 256;
constexpr float kTriadScalar = 0.4f;
// Persistent read: work groups of kDefaultLocal per compute unit. A one-shot grid loses a share of
// each kernel to its last partial wave of groups and the refill between launches; a resident grid
// has no tail wave. 8 per CU (2048 work items, the SM's limit) if registers allow, 4 if four
// float16 accumulators halve occupancy; 16 starts a second wave.
constexpr size_t kPersistentGroupsPerUnit[] = {4, 8, 16};
// passes:4: four walks over the buffer per kernel leave a quarter of the gaps between kernels
// (clpeak times each kernel alone, without them).
constexpr unsigned kPersistentPasses[] = {1, 4};
// Tiles transposed: square tiles of these sides (floats), in groups of kTileGroupItems float4
// items, tile / 4 across. The buffer is a matrix of 2^floor(log2(n) / 2) columns (16384^2 at size 3);
// class 1's 2048 x 2080 takes tiles of 32 only. On the H100 at 8192^2 tiles of 64 were the
// fastest, at 0.960 of the copy (32: 0.936, 128: 0.944).
constexpr size_t kTransposedTiles[] = {32, 64, 128};
constexpr size_t kTileGroupItems = 256;

struct Params {
  Op op;
  int width;  // floats per element
  Access access;
  gb::WorkGroup wg;
  int size_class;
  size_t groups_per_unit = 0;  // persistent: the grid, in work groups per compute unit
  unsigned passes = 1;         // persistent: walks over the buffer per kernel
  size_t tile = 0;             // tiles_transposed: the tile's side in floats

  std::string type() const { return width == 1 ? "float" : "float" + std::to_string(width); }
  size_t items() const {
    if (op == Op::read) return kReadsPerWorkItem;
    return std::max<size_t>(1, (op == Op::copy ? gb::kCopyBytesPerWorkItem : kBytesPerWorkItem) / (4 * width));
  }
};

// Bytes per buffer: 1 GiB at size 3 (the GPU default, far past a 60 MB L2), 2 GiB at size 4; a
// device that cannot hold an operation's buffers skips its benchmarks (registration). 2 GiB halves
// what the last wave of work groups and the gaps between kernels cost; it stays at size 4 because
// set-up at 2 GiB takes minutes per configuration. Size 1 is 65 x 256 KiB: every grid still
// divides it (blocked reads need whole work groups), but its odd factor leaves the persistent
// read's last sweep ragged (the remainder loads after the 4-load loop run, as on a GPU, whose
// grid of 132 SMs never divides a power of two).
static const size_t by_class_bytes[] = {65u << 18, 128u << 20, size_t(1) << 30, size_t(2) << 30};
// Inputs are multiples of 1/128 in [-1, 1): every work item's read sum (at most 2^17 values here)
// is exact in float in any order, so the sums are checked for equality, each on its own.
constexpr double kInputQuantum = 1.0 / 128;
size_t buffer_bytes(int size_class) { return by_class_bytes[size_class - 1]; }
// Tiles transposed: the buffer as a matrix, width (a power of two) x height floats.
struct Matrix {
  size_t width, height;
};
Matrix matrix_of(size_t floats) {
  size_t w = 1;
  while (4 * w * w <= floats) w *= 2;
  return {w, floats / w};
}

// ---- set-up -----------------------------------------------------------------------------------
// The inputs of one operation at one buffer size, shared by every type, access pattern and work
// group of it (registered consecutively): gigabytes of random data are made and uploaded once.
struct Problem {
  size_t bytes = 0, floats = 0;
  std::vector<float> input_b, input_c;  // read/copy: b; triad: b and c
  cl::Buffer b, c;
  std::vector<float> triad_reference;
  // The pattern written at the last vector width checked: every access pattern writes the same.
  mutable std::pair<int, std::vector<float>> write_pattern{0, {}};
};

std::unique_ptr<Problem> make_problem(Op op, int size_class) {
  auto pb = std::make_unique<Problem>();
  pb->bytes = buffer_bytes(size_class);
  pb->floats = pb->bytes / sizeof(float);
  if (op == Op::write) return pb;
  pb->input_b = gb::random_multiples<float>(pb->floats, 1 + static_cast<int>(op), -128, 127, kInputQuantum);
  pb->b = gb::upload(pb->input_b);
  if (op == Op::triad) {
    pb->input_c = gb::random_multiples<float>(pb->floats, 7, -128, 127, kInputQuantum);
    pb->c = gb::upload(pb->input_c);
    pb->triad_reference = ref::stream_triad(pb->input_b, pb->input_c, kTriadScalar);
  }
  return pb;
}

// One configuration: its kernel and its output.
struct Fixture {
  const Problem* problem = nullptr;
  size_t work_items = 0;
  cl::Kernel kernel;
  cl::Buffer a;  // the output: partial sums (read), or the written buffer
  cl::NDRange global, local;
};

// Work items of a configuration over `floats` inputs: one per p.items() elements, or the resident grid.
size_t work_items(const Params& p, size_t floats) {
  const size_t elements = floats / p.width;
  if (p.access != Access::persistent) return elements / p.items();
  return std::min(elements, gb::session().info().compute_units * p.groups_per_unit * p.wg.x);
}

// The one program of a configuration: built by make_fixture, declared at registration.
gb::ProgramKey program_of(const Params& p) {
  if (p.access == Access::tiles_transposed)
    return {"l0/global_bandwidth.cl", "-DTILE=" + std::to_string(p.tile) + " -DTILE_ROWS=" + std::to_string(p.wg.y)};
  return {"l0/global_bandwidth.cl", "-DTYPE=" + p.type() + " -DWIDTH=" + std::to_string(p.width) +
                                        " -DITEMS=" + std::to_string(p.items()) +
                                        (p.access == Access::strided  ? " -DSTRIDED"
                                         : p.access == Access::blocked ? " -DBLOCKED"
                                                                       : "")};
}

std::unique_ptr<Fixture> make_fixture(const Params& p, const Problem& pb) {
  auto& s = gb::session();
  auto fx = std::make_unique<Fixture>();
  fx->problem = &pb;
  if (p.access == Access::tiles_transposed) {
    const auto [width, height] = matrix_of(pb.floats);
    fx->kernel = s.kernel(program_of(p), "global_bandwidth_copy_tiles");
    gb::require_work_group(fx->kernel, p.wg.size());
    fx->global = cl::NDRange(width / p.tile * p.wg.x, height / p.tile * p.wg.y);
    fx->local = p.wg.local();
    fx->a = gb::make_buffer(pb.bytes);
    GB_SET_ARGS(fx->kernel, pb.b, fx->a, static_cast<cl_uint>(width), static_cast<cl_uint>(height));
    return fx;
  }
  const bool persistent = p.access == Access::persistent;
  const size_t elements = pb.floats / p.width;
  fx->work_items = work_items(p, pb.floats);
  fx->kernel =
      s.kernel(program_of(p), std::string("global_bandwidth_") + kOp.label(p.op) + (persistent ? "_persistent" : ""));
  gb::require_work_group(fx->kernel, p.wg.size());
  fx->global = gb::padded_global(fx->work_items, 1, 1, p.wg);
  fx->local = p.wg.local();
  fx->a = gb::make_buffer(p.op == Op::read ? fx->work_items * sizeof(float) : pb.bytes);

  const cl_ulong n = fx->work_items;
  auto& k = fx->kernel;
  cl_uint arg = 0;
  switch (p.op) {
    case Op::read:
    case Op::copy:
      arg = GB_SET_ARGS(k, pb.b, fx->a);
      break;
    case Op::write:
      arg = GB_SET_ARGS(k, fx->a);
      break;
    case Op::triad:
      arg = GB_SET_ARGS(k, fx->a, pb.b, pb.c, kTriadScalar);
      break;
  }
  arg = GB_SET_ARGS_FROM(k, arg, persistent ? static_cast<cl_ulong>(elements) : n);
  if (persistent) GB_SET_ARGS_FROM(k, arg, static_cast<cl_uint>(p.passes));
  return fx;
}

// ---- verification against reference/global_bandwidth ----------------------------------------
// A work item's read sum: `terms` inputs of magnitude below 1, each through at most `terms`
// additions; exact while terms <= 2^24 quanta (every size here), so each sum must equal the reference.
double read_sum_bound(size_t terms) {
  const double t = static_cast<double>(terms);
  return gb::sum_error_bound(t, t, gb::unit_roundoff<float>(), kInputQuantum);
}

gb::Check verify(const Fixture& fx, const Params& p) {
  const Problem& pb = *fx.problem;
  switch (p.op) {
    case Op::read: {
      auto sums = gb::download<float>(fx.a, fx.work_items);
      if (p.access == Access::persistent) {
        const size_t elements = pb.floats / p.width;
        const size_t terms = (elements + fx.work_items - 1) / fx.work_items * p.width * p.passes;
        return gb::check_bounded(sums,
                                 ref::bandwidth_read_sums_persistent(pb.input_b, p.width, fx.work_items, p.wg.x, p.passes),
                                 read_sum_bound(terms), "read sums");
      }
      ref::BandwidthLayout layout{static_cast<size_t>(p.width), p.items(), fx.work_items,
                                  p.access == Access::strided, p.access == Access::blocked ? p.wg.x : 0};
      return gb::check_bounded(sums, ref::bandwidth_read_sums(pb.input_b, layout), read_sum_bound(p.items() * p.width),
                               "read sums");
    }
    case Op::write: {
      if (pb.write_pattern.first != p.width) {
        pb.write_pattern.second.clear();
        pb.write_pattern = {p.width, ref::bandwidth_write_pattern(pb.floats, p.width)};
      }
      return gb::check_exact(gb::read_back<float>(fx.a, pb.floats), pb.write_pattern.second, "written pattern");
    }
    case Op::copy:
      if (p.access == Access::tiles_transposed) {
        const auto [width, height] = matrix_of(pb.floats);
        return gb::check_exact(gb::read_back<float>(fx.a, pb.floats),
                               ref::tiles_transposed(pb.input_b, width, height, p.tile), "tiles transposed");
      }
      return gb::check_exact(gb::read_back<float>(fx.a, pb.floats), pb.input_b, "copy");
    case Op::triad: {
      // Two roundings at most (b + s*c, or one fma), the reference's one: 3 u (|b| + |s c|) per element.
      const double u = gb::unit_roundoff<float>();
      return gb::check_bounded(gb::read_back<float>(fx.a, pb.floats), pb.triad_reference, [&](size_t i) {
        return 3 * u * (std::abs(pb.input_b[i]) + std::abs(kTriadScalar * pb.input_c[i]));
      }, "triad");
    }
  }
  return {};
}

double bytes_moved(const Fixture& fx, const Params& p) {
  const double bytes = static_cast<double>(fx.problem->bytes);
  if (p.op == Op::read) return bytes * p.passes + fx.work_items * sizeof(float);
  return bytes * buffers_of(p.op);
}

// ---- the benchmark -------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  // The problem: one per operation, shared by its types, accesses and shapes.
  const auto& pb = gb::cached_problem<Problem>(gb::name_key_without({"type", "access", "groups_per_cu", "passes", "tile", "wg"}),
                                               [&] { return make_problem(p.op, p.size_class); });
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key(), [&] { return make_fixture(p, pb); });
  gb::measure(state, gb::Measurement::device([&](gb::Batch& b) { b.launch(fx.kernel, fx.global, fx.local); })
                         .work(gb::Work().bytes(bytes_moved(fx, p)).items(static_cast<double>(pb.floats) * p.passes))
                         .poison(fx.a, p.op == Op::read ? fx.work_items * sizeof(float) : pb.bytes)
                         .check([&] { return verify(fx, p); })
                         .counter("buffer_bytes", static_cast<double>(pb.bytes)));
}

// ---- code paths ------------------------------------------------------------------------------
// The persistent read's loops at a size class (the one-shot kernels have one path: every work
// item its ITEMS loads).
gb::PathSet code_paths(int size_class, size_t compute_units) {
  gb::PathSet paths{"one-shot kernels: ITEMS loads per work item"};
  const size_t floats = by_class_bytes[size_class - 1] / sizeof(float);
  for (int width : {4, 16})
    for (size_t groups : kPersistentGroupsPerUnit) {
      const size_t elements = floats / width, stride = std::min(elements, compute_units * groups * kDefaultLocal);
      gb::path_if(paths, elements >= 4 * stride, "persistent: 4-load loop");
      gb::path_if(paths, elements % (4 * stride) != 0, "persistent: remainder loads after the 4-load loop");
    }
  for (unsigned passes : kPersistentPasses) gb::path_if(paths, passes > 1, "persistent: 2+ passes (groups rotate)");
  return paths;
}

// ---- registration ----------------------------------------------------------------------------
// One configuration, with the program its set-up builds; skipped where its buffers do not fit.
void add(const std::string& name, const Params& p) {
  const uint64_t bytes = buffer_bytes(p.size_class);
  std::vector<uint64_t> buffers(buffers_of(p.op), bytes);
  if (p.op == Op::read) buffers.push_back(work_items(p, bytes / sizeof(float)) * sizeof(float));  // partial sums
  if (auto why = gb::memory_shortfall(buffers); !why.empty()) return gb::skip_variant(name, why);
  gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); },
                    [p] { return std::vector<gb::ProgramKey>{program_of(p)}; });
}

void register_global_bandwidth() {
  const int size = gb::session().size_class();
  gb::declare_paths("L0/GlobalBandwidth", code_paths);
  const gb::WorkGroup fixed{kDefaultLocal, 1, 1, 1};
  for (Op op : kOp.all()) {
    for (int width : kWidths)
      for (Access access : {Access::coalesced, Access::blocked, Access::strided}) {
        Params p{op, width, access, fixed, size};
        add(gb::bench_name("L0/GlobalBandwidth", {kOp.part(op),
                                                   {"type", p.type()},
                                                   kAccess.part(access),
                                                   {"wg", p.wg.label()},
                                                   {"size", std::to_string(size)}}),
            p);
      }
    if (op != Op::read) continue;
    // The persistent read, float4 and float16, over the grid's groups per compute unit (next to
    // the other reads: they share the uploaded input).
    for (int width : {4, 16})
      for (unsigned passes : kPersistentPasses)
        for (size_t groups : kPersistentGroupsPerUnit) {
          Params p{Op::read, width, Access::persistent, fixed, size, groups, passes};
          add(gb::bench_name("L0/GlobalBandwidth", {{"", "read"},
                                                     {"type", p.type()},
                                                     {"access", "persistent"},
                                                     {"groups_per_cu", std::to_string(groups)},
                                                     {"passes", std::to_string(passes)},
                                                     {"wg", p.wg.label()},
                                                     {"size", std::to_string(size)}}),
              p);
        }
  }
  // The seed's shape question on a memory-bound kernel: the float4 coalesced copy over every 1-D
  // work-group size the device allows (one above the kernel's own limit skips at run time).
  const auto& d = gb::session().info();
  gb::SweepLimits limits{d.max_work_group_size, {d.max_work_item_sizes[0], 1, 1}, 32};
  for (const auto& wg : gb::work_group_shapes(1, limits)) {
    if (wg.label() == fixed.label()) continue;  // registered above
    Params p{Op::copy, 4, Access::coalesced, wg, size};
    add(gb::bench_name("L0/GlobalBandwidth", {{"", "copy"},
                                               {"type", "float4"},
                                               {"access", "coalesced"},
                                               {"wg", wg.label()},
                                               {"size", std::to_string(size)}}),
        p);
  }
  // The copy in a tiled transpose's pattern, at every tile side that divides the matrix.
  const auto [width, height] = matrix_of(buffer_bytes(size) / sizeof(float));
  for (size_t tile : kTransposedTiles) {
    if (width % tile != 0 || height % tile != 0) continue;
    const gb::WorkGroup wg{tile / 4, kTileGroupItems / (tile / 4), 1, 2};
    Params p{Op::copy, 4, Access::tiles_transposed, wg, size};
    p.tile = tile;
    add(gb::bench_name("L0/GlobalBandwidth", {{"", "copy"},
                                               {"type", "float4"},
                                               kAccess.part(Access::tiles_transposed),
                                               {"tile", std::to_string(tile)},
                                               {"wg", wg.label()},
                                               {"size", std::to_string(size)}}),
        p);
  }
}
GB_CASE(register_global_bandwidth);

}  // namespace
