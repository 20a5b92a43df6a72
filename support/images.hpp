// Real photographs as benchmark inputs: 8-bit PNG decoding (libpng), fitting to a size by mirrored
// tiling or bilinear scaling, the directories searched (a bad copy skipped for the next one), and a
// generated stand-in when no usable copy exists.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace gb {

// Width x height of a case's image (fixed by the size class).
struct ImageSize {
  size_t width, height;
};
// Why the session's device cannot hold a case's buffers of an image of size `s` (empty if it can):
// the largest, `largest_bytes_per_pixel`, and all together, `total_bytes_per_pixel` (gb::memory_shortfall).
std::string image_buffers_shortfall(ImageSize s, size_t largest_bytes_per_pixel, size_t total_bytes_per_pixel);

struct Image {
  size_t width = 0, height = 0;
  int channels = 1;             // 1: gray, 4: RGBA
  std::vector<uint8_t> pixels;  // row-major, channels interleaved, no row padding
  std::string source;           // the file read, or "generated:<name>"
  bool from_file() const { return source.rfind("generated:", 0) != 0; }
  size_t row_bytes() const { return width * static_cast<size_t>(channels); }
};

// Decodes any 8- or 16-bit PNG (gray, gray+alpha, RGB, RGBA, palette) into `channels`: 4 gives RGBA
// with alpha 255 where the file has none; 1 gives luma (299 R + 587 G + 114 B + 500) / 1000, which
// leaves a gray file's values unchanged. Throws std::runtime_error "cannot read PNG <path>: <why>"
// (why: one of image_file_problem's; "too large (W x H pixels, above 2^28)"; "corrupt PNG (libpng:
// ...)"; "corrupt or truncated PNG (libpng: ...)").
Image load_png(const std::string& path, int channels);
constexpr size_t kMaxImagePixels = size_t(1) << 28;  // 16384 x 16384: 1 GiB as RGBA
// 8-bit gray or RGBA PNG; throws std::runtime_error on failure.
void save_png(const std::string& path, const Image& image);

// tile: copies of the image, every other one mirrored, so there are no seams and each whole tile
// keeps the photograph's histogram. scale: bilinear (pixel centres aligned, edges clamped).
enum class Fit { tile, scale };
Image fit_image(const Image& source, size_t width, size_t height, Fit fit);

// What is wrong with `path` as an image file, from its first bytes: "" when it is a regular file
// starting with the PNG signature (or, with `jpeg_too`, the JPEG one); else "cannot open (<errno
// text>)", "not a regular file", "empty file", "not a PNG (bad signature)" or "not a PNG or JPEG
// (bad signature)".
std::string image_file_problem(const std::string& path, bool jpeg_too = false);

// A search for one file along candidate paths, in order (see search_file).
struct FileSearch {
  std::string found;                                         // the path used; "" when none was usable
  std::vector<std::pair<std::string, std::string>> skipped;  // (path, what is wrong) of each bad copy
  std::vector<std::string> missing;                          // candidates that do not exist
  // Every candidate and what became of it, on one line: "not found: /a/x.png, /b/x.png", or
  // "/a/x.png: not a PNG (bad signature); not found: /b/x.png".
  std::string tried() const;
};
// Passes over candidates that do not exist; calls `use` on each existing regular file until it
// returns "" (usable: its path is `found`). A candidate that is not a regular file, or for which
// `use` returns what is wrong, is skipped with one line on stderr, "skipping <path>: <what is
// wrong>" (once per path and process), and the search goes on. `use` should not throw.
FileSearch search_file(const std::vector<std::string>& candidates,
                       const std::function<std::string(const std::string& path)>& use);

// Where photographs are looked for: $GPU_BENCH_IMAGE_DIR (if set), then the data folder of
// Debian's python3-skimage (astronaut.png, camera.png ...).
std::vector<std::string> image_search_path();
// The first `file` in the search path that starts as a PNG (image_file_problem), or "" when none.
std::string find_image(const std::string& file);

// Deterministic photo-like stand-in: smooth gradients, a few discs and fine noise, every value used.
Image generated_image(size_t width, size_t height, int channels, uint64_t seed);

// The photograph `file` fitted to width x height: the first copy along the search path that decodes
// (a corrupt or unreadable copy is skipped with a line on stderr naming it and why). When no copy
// decodes, the generated stand-in, with one line on stderr saying so and naming every file tried
// (once per file and process). Check from_file().
Image photo(const std::string& file, int channels, size_t width, size_t height, Fit fit = Fit::tile);

}  // namespace gb
