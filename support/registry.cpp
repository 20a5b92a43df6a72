// Case registrars, the exception-safe benchmark wrapper, and the skip list.
#include "registry.hpp"

#include <cstdio>
#include <exception>
#include <regex>

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

CaseRegistration::CaseRegistration(CaseRegistrar fn) { registrars().push_back(fn); }

void register_all_cases() {
  for (auto fn : registrars()) fn();
}

const std::string& current_benchmark_name() { return g_current; }

benchmark::internal::Benchmark* add_benchmark(const std::string& name, Body body) {
  return benchmark::RegisterBenchmark(name.c_str(),
                                      [name, body](benchmark::State& state) {
                                        g_current = name;
                                        try {
                                          body(state);
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
  const bool found = std::regex_search(name + "/manual_time", std::regex(filter, std::regex::extended));
  return found != negate;
}

void skip_variant(const std::string& name, const std::string& reason) {
  skips().emplace_back(name, reason);
}

const std::vector<std::pair<std::string, std::string>>& skipped_variants() { return skips(); }

std::string bench_name(const std::string& base,
                       std::initializer_list<std::pair<std::string, std::string>> params) {
  std::string n = base;
  for (const auto& [key, value] : params) n += "/" + (key.empty() ? value : key + ":" + value);
  return n;
}

}  // namespace gb
