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

namespace gb {

using Body = std::function<void(benchmark::State&)>;

// Registers a manual-time benchmark whose OpenCL and other exceptions become a benchmark error
// (and a non-zero exit) instead of ending the process. gb::Unsupported skips it with the reason;
// after a stop signal the body is abandoned and the rest are not run.
benchmark::internal::Benchmark* add_benchmark(const std::string& name, Body body);

// Every registered name, and how many of them --benchmark_filter selects.
const std::vector<std::string>& registered_benchmarks();
int selected_benchmark_count();

// Whether --benchmark_filter selects `name` (as Google Benchmark matches it, with /manual_time,
// and a leading '-' negating): the progress count and the skips worth a console line.
bool selected_by_filter(const std::string& name);

// A variant this device cannot run: not registered, listed on stderr and in the JSON context.
void skip_variant(const std::string& name, const std::string& reason);
const std::vector<std::pair<std::string, std::string>>& skipped_variants();
// Skips the filter selects: the ones worth a line on the console.
std::vector<std::pair<std::string, std::string>> selected_skipped_variants();
// The message a benchmark skipped at run time carries (Google Benchmark 1.7.1 has only errors);
// reporters drop such runs and list them with the skipped variants.
extern const char* const kSkippedPrefix;
extern const char* const kInterruptedMessage;

// The name of the benchmark whose body is running (for messages).
const std::string& current_benchmark_name();

// "L0/GlobalBandwidth" + {"copy"} + {{"type","float4"}} -> "L0/GlobalBandwidth/copy/type:float4".
std::string bench_name(const std::string& base,
                       std::initializer_list<std::pair<std::string, std::string>> params);

using CaseRegistrar = void (*)();
struct CaseRegistration {
  explicit CaseRegistration(CaseRegistrar fn);
};
void register_all_cases();

}  // namespace gb

#define GB_CASE_CONCAT2(a, b) a##b
#define GB_CASE_CONCAT(a, b) GB_CASE_CONCAT2(a, b)
#define GB_CASE(fn) static const ::gb::CaseRegistration GB_CASE_CONCAT(gb_case_, __LINE__)(fn)
