// Case registrars, the exception-safe benchmark wrapper, and the skip list.
#include "registry.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <map>
#include <regex>
#include <set>

#include "fixture_cache.hpp"
#include "interrupt.hpp"
#include "measure.hpp"
#include "progress.hpp"
#include "verify.hpp"
#include "watchdog.hpp"

namespace gb {

struct RegisteredCase {
  CaseRegistrar fn;
  const char* name;
  Clock clock;
};
static std::vector<RegisteredCase>& registrars() {
  static std::vector<RegisteredCase> list;
  return list;
}

static std::vector<std::pair<std::string, std::string>>& skips() {
  static std::vector<std::pair<std::string, std::string>> list;
  return list;
}

static std::string g_current;
static double g_started = 0;

static double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
double current_benchmark_started() { return g_started; }
const char* const kSkippedPrefix = "skipped: ";
const char* const kInterruptedMessage = "interrupted";

static std::vector<std::string>& names() {
  static std::vector<std::string> list;
  return list;
}

int selected_benchmark_count() {
  int n = 0;
  for (const auto& name : names()) n += selected_by_filter(name);
  return n;
}

CaseRegistration::CaseRegistration(CaseRegistrar fn, const char* name, Clock clock) {
  registrars().push_back({fn, name, clock});
}

struct PendingBenchmark {
  std::string name;
  Body body;
  ProgramList programs;
  DefaultRun in_default_run;
};
static std::vector<PendingBenchmark>& pending() {
  static std::vector<PendingBenchmark> list;
  return list;
}
static std::vector<ProgramList>& program_lists() {  // beside names()
  static std::vector<ProgramList> list;
  return list;
}

static void register_with_google_benchmark(const std::string& name, const Body& body);

// "L1/GEMM/naive/.../wg:16x16/size:3" -> ("L1/GEMM/naive/.../size:3", "16x16"); no axis: ("", "").
static std::pair<std::string, std::string> split_work_group(const std::string& name) {
  const auto at = name.find("/wg:");
  if (at == std::string::npos) return {"", ""};
  const auto end = name.find('/', at + 1);
  const std::string shape = name.substr(at + 4, end == std::string::npos ? std::string::npos : end - at - 4);
  return {name.substr(0, at) + (end == std::string::npos ? "" : name.substr(end)), shape};
}

bool in_default_set(const std::string& name) {
  const std::string shape = split_work_group(name).second;
  for (const char* kept : {"", "auto", "256", "256x1", "16x16", "256x1x1", "8x8x4"})
    if (shape == kept) return true;
  return false;
}

size_t register_all_cases(bool whole_sweeps) {
  std::stable_partition(registrars().begin(), registrars().end(),
                        [](const RegisteredCase& c) { return c.clock == Clock::device; });
  for (const auto& [fn, name, clock] : registrars()) {
    try {
      fn();
    } catch (const std::exception& e) {
      note_failure(name, std::string("registration failed: ") + e.what());
    }
  }
  std::map<std::string, bool> sweep_has_default;  // sweep (name without its wg:) -> a shape kept
  for (const auto& [name, body, programs, by_default] : pending()) {
    const auto sweep = split_work_group(name).first;
    if (!sweep.empty()) sweep_has_default[sweep] = sweep_has_default[sweep] || in_default_set(name);
  }
  size_t left_out = 0;
  std::map<std::string, bool> first_taken;
  for (const auto& [name, body, programs, by_default] : pending()) {
    const auto sweep = split_work_group(name).first;
    bool run = whole_sweeps || (in_default_set(name) && by_default == DefaultRun::yes);
    if (!run && by_default == DefaultRun::yes && !sweep_has_default[sweep] && !first_taken[sweep])
      run = first_taken[sweep] = true;
    if (!run) {
      ++left_out;
      continue;
    }
    names().push_back(name);
    program_lists().push_back(programs);
    register_with_google_benchmark(name, body);
  }
  pending().clear();
  return left_out;
}

const std::string& current_benchmark_name() { return g_current; }

void add_benchmark(const std::string& name, Body body, ProgramList programs, DefaultRun in_default_run) {
  if (auto why = name_grammar_error(name); !why.empty()) throw std::logic_error(why);
  pending().push_back({name, std::move(body), std::move(programs), in_default_run});
}

std::vector<ProgramKey> selected_programs() {
  std::vector<ProgramKey> keys;
  std::set<ProgramKey> seen;
  for (size_t i = 0; i < names().size(); ++i) {
    if (!program_lists()[i] || !selected_by_filter(names()[i])) continue;
    try {
      for (auto& key : program_lists()[i]())
        if (seen.insert(key).second) keys.push_back(std::move(key));
    } catch (const std::exception&) {
      // The benchmark's own set-up meets the same error and reports it.
    }
  }
  return keys;
}

// "L1/FFT/stockham/..." -> "L1/FFT": set-up cached by one family is freed when the next starts,
// but for inputs and references given a size, which the next families may share (L1/FFT's
// kernels, then L1/FFT2D's, then both cases' libraries, sweep the same problems).
static std::string family_of(const std::string& name) {
  const auto first = name.find('/');
  return first == std::string::npos ? name : name.substr(0, name.find('/', first + 1));
}

static void register_with_google_benchmark(const std::string& name, const Body& body) {
  benchmark::RegisterBenchmark(name.c_str(),
                                      [name, body](benchmark::State& state) {
                                        if (stop_requested()) return state.SkipWithError(kInterruptedMessage);
                                        progress().begin(name);
                                        if (family_of(name) != family_of(g_current)) drop_cached_fixtures(true);
                                        g_current = name;
                                        watchdog_activity(name, true);
                                        g_started = steady_seconds();
                                        try {
                                          body(state);
                                        } catch (const Unsupported& e) {
                                          state.SkipWithError((kSkippedPrefix + std::string(e.what())).c_str());
                                          skip_variant(name, e.what());
                                          progress().note("skipped " + name + ": " + e.what());
                                        } catch (const Interrupted&) {
                                          state.SkipWithError(kInterruptedMessage);
                                        } catch (const std::exception& e) {
                                          state.SkipWithError(e.what());
                                          note_failure(name, e.what());
                                        }
                                      })
      ->UseManualTime();  // in the default time unit: ms, or --benchmark_time_unit
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

std::string filter_error(const std::string& filter) {
  std::string pattern = filter;
  if (!pattern.empty() && pattern[0] == '-') pattern.erase(0, 1);
  try {
    std::regex check(pattern, std::regex::extended);
  } catch (const std::regex_error& e) {
    return std::string("not a valid regular expression (") + e.what() + ")";
  }
  return "";
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

std::string bench_name(const std::string& base, const std::vector<std::pair<std::string, std::string>>& params) {
  // The grammar's order, whatever order the case lists its axes in.
  auto rank = [](const std::string& key) {
    if (key.empty()) return 0;
    if (key == "type") return 1;
    if (key == "wg") return 3;
    if (key == "size") return 4;
    return 2;
  };
  std::vector<std::pair<std::string, std::string>> sorted(params);
  std::stable_sort(sorted.begin(), sorted.end(),
                   [&](const auto& a, const auto& b) { return rank(a.first) < rank(b.first); });
  std::string n = base;
  for (const auto& [key, value] : sorted) n += "/" + (key.empty() ? value : key + ":" + value);
  return n;
}

std::string name_grammar_error(const std::string& name) {
  static const std::regex grammar(
      "L[0-2]/[A-Z][A-Za-z0-9]*/[A-Za-z0-9_]+"  // level, case, variant
      "(/type:[^/:]+)?"                          // element type
      "(/[a-z][a-z0-9_]*:[^/:]+)*"                // problem and tuning axes
      "/size:[1-4]");                            // size class (wg: is an axis checked below)
  if (!std::regex_match(name, grammar))
    return "'" + name + "' does not follow L<level>/<Case>/<variant>/type:.../<axes>/wg:<shape>/size:<N>";
  std::set<std::string> keys;
  std::vector<std::string> parts;
  for (size_t at = 0, end; at != std::string::npos; at = end == std::string::npos ? end : end + 1) {
    end = name.find('/', at);
    parts.push_back(name.substr(at, end == std::string::npos ? std::string::npos : end - at));
  }
  if (parts[2].find("sweep") != std::string::npos)
    return "'" + name + "': a sweep is an axis of its variant, not a variant of its own";
  for (size_t i = 3; i < parts.size(); ++i) {
    const std::string key = parts[i].substr(0, parts[i].find(':'));
    if (!keys.insert(key).second) return "'" + name + "' repeats the axis " + key;
    if (key == "type" && i != 3) return "'" + name + "': type: comes right after the variant";
    if (key == "wg" && i != parts.size() - 2) return "'" + name + "': wg: comes right before size:";
  }
  static const std::regex shape("/wg:(auto|[0-9]+(x[0-9]+){0,2})/");
  if (keys.count("wg") && !std::regex_search(name, shape))
    return "'" + name + "': wg: is auto, N, NxM or NxMxK";
  return "";
}

}  // namespace gb
