// L0/Transfer: host<->device copies of 4 KiB to 1 GiB, from pageable (malloc'd) memory, from pinned
// memory (a CL_MEM_ALLOC_HOST_PTR buffer mapped once), and by map + memcpy + unmap. Bytes per
// transfer: its size; time: host clock from the first enqueue to the finish, as an application sees it.
#include <algorithm>
#include <cstring>
#include <memory>

#include "bytes_label.hpp"
#include "gpu_bench.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
enum class Direction { write, read };  // write: host -> device; read: device -> host
enum class Route { pageable, pinned, map };
const gb::Axis<Direction> kDirection{"", {{Direction::write, "write"}, {Direction::read, "read"}}};
const gb::Axis<Route> kRoute{"route", {{Route::pageable, "pageable"}, {Route::pinned, "pinned"}, {Route::map, "map"}}};

// link_fraction is against a PCIe Gen5 x16 host link: 64 GB/s raw a direction, ~63 GB/s after
// 128b/130b encoding.
constexpr double kLinkBytesPerSecond = 64e9;

struct Params {
  Direction dir;
  Route route;
  size_t bytes;
  int size_class;
};

// 4 KiB x4 up to 4 MiB (size 1), 256 MiB (size 2) or 1 GiB (size 3 and 4).
std::vector<size_t> transfer_sizes(int size_class) {
  const size_t last = size_class == 1 ? 4u << 20 : size_class == 2 ? 256u << 20 : size_t(1) << 30;
  std::vector<size_t> sizes;
  for (size_t b = 4096; b <= last; b *= 4) sizes.push_back(b);
  return sizes;
}

// The default run's representative sizes, of 10 at size 3: latency (4 KiB), the knee (1 MiB) and
// bandwidth (the largest). Each host-timed size takes about a second; --all_sweeps runs them all.
gb::DefaultRun in_default_run(size_t bytes, int size_class) {
  const bool kept = bytes == 4096 || bytes == (size_t(1) << 20) || bytes == transfer_sizes(size_class).back();
  return kept ? gb::DefaultRun::yes : gb::DefaultRun::no;
}

// Random words, fast enough for 1 GiB (splitmix64).
std::vector<uint32_t> random_words(size_t n, uint64_t seed) {
  std::vector<uint32_t> v(n);
  uint64_t x = seed;
  for (size_t i = 0; i < n; i += 2) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    v[i] = static_cast<uint32_t>(z);
    if (i + 1 < n) v[i + 1] = static_cast<uint32_t>(z >> 32);
  }
  return v;
}

// ---- set-up (once per configuration) ----------------------------------------------------------
struct Fixture {
  size_t bytes = 0;
  cl::CommandQueue queue;        // the session's queue (held here: the fixture may outlive the session)
  cl::Buffer device;             // the device side of every route
  std::vector<uint32_t> source;  // the data that should arrive
  std::vector<uint32_t> host;    // pageable host side (write: a copy of source; read: destination)
  cl::Buffer pinned;             // CL_MEM_ALLOC_HOST_PTR, mapped for the fixture's life
  void* pinned_ptr = nullptr;

  Fixture() = default;
  Fixture(const Fixture&) = delete;
  Fixture& operator=(const Fixture&) = delete;
  ~Fixture() {  // no throwing here: errors while unmapping only leak the mapping
    if (pinned_ptr && queue.enqueueUnmapMemObject(pinned, pinned_ptr) == CL_SUCCESS) (void)gb::finish(queue);
  }
  // The host memory the transfer reads from or writes to.
  void* host_side(Route r) { return r == Route::pinned ? pinned_ptr : host.data(); }
};

std::unique_ptr<Fixture> make_fixture(const Params& p) {
  auto fx = std::make_unique<Fixture>();
  fx->queue = gb::session().queue();
  auto& q = fx->queue;
  fx->bytes = p.bytes;
  const size_t words = p.bytes / sizeof(uint32_t);
  fx->source = random_words(words, 0xC0FFEE + p.bytes);
  fx->device = gb::make_buffer(p.bytes);
  gb::DeviceWait device_wait;  // the blocking write and map (support/watchdog)
  if (p.dir == Direction::read) GB_CL(q.enqueueWriteBuffer(fx->device, CL_TRUE, 0, p.bytes, fx->source.data()));
  if (p.route == Route::pinned) {
    fx->pinned = gb::make_buffer(p.bytes, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR);
    cl_int err = CL_SUCCESS;
    fx->pinned_ptr = q.enqueueMapBuffer(fx->pinned, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, p.bytes, nullptr, nullptr, &err);
    GB_CL(err);
    if (p.dir == Direction::write) std::memcpy(fx->pinned_ptr, fx->source.data(), p.bytes);
  } else {
    fx->host = p.dir == Direction::write ? fx->source : std::vector<uint32_t>(words);
  }
  return fx;
}

// `reps` transfers of the whole buffer, then a finish.
void transfer(Fixture& fx, const Params& p, int reps) {
  auto& q = fx.queue;
  const size_t n = fx.bytes;
  for (int r = 0; r < reps; ++r) {
    if (p.route == Route::map) {  // blocking map, the application's memcpy, unmap
      cl_int err = CL_SUCCESS;
      const cl_map_flags flags = p.dir == Direction::write ? CL_MAP_WRITE_INVALIDATE_REGION : CL_MAP_READ;
      void* mapped = nullptr;
      {
        gb::DeviceWait device_wait;
        mapped = q.enqueueMapBuffer(fx.device, CL_TRUE, flags, 0, n, nullptr, nullptr, &err);
      }
      GB_CL(err);
      if (p.dir == Direction::write)
        std::memcpy(mapped, fx.host.data(), n);
      else
        std::memcpy(fx.host.data(), mapped, n);
      GB_CL(q.enqueueUnmapMemObject(fx.device, mapped));
    } else if (p.dir == Direction::write) {
      GB_CL(q.enqueueWriteBuffer(fx.device, CL_FALSE, 0, n, fx.host_side(p.route)));
    } else {
      GB_CL(q.enqueueReadBuffer(fx.device, CL_FALSE, 0, n, fx.host_side(p.route)));
    }
  }
  GB_CL(gb::finish(q));
}

// Random data compared exactly: on the device after writes, on the host side after reads.
gb::Check verify(Fixture& fx, const Params& p) {
  const size_t words = fx.bytes / sizeof(uint32_t);
  if (p.dir == Direction::write) return gb::check_exact(gb::read_back<uint32_t>(fx.device, words), fx.source, "written data");
  const auto* got = static_cast<const uint32_t*>(fx.host_side(p.route));
  return gb::check_exact(std::vector<uint32_t>(got, got + words), fx.source, "read data");
}

// ---- the benchmark -------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key(), [&] { return make_fixture(p); });
  gb::Measurement m = gb::Measurement::host([&](int reps) { transfer(fx, p, reps); })
                          .work(gb::Work().bytes(static_cast<double>(fx.bytes)).items(1))
                          .poison([&] {  // the destination
                            if (p.dir == Direction::write)
                              gb::poison(fx.device, fx.bytes);
                            else
                              std::memset(fx.host_side(p.route), 0xFF, fx.bytes);
                          })
                          .check([&] { return verify(fx, p); })
                          .max_batch(4096);
  if (gb::session().info().is_gpu()) m.rate("link_fraction", static_cast<double>(fx.bytes) / kLinkBytesPerSecond);
  gb::measure(state, m);
}

// ---- registration ----------------------------------------------------------------------------
gb::PathSet code_paths(int, size_t) { return {"copies: no kernel"}; }

void register_transfer() {
  gb::declare_paths("L0/Transfer", code_paths);
  const int size = gb::session().size_class();
  for (Direction dir : kDirection.all())
    for (Route route : kRoute.all())
      for (size_t bytes : transfer_sizes(size)) {
        Params p{dir, route, bytes, size};
        auto name = gb::bench_name("L0/Transfer", {kDirection.part(dir),
                                                   kRoute.part(route),
                                                   {"bytes", gb::bytes_label(bytes)},
                                                   {"size", std::to_string(size)}});
        if (auto why = gb::memory_shortfall({bytes}); !why.empty())  // the size is in the name: skipped, never shrunk
          gb::skip_variant(name, why);
        else
          gb::add_benchmark(name, [p](benchmark::State& st) { run(st, p); }, {}, in_default_run(bytes, size));
      }
}
GB_HOST_TIMED_CASE(register_transfer);

}  // namespace
