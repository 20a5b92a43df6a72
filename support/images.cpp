// PNG decoding through libpng's simplified API, fitting, the search path (bad copies skipped) and
// the stand-in.
#include "images.hpp"

#include "device_fit.hpp"

#include <png.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <set>
#include <stdexcept>
#include <sys/stat.h>

namespace gb {

namespace {

// Where Debian's python3-skimage installs scikit-image's sample data (checked with dpkg -c on the
// bookworm package 0.19.3-8); /usr/share is kept for a possible split data package.
const char* const kSkimageDirs[] = {"/usr/lib/python3/dist-packages/skimage/data",
                                    "/usr/share/skimage/data"};

bool is_file(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

uint8_t luma(uint8_t r, uint8_t g, uint8_t b) {
  return static_cast<uint8_t>((299u * r + 587u * g + 114u * b + 500u) / 1000u);
}

uint64_t mix(uint64_t x) {  // splitmix64 finaliser
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Mirrored tiling: 0 1 .. n-1 n-1 .. 1 0 0 1 ..
size_t mirror(size_t i, size_t n) {
  const size_t period = i % (2 * n);
  return period < n ? period : 2 * n - 1 - period;
}

// Decodes `path`, or throws std::runtime_error saying what is wrong with it (without the path).
Image decode_png(const std::string& path, int channels) {
  if (const std::string problem = image_file_problem(path); !problem.empty()) throw std::runtime_error(problem);
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  if (!png_image_begin_read_from_file(&png, path.c_str()))
    throw std::runtime_error(std::string("corrupt PNG (libpng: ") + png.message + ")");
  if (static_cast<size_t>(png.width) * png.height > kMaxImagePixels) {
    const std::string size = std::to_string(png.width) + " x " + std::to_string(png.height);
    png_image_free(&png);
    throw std::runtime_error("too large (" + size + " pixels, above 2^28)");
  }
  png.format = PNG_FORMAT_RGBA;
  std::vector<uint8_t> rgba(PNG_IMAGE_SIZE(png));
  if (!png_image_finish_read(&png, nullptr, rgba.data(), 0, nullptr)) {
    std::string message = png.message;
    png_image_free(&png);
    throw std::runtime_error("corrupt or truncated PNG (libpng: " + message + ")");
  }
  Image img;
  img.width = png.width;
  img.height = png.height;
  img.channels = channels;
  img.source = path;
  if (channels == 4) {
    img.pixels = std::move(rgba);
  } else {
    const size_t n = img.width * img.height;
    img.pixels.resize(n);
    for (size_t i = 0; i < n; ++i) img.pixels[i] = luma(rgba[4 * i], rgba[4 * i + 1], rgba[4 * i + 2]);
  }
  return img;
}

}  // namespace

std::string image_file_problem(const std::string& path, bool jpeg_too) {
  // A regular file first: opening a FIFO would wait for a writer.
  struct stat st {};
  if (stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) return "not a regular file";
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return std::string("cannot open (") + std::strerror(errno) + ")";
  unsigned char head[8] = {};
  const size_t n = std::fread(head, 1, sizeof head, f);
  std::fclose(f);
  if (n == 0) return "empty file";
  static const unsigned char kPng[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  if (n == sizeof head && std::memcmp(head, kPng, sizeof kPng) == 0) return "";
  if (jpeg_too && n >= 3 && head[0] == 0xff && head[1] == 0xd8 && head[2] == 0xff) return "";
  return jpeg_too ? "not a PNG or JPEG (bad signature)" : "not a PNG (bad signature)";
}

Image load_png(const std::string& path, int channels) {
  if (channels != 1 && channels != 4) throw std::invalid_argument("load_png: channels must be 1 or 4");
  try {
    return decode_png(path, channels);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error("cannot read PNG " + path + ": " + e.what());
  }
}

void save_png(const std::string& path, const Image& image) {
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  png.width = static_cast<png_uint_32>(image.width);
  png.height = static_cast<png_uint_32>(image.height);
  png.format = image.channels == 4 ? PNG_FORMAT_RGBA : PNG_FORMAT_GRAY;
  if (image.channels != 1 && image.channels != 4) throw std::invalid_argument("save_png: 1 or 4 channels");
  if (!png_image_write_to_file(&png, path.c_str(), 0, image.pixels.data(), 0, nullptr))
    throw std::runtime_error("cannot write PNG " + path + ": " + png.message);
}

Image fit_image(const Image& src, size_t width, size_t height, Fit fit) {
  if (src.width == 0 || src.height == 0) throw std::invalid_argument("fit_image: empty source");
  Image out;
  out.width = width;
  out.height = height;
  out.channels = src.channels;
  out.source = src.source;
  const size_t c = src.channels;
  out.pixels.resize(width * height * c);
  if (fit == Fit::tile) {
    std::vector<size_t> sx(width);
    for (size_t x = 0; x < width; ++x) sx[x] = mirror(x, src.width) * c;
    for (size_t y = 0; y < height; ++y) {
      const uint8_t* row = src.pixels.data() + mirror(y, src.height) * src.row_bytes();
      uint8_t* dst = out.pixels.data() + y * out.row_bytes();
      for (size_t x = 0; x < width; ++x)
        for (size_t k = 0; k < c; ++k) dst[x * c + k] = row[sx[x] + k];
    }
    return out;
  }
  // Bilinear: output centre (x + 0.5) maps to source (x + 0.5) * sw / w - 0.5, clamped.
  auto axis = [](size_t n_out, size_t n_in, std::vector<size_t>& i0, std::vector<size_t>& i1,
                 std::vector<float>& w1) {
    i0.resize(n_out), i1.resize(n_out), w1.resize(n_out);
    for (size_t i = 0; i < n_out; ++i) {
      double s = (i + 0.5) * static_cast<double>(n_in) / n_out - 0.5;
      s = std::fmin(std::fmax(s, 0.0), static_cast<double>(n_in - 1));
      i0[i] = static_cast<size_t>(s);
      i1[i] = std::min(i0[i] + 1, n_in - 1);
      w1[i] = static_cast<float>(s - i0[i]);
    }
  };
  std::vector<size_t> x0, x1, y0, y1;
  std::vector<float> wx, wy;
  axis(width, src.width, x0, x1, wx);
  axis(height, src.height, y0, y1, wy);
  for (size_t y = 0; y < height; ++y) {
    const uint8_t* r0 = src.pixels.data() + y0[y] * src.row_bytes();
    const uint8_t* r1 = src.pixels.data() + y1[y] * src.row_bytes();
    uint8_t* dst = out.pixels.data() + y * out.row_bytes();
    for (size_t x = 0; x < width; ++x)
      for (size_t k = 0; k < c; ++k) {
        const float top = r0[x0[x] * c + k] + wx[x] * (r0[x1[x] * c + k] - r0[x0[x] * c + k]);
        const float bottom = r1[x0[x] * c + k] + wx[x] * (r1[x1[x] * c + k] - r1[x0[x] * c + k]);
        dst[x * c + k] = static_cast<uint8_t>(std::lround(top + wy[y] * (bottom - top)));
      }
  }
  return out;
}

std::vector<std::string> image_search_path() {
  std::vector<std::string> dirs;
  if (const char* env = std::getenv("GPU_BENCH_IMAGE_DIR"); env && *env) dirs.emplace_back(env);
  for (const char* d : kSkimageDirs) dirs.emplace_back(d);
  return dirs;
}

std::string find_image(const std::string& file) {
  for (const auto& dir : image_search_path()) {
    const std::string path = dir + "/" + file;
    if (is_file(path) && image_file_problem(path).empty()) return path;
  }
  return "";
}

std::string FileSearch::tried() const {
  std::string out;
  for (const auto& [path, why] : skipped) out += (out.empty() ? "" : "; ") + path + ": " + why;
  if (!missing.empty()) {
    out += (out.empty() ? "" : "; ") + std::string("not found: ");
    for (size_t i = 0; i < missing.size(); ++i) out += (i ? ", " : "") + missing[i];
  }
  return out;
}

FileSearch search_file(const std::vector<std::string>& candidates,
                       const std::function<std::string(const std::string& path)>& use) {
  static std::mutex mutex;
  static std::set<std::string> warned;
  FileSearch s;
  for (const auto& path : candidates) {
    struct stat st {};
    const bool exists = stat(path.c_str(), &st) == 0;
    if (!exists && errno == ENOENT) {
      s.missing.push_back(path);
      continue;
    }
    // Not handed to `use`: a FIFO would block it, a directory is never the file.
    std::string why = exists && !S_ISREG(st.st_mode) ? "not a regular file" : use(path);
    if (why.empty()) {
      s.found = path;
      break;
    }
    std::replace(why.begin(), why.end(), '\n', ' ');
    std::lock_guard<std::mutex> lock(mutex);
    if (warned.insert(path + "\n" + why).second) std::fprintf(stderr, "skipping %s: %s\n", path.c_str(), why.c_str());
    s.skipped.emplace_back(path, why);
  }
  return s;
}

Image generated_image(size_t width, size_t height, int channels, uint64_t seed) {
  Image img;
  img.width = width;
  img.height = height;
  img.channels = channels;
  img.source = "generated:seed" + std::to_string(seed);
  img.pixels.resize(width * height * channels);
  struct Disc {
    double cx, cy, r, level;
  };
  std::vector<Disc> discs(12);
  uint64_t state = mix(seed);
  auto unit = [&] { return static_cast<double>((state = mix(state)) >> 11) * 0x1p-53; };
  for (auto& d : discs) d = {unit(), unit(), 0.05 + 0.2 * unit(), 255 * unit()};
  for (size_t y = 0; y < height; ++y)
    for (size_t x = 0; x < width; ++x) {
      const double u = (x + 0.5) / width, v = (y + 0.5) / height;
      for (int k = 0; k < channels; ++k) {
        double value = 255.0;  // alpha: opaque
        if (k != 3) {
          value = 40 + 150 * (0.5 * u + 0.3 * v + 0.2 * std::sin(6.28 * (u + k * 0.3)));
          for (const auto& d : discs)
            if ((u - d.cx) * (u - d.cx) + (v - d.cy) * (v - d.cy) < d.r * d.r) value = 0.5 * value + 0.5 * d.level;
          value += static_cast<double>(mix(seed ^ ((y * width + x) * 4 + k)) % 33) - 16;
        }
        img.pixels[(y * width + x) * channels + k] =
            static_cast<uint8_t>(std::lround(std::fmin(std::fmax(value, 0.0), 255.0)));
      }
    }
  return img;
}

Image photo(const std::string& file, int channels, size_t width, size_t height, Fit fit) {
  if (channels != 1 && channels != 4) throw std::invalid_argument("photo: channels must be 1 or 4");
  static std::mutex mutex;
  static std::set<std::string> warned;
  std::vector<std::string> candidates;
  for (const auto& dir : image_search_path()) candidates.push_back(dir + "/" + file);
  Image loaded;
  const FileSearch search = search_file(candidates, [&](const std::string& path) -> std::string {
    try {
      loaded = decode_png(path, channels);
      return "";
    } catch (const std::exception& e) {
      return e.what();
    }
  });
  if (!search.found.empty()) return fit_image(loaded, width, height, fit);
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (warned.insert(file).second)
      std::fprintf(stderr,
                   "note: photograph %s: %s; using a generated stand-in (install python3-skimage or "
                   "set GPU_BENCH_IMAGE_DIR)\n",
                   file.c_str(), search.tried().c_str());
  }
  // The stand-in is made at the photograph's own size, then fitted like it.
  uint64_t seed = 0;
  for (char ch : file) seed = seed * 131 + static_cast<unsigned char>(ch);
  Image stand_in = generated_image(512, 512, channels, seed);
  stand_in.source = "generated:" + file;
  return fit_image(stand_in, width, height, fit);
}

std::string image_buffers_shortfall(ImageSize s, size_t largest_bytes_per_pixel, size_t total_bytes_per_pixel) {
  const uint64_t pixels = uint64_t(s.width) * s.height;
  return memory_shortfall({pixels * largest_bytes_per_pixel, pixels * (total_bytes_per_pixel - largest_bytes_per_pixel)});
}

}  // namespace gb
