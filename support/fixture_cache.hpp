// Set-up cached per configuration: Google Benchmark calls a body several times (trials,
// repetitions), and buffers, inputs, references and calibration must be made once. One cache, in
// slots: a slot holds one value, found by its type and key (a hit needs both, so two cases can
// never read each other's value through a shared key), and frees it before a new one is built,
// so large buffers never pile up. The slots:
// - cached_problem: inputs (host and device) and the reference of one problem, shared by every
//   variant and work-group shape of it (registered consecutively, so they hit the slot);
// - cached_fixture: what one variant needs beyond that (kernels, outputs);
// - cached_host<T>: host data of a case (a large input, a reference run), one slot per type T,
//   shared by the benchmarks that hold it (shared_ptr); a set-up that throws is remembered, so
//   the next benchmark asking for the same key fails at once with the same exception. Given the
//   value's size (`kept_bytes`), values of T are kept side by side instead, the least recently
//   used freed first once they pass a quarter of the host's memory: for a family whose variants
//   each sweep the same problems in turn (FFT: stockham, then clFFT, then VkFFT), where one slot
//   would remake every input and reference once per variant.
// Every slot but the sized host values is freed when a benchmark of another family starts
// (support/registry.cpp); every slot before the OpenCL session closes. Keys are never written by
// hand: they come from the running benchmark's name (gb::name_key, name_key_without, name_key_only
// in support/axes.hpp), so the benchmarks that share a value are those whose names differ only in
// the axes it does not depend on.
#pragma once
#include <exception>
#include <functional>
#include <memory>
#include <string>
#include <typeindex>
#include <typeinfo>
#include <type_traits>

namespace gb {

namespace detail {
struct Slot {
  std::string key;
  std::type_index type = typeid(void);
  std::shared_ptr<void> value;
  std::exception_ptr failure;  // cached_host only: the set-up's exception for `key`

  bool holds(const std::type_info& t, const std::string& k) const { return type == t && key == k; }
  void clear() {
    value.reset();  // free the old value's memory first
    failure = nullptr;
    key.clear();
    type = typeid(void);
  }
};
enum class SlotKind { fixture, problem };
Slot& slot(SlotKind kind);
// The slot of (type, key): found, or made empty for it. With kept_bytes == 0 every other value of
// the type is freed first; otherwise the least recently used of those above the budget.
Slot& host_slot(const std::type_info& type, const std::string& key, size_t kept_bytes);

template <typename T>
T& cached_in(Slot& s, const std::string& key, const std::function<std::unique_ptr<T>()>& make) {
  if (s.value && s.holds(typeid(T), key)) return *static_cast<T*>(s.value.get());
  s.clear();
  std::shared_ptr<T> fresh = make();
  s.value = fresh;
  s.key = key;
  s.type = typeid(T);
  return *fresh;
}
}  // namespace detail

template <typename T>
T& cached_fixture(const std::string& key, const std::function<std::unique_ptr<T>()>& make) {
  return detail::cached_in<T>(detail::slot(detail::SlotKind::fixture), key, make);
}

template <typename T>
T& cached_problem(const std::string& key, const std::function<std::unique_ptr<T>()>& make) {
  return detail::cached_in<T>(detail::slot(detail::SlotKind::problem), key, make);
}

template <typename T>
std::shared_ptr<T> cached_host(const std::string& key, const std::function<std::shared_ptr<T>()>& make,
                               size_t kept_bytes = 0) {
  auto& s = detail::host_slot(typeid(T), key, kept_bytes);
  if (s.holds(typeid(T), key)) {
    if (s.failure) std::rethrow_exception(s.failure);
    if (s.value) return std::static_pointer_cast<T>(s.value);
  }
  s.clear();
  s.key = key;
  s.type = typeid(T);
  try {
    std::shared_ptr<T> fresh = make();
    s.value = std::const_pointer_cast<std::remove_const_t<T>>(fresh);
    return fresh;
  } catch (...) {
    s.failure = std::current_exception();
    throw;
  }
}

// Frees every slot; with keep_sized_host_values, all but the host values given a size (within
// their budget), which outlive a family when the next ones sweep the same problems.
void drop_cached_fixtures(bool keep_sized_host_values = false);

}  // namespace gb
