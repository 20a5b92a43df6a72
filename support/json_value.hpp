// A JSON document read into a tree: enough for the files gpu_bench reads back (a reproducibility
// study), not a general library. Numbers are doubles; an object keeps its members in file order.
#pragma once
#include <string>
#include <vector>

namespace gb {

struct JsonValue {
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  Kind kind = Kind::kNull;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<JsonValue> items;    // an array's elements, or an object's values
  std::vector<std::string> keys;   // an object's keys, one per value in items

  bool is_number() const { return kind == Kind::kNumber; }
  bool is_object() const { return kind == Kind::kObject; }
  // An object's member, or nullptr (not an object, or no such key).
  const JsonValue* find(const std::string& key) const;
};

// The value of `text`; throws std::runtime_error ("byte N: what was expected") when it is not JSON.
JsonValue parse_json(const std::string& text);

// The value of the file at `path`; throws std::runtime_error ("PATH: cannot be read", "PATH: not
// JSON (byte N: ...)").
JsonValue read_json_file(const std::string& path);

}  // namespace gb
