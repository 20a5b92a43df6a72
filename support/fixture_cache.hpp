// Set-up cached per configuration: Google Benchmark calls a body several times (trials,
// repetitions), and buffers, inputs, references and calibration must be made once. One slot per
// kind: the previous configuration is freed before the next is built, so large buffers never pile
// up. Two kinds, because sweeps run many configurations over the same problem:
// - cached_problem: inputs (host and device) and the reference of one problem, shared by every
//   variant and work-group shape of it (registered consecutively, so they hit the slot);
// - cached_fixture: what one variant needs beyond that (kernels, outputs).
#pragma once
#include <functional>
#include <memory>
#include <string>

namespace gb {

namespace detail {
struct Slot {
  std::string key;
  std::shared_ptr<void> value;
};
enum class SlotKind { fixture, problem };
Slot& slot(SlotKind kind);

template <typename T>
T& cached_in(SlotKind kind, const std::string& key, const std::function<std::unique_ptr<T>()>& make) {
  auto& s = slot(kind);
  if (s.value && s.key == key) return *static_cast<T*>(s.value.get());
  s.value.reset();  // free the old configuration's memory first
  s.key.clear();
  std::shared_ptr<T> fresh = make();
  s.value = fresh;
  s.key = key;
  return *fresh;
}
}  // namespace detail

template <typename T>
T& cached_fixture(const std::string& key, const std::function<std::unique_ptr<T>()>& make) {
  return detail::cached_in<T>(detail::SlotKind::fixture, key, make);
}

template <typename T>
T& cached_problem(const std::string& key, const std::function<std::unique_ptr<T>()>& make) {
  return detail::cached_in<T>(detail::SlotKind::problem, key, make);
}

void drop_cached_fixtures();

}  // namespace gb
