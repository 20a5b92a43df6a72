// Registration of cases once the device is known: each bench/ file declares GB_CASE(fn) beside
// its code; main calls every fn after choosing the device, and fn registers the variants the
// device can run (names never depend on the device) and names the ones it skips, with why.
#pragma once
#include <benchmark/benchmark.h>

#include <functional>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "program_cache.hpp"

namespace gb {

using Body = std::function<void(benchmark::State&)>;
// The programs a benchmark's set-up will build (session().kernel(file, name, options)), named
// without building anything, so that the run can build them ahead of time, in parallel.
using ProgramList = std::function<std::vector<ProgramKey>()>;

// Registers a manual-time benchmark whose OpenCL and other exceptions become a benchmark error
// (and a non-zero exit) instead of ending the process. gb::Unsupported skips it with the reason;
// after a stop signal the body is abandoned and the rest are not run.
// Recorded here; register_all_cases hands the run's set to Google Benchmark.
// `programs`, where given, lists what its set-up builds (a missing or wrong list costs time only:
// anything not built ahead is built when asked for).
// A sweep point outside the representative set (DefaultRun::no) runs only with --all_sweeps or a
// --benchmark_filter, as the work-group shapes outside the default set do.
enum class DefaultRun { yes, no };
void add_benchmark(const std::string& name, Body body, ProgramList programs = {}, DefaultRun in_default_run = DefaultRun::yes);

// The programs of the selected benchmarks, in run order, each once.
std::vector<ProgramKey> selected_programs();

// Whether a name is in the default run: every benchmark without a wg: axis (unless its case left
// it out with DefaultRun::no); of a work-group
// sweep, the driver's choice (wg:auto) and the 256-item shapes 256, 256x1, 16x16, 256x1x1 and
// 8x8x4 (a sweep with none of those keeps its first shape). With --all_sweeps, or with any
// --benchmark_filter, every shape runs.
bool in_default_set(const std::string& name);

// How many of the registered benchmarks --benchmark_filter selects.
int selected_benchmark_count();

// Whether --benchmark_filter selects `name` (as Google Benchmark matches it, with /manual_time,
// and a leading '-' negating): the progress count and the skips worth a console line.
bool selected_by_filter(const std::string& name);
// Why a --benchmark_filter is not a valid regular expression (empty if it is).
std::string filter_error(const std::string& filter);

// A variant this device cannot run: not registered, listed on stderr and in the JSON context.
void skip_variant(const std::string& name, const std::string& reason);
const std::vector<std::pair<std::string, std::string>>& skipped_variants();
// Skips the filter selects: the ones worth a line on the console.
std::vector<std::pair<std::string, std::string>> selected_skipped_variants();
// The message a benchmark skipped at run time carries (Google Benchmark 1.7.1 has only errors);
// reporters drop such runs and list them with the skipped variants.
extern const char* const kSkippedPrefix;
extern const char* const kInterruptedMessage;

// The name of the benchmark whose body is running (for messages), and when that body started.
const std::string& current_benchmark_name();
double current_benchmark_started();  // steady-clock seconds

// "L0/GlobalBandwidth" + {"copy"} + {{"size","3"}, {"type","float4"}} ->
// "L0/GlobalBandwidth/copy/type:float4/size:3": the parts in the grammar's order (variant, type:,
// the other axes as listed, wg:, size:).
std::string bench_name(const std::string& base, const std::vector<std::pair<std::string, std::string>>& params);
inline std::string bench_name(const std::string& base,
                              std::initializer_list<std::pair<std::string, std::string>> params) {
  return bench_name(base, std::vector<std::pair<std::string, std::string>>(params));
}

// Why `name` breaks the naming grammar (README, "Benchmark names"), or "" when it follows it:
// L<level>/<Case>/<variant>/type:<t>/<axis:value>.../wg:<shape>/size:<N>, type: and wg: optional.
// add_benchmark refuses such a name (the case's registration fails).
std::string name_grammar_error(const std::string& name);

using CaseRegistrar = void (*)();
// Host-timed cases (transfers, enqueue, compile time) run after every device-timed one: by then
// no program is being built ahead on other cores, which would disturb a host clock.
enum class Clock { device, host };
struct CaseRegistration {
  CaseRegistration(CaseRegistrar fn, const char* name, Clock clock = Clock::device);
};
// Calls every case's registrar, then registers with Google Benchmark every benchmark
// (whole_sweeps) or the default set; returns how many sweep shapes were left out. A registrar
// that throws is a named failure of that case (counted like a failed benchmark: exit 1); the
// other cases still run.
size_t register_all_cases(bool whole_sweeps);

}  // namespace gb

#define GB_CASE_CONCAT2(a, b) a##b
#define GB_CASE_CONCAT(a, b) GB_CASE_CONCAT2(a, b)
#define GB_CASE(fn) static const ::gb::CaseRegistration GB_CASE_CONCAT(gb_case_, __LINE__)(fn, #fn)
#define GB_HOST_TIMED_CASE(fn) \
  static const ::gb::CaseRegistration GB_CASE_CONCAT(gb_case_, __LINE__)(fn, #fn, ::gb::Clock::host)
