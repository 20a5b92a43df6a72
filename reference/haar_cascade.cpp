// Haar cascade: XML parsing (tinyxml2), scan plan, integral images, the cascade on the
// host in the device's float order, per-stage comparison, and OpenCV's rectangle grouping.
#include "haar_cascade.hpp"

#include <tinyxml2.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <unordered_map>
#include <utility>

#include "parallel.hpp"

namespace ref {

// ---- parsing ---------------------------------------------------------------------------------
namespace {

using tinyxml2::XMLElement;

[[noreturn]] void fail(const std::string& what) { throw std::runtime_error("Haar cascade: " + what); }

const XMLElement* child(const XMLElement* e, const char* name) {
  const XMLElement* c = e->FirstChildElement(name);
  if (!c) fail(std::string("<") + e->Name() + "> has no <" + name + ">");
  return c;
}

std::vector<double> numbers(const XMLElement* e) {
  std::vector<double> v;
  const char* text = e->GetText();
  if (!text) return v;
  std::istringstream in(text);
  in.imbue(std::locale::classic());
  double x;
  while (in >> x) v.push_back(x);
  if (!in.eof()) fail(std::string("<") + e->Name() + "> holds something other than numbers");
  return v;
}

int integer(const XMLElement* e, const char* name) {
  auto v = numbers(child(e, name));
  if (v.size() != 1) fail(std::string("<") + name + "> is not one number");
  return static_cast<int>(v[0]);
}

HaarCascade parse(tinyxml2::XMLDocument& doc, const std::string& label) {
  if (doc.Error()) fail(label + ": " + doc.ErrorStr());
  const XMLElement* storage = doc.FirstChildElement("opencv_storage");
  if (!storage) fail(label + ": no <opencv_storage>");
  const XMLElement* cascade = storage->FirstChildElement("cascade");
  if (!cascade) {
    const XMLElement* first = storage->FirstChildElement();
    const char* type = first ? first->Attribute("type_id") : nullptr;
    if (type && std::string(type) == "opencv-haar-classifier")
      fail(label + ": the old \"opencv-haar-classifier\" format is not supported; use the new format "
                   "(haarcascade_frontalface_default.xml of opencv-data is one)");
    fail(label + ": no <cascade>");
  }
  auto text = [&](const char* name) {
    const char* t = child(cascade, name)->GetText();
    return std::string(t ? t : "");
  };
  if (text("stageType") != "BOOST") fail(label + ": stageType is not BOOST");
  if (text("featureType") != "HAAR") fail(label + ": featureType is " + text("featureType") + ", not HAAR");

  HaarCascade c;
  c.width = integer(cascade, "width");
  c.height = integer(cascade, "height");
  if (c.width <= 2 || c.height <= 2) fail(label + ": window smaller than 3 x 3");

  // Features first: nodes refer to them by index.
  std::vector<HaarNode> features;
  for (const XMLElement* f = child(cascade, "features")->FirstChildElement("_"); f; f = f->NextSiblingElement("_")) {
    if (const XMLElement* tilted = f->FirstChildElement("tilted"); tilted && integer(f, "tilted") != 0)
      fail(label + ": tilted features are not supported");
    HaarNode node;
    for (const XMLElement* r = child(f, "rects")->FirstChildElement("_"); r; r = r->NextSiblingElement("_")) {
      auto v = numbers(r);
      if (v.size() != 5) fail(label + ": a rect is not x y w h weight");
      if (node.rect_count == 3) fail(label + ": a feature with more than 3 rects");
      HaarRect& hr = node.rects[node.rect_count++];
      hr.x = static_cast<int>(v[0]);
      hr.y = static_cast<int>(v[1]);
      hr.w = static_cast<int>(v[2]);
      hr.h = static_cast<int>(v[3]);
      hr.weight = static_cast<float>(v[4]);
      if (hr.x < 0 || hr.y < 0 || hr.w <= 0 || hr.h <= 0 || hr.x + hr.w > c.width || hr.y + hr.h > c.height)
        fail(label + ": a rect outside the window");
    }
    if (node.rect_count < 2) fail(label + ": a feature with fewer than 2 rects");
    features.push_back(node);
  }

  for (const XMLElement* s = child(cascade, "stages")->FirstChildElement("_"); s; s = s->NextSiblingElement("_")) {
    HaarStage stage;
    stage.first = static_cast<int>(c.nodes.size());
    auto threshold = numbers(child(s, "stageThreshold"));
    if (threshold.size() != 1) fail(label + ": stageThreshold is not one number");
    stage.threshold = static_cast<float>(threshold[0]);
    for (const XMLElement* w = child(s, "weakClassifiers")->FirstChildElement("_"); w; w = w->NextSiblingElement("_")) {
      auto internal = numbers(child(w, "internalNodes"));
      auto leaves = numbers(child(w, "leafValues"));
      // A stump: "left right feature threshold" with both children leaves (0 and -1).
      if (internal.size() != 4 || leaves.size() != 2)
        fail(label + ": a weak classifier is not a stump (trees are not supported)");
      const int feature = static_cast<int>(internal[2]);
      if (feature < 0 || feature >= static_cast<int>(features.size())) fail(label + ": feature index out of range");
      HaarNode node = features[feature];
      node.threshold = static_cast<float>(internal[3]);
      node.left = static_cast<float>(leaves[0]);
      node.right = static_cast<float>(leaves[1]);
      c.nodes.push_back(node);
    }
    stage.count = static_cast<int>(c.nodes.size()) - stage.first;
    if (stage.count == 0) fail(label + ": a stage without weak classifiers");
    c.stages.push_back(stage);
  }
  if (c.stages.empty()) fail(label + ": no stages");
  if (c.stages.size() > 254) fail(label + ": more than 254 stages");
  const int declared = integer(cascade, "stageNum");
  if (declared != static_cast<int>(c.stages.size()))
    fail(label + ": stageNum says " + std::to_string(declared) + " but " + std::to_string(c.stages.size()) + " stages follow");
  return c;
}

}  // namespace

HaarCascade load_haar_cascade(const std::string& path) {
  tinyxml2::XMLDocument doc;
  doc.LoadFile(path.c_str());
  return parse(doc, path);
}

HaarCascade parse_haar_cascade(const std::string& xml_text) {
  tinyxml2::XMLDocument doc;
  doc.Parse(xml_text.c_str(), xml_text.size());
  return parse(doc, "XML");
}

// ---- scan plan -------------------------------------------------------------------------------
ScanPlan plan_scan(const HaarCascade& c, int width, int height, double scale_factor, double step) {
  if (!(scale_factor > 1.0) || !(step > 0)) throw std::invalid_argument("plan_scan: scale factor must be > 1, step > 0");
  ScanPlan plan;
  plan.width = width;
  plan.height = height;
  plan.stride = width + 1;
  plan.scale_factor = scale_factor;
  plan.step = step;
  auto round = [](double v) { return static_cast<int>(std::lround(v)); };
  for (int k = 0;; ++k) {
    ScanScale s;
    s.factor = std::pow(scale_factor, k);
    const double f = s.factor;
    s.size = round(c.width * f);
    // The extent of every scaled rect: rounding may push one a pixel past the window.
    int extent_x = std::max(s.size, round(c.width * f)), extent_y = round(c.height * f);
    auto scaled = [&](const HaarRect& r) {
      HaarRect t{round(r.x * f), round(r.y * f), std::max(1, round(r.w * f)), std::max(1, round(r.h * f)), r.weight};
      extent_x = std::max(extent_x, t.x + t.w);
      extent_y = std::max(extent_y, t.y + t.h);
      return t;
    };
    const HaarRect norm = scaled(HaarRect{1, 1, c.width - 2, c.height - 2, 1.0f});
    std::vector<HaarRect> rects;
    rects.reserve(c.nodes.size() * 3);
    for (const auto& node : c.nodes)
      for (int r = 0; r < 3; ++r) rects.push_back(r < node.rect_count ? scaled(node.rects[r]) : HaarRect{});
    // Windows up to kMaxWindow pixels keep every rect sum within 32 bits and area x sqsum within 64.
    if (extent_x > width || extent_y > height || std::max(extent_x, extent_y) > kMaxWindow) break;

    auto offsets = [&](const HaarRect& r) {
      return ScaledRect{r.y * plan.stride + r.x, r.w, r.h * plan.stride, r.weight};
    };
    s.norm = offsets(norm);
    s.norm_area = norm.w * norm.h;
    s.rects.resize(rects.size());
    for (size_t n = 0; n < c.nodes.size(); ++n) {
      // Rect 0's weight makes the scaled feature sum to zero over a flat image (rounded rect
      // sizes are not exactly proportional), as OpenCV 1.x's cvSetImagesForHaarClassifierCascade.
      double others = 0;
      for (int r = 1; r < c.nodes[n].rect_count; ++r)
        others += static_cast<double>(rects[3 * n + r].weight) * rects[3 * n + r].w * rects[3 * n + r].h;
      for (int r = 0; r < 3; ++r) s.rects[3 * n + r] = offsets(rects[3 * n + r]);
      const HaarRect& r0 = rects[3 * n];
      s.rects[3 * n].weight = static_cast<float>(-others / (static_cast<double>(r0.w) * r0.h));
      for (int r = c.nodes[n].rect_count; r < 3; ++r) s.rects[3 * n + r] = ScaledRect{};
    }
    s.step = std::max(1, round(step * f));
    s.nx = (width - extent_x) / s.step + 1;
    s.ny = (height - extent_y) / s.step + 1;
    const uint64_t total = static_cast<uint64_t>(plan.windows) + static_cast<uint64_t>(s.nx) * s.ny;
    if (total > 0xFFFFFFFFull) throw std::length_error("plan_scan: more than 2^32 windows");
    s.first_window = plan.windows;
    plan.windows = static_cast<uint32_t>(total);
    plan.scales.push_back(std::move(s));
  }
  return plan;
}

void require_windows(const HaarCascade& c, const ScanPlan& plan) {
  if (plan.windows > 0) return;
  std::string m = "no window of the cascade (" + std::to_string(c.width) + "x" + std::to_string(c.height) +
                  ") fits in the image (" + std::to_string(plan.width) + "x" + std::to_string(plan.height) + ")";
  if (c.width <= plan.width && c.height <= plan.height)
    m += ": windows are limited to " + std::to_string(kMaxWindow) + " pixels";
  throw std::runtime_error(m);
}

Window window_at(const ScanPlan& plan, uint32_t id) {
  int k = static_cast<int>(plan.scales.size()) - 1;
  while (k > 0 && id < plan.scales[k].first_window) --k;
  const ScanScale& s = plan.scales[k];
  const uint32_t local = id - s.first_window;
  return {k, static_cast<int>(local % s.nx) * s.step, static_cast<int>(local / s.nx) * s.step, s.size};
}

// ---- images ----------------------------------------------------------------------------------
std::vector<uint8_t> grayscale(const std::vector<uint8_t>& rgba, int width, int height) {
  std::vector<uint8_t> gray(static_cast<size_t>(width) * height);
  for (size_t i = 0; i < gray.size(); ++i)
    gray[i] = static_cast<uint8_t>((77u * rgba[4 * i] + 150u * rgba[4 * i + 1] + 29u * rgba[4 * i + 2] + 128u) >> 8);
  return gray;
}

IntegralImages integral_images(const std::vector<uint8_t>& gray, int width, int height) {
  IntegralImages ii;
  ii.width = width;
  ii.height = height;
  ii.stride = width + 1;
  const size_t stride = ii.stride;
  ii.sum = filled_vector<uint32_t>(stride * (height + 1));
  ii.sqsum = filled_vector<uint64_t>(stride * (height + 1));
  // Row prefix sums in parallel, then each column block adds the row above, top to bottom: row-major
  // friendly. Sums are exact (sqsum) or modulo 2^32 (sum), so the order of additions cannot matter.
  parallel_for(static_cast<size_t>(height), [&](size_t y) {
    const uint8_t* g = gray.data() + y * width;
    uint32_t* s = ii.sum.data() + (y + 1) * stride + 1;
    uint64_t* s2 = ii.sqsum.data() + (y + 1) * stride + 1;
    uint32_t run = 0;
    uint64_t run2 = 0;
    for (int x = 0; x < width; ++x) {
      run += g[x];
      run2 += static_cast<uint64_t>(g[x]) * g[x];
      s[x] = run;
      s2[x] = run2;
    }
  });
  constexpr size_t kBlock = 512;  // columns per task
  parallel_for((stride + kBlock - 1) / kBlock, [&](size_t block) {
    const size_t begin = block * kBlock, end = std::min(stride, begin + kBlock);
    for (size_t y = 2; y <= static_cast<size_t>(height); ++y) {
      uint32_t* s = ii.sum.data() + y * stride;
      uint64_t* s2 = ii.sqsum.data() + y * stride;
      for (size_t x = begin; x < end; ++x) {
        s[x] += s[x - stride];
        s2[x] += s2[x - stride];
      }
    }
  });
  return ii;
}

// ---- the cascade -----------------------------------------------------------------------------
namespace {

// The node decision value < threshold * norm, recomputed as a conforming OpenCL device may: with
// either product of the first sum contracted into an fma (or none), the third term added or
// fma-contracted, and sqrt up to kSqrtUlps from correctly rounded. True if any of these decides
// other than `left`.
bool could_flip(const float* w, const float* x, int terms, float threshold, float norm, bool left) {
  float lo = norm, hi = norm;
  for (int i = 0; i < kSqrtUlps; ++i) {
    lo = std::nextafter(lo, 0.0f);
    hi = std::nextafter(hi, INFINITY);
  }
  const float t1 = threshold * lo, t2 = threshold * hi;
  const float t_lo = std::min(t1, t2), t_hi = std::max(t1, t2);
  const float p0 = w[0] * x[0], p1 = w[1] * x[1];
  const float firsts[3] = {p0 + p1, std::fma(w[1], x[1], p0), std::fma(w[0], x[0], p1)};
  for (float v : firsts) {
    const float candidates[2] = {terms == 3 ? v + w[2] * x[2] : v, terms == 3 ? std::fma(w[2], x[2], v) : v};
    for (float c : candidates)
      if ((c < t_lo) != left || (c < t_hi) != left) return true;
  }
  return false;
}

// A node's rects at one scale as the four corner offsets of each, so that a window's rect sum is
// I[base + a] - I[base + b] - I[base + c] + I[base + d].
struct FlatRect {
  int32_t a, b, c, d;
  float weight;
};
struct FlatNode {
  FlatRect r[3];
  int terms;  // 2 or 3 (a third rect of weight 0 is absent)
  float threshold, left, right;
};

// |value - t| <= 1e-4 (|w0 x0| + |w1 x1| + |t|), in double. Most nodes are far from a tie: a float
// test with twice the tolerance rules those out first (it cannot rule out a near tie: float
// rounding moves either side by far less than a factor of 2, while the scale stays normal).
bool near_tie(float value, float t, const float* w, const float* x) {
  const float scale = std::abs(w[0] * x[0]) + std::abs(w[1] * x[1]) + std::abs(t);
  if (std::abs(value - t) > 2e-4f * scale && scale > 0x1p-100f) return false;
  return std::abs(static_cast<double>(value) - t) <= 1e-4 * scale;
}

template <typename T>
T corner_sum(const T* ii, const FlatRect& r) {
  return static_cast<T>(ii[r.a] - ii[r.b] - ii[r.c] + ii[r.d]);
}

}  // namespace

CascadeResult run_cascade(const HaarCascade& c, const ScanPlan& plan, const IntegralImages& ii,
                          uint64_t max_evaluations_per_window) {
  const int stages = static_cast<int>(c.stages.size());
  const size_t nodes = c.nodes.size();
  // Each row reserves a stage's evaluations before it runs them: the total reserved, when nothing
  // stops, is the same in any order, so whether the budget stops a cascade does not depend on timing.
  const uint64_t budget = plan.windows == 0 ? 0
                          : max_evaluations_per_window > std::numeric_limits<uint64_t>::max() / plan.windows
                              ? std::numeric_limits<uint64_t>::max()
                              : plan.windows * max_evaluations_per_window;
  std::atomic<uint64_t> evaluations{0};
  std::atomic<bool> too_costly{false};
  CascadeResult out;
  out.depth = filled_vector<uint8_t>(plan.windows, 0);
  out.borderline = filled_vector<uint8_t>(plan.windows, kNotBorderline);
  out.survivors.assign(stages, 0);
  std::vector<std::vector<FlatNode>> flat(plan.scales.size(), std::vector<FlatNode>(nodes));
  for (size_t k = 0; k < plan.scales.size(); ++k)
    for (size_t n = 0; n < nodes; ++n) {
      FlatNode& f = flat[k][n];
      const ScaledRect* r = &plan.scales[k].rects[3 * n];
      f.terms = r[2].weight != 0.0f ? 3 : 2;
      for (int i = 0; i < 3; ++i) f.r[i] = {r[i].tl, r[i].tl + r[i].w, r[i].tl + r[i].hs, r[i].tl + r[i].hs + r[i].w, r[i].weight};
      f.threshold = c.nodes[n].threshold;
      f.left = c.nodes[n].left;
      f.right = c.nodes[n].right;
    }
  // One task per row of windows: windows are independent. Within a row the cascade runs stage by
  // stage over the windows still alive (each node's data stays in cache, its loads stream along
  // the row); each window still sees its nodes in order, so its float operations are unchanged.
  std::vector<std::pair<int, int>> rows;  // (scale, iy)
  for (int k = 0; k < static_cast<int>(plan.scales.size()); ++k)
    for (int iy = 0; iy < plan.scales[k].ny; ++iy) rows.emplace_back(k, iy);
  parallel_for(rows.size(), [&](size_t task) {
    if (too_costly.load(std::memory_order_relaxed)) return;
    const int k = rows[task].first, iy = rows[task].second;
    const ScanScale& s = plan.scales[k];
    const FlatNode* node = flat[k].data();
    const uint32_t first = s.first_window + static_cast<uint32_t>(iy) * s.nx;
    const size_t row_base = static_cast<size_t>(iy) * s.step * plan.stride;
    std::vector<float> norm(s.nx), stage_sum(s.nx);
    std::vector<int> alive(s.nx);  // window indices along the row
    std::vector<float> xs(3 * static_cast<size_t>(s.nx));
    const FlatRect norm_rect{s.norm.tl, s.norm.tl + s.norm.w, s.norm.tl + s.norm.hs, s.norm.tl + s.norm.hs + s.norm.w, 0};
    for (int ix = 0; ix < s.nx; ++ix) {
      const size_t base = row_base + static_cast<size_t>(ix) * s.step;
      const uint32_t sum = corner_sum(ii.sum.data() + base, norm_rect);
      const uint64_t sq = corner_sum(ii.sqsum.data() + base, norm_rect);
      // area * sqsum >= sum^2 (Cauchy-Schwarz): the unsigned difference never wraps.
      const uint64_t nf2 = static_cast<uint64_t>(s.norm_area) * sq - static_cast<uint64_t>(sum) * sum;
      norm[ix] = nf2 > 0 ? std::sqrt(static_cast<float>(nf2)) : 1.0f;
      alive[ix] = ix;
    }
    uint8_t* depth = out.depth.data() + first;
    uint8_t* borderline = out.borderline.data() + first;
    size_t count = alive.size();
    for (int st = 0; st < stages && count > 0; ++st) {
      const HaarStage& stage = c.stages[st];
      const uint64_t cost = static_cast<uint64_t>(count) * static_cast<uint64_t>(stage.count);
      if (evaluations.fetch_add(cost, std::memory_order_relaxed) + cost > budget) {
        too_costly = true;
        return;
      }
      std::fill_n(stage_sum.begin(), count, 0.0f);  // plain adds in a fixed order: the same on every device
      for (int n = stage.first; n < stage.first + stage.count; ++n) {
        const FlatNode& f = node[n];
        const float w[3] = {f.r[0].weight, f.r[1].weight, f.r[2].weight};
        // The rect sums first (a loop without branches), then the decisions.
        for (size_t i = 0; i < count; ++i) {
          const uint32_t* base = ii.sum.data() + row_base + static_cast<size_t>(alive[i]) * s.step;
          xs[3 * i] = static_cast<float>(corner_sum(base, f.r[0]));
          xs[3 * i + 1] = static_cast<float>(corner_sum(base, f.r[1]));
          xs[3 * i + 2] = f.terms == 3 ? static_cast<float>(corner_sum(base, f.r[2])) : 0.0f;
        }
        for (size_t i = 0; i < count; ++i) {
          const int ix = alive[i];
          const float* x = &xs[3 * i];
          // The device's order of float operations, step by step.
          const float t = f.threshold * norm[ix];
          float value = w[0] * x[0] + w[1] * x[1];
          if (f.terms == 3) value += w[2] * x[2];
          const bool left = value < t;
          // Near a tie, ask whether a conforming device could decide the other way.
          if (borderline[ix] == kNotBorderline && near_tie(value, t, w, x) &&
              could_flip(w, x, f.terms, f.threshold, norm[ix], left))
            borderline[ix] = static_cast<uint8_t>(st);
          stage_sum[i] += left ? f.left : f.right;
        }
      }
      size_t kept = 0;
      for (size_t i = 0; i < count; ++i)
        if (!(stage_sum[i] < stage.threshold)) {
          ++depth[alive[i]];
          alive[kept++] = alive[i];
        }
      count = kept;
    }
  });
  if (too_costly)
    throw std::runtime_error("cascade too costly: more than " + std::to_string(max_evaluations_per_window) +
                             " weak-classifier evaluations per window on average (" + std::to_string(plan.windows) +
                             " windows x " + std::to_string(stages) + (stages == 1 ? " stage, " : " stages, ") +
                             std::to_string(nodes) + " weak classifiers; OpenCV's frontal face takes about 40)");
  for (uint8_t d : out.depth)
    for (int st = 0; st < d; ++st) ++out.survivors[st];
  return out;
}

StageComparison compare_stages(const CascadeResult& want, const std::vector<uint8_t>& got_depth, int stages) {
  StageComparison c;
  c.mismatches.assign(stages, 0);
  c.excused.assign(stages, 0);
  const size_t n = std::min(want.depth.size(), got_depth.size());
  for (size_t i = 0; i < n; ++i) {
    const int want_depth = want.depth[i], got = got_depth[i];
    if (want_depth == got) continue;
    // Both sides decide alike up to the first borderline decision, so the device must have
    // reached the borderline stage for the difference to be rounding.
    const uint8_t b = want.borderline[i];
    const bool excused = got <= stages && b != kNotBorderline && got >= b;
    for (int st = std::min(want_depth, got); st < std::min(std::max(want_depth, got), stages); ++st)
      (excused ? c.excused : c.mismatches)[st]++;
    ++(excused ? c.total_excused : c.total_mismatches);
  }
  if (want.depth.size() != got_depth.size()) c.total_mismatches += 1;
  return c;
}

// ---- detections ------------------------------------------------------------------------------
std::vector<Detection> raw_detections(const ScanPlan& plan, const std::vector<uint8_t>& depth, int stages) {
  std::vector<Detection> out;
  for (uint32_t id = 0; id < depth.size(); ++id)
    if (depth[id] == stages) {
      const Window w = window_at(plan, id);
      out.push_back({w.x, w.y, w.size, w.size});
    }
  return out;
}

namespace {

bool similar(const Detection& a, const Detection& b, double eps) {
  const double delta = eps * (std::min(a.w, b.w) + std::min(a.h, b.h)) * 0.5;
  return std::abs(a.x - b.x) <= delta && std::abs(a.y - b.y) <= delta &&
         std::abs(a.x + a.w - b.x - b.w) <= delta && std::abs(a.y + a.h - b.y - b.h) <= delta;
}

int round_half_even(double v) { return static_cast<int>(std::nearbyint(v)); }  // OpenCV's cvRound

// Rectangles [x0, x1] x [y0, y1] (inclusive) for point queries: each goes to the level whose square
// cells (a power of two) are at least as large as it, so it lies in at most 2 x 2 cells there; a
// point query looks in one cell per level and meets every rectangle that contains the point (and
// some that do not: the caller tests). Each rectangle is met at most once per query.
class BoxGrid {
 public:
  void insert(uint32_t id, int64_t x0, int64_t y0, int64_t x1, int64_t y1) {
    const int64_t extent = std::max(x1 - x0, y1 - y0) + 1;
    int shift = 0;
    while ((int64_t{1} << shift) < extent) ++shift;
    auto& cells = levels_[shift];
    for (int64_t cy = y0 >> shift; cy <= y1 >> shift; ++cy)  // >>: floor, negative values included
      for (int64_t cx = x0 >> shift; cx <= x1 >> shift; ++cx) cells[key(cx, cy)].push_back(id);
  }
  template <typename F>
  void visit(int64_t x, int64_t y, F&& f) const {
    for (const auto& [shift, cells] : levels_)
      if (const auto it = cells.find(key(x >> shift, y >> shift)); it != cells.end())
        for (uint32_t id : it->second) f(id);
  }

 private:
  static uint64_t key(int64_t cx, int64_t cy) {
    return static_cast<uint64_t>(static_cast<uint32_t>(cx)) << 32 | static_cast<uint32_t>(cy);
  }
  std::map<int, std::unordered_map<uint64_t, std::vector<uint32_t>>> levels_;
};

}  // namespace

std::vector<Detection> group_detections(const std::vector<Detection>& raw, int min_neighbors, double eps) {
  const size_t n = raw.size();
  // Classes: the transitive closure of `similar` (OpenCV's partition), by union-find. Similar
  // rectangles have their corners within eps * (w + h) / 2 of each other, so the pairs compared are
  // those where one's corner lies in the other's neighbourhood. The classes, numbered by their first
  // member, come out as from OpenCV's all-pairs loop.
  std::vector<size_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  {
    BoxGrid near;
    for (size_t i = 0; i < n; ++i) {
      const int64_t r = static_cast<int64_t>(std::ceil(std::max(0.0, eps * (raw[i].w + raw[i].h) * 0.5)));
      near.insert(static_cast<uint32_t>(i), raw[i].x - r, raw[i].y - r, raw[i].x + r, raw[i].y + r);
    }
    for (size_t j = 0; j < n; ++j)
      near.visit(raw[j].x, raw[j].y, [&](uint32_t i) {
        if (i < j && similar(raw[i], raw[j], eps)) parent[root(i)] = root(j);
      });
  }
  std::vector<int> label(n, -1), class_of_root(n, -1);
  int classes = 0;
  for (size_t i = 0; i < n; ++i) {
    const size_t r = root(i);
    if (class_of_root[r] < 0) class_of_root[r] = classes++;
    label[i] = class_of_root[r];
  }
  std::vector<double> sx(classes), sy(classes), sw(classes), sh(classes);
  std::vector<int> weight(classes, 0);
  for (size_t i = 0; i < n; ++i) {
    const int c = label[i];
    sx[c] += raw[i].x;
    sy[c] += raw[i].y;
    sw[c] += raw[i].w;
    sh[c] += raw[i].h;
    ++weight[c];
  }
  std::vector<Detection> mean(classes);
  for (int c = 0; c < classes; ++c) {
    const float s = 1.0f / weight[c];
    mean[c] = {round_half_even(sx[c] * s), round_half_even(sy[c] * s), round_half_even(sw[c] * s),
               round_half_even(sh[c] * s)};
  }
  // A class is dropped when it lies inside a strong neighbour's rectangle widened by eps: its
  // top-left corner is then inside that widened rectangle, where the grid looks.
  BoxGrid strong;
  std::vector<int> dx(classes), dy(classes);
  for (int j = 0; j < classes; ++j) {
    if (weight[j] <= min_neighbors) continue;
    const Detection& r2 = mean[j];
    dx[j] = round_half_even(r2.w * eps), dy[j] = round_half_even(r2.h * eps);
    strong.insert(static_cast<uint32_t>(j), int64_t{r2.x} - dx[j], int64_t{r2.y} - dy[j],
                  int64_t{r2.x} + r2.w + dx[j], int64_t{r2.y} + r2.h + dy[j]);
  }
  std::vector<Detection> out;
  for (int i = 0; i < classes; ++i) {
    const Detection& r1 = mean[i];
    const int n1 = weight[i];
    if (n1 <= min_neighbors) continue;
    bool inside = false;
    strong.visit(r1.x, r1.y, [&](uint32_t j) {
      const int n2 = weight[j];
      if (inside || static_cast<int>(j) == i) return;
      const Detection& r2 = mean[j];
      inside = r1.x >= r2.x - dx[j] && r1.y >= r2.y - dy[j] && r1.x + r1.w <= r2.x + r2.w + dx[j] &&
               r1.y + r1.h <= r2.y + r2.h + dy[j] && (n2 > std::max(3, n1) || n1 < 3);
    });
    if (!inside) out.push_back(r1);
  }
  std::sort(out.begin(), out.end(), [](const Detection& a, const Detection& b) {
    return a.y != b.y ? a.y < b.y : a.x != b.x ? a.x < b.x : a.w < b.w;
  });
  return out;
}

double overlap(const Detection& a, const Detection& b) {
  const int ix = std::max(0, std::min(a.x + a.w, b.x + b.w) - std::max(a.x, b.x));
  const int iy = std::max(0, std::min(a.y + a.h, b.y + b.h) - std::max(a.y, b.y));
  const double inter = static_cast<double>(ix) * iy;
  const double uni = static_cast<double>(a.w) * a.h + static_cast<double>(b.w) * b.h - inter;
  return uni > 0 ? inter / uni : 0.0;
}

size_t unmatched(const std::vector<Detection>& a, const std::vector<Detection>& b, double min_overlap) {
  if (!(min_overlap > 0)) throw std::invalid_argument("unmatched: min_overlap must be > 0");
  // Overlap above t: the intersection (at most y.w * x.h) exceeds t times x's area, so x.w < y.w / t,
  // and the two intersect. x's top-left corner therefore lies within (y.x - y.w / t, y.x + y.w).
  BoxGrid grid;
  for (size_t j = 0; j < b.size(); ++j) {
    const Detection& y = b[j];
    const auto rx = static_cast<int64_t>(std::ceil(y.w / min_overlap)), ry = static_cast<int64_t>(std::ceil(y.h / min_overlap));
    grid.insert(static_cast<uint32_t>(j), y.x - rx, y.y - ry, int64_t{y.x} + y.w, int64_t{y.y} + y.h);
  }
  size_t missing = 0;
  for (const auto& x : a) {
    bool found = false;
    grid.visit(x.x, x.y, [&](uint32_t j) { found = found || overlap(x, b[j]) > min_overlap; });
    missing += !found;
  }
  return missing;
}

}  // namespace ref
