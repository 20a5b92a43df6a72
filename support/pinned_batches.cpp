// Reading the batches of an earlier run.
#include "pinned_batches.hpp"

#include <algorithm>
#include <stdexcept>

#include "json_value.hpp"
#include "run_output.hpp"

namespace gb {

namespace {

JsonValue read_run(const std::string& path) {
  const JsonValue doc = read_json_file(path);
  const JsonValue* context = doc.find("context");
  const JsonValue* benchmarks = doc.find("benchmarks");
  if (!context || !context->is_object() || !benchmarks || benchmarks->kind != JsonValue::Kind::kArray)
    throw std::runtime_error(path + ": not a gpu_bench output file (no context and benchmarks)");
  return doc;
}

std::string device_of(const JsonValue& run) {
  const JsonValue* device = run.find("context")->find("device");
  return device && device->kind == JsonValue::Kind::kString ? device->string : "";
}

}  // namespace

std::string run_file_device(const std::string& path) { return device_of(read_run(path)); }

std::map<std::string, int> read_batches(const std::string& path, const std::string& device) {
  const JsonValue doc = read_run(path);
  const JsonValue* benchmarks = doc.find("benchmarks");
  if (const std::string run_device = device_of(doc); run_device != device)
    throw std::runtime_error(path + ": a run of " + (run_device.empty() ? std::string("an unnamed device") : run_device) +
                             ", not of " + device + " (a batch is a property of the device)");
  std::map<std::string, int> batches;
  for (const JsonValue& b : benchmarks->items) {
    const JsonValue* name = b.find("run_name");
    if (!name) name = b.find("name");
    const JsonValue* type = b.find("run_type");
    const JsonValue* batch = b.find("batch");
    const JsonValue* error = b.find("error_occurred");
    if (!name || !batch || !batch->is_number() || batch->number < 1) continue;
    if ((type && type->string != "iteration") || (error && error->boolean)) continue;
    batches[without_manual_time(name->string)] = static_cast<int>(std::min(batch->number, 1e9));  // with repetitions: the last one's, as they go on from it
  }
  return batches;
}

}  // namespace gb
