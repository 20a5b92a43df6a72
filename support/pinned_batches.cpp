// Reading the batches of an earlier run.
#include "pinned_batches.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "json_value.hpp"

namespace gb {

std::map<std::string, int> read_batches(const std::string& path, const std::string& device) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  JsonValue doc;
  try {
    doc = parse_json(text.str());
  } catch (const std::exception& e) {
    throw std::runtime_error(path + ": not JSON (" + e.what() + ")");
  }
  const JsonValue* context = doc.find("context");
  const JsonValue* benchmarks = doc.find("benchmarks");
  if (!context || !context->is_object() || !benchmarks || benchmarks->kind != JsonValue::Kind::kArray)
    throw std::runtime_error(path + ": not a gpu_bench output file (no context and benchmarks)");
  const JsonValue* run_device = context->find("device");
  if (!run_device || run_device->string != device)
    throw std::runtime_error(path + ": a run of " + (run_device ? run_device->string : std::string("an unnamed device")) +
                             ", not of " + device + " (a batch is a property of the device)");
  const std::string suffix = "/manual_time";
  std::map<std::string, int> batches;
  for (const JsonValue& b : benchmarks->items) {
    const JsonValue* name = b.find("run_name");
    if (!name) name = b.find("name");
    const JsonValue* type = b.find("run_type");
    const JsonValue* batch = b.find("batch");
    const JsonValue* error = b.find("error_occurred");
    if (!name || !batch || !batch->is_number() || batch->number < 1) continue;
    if ((type && type->string != "iteration") || (error && error->boolean)) continue;
    std::string key = name->string;
    if (key.size() > suffix.size() && key.compare(key.size() - suffix.size(), suffix.size(), suffix) == 0)
      key.resize(key.size() - suffix.size());
    batches[key] = static_cast<int>(batch->number);  // with repetitions: the last one's, as they go on from it
  }
  return batches;
}

}  // namespace gb
