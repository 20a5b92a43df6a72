// Photographs for L2/FaceDetection: PNG or JPEG decoded with stb_image (Debian libstb-dev) to RGBA,
// looked up in $GPU_BENCH_IMAGE_DIR and then at the path where a Debian package installs them;
// a generated stand-in when neither exists; tiling to a larger image.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ref {

struct Photo {
  int width = 0, height = 0;
  std::vector<uint8_t> rgba;  // 4 bytes per pixel, row-major
  bool real = false;          // decoded from a file (not generated)
  std::string source;         // the file, or what generated it
};

// $GPU_BENCH_IMAGE_DIR/<file name of debian_path> if that variable is set and the file decodes,
// else debian_path; nothing when neither decodes.
std::optional<Photo> load_photo(const std::string& debian_path);
// Decodes one file; nothing when it is missing or not an image stb_image reads.
std::optional<Photo> decode_photo(const std::string& path);
// A deterministic stand-in without faces: smooth shapes and noise, so windows pass a few stages.
Photo generated_photo(int width, int height, uint64_t seed);
// tiles_x x tiles_y copies side by side.
Photo tile_photo(const Photo& p, int tiles_x, int tiles_y);

}  // namespace ref
