// L2/LatticeBoltzmann: one BGK time step (streaming + collision fused, fp32 SoA, ping-pong) of a
// lid-driven cavity on D2Q9 or D3Q19. Bytes per cell update: 2 x Q x 4 (D3Q19 152 B, D2Q9 72 B).
#include <cmath>
#include <memory>

#include "gpu_bench.hpp"
#include "reference/lattice_boltzmann.hpp"

namespace {

// ---- parameters -------------------------------------------------------------------------------
constexpr float kOmega = 1.25f;      // tau 0.8: cavity Reynolds number lid_u * n / nu = 384 at n = 256
constexpr float kLidU = 0.05f;       // lattice units: Mach 0.09
constexpr int kReferenceSteps = 3;   // steps compared with the host reference, from a random state
constexpr double kReferenceMargin = 1e-5;  // shifted populations, each within this of the largest
constexpr double kMassMargin = 1e-6;       // relative drift of the total mass over the timed steps
// Poiseuille check: a small channel, tau 1, run to steady state (about 13 decay times H^2/(pi^2 nu)).
constexpr int kChannelHeight = 16, kChannelLength = 4, kChannelSteps = 2000;
constexpr float kChannelForce = 5e-5f;      // u_max = F H^2 / (8 nu) = 0.0096
constexpr double kPoiseuilleMargin = 0.02;  // relative L2 of the velocity profile against the parabola

struct Params {
  int q;  // 9 or 19
  gb::WorkGroup wg;
  int size_class;
  std::string lattice() const { return q == 9 ? "D2Q9" : "D3Q19"; }
};

// Cavity edge per size class (2-D: n x n, 3-D: n^3). Size 3 (256^3 x 19 x 4 B = 1.27 GB per
// buffer) is far past any cache; size 1 is a few seconds on PoCL. A device that cannot hold the
// two buffers skips the benchmark (registration).
ref::LbmDomain cavity(int q, int size_class) {
  static const int edge2[] = {128, 1024, 4096, 8192}, edge3[] = {32, 128, 256, 512};
  const int n = q == 9 ? edge2[size_class - 1] : edge3[size_class - 1];
  ref::LbmDomain dom;
  dom.q = q;
  dom.nx = dom.ny = n;
  dom.nz = q == 9 ? 1 : n;
  dom.omega = kOmega;
  dom.lid_u = kLidU;
  return dom;
}

ref::LbmDomain channel(int q) {
  ref::LbmDomain dom;
  dom.q = q;
  dom.nx = kChannelLength;
  dom.ny = kChannelHeight;
  dom.nz = q == 9 ? 1 : kChannelLength;
  dom.channel = true;
  dom.omega = 1.0f;
  dom.force_x = kChannelForce;
  return dom;
}

// The program of a domain (its size is compiled in): built by Simulation, declared at registration.
gb::ProgramKey program_of(const ref::LbmDomain& d) {
  return {"l2/lattice_boltzmann.cl", "-DQ=" + std::to_string(d.q) + " -DNX=" + std::to_string(d.nx) +
                                         " -DNY=" + std::to_string(d.ny) + " -DNZ=" + std::to_string(d.nz) +
                                         (d.channel ? " -DFLOW_CHANNEL" : "")};
}

// ---- set-up (once per configuration) ----------------------------------------------------------
// Two kernels with swapped buffers: kernels[0] steps a -> b, kernels[1] steps b -> a.
struct Simulation {
  ref::LbmDomain domain;
  cl::Buffer a, b;
  cl::Kernel kernels[2];
  cl::NDRange global, local;
  int parity = 0;  // the next step reads a (0) or b (1)
  long steps = 0;  // steps since the state was last uploaded

  Simulation(const ref::LbmDomain& d, const gb::WorkGroup& wg) : domain(d) {
    auto& s = gb::session();
    const size_t bytes = d.cells() * d.q * sizeof(float);
    a = gb::make_buffer(bytes);
    b = gb::make_buffer(bytes);
    for (int k = 0; k < 2; ++k) {
      kernels[k] = s.kernel(program_of(d), "lattice_boltzmann_step");
      GB_SET_ARGS(kernels[k], k == 0 ? a : b, k == 0 ? b : a, d.omega, d.lid_u, d.force_x);
    }
    global = gb::padded_global(d.cells(), 1, 1, wg);
    local = wg.local();
  }
  void step(gb::Batch& batch) {
    batch.launch(kernels[parity], global, local);
    parity ^= 1;
    ++steps;
  }
  void upload(const std::vector<float>& f) {
    gb::upload_into(a, f);
    parity = 0;
    steps = 0;
  }
  void run(int n) {  // outside the timed region
    gb::run_batch([&](gb::Batch& batch) { step(batch); }, n);
  }
  const cl::Buffer& current() const { return parity == 0 ? a : b; }
  const cl::Buffer& next() const { return parity == 0 ? b : a; }
  std::vector<float> download() const { return gb::download<float>(current(), domain.cells() * domain.q); }
};

// The host side of one lattice and size, shared by its work-group variants: a random state and
// the reference after kReferenceSteps (16.7 M cells at size 3: seconds of host time, made once).
struct HostState {
  ref::LbmDomain domain;
  std::vector<float> initial;  // shifted populations of a random equilibrium state
  double initial_mass = 0;
  std::vector<float> reference;  // after kReferenceSteps, made on first use
};

// Random density 1 +- 0.01 and velocity +- 0.02 per component: every code path sees data.
std::shared_ptr<HostState> make_host_state(const Params& p) {
  auto h = std::make_shared<HostState>();
  h->domain = cavity(p.q, p.size_class);
  const size_t n = h->domain.cells();
  auto zero = std::vector<float>(n, 0.0f);
  h->initial = ref::lbm_equilibrium(h->domain, gb::random_vector<float>(n, 11, -0.01, 0.01),
                                    gb::random_vector<float>(n, 12, -0.02, 0.02),
                                    gb::random_vector<float>(n, 13, -0.02, 0.02),
                                    h->domain.nz > 1 ? gb::random_vector<float>(n, 14, -0.02, 0.02) : zero);
  h->initial_mass = ref::lbm_mass(h->domain, h->initial);
  return h;
}

std::shared_ptr<HostState> host_state(const Params& p) {
  return gb::cached_host<HostState>(gb::name_key_without({"wg"}), [&] { return make_host_state(p); });
}

struct Fixture {
  std::shared_ptr<HostState> host;
  std::unique_ptr<Simulation> sim;
};

std::unique_ptr<Fixture> make_fixture(const Params& p) {
  auto fx = std::make_unique<Fixture>();
  fx->host = host_state(p);
  fx->sim = std::make_unique<Simulation>(fx->host->domain, p.wg);
  gb::require_work_group(fx->sim->kernels[0], p.wg.size());  // the kernel's own limit, known now it is built
  fx->sim->upload(fx->host->initial);
  return fx;
}

// ---- verification ------------------------------------------------------------------------------
// 1. Mass after every step timed so far (closed cavity: conserved to rounding).
// 2. kReferenceSteps steps from the random state against reference/lattice_boltzmann.
// 3. Poiseuille: a small body-force channel with the same kernel source reaches the parabola.
gb::Check verify(Fixture& fx, const Params& p) {
  auto& sim = *fx.sim;
  HostState& h = *fx.host;
  const double mass = ref::lbm_mass(sim.domain, sim.download());
  gb::Check mass_check{std::abs(mass - h.initial_mass) / h.initial_mass, gb::scaled_margin(kMassMargin),
                       "cavity mass after " + std::to_string(sim.steps) + " steps"};

  sim.upload(h.initial);
  sim.run(kReferenceSteps);
  if (h.reference.empty()) h.reference = ref::lbm_run(sim.domain, h.initial, kReferenceSteps);
  auto steps_check = gb::check_max_relative(sim.download(), h.reference, kReferenceMargin,
                                        "populations after " + std::to_string(kReferenceSteps) + " steps");

  Simulation pipe(channel(p.q), p.wg);
  pipe.upload(std::vector<float>(pipe.domain.cells() * p.q, 0.0f));  // at rest, density 1
  pipe.run(kChannelSteps);
  auto f = pipe.download();
  auto profile_check = gb::check_relative(ref::lbm_velocity_profile(pipe.domain, f),
                                          ref::poiseuille_profile(pipe.domain), kPoiseuilleMargin,
                                          "Poiseuille profile");
  const double channel_mass = ref::lbm_mass(pipe.domain, f), cells = static_cast<double>(pipe.domain.cells());
  gb::Check channel_mass_check{std::abs(channel_mass - cells) / cells, gb::scaled_margin(kMassMargin),
                               "channel mass"};
  return gb::worst({mass_check, steps_check, profile_check, channel_mass_check});
}

// ---- the benchmark -------------------------------------------------------------------------
void run(benchmark::State& state, const Params& p) {
  auto& fx = gb::cached_fixture<Fixture>(gb::name_key(), [&] { return make_fixture(p); });
  auto& sim = *fx.sim;
  const double cells = static_cast<double>(sim.domain.cells()), bytes = cells * p.q * 2 * sizeof(float);
  gb::measure(state, gb::Measurement::device([&](gb::Batch& b) { sim.step(b); })
                         .work(gb::Work().bytes(bytes).items(cells))  // items: lattice updates
                         .poison(sim.next(), sim.domain.cells() * p.q * sizeof(float))  // written next
                         .check([&] { return verify(fx, p); })
                         .counter("bytes_per_update", p.q * 2 * sizeof(float))
                         .counter("cells", cells)
                         .copy_fraction());  // the roofline: one step moves `bytes`
}

// ---- registration ----------------------------------------------------------------------------
// Work groups: every power of two from 32 (and the driver's choice); at size 1 (CI on PoCL) two.
// One cell per work item: walls, lid and interior in every cavity; the channel's periodic sides.
gb::PathSet code_paths(int size_class, size_t) {
  gb::PathSet paths{"channel: periodic sides, bounce-back walls, forcing"};
  for (int q : {9, 19}) gb::path_if(paths, cavity(q, size_class).nx > 2, "cavity: walls, lid and interior cells");
  return paths;
}

void register_lattice_boltzmann() {
  auto& s = gb::session();
  gb::declare_paths("L2/LatticeBoltzmann", code_paths);
  const int size = s.size_class();
  // The device's limits here; a kernel's own, lower limit skips its variants when they run.
  const size_t max_wg = s.info().max_work_group_size;
  const gb::SweepLimits limits{max_wg, {s.info().max_work_item_sizes[0], 1, 1}, 32};
  for (int q : {9, 19}) {
    const uint64_t bytes = cavity(q, size).cells() * q * sizeof(float);
    if (auto why = gb::memory_shortfall({bytes, bytes}); !why.empty()) {  // the ping-pong pair
      gb::skip_variant(gb::bench_name("L2/LatticeBoltzmann", {{"", q == 9 ? "D2Q9" : "D3Q19"}, {"wg", "*"},
                                                              {"size", std::to_string(size)}}),
                       why);
      continue;
    }
    std::vector<gb::WorkGroup> shapes;
    if (size > 1) {
      shapes = gb::work_group_shapes(1, limits);
    } else {
      for (size_t n : {64, 256})
        if (n <= max_wg) shapes.push_back({n, 1, 1, 1});
    }
    for (const auto& wg : shapes) {
      Params p{q, wg, size};
      gb::add_benchmark(gb::bench_name("L2/LatticeBoltzmann", {{"", p.lattice()},
                                                               {"wg", wg.label()},
                                                               {"size", std::to_string(size)}}),
                        [p](benchmark::State& st) { run(st, p); },
                        // The cavity, and the Poiseuille channel of the verification.
                        [q, size] {
                          return std::vector<gb::ProgramKey>{program_of(cavity(q, size)), program_of(channel(q))};
                        });
    }
  }
}
GB_CASE(register_lattice_boltzmann);

}  // namespace
