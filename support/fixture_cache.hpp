// Set-up cached per configuration: Google Benchmark calls a body several times (trials,
// repetitions), and buffers, inputs, references and calibration must be made once. One slot:
// the previous configuration is freed before the next is built, so large buffers never pile up.
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
Slot& fixture_slot();
}  // namespace detail

template <typename T>
T& cached_fixture(const std::string& key, const std::function<std::unique_ptr<T>()>& make) {
  auto& slot = detail::fixture_slot();
  if (slot.value && slot.key == key) return *static_cast<T*>(slot.value.get());
  slot.value.reset();  // free the old configuration's memory first
  slot.key.clear();
  std::shared_ptr<T> fresh = make();
  slot.value = fresh;
  slot.key = key;
  return *fresh;
}

void drop_cached_fixture();

}  // namespace gb
