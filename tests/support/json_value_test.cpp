// support/json_value: the JSON reader gpu_bench uses for reproducibility studies.
#include "json_value.hpp"

#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

namespace {

using Kind = gb::JsonValue::Kind;

TEST(JsonValue, ReadsEveryKindOfValue) {
  const auto v = gb::parse_json(R"( {"a": [1, -2.5e3, 0.125, true, false, null], "b": {"c": "x\"y\\z\n\u00e9\ud83d\ude00"}, "": {}} )");
  ASSERT_TRUE(v.is_object());
  const gb::JsonValue* a = v.find("a");
  ASSERT_TRUE(a && a->kind == Kind::kArray);
  ASSERT_EQ(a->items.size(), 6u);
  EXPECT_EQ(a->items[0].number, 1.0);
  EXPECT_EQ(a->items[1].number, -2500.0);
  EXPECT_EQ(a->items[2].number, 0.125);
  EXPECT_TRUE(a->items[3].kind == Kind::kBool && a->items[3].boolean);
  EXPECT_TRUE(a->items[4].kind == Kind::kBool && !a->items[4].boolean);
  EXPECT_EQ(a->items[5].kind, Kind::kNull);
  EXPECT_EQ(v.find("b")->find("c")->string, "x\"y\\z\n\xc3\xa9\xf0\x9f\x98\x80");  // é and 😀 in UTF-8
  EXPECT_TRUE(v.find("")->is_object());
  EXPECT_EQ(v.find("missing"), nullptr);
  EXPECT_EQ(a->find("a"), nullptr);  // not an object
  EXPECT_EQ(v.keys, (std::vector<std::string>{"a", "b", ""}));  // file order
}

TEST(JsonValue, RefusesWhatIsNotJson) {
  for (const char* bad : {"", "{", "{\"a\" 1}", "{\"a\": 1,}", "[1 2]", "01", "1.", "-", "1e", "nan", "\"abc",
                          "\"\\x\"", "\"\\u12\"", "{\"a\": 1} x", "tru", "\"a\tb\""}) {
    EXPECT_THROW(gb::parse_json(bad), std::runtime_error) << bad;
  }
  EXPECT_THROW(gb::parse_json(std::string(100000, '[')), std::runtime_error);  // nesting, not a crash
  try {
    gb::parse_json("{\"a\": x}");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "byte 6: expected a value");
  }
}

}  // namespace
