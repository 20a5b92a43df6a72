// Case registrars, the exception-safe benchmark wrapper, and the skip list.
#include "registry.hpp"

#include <cstdio>
#include <exception>
#include <regex>

#include "interrupt.hpp"
#include "measure.hpp"
#include "progress.hpp"
#include "verify.hpp"

namespace gb {

static std::vector<CaseRegistrar>& registrars() {
  static std::vector<CaseRegistrar> list;
  return list;
}

static std::vector<std::pair<std::string, std::string>>& skips() {
  static std::vector<std::pair<std::string, std::string>> list;
  return list;
}

static std::string g_current;
const char* const kSkippedPrefix = "skipped: ";
const char* const kInterruptedMessage = "interrupted";

static std::vector<std::string>& names() {
  static std::vector<std::string> list;
  return list;
}
const std::vector<std::string>& registered_benchmarks() { return names(); }

int selected_benchmark_count() {
  int n = 0;
  for (const auto& name : names()) n += selected_by_filter(name);
  return n;
}

CaseRegistration::CaseRegistration(CaseRegistrar fn) { registrars().push_back(fn); }

void register_all_cases() {
  for (auto fn : registrars()) fn();
}

const std::string& current_benchmark_name() { return g_current; }

benchmark::internal::Benchmark* add_benchmark(const std::string& name, Body body) {
  names().push_back(name);
  return benchmark::RegisterBenchmark(name.c_str(),
                                      [name, body](benchmark::State& state) {
                                        if (stop_requested()) return state.SkipWithError(kInterruptedMessage);
                                        progress().begin(name);
                                        g_current = name;
                                        try {
                                          body(state);
                                        } catch (const Unsupported& e) {
                                          state.SkipWithError((kSkippedPrefix + std::string(e.what())).c_str());
                                          skip_variant(name, e.what());
                                        } catch (const Interrupted&) {
                                          state.SkipWithError(kInterruptedMessage);
                                        } catch (const std::exception& e) {
                                          state.SkipWithError(e.what());
                                          note_failure(name, e.what());
                                        }
                                      })
      ->UseManualTime()
      ->Unit(benchmark::kMillisecond);
}

bool selected_by_filter(const std::string& name) {
  std::string filter = benchmark::GetBenchmarkFilter();
  bool negate = !filter.empty() && filter[0] == '-';
  if (negate) filter.erase(0, 1);
  if (filter.empty() || filter == "all" || filter == ".") return !negate;
  static std::string compiled_for;
  static std::regex compiled;
  if (compiled_for != filter) {
    compiled = std::regex(filter, std::regex::extended);
    compiled_for = filter;
  }
  const bool found = std::regex_search(name + "/manual_time", compiled);
  return found != negate;
}

void skip_variant(const std::string& name, const std::string& reason) {
  skips().emplace_back(name, reason);
}

const std::vector<std::pair<std::string, std::string>>& skipped_variants() { return skips(); }

std::vector<std::pair<std::string, std::string>> selected_skipped_variants() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& s : skips())
    if (selected_by_filter(s.first)) out.push_back(s);
  return out;
}

std::string bench_name(const std::string& base,
                       std::initializer_list<std::pair<std::string, std::string>> params) {
  std::string n = base;
  for (const auto& [key, value] : params) n += "/" + (key.empty() ? value : key + ":" + value);
  return n;
}

}  // namespace gb
