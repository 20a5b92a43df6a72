// Photo loading (stb_image, PNG and JPEG only), stand-ins and tiling.
#include "photo.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#define STBI_ONLY_JPEG
#define STBI_NO_STDIO_WARNINGS
#include <stb_image.h>

namespace ref {

std::optional<Photo> decode_photo(const std::string& path) {
  int w = 0, h = 0, channels = 0;
  unsigned char* data = stbi_load(path.c_str(), &w, &h, &channels, 4);
  if (!data) return std::nullopt;
  Photo p;
  p.width = w;
  p.height = h;
  p.rgba.assign(data, data + static_cast<size_t>(w) * h * 4);
  p.real = true;
  p.source = path;
  stbi_image_free(data);
  return p;
}

std::optional<Photo> load_photo(const std::string& debian_path) {
  if (const char* dir = std::getenv("GPU_BENCH_IMAGE_DIR"); dir && *dir) {
    const auto slash = debian_path.find_last_of('/');
    const std::string name = slash == std::string::npos ? debian_path : debian_path.substr(slash + 1);
    if (auto p = decode_photo(std::string(dir) + "/" + name)) return p;
  }
  return decode_photo(debian_path);
}

Photo generated_photo(int width, int height, uint64_t seed) {
  Photo p;
  p.width = width;
  p.height = height;
  p.rgba.resize(static_cast<size_t>(width) * height * 4);
  p.source = "generated (seed " + std::to_string(seed) + ")";
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  struct Blob {
    double x, y, r, level;
  };
  std::vector<Blob> blobs(24);
  for (auto& b : blobs) b = {u(rng) * width, u(rng) * height, 8 + u(rng) * width / 6, u(rng) * 200 - 100};
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      double v = 128 + 40 * std::sin(x * 0.05) * std::cos(y * 0.07);
      for (const auto& b : blobs)
        if ((x - b.x) * (x - b.x) + (y - b.y) * (y - b.y) < b.r * b.r) v += b.level * 0.5;
      v += (u(rng) - 0.5) * 30;
      const auto level = static_cast<uint8_t>(std::min(255.0, std::max(0.0, v)));
      uint8_t* px = &p.rgba[(static_cast<size_t>(y) * width + x) * 4];
      px[0] = level;
      px[1] = static_cast<uint8_t>(level * 7 / 8);
      px[2] = static_cast<uint8_t>(255 - level);
      px[3] = 255;
    }
  return p;
}

Photo tile_photo(const Photo& p, int tiles_x, int tiles_y) {
  Photo t;
  t.width = p.width * tiles_x;
  t.height = p.height * tiles_y;
  t.real = p.real;
  t.source = p.source + " tiled " + std::to_string(tiles_x) + "x" + std::to_string(tiles_y);
  t.rgba.resize(static_cast<size_t>(t.width) * t.height * 4);
  const size_t row = static_cast<size_t>(p.width) * 4;
  for (int y = 0; y < t.height; ++y)
    for (int tx = 0; tx < tiles_x; ++tx)
      std::copy_n(&p.rgba[(y % p.height) * row], row, &t.rgba[(static_cast<size_t>(y) * t.width + tx * p.width) * 4]);
  return t;
}

}  // namespace ref
