// kernels/embed.cmake: shared headers (kernels/include) are pasted into the kernels that include
// them, and a #line keeps the .cl file's own line numbers for build logs.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "session.hpp"

namespace gb {
const std::map<std::string, std::string>& embedded_kernels();
}

namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(EmbeddedKernels, HeadersArePastedAndLineNumbersKept) {
  int pasted = 0;
  for (const auto& [file, text] : gb::embedded_kernels()) {
    EXPECT_EQ(text.find("#include \""), std::string::npos) << file << " keeps an #include";
    std::ifstream disk(std::string(GPU_BENCH_SOURCE_DIR) + "/kernels/" + file);
    ASSERT_TRUE(disk) << file;
    std::stringstream original;
    original << disk.rdbuf();
    const auto source = lines_of(original.str()), embedded = lines_of(text);
    for (size_t i = 0; i + 1 < embedded.size(); ++i) {
      if (embedded[i].rfind("#line ", 0) != 0) continue;
      const size_t line = std::stoul(embedded[i].substr(6));
      ASSERT_LE(line, source.size()) << file;
      EXPECT_EQ(embedded[i + 1], source[line - 1]) << file << ": #line " << line;
      ++pasted;
    }
  }
  EXPECT_GE(pasted, 5);  // hsum.h in three L0 kernels, subgroups.h in two L1 kernels
  EXPECT_NE(gb::kernel_source("l1/scan.cl").find("#define HAVE_SUBGROUPS 1"), std::string::npos);
}

}  // namespace
