// L1/Transpose: out = in^T for a row-major float matrix: naive, local-memory tiled, tiled with
// one float of padding per tile row against bank conflicts, tiled with float4 global accesses, and
// 4 x 4 blocks transposed in registers. Bytes per unit: 2 * width * height * 4.
#include <memory>
#include <set>
#include <vector>

#include "gpu_bench.hpp"
#include "reference/transpose.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
enum class Variant { naive, tiled, tiled_padded, tiled_vec, registers4x4 };
const gb::Axis<Variant> kVariant{"",
                                 {{Variant::naive, "naive"},
                                  {Variant::tiled, "tiled"},
                                  {Variant::tiled_padded, "tiled_padded"},
                                  {Variant::tiled_vec, "tiled_vec"},
                                  {Variant::registers4x4, "registers4x4"}}};

struct Params {
  Variant variant;
  gb::WorkGroup wg;  // tiled: wg.x is the tile's side, wg.y the rows of work items; tiled_vec: the
                     // tile's side is 4 * wg.x (an item moves float4s); registers4x4: 4 x 4 per item
  int size_class;
};

// Width x height: class 1 is odd-sized so the edge guards run, and not a multiple of 4 either way
// so the float4 kernels take their unaligned rows and partial float4s; 3 and up move >= 256 MiB
// each way.
struct Shape {
  size_t width, height;
};
// A device that cannot hold input and output skips the benchmark (registration).
Shape matrix_shape(int size_class) {
  static const Shape by_class[] = {{1001, 601}, {4096, 4096}, {8192, 8192}, {16384, 16384}};
  return by_class[size_class - 1];
}

// ---- set-up: the problem (once per size, shared by every variant and shape) -------------------
struct Problem {
  Shape shape{};
  std::vector<float> input;
  cl::Buffer in;
  std::vector<float> reference;
};

std::unique_ptr<Problem> make_problem(int size_class) {
  auto pb = std::make_unique<Problem>();
  pb->shape = matrix_shape(size_class);
  pb->input = gb::random_vector<float>(pb->shape.width * pb->shape.height, 51);
  pb->in = gb::upload(pb->input);
  pb->reference = ref::transpose(pb->input, pb->shape.width, pb->shape.height);
  return pb;
}

// ---- set-up: one variant and shape ------------------------------------------------------------
struct Fixture {
  cl::Buffer in, out;  // in: the problem's buffer (a retained handle)
  cl::Kernel kernel;
  cl::NDRange global, local;
};

// The program of a variant and shape (the tiled kernels' tile is fixed at build time): built by
// make_fixture, declared at registration.
gb::ProgramKey program_of(const Params& p) {
  if (p.variant == Variant::naive || p.variant == Variant::registers4x4) return {"l1/transpose.cl", ""};
  if (p.variant == Variant::tiled_vec)
    return {"l1/transpose.cl", "-DVEC_X=" + std::to_string(p.wg.x) + " -DVEC_Y=" + std::to_string(p.wg.y)};
  return {"l1/transpose.cl", "-DTILE=" + std::to_string(p.wg.x) + " -DROWS=" + std::to_string(p.wg.y) +
                                 " -DPAD=" + (p.variant == Variant::tiled_padded ? "1" : "0")};
}

std::unique_ptr<Fixture> make_fixture(const Params& p, const Problem& pb) {
  auto& s = gb::session();
  auto fx = std::make_unique<Fixture>();
  const size_t w = pb.shape.width, h = pb.shape.height;
  fx->in = pb.in;
  fx->out = gb::make_buffer(w * h * sizeof(float));
  if (p.variant == Variant::naive) {
    fx->kernel = s.kernel(program_of(p), "transpose_naive");
    fx->global = gb::padded_global(w, h, 1, p.wg);
  } else if (p.variant == Variant::registers4x4) {
    fx->kernel = s.kernel(program_of(p), "transpose_registers4x4");
    fx->global = gb::padded_global((w + 3) / 4, (h + 3) / 4, 1, p.wg);
  } else if (p.variant == Variant::tiled_vec) {
    const size_t tile = 4 * p.wg.x;
    fx->kernel = s.kernel(program_of(p), "transpose_tiled_vec");
    fx->global = cl::NDRange(gb::round_up(w, tile) / 4, gb::round_up(h, tile) / tile * p.wg.y);
  } else {
    const size_t tile = p.wg.x;
    fx->kernel = s.kernel(program_of(p), "transpose_tiled");
    fx->global = cl::NDRange(gb::round_up(w, tile), gb::round_up(h, tile) / tile * p.wg.y);
  }
  fx->local = p.wg.local();
  gb::require_work_group(fx->kernel, p.wg.size());
  GB_SET_ARGS(fx->kernel, fx->in, fx->out, static_cast<cl_uint>(w), static_cast<cl_uint>(h));
  return fx;
}

// ---- the benchmark -------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  auto& pb = gb::cached_problem<Problem>(gb::name_key_without({"", "wg"}), [&] { return make_problem(p.size_class); });
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key(), [&] { return make_fixture(p, pb); });
  const size_t elements = pb.shape.width * pb.shape.height;
  gb::measure(state, gb::Measurement::device([&](gb::Batch& b) { b.launch(fx.kernel, fx.global, fx.local); })
                         .work(gb::Work().bytes(2.0 * elements * sizeof(float)).items(static_cast<double>(elements)))
                         .poison(fx.out, elements * sizeof(float))
                         .check([&] {  // a copy: bit-exact
                           return gb::check_exact(gb::read_back<float>(fx.out, elements), pb.reference, "transpose");
                         })
                         .counter("width", static_cast<double>(pb.shape.width))
                         .counter("height", static_cast<double>(pb.shape.height))
                         .copy_fraction());
}

// ---- code paths ------------------------------------------------------------------------------
// The shapes of the tiled and float4 kernels, by size class (registration and code_paths).
std::vector<gb::WorkGroup> tiled_shapes(int size_class) {
  if (size_class == 1) return {{32, 8, 1, 2}, {16, 16, 1, 2}};
  std::vector<gb::WorkGroup> tiles;
  for (size_t tile : {16, 32, 64})
    for (size_t rows = 1; rows <= tile; rows *= 2)
      if (tile * rows >= 32 && tile * rows <= 1024) tiles.push_back({tile, rows, 1, 2});
  return tiles;
}
// tiled_vec: wg.x float4s across a tile of 4 * wg.x (the kernel needs wg.x >= 8 and wg.y a
// multiple of 4); wg.y = tile (one row per item, a float4 in flight) is left out.
std::vector<gb::WorkGroup> tiled_vec_shapes(int size_class) {
  if (size_class == 1) return {{8, 4, 1, 2}, {16, 8, 1, 2}};
  std::vector<gb::WorkGroup> shapes;
  for (size_t x : {8, 16, 32})
    for (size_t y : {4, 8, 16}) shapes.push_back({x, y, 1, 2});
  return shapes;
}
// registers4x4: narrow in x so that a warp's loads cover whole sectors and its stores long rows.
std::vector<gb::WorkGroup> registers_shapes(int size_class) {
  if (size_class == 1) return {{2, 32, 1, 2}, {8, 8, 1, 2}};
  std::vector<gb::WorkGroup> shapes;
  for (size_t x : {2, 4, 8})
    for (size_t items : {64, 128, 256}) shapes.push_back({x, items / x, 1, 2});
  return shapes;
}

// The edge guards, the tiled kernels' row loops and the float4 kernels' accesses, over the
// registered shapes.
gb::PathSet code_paths(int size_class, size_t) {
  gb::PathSet paths;
  const Shape s = matrix_shape(size_class);
  std::set<size_t> tiles;
  for (const auto& wg : tiled_shapes(size_class)) tiles.insert(wg.x);
  for (const auto& wg : tiled_vec_shapes(size_class)) tiles.insert(4 * wg.x);
  for (size_t tile : tiles) {
    gb::path_if(paths, s.width % tile != 0, "partial tiles at the right edge");
    gb::path_if(paths, s.height % tile != 0, "partial tiles at the bottom");
    gb::path_if(paths, s.width >= tile && s.height >= tile, "whole tiles");
  }
  gb::path_if(paths, true, "tiled: a work item moves 2+ rows of its tile (rows < tile)");
  gb::path_if(paths, true, "tiled: one row per work item (rows = tile)");
  gb::path_if(paths, true, "tiled_vec: a work item moves 2+ float4 rows of its tile");
  // transpose_load4 / transpose_store4: rows of in are width floats long, rows of out height.
  gb::path_if(paths, s.width >= 4 && s.height >= 4, "float4: 16-byte aligned float4 loads and stores");
  gb::path_if(paths, s.width % 4 != 0, "float4: vload4 on rows not 16-byte aligned (width % 4 != 0)");
  gb::path_if(paths, s.height % 4 != 0, "float4: vstore4 on rows not 16-byte aligned (height % 4 != 0)");
  for (size_t r = 1; r < 4; ++r) {  // each length of a partial float4: its own element loop
    gb::path_if(paths, s.width % 4 == r, "float4: scalar loads of a partial float4 at the right edge (" + std::to_string(r) + " of 4)");
    gb::path_if(paths, s.height % 4 == r, "float4: scalar stores of a partial float4 at the bottom (" + std::to_string(r) + " of 4)");
  }
  return paths;
}

// ---- registration ----------------------------------------------------------------------------
// Naive: every 2-D shape from 32 to the device's limit (class 1: a few). Tiled: tiles of 16, 32
// and 64 with 1 .. tile rows of work items (class 1: two). tiled_vec: 8, 16 or 32 float4s across
// (tiles of 32 to 128) with 4 to 16 rows of items; registers4x4: 2, 4 or 8 items across, 64 to 256
// in all (class 1: two shapes each). A shape above a kernel's own limit is skipped once the kernel
// is built, at run time.
void register_transpose() {
  auto& s = gb::session();
  gb::declare_paths("L1/Transpose", code_paths);
  const int size = gb::session().size_class();
  const auto& d = s.info();
  const Shape shape = matrix_shape(size);
  const uint64_t bytes = uint64_t(shape.width) * shape.height * sizeof(float);
  const std::string shortfall = gb::memory_shortfall({bytes, bytes});  // input, output
  auto name_of = [&](Variant v, const gb::WorkGroup& wg) {
    return gb::bench_name("L1/Transpose", {kVariant.part(v), {"size", std::to_string(size)}, {"wg", wg.label()}});
  };
  auto add = [&](Variant v, const gb::WorkGroup& wg) {
    Params p{v, wg, size};
    const std::string name = name_of(v, wg);
    if (!shortfall.empty())
      gb::skip_variant(name, shortfall);
    else
      gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); },
                        [p] { return std::vector<gb::ProgramKey>{program_of(p)}; });
  };
  // A shape the device cannot run, or whose tile does not fit its local memory, is a skip.
  auto add_if_fits = [&](Variant v, const gb::WorkGroup& wg, size_t local_bytes) {
    const std::string name = name_of(v, wg);
    if (wg.size() > d.max_work_group_size || wg.x > d.max_work_item_sizes[0] || wg.y > d.max_work_item_sizes[1])
      gb::skip_variant(name, "work group larger than the device allows");
    else if (local_bytes > d.local_mem_bytes)
      gb::skip_variant(name, "needs " + std::to_string(local_bytes) + " bytes of local memory");
    else
      add(v, wg);
  };
  gb::SweepLimits limits{d.max_work_group_size, {d.max_work_item_sizes[0], d.max_work_item_sizes[1], 1}, 32};
  std::vector<gb::WorkGroup> naive;
  if (size == 1) {
    for (auto [x, y] : {std::pair<size_t, size_t>{32, 8}, {8, 32}, {64, 1}, {1, 64}})
      if (x * y <= limits.max_size) naive.push_back({x, y, 1, 2});
    naive.push_back({0, 1, 1, 2});
  } else {
    naive = gb::work_group_shapes(2, limits);
  }
  for (const auto& wg : naive) add(Variant::naive, wg);

  for (Variant v : {Variant::tiled, Variant::tiled_padded})
    for (const auto& wg : tiled_shapes(size)) add_if_fits(v, wg, wg.x * (wg.x + 1) * sizeof(float));
  for (const auto& wg : tiled_vec_shapes(size)) add_if_fits(Variant::tiled_vec, wg, 16 * wg.x * wg.x * sizeof(float));
  for (const auto& wg : registers_shapes(size)) add_if_fits(Variant::registers4x4, wg, 0);
}
GB_CASE(register_transpose);

}  // namespace
