// support/images: PNG round trips, channel conversion, tiling and scaling, the search path with
// GPU_BENCH_IMAGE_DIR (bad copies skipped, by name, for a later good one), and the generated
// stand-in for a missing or unusable photograph.
#include "images.hpp"

#include <gtest/gtest.h>
#include <png.h>
#include <zlib.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <sys/stat.h>
#include <unistd.h>

namespace {

namespace fs = std::filesystem;

// A temporary folder, removed at the end of the test.
struct TempDir {
  fs::path path;
  TempDir() {
    path = fs::temp_directory_path() / ("gb_images_test_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

gb::Image make(size_t w, size_t h, int channels) {
  gb::Image img;
  img.width = w, img.height = h, img.channels = channels;
  img.pixels.resize(w * h * channels);
  for (size_t i = 0; i < img.pixels.size(); ++i) img.pixels[i] = static_cast<uint8_t>(i * 37 + 11);
  return img;
}

// Writes an 8-bit RGB file (no alpha) with libpng directly.
void write_rgb(const std::string& path, size_t w, size_t h, const std::vector<uint8_t>& rgb) {
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  png.width = static_cast<png_uint_32>(w);
  png.height = static_cast<png_uint_32>(h);
  png.format = PNG_FORMAT_RGB;
  ASSERT_TRUE(png_image_write_to_file(&png, path.c_str(), 0, rgb.data(), 0, nullptr)) << png.message;
}

void write_bytes(const fs::path& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

// How many times `needle` occurs in `hay`.
size_t occurrences(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t at = hay.find(needle); at != std::string::npos; at = hay.find(needle, at + 1)) ++n;
  return n;
}

TEST(Images, GrayAndRgbaRoundTrip) {
  TempDir dir;
  for (int channels : {1, 4}) {
    const gb::Image img = make(7, 5, channels);
    const std::string path = (dir.path / ("rt" + std::to_string(channels) + ".png")).string();
    gb::save_png(path, img);
    const gb::Image back = gb::load_png(path, channels);
    EXPECT_EQ(back.width, 7u);
    EXPECT_EQ(back.height, 5u);
    EXPECT_EQ(back.channels, channels);
    EXPECT_EQ(back.pixels, img.pixels);
    EXPECT_TRUE(back.from_file());
    EXPECT_EQ(back.source, path);
  }
}

TEST(Images, GrayFileAsRgbaReplicatesWithOpaqueAlpha) {
  TempDir dir;
  const gb::Image gray = make(4, 3, 1);
  const std::string path = (dir.path / "g.png").string();
  gb::save_png(path, gray);
  const gb::Image rgba = gb::load_png(path, 4);
  for (size_t i = 0; i < 12; ++i) {
    EXPECT_EQ(rgba.pixels[4 * i], gray.pixels[i]);
    EXPECT_EQ(rgba.pixels[4 * i + 1], gray.pixels[i]);
    EXPECT_EQ(rgba.pixels[4 * i + 2], gray.pixels[i]);
    EXPECT_EQ(rgba.pixels[4 * i + 3], 255);
  }
}

TEST(Images, RgbFileAsGrayIsLuma) {
  TempDir dir;
  const std::string path = (dir.path / "rgb.png").string();
  write_rgb(path, 3, 1, {255, 0, 0, 0, 255, 0, 10, 20, 30});
  const gb::Image gray = gb::load_png(path, 1);
  // (299 R + 587 G + 114 B + 500) / 1000
  EXPECT_EQ(gray.pixels, (std::vector<uint8_t>{76, 150, 18}));
}

TEST(Images, UnreadableFileThrowsWithItsName) {
  TempDir dir;
  const std::string path = (dir.path / "not_a.png").string();
  { std::FILE* f = std::fopen(path.c_str(), "w"); std::fputs("hello", f); std::fclose(f); }
  try {
    gb::load_png(path, 1);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("not_a.png"), std::string::npos);
  }
  EXPECT_THROW(gb::load_png((dir.path / "missing.png").string(), 4), std::runtime_error);
}

TEST(Images, MirroredTilingHasNoSeamsAndKeepsTheHistogram) {
  gb::Image img = make(3, 2, 1);  // rows: a b c / d e f
  const gb::Image big = gb::fit_image(img, 8, 5, gb::Fit::tile);
  ASSERT_EQ(big.pixels.size(), 40u);
  const auto& p = img.pixels;
  // Row 0: a b c c b a a b; row 2 mirrors row 1 (d..), row 3 mirrors row 0 (a..).
  const std::vector<uint8_t> row0{p[0], p[1], p[2], p[2], p[1], p[0], p[0], p[1]};
  EXPECT_EQ(std::vector<uint8_t>(big.pixels.begin(), big.pixels.begin() + 8), row0);
  EXPECT_EQ(std::vector<uint8_t>(big.pixels.begin() + 24, big.pixels.begin() + 32), row0);
  EXPECT_EQ(big.pixels[16], p[3]);
  // Whole tiles: every value appears the same number of times.
  const gb::Image exact = gb::fit_image(img, 6, 4, gb::Fit::tile);
  for (uint8_t v : p) EXPECT_EQ(std::count(exact.pixels.begin(), exact.pixels.end(), v), 4);
}

TEST(Images, TilingKeepsChannelsTogether) {
  gb::Image img = make(2, 1, 4);
  const gb::Image big = gb::fit_image(img, 4, 1, gb::Fit::tile);
  // pixel order 0 1 1 0
  EXPECT_TRUE(std::equal(img.pixels.begin() + 4, img.pixels.end(), big.pixels.begin() + 8));
  EXPECT_TRUE(std::equal(img.pixels.begin(), img.pixels.begin() + 4, big.pixels.begin() + 12));
}

TEST(Images, BilinearScaling) {
  gb::Image flat = make(3, 3, 4);
  std::fill(flat.pixels.begin(), flat.pixels.end(), 77);
  const gb::Image up = gb::fit_image(flat, 17, 9, gb::Fit::scale);
  EXPECT_TRUE(std::all_of(up.pixels.begin(), up.pixels.end(), [](uint8_t v) { return v == 77; }));
  gb::Image ramp;
  ramp.width = 2, ramp.height = 1, ramp.channels = 1, ramp.pixels = {0, 200};
  // Output centres 0.5..3.5 of 4 map to source -0.25 (clamped 0), 0.25, 0.75, 1.25 (clamped 1).
  EXPECT_EQ(gb::fit_image(ramp, 4, 1, gb::Fit::scale).pixels, (std::vector<uint8_t>{0, 50, 150, 200}));
  // Downscaling by 2 averages neighbours at the mapped centres.
  gb::Image four;
  four.width = 4, four.height = 1, four.channels = 1, four.pixels = {0, 100, 200, 255};
  EXPECT_EQ(gb::fit_image(four, 2, 1, gb::Fit::scale).pixels, (std::vector<uint8_t>{50, 228}));
}

TEST(Images, EnvironmentDirectoryComesFirst) {
  TempDir dir;
  gb::save_png((dir.path / "gb_test_only.png").string(), make(2, 2, 1));
  ::setenv("GPU_BENCH_IMAGE_DIR", dir.path.c_str(), 1);
  EXPECT_EQ(gb::image_search_path().front(), dir.path.string());
  EXPECT_EQ(gb::find_image("gb_test_only.png"), (dir.path / "gb_test_only.png").string());
  const gb::Image img = gb::photo("gb_test_only.png", 1, 4, 4);
  EXPECT_TRUE(img.from_file());
  EXPECT_EQ(img.width, 4u);
  ::unsetenv("GPU_BENCH_IMAGE_DIR");
  EXPECT_EQ(gb::find_image("gb_test_only.png"), "");
  const auto path = gb::image_search_path();
  EXPECT_NE(std::find(path.begin(), path.end(), "/usr/lib/python3/dist-packages/skimage/data"), path.end());
}

TEST(Images, MissingPhotographFallsBackAndSaysSo) {
  ::unsetenv("GPU_BENCH_IMAGE_DIR");
  ::testing::internal::CaptureStderr();
  const gb::Image a = gb::photo("gb_no_such_photo.png", 4, 64, 48);
  const gb::Image b = gb::photo("gb_no_such_photo.png", 4, 64, 48);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("gb_no_such_photo.png"), std::string::npos) << err;
  EXPECT_NE(err.find("generated"), std::string::npos) << err;
  EXPECT_EQ(occurrences(err, "\n"), 1u) << "said more than once: " << err;
  // Every place looked in, by full path.
  EXPECT_NE(err.find("not found: /usr/lib/python3/dist-packages/skimage/data/gb_no_such_photo.png, "
                     "/usr/share/skimage/data/gb_no_such_photo.png;"),
            std::string::npos)
      << err;
  EXPECT_FALSE(a.from_file());
  EXPECT_EQ(a.width, 64u);
  EXPECT_EQ(a.height, 48u);
  EXPECT_EQ(a.pixels, b.pixels);  // deterministic
}

TEST(Images, FileProblemsFromTheFirstBytes) {
  TempDir dir;
  const fs::path good = dir.path / "good.png", text = dir.path / "text.png", empty = dir.path / "empty.png";
  gb::save_png(good.string(), make(2, 2, 1));
  write_bytes(text, "hello, not an image");
  write_bytes(empty, "");
  EXPECT_EQ(gb::image_file_problem(good.string()), "");
  EXPECT_EQ(gb::image_file_problem(text.string()), "not a PNG (bad signature)");
  EXPECT_EQ(gb::image_file_problem(text.string(), true), "not a PNG or JPEG (bad signature)");
  EXPECT_EQ(gb::image_file_problem(empty.string()), "empty file");
  EXPECT_EQ(gb::image_file_problem(dir.path.string()), "not a regular file");
  ASSERT_EQ(::mkfifo((dir.path / "fifo.png").c_str(), 0600), 0);  // would block an open for reading
  EXPECT_EQ(gb::image_file_problem((dir.path / "fifo.png").string()), "not a regular file");
  EXPECT_EQ(gb::image_file_problem((dir.path / "missing.png").string()), "cannot open (No such file or directory)");
  const fs::path jpeg = dir.path / "x.jpg";
  write_bytes(jpeg, std::string("\xff\xd8\xff\xe0", 4) + "rest");
  EXPECT_EQ(gb::image_file_problem(jpeg.string()), "not a PNG (bad signature)");
  EXPECT_EQ(gb::image_file_problem(jpeg.string(), true), "");
}

TEST(Images, LoadPngSaysWhatIsWrong) {
  TempDir dir;
  const fs::path text = dir.path / "text.png", cut = dir.path / "cut.png";
  write_bytes(text, "hello, not an image");
  gb::save_png((dir.path / "whole.png").string(), make(64, 64, 4));
  std::ifstream in(dir.path / "whole.png", std::ios::binary);
  const std::string whole((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  write_bytes(cut, whole.substr(0, whole.size() / 2));  // the signature and header, half the data
  try {
    gb::load_png(text.string(), 1);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot read PNG " + text.string() + ": not a PNG (bad signature)");
  }
  try {
    gb::load_png(cut.string(), 1);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("cannot read PNG " + cut.string() + ": corrupt or truncated PNG (libpng: ", 0), 0u)
        << e.what();
  }
}

TEST(Images, HugeDimensionsAreRefusedBeforeDecoding) {
  TempDir dir;
  const fs::path small = dir.path / "small.png", huge = dir.path / "huge.png";
  gb::save_png(small.string(), make(1, 1, 1));
  std::ifstream in(small, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // IHDR: length at 8, "IHDR" at 12, width at 16, height at 20, its CRC (type and data) at 29.
  ASSERT_EQ(bytes.substr(12, 4), "IHDR");
  for (int at : {16, 20}) bytes.replace(at, 4, std::string("\0\0\x4e\x20", 4));  // 20000
  const uLong crc = crc32(0, reinterpret_cast<const Bytef*>(bytes.data() + 12), 17);
  for (int k = 0; k < 4; ++k) bytes[29 + k] = static_cast<char>(crc >> (24 - 8 * k));
  write_bytes(huge, bytes);
  try {
    gb::load_png(huge.string(), 1);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot read PNG " + huge.string() + ": too large (20000 x 20000 pixels, above 2^28)");
  }
}

TEST(Images, SearchSkipsBadCopiesForALaterGoodOne) {
  TempDir dir;
  auto at = [&](const char* sub) {
    fs::create_directories(dir.path / sub);
    return (dir.path / sub / "x.png").string();
  };
  const std::string missing = at("a"), folder = at("f"), corrupt = at("b"), empty = at("c"), good = at("d"), after = at("e");
  fs::create_directories(folder);  // a folder of that name: skipped, never handed to `use`
  write_bytes(corrupt, "corrupt");
  write_bytes(empty, "");
  gb::save_png(good, make(3, 3, 1));
  gb::save_png(after, make(3, 3, 1));
  const std::vector<std::string> candidates{missing, folder, corrupt, empty, good, after};
  std::vector<std::string> used;
  auto use = [&](const std::string& path) {
    used.push_back(path);
    return gb::image_file_problem(path);
  };
  ::testing::internal::CaptureStderr();
  const gb::FileSearch s = gb::search_file(candidates, use);
  gb::search_file(candidates, use);  // the same bad copies: not said again
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(s.found, good);
  EXPECT_EQ(s.missing, std::vector<std::string>{missing});
  using Skip = std::pair<std::string, std::string>;
  EXPECT_EQ(s.skipped, (std::vector<Skip>{{folder, "not a regular file"}, {corrupt, "not a PNG (bad signature)"},
                                          {empty, "empty file"}}));
  EXPECT_EQ(err, "skipping " + folder + ": not a regular file\nskipping " + corrupt +
                     ": not a PNG (bad signature)\nskipping " + empty + ": empty file\n");
  // Each search hands `use` the existing regular files up to the good one, and stops there.
  EXPECT_EQ(used, (std::vector<std::string>{corrupt, empty, good, corrupt, empty, good}));
  EXPECT_EQ(s.tried(), folder + ": not a regular file; " + corrupt + ": not a PNG (bad signature); " + empty +
                           ": empty file; not found: " + missing);
  // Nothing usable: every candidate named.
  const std::string nowhere = (dir.path / "e" / "y.png").string();
  const gb::FileSearch none = gb::search_file({missing, nowhere}, use);
  EXPECT_EQ(none.found, "");
  EXPECT_EQ(none.tried(), "not found: " + missing + ", " + nowhere);
}

TEST(Images, CorruptPhotographInTheEnvironmentFolderIsSkippedForTheSystemCopy) {
  // The system copy is python3-skimage's camera.png; without it there is no later copy to find.
  const std::string system_copy = "/usr/lib/python3/dist-packages/skimage/data/camera.png";
  if (gb::image_file_problem(system_copy) != "") GTEST_SKIP() << system_copy << " not installed (python3-skimage)";
  TempDir dir;
  write_bytes(dir.path / "camera.png", "this is not a PNG");
  ::setenv("GPU_BENCH_IMAGE_DIR", dir.path.c_str(), 1);
  ::testing::internal::CaptureStderr();
  const gb::Image img = gb::photo("camera.png", 1, 64, 64);
  const std::string err = ::testing::internal::GetCapturedStderr();
  ::unsetenv("GPU_BENCH_IMAGE_DIR");
  EXPECT_TRUE(img.from_file());
  EXPECT_EQ(img.source, system_copy);
  EXPECT_EQ(err, "skipping " + (dir.path / "camera.png").string() + ": not a PNG (bad signature)\n");
}

TEST(Images, CorruptPhotographOnlyFallsBackNamingEveryFileTried) {
  TempDir dir;
  write_bytes(dir.path / "gb_corrupt_only.png", std::string("\x89PNG\r\n\x1a\n", 8) + "then garbage");
  ::setenv("GPU_BENCH_IMAGE_DIR", dir.path.c_str(), 1);
  ::testing::internal::CaptureStderr();
  const gb::Image img = gb::photo("gb_corrupt_only.png", 4, 32, 16);
  const std::string err = ::testing::internal::GetCapturedStderr();
  ::unsetenv("GPU_BENCH_IMAGE_DIR");
  EXPECT_FALSE(img.from_file());
  EXPECT_EQ(img.width, 32u);
  const std::string bad = (dir.path / "gb_corrupt_only.png").string();
  // Two lines: the skip, then the stand-in naming the bad copy and the places where none was.
  EXPECT_EQ(occurrences(err, "\n"), 2u) << err;
  EXPECT_EQ(err.rfind("skipping " + bad + ": ", 0), 0u) << err;
  EXPECT_NE(err.find("note: photograph gb_corrupt_only.png: " + bad + ": "), std::string::npos) << err;
  EXPECT_NE(err.find("; not found: /usr/lib/python3/dist-packages/skimage/data/gb_corrupt_only.png, "
                     "/usr/share/skimage/data/gb_corrupt_only.png; using a generated stand-in"),
            std::string::npos)
      << err;
  EXPECT_EQ(err.find("not found in"), std::string::npos) << err;
}

TEST(Images, UnreadablePhotographIsSkippedWithTheReason) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads any file";
  TempDir dir;
  const fs::path locked = dir.path / "locked.png";
  gb::save_png(locked.string(), make(2, 2, 1));
  fs::permissions(locked, fs::perms::none);
  const gb::FileSearch s = gb::search_file({locked.string()}, [](const std::string& p) { return gb::image_file_problem(p); });
  ASSERT_EQ(s.skipped.size(), 1u);
  EXPECT_EQ(s.skipped[0].second, "cannot open (Permission denied)");
}

TEST(Images, GeneratedImageIsVaried) {
  const gb::Image g = gb::generated_image(128, 96, 1, 7);
  std::vector<int> hist(256);
  for (uint8_t v : g.pixels) ++hist[v];
  const int used = static_cast<int>(std::count_if(hist.begin(), hist.end(), [](int c) { return c > 0; }));
  EXPECT_GT(used, 100);
  EXPECT_EQ(gb::generated_image(128, 96, 1, 7).pixels, g.pixels);
  EXPECT_NE(gb::generated_image(128, 96, 1, 8).pixels, g.pixels);
  const gb::Image rgba = gb::generated_image(16, 16, 4, 7);
  for (size_t i = 3; i < rgba.pixels.size(); i += 4) EXPECT_EQ(rgba.pixels[i], 255);
}

// Runs only where the photographs are installed (python3-skimage) or GPU_BENCH_IMAGE_DIR names them.
TEST(Images, SkimagePhotographsDecode) {
  const std::string camera = gb::find_image("camera.png"), astronaut = gb::find_image("astronaut.png");
  if (camera.empty() || astronaut.empty()) GTEST_SKIP() << "python3-skimage's data images not installed";
  const gb::Image c = gb::load_png(camera, 1), a = gb::load_png(astronaut, 4);
  EXPECT_EQ(c.width, 512u);
  EXPECT_EQ(c.height, 512u);
  EXPECT_EQ(a.width, 512u);
  EXPECT_EQ(a.pixels.size(), 512u * 512u * 4u);
  EXPECT_EQ(gb::load_png(camera, 4).pixels[0], c.pixels[0]);
}

}  // namespace
