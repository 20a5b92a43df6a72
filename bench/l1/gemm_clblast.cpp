// L1/GEMM/clblast: the same problems as gemm.cpp through CLBlast's Gemm (a vendor-grade library,
// for the seed's fairness comparison), verified the same way. FLOPs per unit 2*m*n*k.
#ifdef GPU_BENCH_HAVE_CLBLAST
#include "gemm.hpp"  // first: it sets CL_TARGET_OPENCL_VERSION for clblast.h's OpenCL headers

#include <clblast.h>

namespace {

using gemm::Shape;

// CLBlast's own status codes by name; the others are OpenCL's (CLBlast returns those as they are).
std::string status_text(clblast::StatusCode status) {
  using clblast::StatusCode;
  switch (status) {
#define GB_CLBLAST_STATUS(name) \
  case StatusCode::name:         \
    return #name;
    GB_CLBLAST_STATUS(kNotImplemented) GB_CLBLAST_STATUS(kInvalidMatrixA) GB_CLBLAST_STATUS(kInvalidMatrixB)
    GB_CLBLAST_STATUS(kInvalidMatrixC) GB_CLBLAST_STATUS(kInvalidVectorX) GB_CLBLAST_STATUS(kInvalidVectorY)
    GB_CLBLAST_STATUS(kInvalidDimension) GB_CLBLAST_STATUS(kInvalidLeadDimA) GB_CLBLAST_STATUS(kInvalidLeadDimB)
    GB_CLBLAST_STATUS(kInvalidLeadDimC) GB_CLBLAST_STATUS(kInvalidIncrementX) GB_CLBLAST_STATUS(kInvalidIncrementY)
    GB_CLBLAST_STATUS(kInsufficientMemoryA) GB_CLBLAST_STATUS(kInsufficientMemoryB)
    GB_CLBLAST_STATUS(kInsufficientMemoryC) GB_CLBLAST_STATUS(kInsufficientMemoryX)
    GB_CLBLAST_STATUS(kInsufficientMemoryY) GB_CLBLAST_STATUS(kInsufficientMemoryTemp)
    GB_CLBLAST_STATUS(kInvalidBatchCount) GB_CLBLAST_STATUS(kInvalidOverrideKernel)
    GB_CLBLAST_STATUS(kMissingOverrideParameter) GB_CLBLAST_STATUS(kInvalidLocalMemUsage)
    GB_CLBLAST_STATUS(kNoHalfPrecision) GB_CLBLAST_STATUS(kNoDoublePrecision) GB_CLBLAST_STATUS(kInvalidVectorScalar)
    GB_CLBLAST_STATUS(kInsufficientMemoryScalar) GB_CLBLAST_STATUS(kDatabaseError) GB_CLBLAST_STATUS(kUnknownError)
    GB_CLBLAST_STATUS(kUnexpectedError)
#undef GB_CLBLAST_STATUS
    default:
      return gb::cl_error_name(static_cast<cl_int>(status));
  }
}

void check(clblast::StatusCode status, const char* call) {
  if (status != clblast::StatusCode::kSuccess)
    throw std::runtime_error(std::string(call) + " failed: " + status_text(status) + " (" +
                             std::to_string(static_cast<int>(status)) + ")");
}

// ---- set-up: CLBlast's temporary buffer (allocated once, not per call) and a marker kernel ----
// The marker's program: built by set_up, declared at registration (CLBlast builds its own).
template <typename T>
gb::ProgramKey marker_program() {
  return {"l1/gemm.cl", std::string("-DTYPE=") + gemm::type_name<T>()};
}

template <typename T>
void set_up(gemm::Run& run, const gemm::Fixture<T>& fx) {
  auto& s = gb::session();
  cl_command_queue queue = s.queue()();
  size_t temp_bytes = 0;
  const auto status = clblast::GemmTempBufferSize<T>(
      clblast::Layout::kRowMajor, clblast::Transpose::kNo, clblast::Transpose::kNo, fx.s.m, fx.s.n,
      fx.s.k, 0, fx.lda, 0, fx.ldb, 0, fx.ldc, &queue, temp_bytes);
  check(status, "clblast::GemmTempBufferSize");
  if (temp_bytes > 0) run.scratch = gb::make_buffer(temp_bytes);
  // CLBlast's event is that of its last kernel (it may first pad or transpose A and B): an empty
  // kernel enqueued before it gives the batch an event that starts before all of them.
  run.kernel = s.kernel(marker_program<T>(), "gemm_marker");
  run.global = cl::NDRange(1);
  run.local = cl::NullRange;
}

// ---- the benchmark -------------------------------------------------------------------------
template <typename T>
void run(benchmark::State& state, const Shape& shape) {
  auto& fx = gemm::fixture<T>(shape);
  auto& r = fx.runs[gb::name_key()];
  if (!r.kernel()) set_up(r, fx);
  const gb::Unit unit = [&](gb::Batch& b) {
    // Only the batch's first and last units record events: the marker's then starts the first.
    if (b.event_slot()) b.launch(r.kernel, r.global, r.local);
    cl_command_queue queue = b.queue()();
    cl_event event = nullptr;
    cl::Event* slot = b.event_slot();
    const auto status = clblast::Gemm<T>(
        clblast::Layout::kRowMajor, clblast::Transpose::kNo, clblast::Transpose::kNo, fx.s.m,
        fx.s.n, fx.s.k, T(1), fx.da(), 0, fx.lda, fx.db(), 0, fx.ldb, T(0), fx.dc(), 0, fx.ldc,
        &queue, slot ? &event : nullptr, r.scratch() ? r.scratch() : nullptr);
    check(status, "clblast::Gemm");
    if (slot) {
      *slot = cl::Event(event);  // takes over CLBlast's reference
      b.recorded();
    }
  };
  gb::measure(state, gb::Measurement::device(unit)
                         .work(gemm::work(shape, sizeof(T)))
                         .poison(fx.dc, fx.c_bytes())
                         .check([&] { return gemm::verify(fx); }));
}

// ---- registration ----------------------------------------------------------------------------
template <typename T>
void register_type(int size_class) {
  for (const Shape& s : gemm::problems(size_class)) {
    const std::string name = gemm::bench_name("clblast", gemm::type_name<T>(), s, "", size_class);
    if (auto why = gemm::too_big(s, sizeof(T))) {
      gb::skip_variant(name, *why);
      continue;
    }
    gb::add_benchmark(name, [s](benchmark::State& st) { run<T>(st, s); },
                      [] { return std::vector<gb::ProgramKey>{marker_program<T>()}; });
  }
}

void register_gemm_clblast() {
  const int size = gb::session().size_class();
  register_type<float>(size);
  if (gb::session().info().has_fp64()) register_type<double>(size);
}
GB_CASE(register_gemm_clblast);

}  // namespace
#endif  // GPU_BENCH_HAVE_CLBLAST
