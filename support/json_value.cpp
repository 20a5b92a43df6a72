// A recursive-descent reader of RFC 8259 JSON.
#include "json_value.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gb {

const JsonValue* JsonValue::find(const std::string& key) const {
  if (kind != Kind::kObject) return nullptr;
  for (size_t i = 0; i < keys.size(); ++i)
    if (keys[i] == key) return &items[i];
  return nullptr;
}

namespace {

class Reader {
 public:
  explicit Reader(const std::string& text) : text_(text) {}

  JsonValue document() {
    JsonValue v = value(0);
    space();
    if (at_ < text_.size()) fail("the end of the document");
    return v;
  }

 private:
  static constexpr int kMaxDepth = 256;  // deeper nesting is refused, not a stack overflow
  const std::string& text_;
  size_t at_ = 0;

  [[noreturn]] void fail(const std::string& expected) const {
    throw std::runtime_error("byte " + std::to_string(at_) + ": expected " + expected);
  }
  void space() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r')) ++at_;
  }
  bool take(char c) {
    space();
    if (at_ < text_.size() && text_[at_] == c) {
      ++at_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!take(c)) fail(std::string("'") + c + "'");
  }
  bool word(const char* w) {
    const std::string s = w;
    if (text_.compare(at_, s.size(), s) != 0) return false;
    at_ += s.size();
    return true;
  }

  JsonValue value(int depth) {
    if (depth > kMaxDepth) fail("less nesting");
    space();
    if (at_ >= text_.size()) fail("a value");
    JsonValue v;
    const char c = text_[at_];
    if (c == '{') {
      ++at_;
      v.kind = JsonValue::Kind::kObject;
      if (take('}')) return v;
      do {
        space();
        if (at_ >= text_.size() || text_[at_] != '"') fail("a member name");
        v.keys.push_back(string());
        expect(':');
        v.items.push_back(value(depth + 1));
      } while (take(','));
      expect('}');
    } else if (c == '[') {
      ++at_;
      v.kind = JsonValue::Kind::kArray;
      if (take(']')) return v;
      do v.items.push_back(value(depth + 1));
      while (take(','));
      expect(']');
    } else if (c == '"') {
      v.kind = JsonValue::Kind::kString;
      v.string = string();
    } else if (word("true")) {
      v.kind = JsonValue::Kind::kBool;
      v.boolean = true;
    } else if (word("false")) {
      v.kind = JsonValue::Kind::kBool;
    } else if (word("null")) {
      v.kind = JsonValue::Kind::kNull;
    } else {
      v.kind = JsonValue::Kind::kNumber;
      v.number = number();
    }
    return v;
  }

  double number() {
    const size_t start = at_;
    if (at_ < text_.size() && text_[at_] == '-') ++at_;
    const size_t digits = at_;
    while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
    if (at_ == digits || (text_[digits] == '0' && at_ - digits > 1)) {
      at_ = start;
      fail("a value");
    }
    if (at_ < text_.size() && text_[at_] == '.') {
      const size_t fraction = ++at_;
      while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
      if (at_ == fraction) fail("a digit");
    }
    if (at_ < text_.size() && (text_[at_] == 'e' || text_[at_] == 'E')) {
      ++at_;
      if (at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-')) ++at_;
      const size_t exponent = at_;
      while (at_ < text_.size() && text_[at_] >= '0' && text_[at_] <= '9') ++at_;
      if (at_ == exponent) fail("a digit");
    }
    return std::strtod(text_.substr(start, at_ - start).c_str(), nullptr);
  }

  static void utf8(unsigned code, std::string* out) {
    if (code < 0x80) {
      *out += static_cast<char>(code);
    } else if (code < 0x800) {
      *out += static_cast<char>(0xC0 | (code >> 6));
      *out += static_cast<char>(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
      *out += static_cast<char>(0xE0 | (code >> 12));
      *out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      *out += static_cast<char>(0x80 | (code & 0x3F));
    } else {
      *out += static_cast<char>(0xF0 | (code >> 18));
      *out += static_cast<char>(0x80 | ((code >> 12) & 0x3F));
      *out += static_cast<char>(0x80 | ((code >> 6) & 0x3F));
      *out += static_cast<char>(0x80 | (code & 0x3F));
    }
  }

  unsigned hex4() {
    if (at_ + 4 > text_.size()) fail("four hex digits");
    unsigned code = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = text_[at_++];
      code <<= 4;
      if (h >= '0' && h <= '9') code |= h - '0';
      else if (h >= 'a' && h <= 'f') code |= h - 'a' + 10;
      else if (h >= 'A' && h <= 'F') code |= h - 'A' + 10;
      else fail("a hex digit");
    }
    return code;
  }

  std::string string() {
    ++at_;  // the opening quote
    std::string out;
    while (true) {
      if (at_ >= text_.size()) fail("'\"'");
      const char c = text_[at_++];
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("no control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_ >= text_.size()) fail("an escape");
      const char e = text_[at_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned code = hex4();
          if (code >= 0xD800 && code < 0xDC00 && word("\\u")) {  // a surrogate pair
            const unsigned low = hex4();
            if (low < 0xDC00 || low > 0xDFFF) fail("a low surrogate");
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
          }
          utf8(code, &out);
          break;
        }
        default: --at_; fail("an escape");
      }
    }
  }
};

}  // namespace

JsonValue parse_json(const std::string& text) { return Reader(text).document(); }

JsonValue read_json_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return parse_json(text.str());
  } catch (const std::exception& e) {
    throw std::runtime_error(path + ": not JSON (" + e.what() + ")");
  }
}

}  // namespace gb
