// reference/haar_cascade and reference/photo: the cascade parser (a small cascade written here, the
// real one from Debian's opencv-data), the scan plan, integral images, the host cascade with its
// borderline bookkeeping (against a window-by-window replay), the per-stage comparison, grouping,
// and the astronaut's face found.
#include "reference/haar_cascade.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>

#include "reference/photo.hpp"

namespace {

const char* kRealCascade = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml";
const char* kAstronaut = "/usr/lib/python3/dist-packages/skimage/data/astronaut.png";

bool ci() {
  const char* v = std::getenv("CI");
  return v && std::strcmp(v, "true") == 0;
}

bool readable(const std::string& path) { return std::ifstream(path).good(); }

// Two stages over a 6 x 6 window: stage 0 one stump (two rects), stage 1 two stumps (one of three rects).
std::string small_cascade(const std::string& stage_num = "2", const std::string& first_internal = "0 -1 0 0.25") {
  return R"(<?xml version="1.0"?>
<opencv_storage>
<cascade type_id="opencv-cascade-classifier"><stageType>BOOST</stageType>
  <featureType>HAAR</featureType>
  <height>6</height>
  <width>6</width>
  <stageNum>)" + stage_num + R"(</stageNum>
  <stages>
    <_>
      <maxWeakCount>1</maxWeakCount>
      <stageThreshold>-1.5</stageThreshold>
      <weakClassifiers>
        <_><internalNodes>)" + first_internal + R"(</internalNodes><leafValues>-2. 1.</leafValues></_>
      </weakClassifiers></_>
    <_>
      <maxWeakCount>2</maxWeakCount>
      <stageThreshold>0.5</stageThreshold>
      <weakClassifiers>
        <_><internalNodes>0 -1 1 -1.0e-01</internalNodes><leafValues>0.75 -0.25</leafValues></_>
        <_><internalNodes>0 -1 0 2.5e+00</internalNodes><leafValues>0.5 0.125</leafValues></_>
      </weakClassifiers></_>
  </stages>
  <features>
    <_><rects><_>0 0 6 6 -1.</_><_>0 0 6 3 2.</_></rects></_>
    <_><rects><_>1 1 3 4 -1.</_><_>1 1 1 4 1.</_><_>3 1 1 4 1.5</_></rects></_>
  </features>
</cascade>
</opencv_storage>
)";
}

TEST(HaarCascadeParse, SmallCascade) {
  const ref::HaarCascade c = ref::parse_haar_cascade(small_cascade());
  EXPECT_EQ(c.width, 6);
  EXPECT_EQ(c.height, 6);
  ASSERT_EQ(c.stages.size(), 2u);
  ASSERT_EQ(c.nodes.size(), 3u);
  EXPECT_EQ(c.stages[0].first, 0);
  EXPECT_EQ(c.stages[0].count, 1);
  EXPECT_FLOAT_EQ(c.stages[0].threshold, -1.5f);
  EXPECT_EQ(c.stages[1].first, 1);
  EXPECT_EQ(c.stages[1].count, 2);
  EXPECT_FLOAT_EQ(c.stages[1].threshold, 0.5f);
  // Node 1 uses feature 1 (three rects); node 2 reuses feature 0.
  EXPECT_EQ(c.nodes[1].rect_count, 3);
  EXPECT_EQ(c.nodes[1].rects[2].x, 3);
  EXPECT_EQ(c.nodes[1].rects[2].h, 4);
  EXPECT_FLOAT_EQ(c.nodes[1].rects[2].weight, 1.5f);
  EXPECT_FLOAT_EQ(c.nodes[1].threshold, -0.1f);
  EXPECT_FLOAT_EQ(c.nodes[1].left, 0.75f);
  EXPECT_FLOAT_EQ(c.nodes[1].right, -0.25f);
  EXPECT_EQ(c.nodes[2].rect_count, 2);
  EXPECT_EQ(c.nodes[2].rects[1].h, 3);
  EXPECT_FLOAT_EQ(c.nodes[2].threshold, 2.5f);
}

void expect_rejected(const std::string& xml, const std::string& words) {
  try {
    ref::parse_haar_cascade(xml);
    ADD_FAILURE() << "accepted a cascade that should fail with '" << words << "'";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
  }
}

TEST(HaarCascadeParse, RejectsWhatItCannotRun) {
  expect_rejected("<opencv_storage><cascade>", "XML");  // not well-formed
  expect_rejected("<opencv_storage><face type_id=\"opencv-haar-classifier\"/></opencv_storage>", "old");
  expect_rejected(small_cascade("3"), "stageNum");
  expect_rejected(small_cascade("2", "0 -1 7 0.25"), "feature index");
  expect_rejected(small_cascade("2", "1 -1 0 0.25 0 -2 1 0.5"), "stump");
  std::string lbp = small_cascade();
  lbp.replace(lbp.find("HAAR"), 4, "LBP");
  expect_rejected(lbp, "LBP");
  std::string tilted = small_cascade();
  tilted.replace(tilted.find("</rects></_>"), 12, "</rects><tilted>1</tilted></_>");
  expect_rejected(tilted, "tilted");
}

TEST(HaarCascadeParse, DebianFrontalFace) {
  if (!readable(kRealCascade)) {
    if (ci()) FAIL() << kRealCascade << " missing under CI=true (Debian package opencv-data)";
    GTEST_SKIP() << kRealCascade << " missing (Debian package opencv-data)";
  }
  const ref::HaarCascade c = ref::load_haar_cascade(kRealCascade);
  EXPECT_EQ(c.width, 24);
  EXPECT_EQ(c.height, 24);
  ASSERT_EQ(c.stages.size(), 25u);
  EXPECT_EQ(c.nodes.size(), 2913u);
  EXPECT_EQ(c.stages[0].count, 9);
  EXPECT_FLOAT_EQ(c.stages[0].threshold, -5.0425500869750977f);
  const ref::HaarNode& n = c.nodes[0];
  ASSERT_EQ(n.rect_count, 2);
  EXPECT_EQ(n.rects[0].x, 6);
  EXPECT_EQ(n.rects[0].y, 4);
  EXPECT_EQ(n.rects[0].w, 12);
  EXPECT_EQ(n.rects[0].h, 9);
  EXPECT_FLOAT_EQ(n.rects[0].weight, -1.0f);
  EXPECT_EQ(n.rects[1].y, 7);
  EXPECT_FLOAT_EQ(n.rects[1].weight, 3.0f);
  EXPECT_FLOAT_EQ(n.threshold, -3.1511999666690826e-02f);
  EXPECT_FLOAT_EQ(n.left, 2.0875380039215088f);
  EXPECT_FLOAT_EQ(n.right, -2.2172100543975830f);
  int sum = 0;
  for (const auto& s : c.stages) sum += s.count;
  EXPECT_EQ(sum, 2913);
}

TEST(HaarCascadeParse, MissingFileNamesIt) {
  try {
    ref::load_haar_cascade("/nonexistent/cascade.xml");
    ADD_FAILURE() << "loaded a missing file";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/cascade.xml"), std::string::npos);
  }
}

TEST(ScanPlan, ScalesWindowsAndZeroSumFeatures) {
  const ref::HaarCascade c = ref::parse_haar_cascade(small_cascade());
  const ref::ScanPlan plan = ref::plan_scan(c, 40, 30, 1.5, 1.0);
  ASSERT_GE(plan.scales.size(), 3u);
  EXPECT_EQ(plan.stride, 41);
  const ref::ScanScale& s0 = plan.scales[0];
  EXPECT_EQ(s0.size, 6);
  EXPECT_EQ(s0.step, 1);
  EXPECT_EQ(s0.nx, 35);
  EXPECT_EQ(s0.ny, 25);
  EXPECT_EQ(s0.norm.tl, 1 * 41 + 1);  // the variance window: one pixel in
  EXPECT_EQ(s0.norm_area, 16);
  uint32_t total = 0;
  for (const auto& s : plan.scales) {
    EXPECT_EQ(s.first_window, total);
    total += static_cast<uint32_t>(s.nx) * s.ny;
    // The last window stays inside the image, the feature sums to zero on a flat image.
    EXPECT_LE((s.nx - 1) * s.step + s.size, 40);
    EXPECT_LE((s.ny - 1) * s.step + s.size, 30);
    for (size_t n = 0; n < c.nodes.size(); ++n) {
      double flat = 0;
      for (int r = 0; r < 3; ++r) {
        const ref::ScaledRect& sr = s.rects[3 * n + r];
        flat += static_cast<double>(sr.weight) * sr.w * (sr.hs / plan.stride);
      }
      EXPECT_NEAR(flat, 0.0, 1e-4) << "scale " << s.factor << " node " << n;
    }
  }
  EXPECT_EQ(plan.windows, total);
  const ref::Window w = ref::window_at(plan, plan.scales[1].first_window + plan.scales[1].nx + 2);
  EXPECT_EQ(w.scale, 1);
  EXPECT_EQ(w.x, 2 * plan.scales[1].step);
  EXPECT_EQ(w.y, plan.scales[1].step);
  EXPECT_EQ(w.size, 9);
  EXPECT_THROW(ref::plan_scan(c, 40, 30, 1.0, 1.0), std::invalid_argument);
}

TEST(Images, GrayscaleAndIntegrals) {
  const std::vector<uint8_t> rgba = {255, 255, 255, 255, 0, 0, 0, 255, 100, 50, 200, 0,
                                     10, 20, 30, 255, 1, 2, 3, 4, 255, 0, 0, 255};
  const auto gray = ref::grayscale(rgba, 3, 2);
  EXPECT_EQ(gray, (std::vector<uint8_t>{255, 0, (77 * 100 + 150 * 50 + 29 * 200 + 128) >> 8,
                                        (77 * 10 + 150 * 20 + 29 * 30 + 128) >> 8, 2, (77 * 255 + 128) >> 8}));
  const std::vector<uint8_t> g = {1, 2, 3, 4, 5, 6};  // 3 x 2
  const auto ii = ref::integral_images(g, 3, 2);
  EXPECT_EQ(ii.stride, 4);
  EXPECT_EQ(ii.sum, (std::vector<uint32_t>{0, 0, 0, 0, 0, 1, 3, 6, 0, 5, 12, 21}));
  EXPECT_EQ(ii.sqsum, (std::vector<uint64_t>{0, 0, 0, 0, 0, 1, 5, 14, 0, 17, 46, 91}));
}

TEST(Cascade, DepthSurvivorsAndBorderline) {
  // A one-stage cascade whose single stump asks whether the top half of a 4 x 4 window is darker
  // than its bottom half: value = 2 * top - whole = top - bottom < 0 -> left (pass).
  ref::HaarCascade c;
  c.width = c.height = 4;
  ref::HaarNode n;
  n.rects[0] = {0, 0, 4, 4, -1.0f};
  n.rects[1] = {0, 0, 4, 2, 2.0f};
  n.rect_count = 2;
  n.threshold = 0.0f;
  n.left = 1.0f;
  n.right = -1.0f;
  c.nodes = {n};
  c.stages = {{0, 1, 0.0f}};
  const int w = 8, h = 4;
  std::vector<uint8_t> g(w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) g[y * w + x] = static_cast<uint8_t>(x < 4 ? (y < 2 ? 10 : 200) : (y < 2 ? 200 : 10));
  const ref::ScanPlan plan = ref::plan_scan(c, w, h, 2.0, 1.0);
  ASSERT_EQ(plan.scales.size(), 1u);
  ASSERT_EQ(plan.windows, 5u);
  const auto r = ref::run_cascade(c, plan, ref::integral_images(g, w, h));
  EXPECT_EQ(r.depth, (std::vector<uint8_t>{1, 1, 0, 0, 0}));  // a tie at x = 2: 0 < 0 fails
  EXPECT_EQ(r.survivors, (std::vector<uint32_t>{2}));
  // The tie is exact (integer sums, exact products): no device rounding can flip it.
  EXPECT_EQ(r.borderline[2], ref::kNotBorderline);
  const auto raw = ref::raw_detections(plan, r.depth, 1);
  ASSERT_EQ(raw.size(), 2u);
  EXPECT_EQ(raw[1].x, 1);
  EXPECT_EQ(raw[1].w, 4);
}

TEST(Images, IntegralsMatchTheRecurrenceAcrossColumnBlocks) {
  // Wider than the column pass's blocks (512 entries), with a ragged last block.
  const int w = 1100, h = 9;
  std::mt19937 rng(8);
  std::vector<uint8_t> g(w * h);
  for (auto& v : g) v = static_cast<uint8_t>(rng());
  const auto ii = ref::integral_images(g, w, h);
  ASSERT_EQ(ii.sum.size(), size_t(w + 1) * (h + 1));
  std::vector<uint64_t> s(ii.sum.size(), 0), s2(ii.sum.size(), 0);
  for (int y = 1; y <= h; ++y)
    for (int x = 1; x <= w; ++x) {
      const uint64_t v = g[(y - 1) * w + x - 1];
      const size_t i = y * (w + 1) + x;
      s[i] = v + s[i - 1] + s[i - w - 1] - s[i - w - 2];
      s2[i] = v * v + s2[i - 1] + s2[i - w - 1] - s2[i - w - 2];
    }
  for (size_t i = 0; i < s.size(); ++i) {
    ASSERT_EQ(ii.sum[i], static_cast<uint32_t>(s[i])) << i;
    ASSERT_EQ(ii.sqsum[i], s2[i]) << i;
  }
}

// The cascade one window at a time, straight from the plan (as the reference ran before it went
// stage by stage along rows): what run_cascade must reproduce exactly.
bool could_flip_one(const float* w, const float* x, int terms, float threshold, float norm, bool left) {
  float lo = norm, hi = norm;
  for (int i = 0; i < ref::kSqrtUlps; ++i) {
    lo = std::nextafter(lo, 0.0f);
    hi = std::nextafter(hi, INFINITY);
  }
  const float t1 = threshold * lo, t2 = threshold * hi;
  const float t_lo = std::min(t1, t2), t_hi = std::max(t1, t2);
  const float p0 = w[0] * x[0], p1 = w[1] * x[1];
  for (float v : {p0 + p1, std::fma(w[1], x[1], p0), std::fma(w[0], x[0], p1)})
    for (float c : {terms == 3 ? v + w[2] * x[2] : v, terms == 3 ? std::fma(w[2], x[2], v) : v})
      if ((c < t_lo) != left || (c < t_hi) != left) return true;
  return false;
}

ref::CascadeResult cascade_one_by_one(const ref::HaarCascade& c, const ref::ScanPlan& plan, const ref::IntegralImages& ii) {
  const int stages = static_cast<int>(c.stages.size());
  ref::CascadeResult out;
  out.depth.assign(plan.windows, 0);
  out.borderline.assign(plan.windows, ref::kNotBorderline);
  out.survivors.assign(stages, 0);
  auto rect = [](const auto& v, size_t base, const ref::ScaledRect& r) {
    const size_t tl = base + r.tl;
    return v[tl] - v[tl + r.w] - v[tl + r.hs] + v[tl + r.hs + r.w];
  };
  for (uint32_t id = 0; id < plan.windows; ++id) {
    const ref::Window win = ref::window_at(plan, id);
    const ref::ScanScale& s = plan.scales[win.scale];
    const size_t base = static_cast<size_t>(win.y) * plan.stride + win.x;
    const uint32_t sum = rect(ii.sum, base, s.norm);
    const uint64_t sq = rect(ii.sqsum, base, s.norm);
    const uint64_t nf2 = static_cast<uint64_t>(s.norm_area) * sq - static_cast<uint64_t>(sum) * sum;
    const float norm = nf2 > 0 ? std::sqrt(static_cast<float>(nf2)) : 1.0f;
    for (int st = 0; st < stages; ++st) {
      float stage_sum = 0;
      for (int n = c.stages[st].first; n < c.stages[st].first + c.stages[st].count; ++n) {
        const ref::ScaledRect* r = &s.rects[3 * n];
        const int terms = r[2].weight != 0.0f ? 3 : 2;
        float w[3] = {}, x[3] = {};
        for (int k = 0; k < terms; ++k) {
          w[k] = r[k].weight;
          x[k] = static_cast<float>(static_cast<uint32_t>(rect(ii.sum, base, r[k])));
        }
        const float t = c.nodes[n].threshold * norm;
        float value = w[0] * x[0] + w[1] * x[1];
        if (terms == 3) value += w[2] * x[2];
        const bool left = value < t;
        if (out.borderline[id] == ref::kNotBorderline &&
            std::abs(static_cast<double>(value) - t) <= 1e-4 * (std::abs(w[0] * x[0]) + std::abs(w[1] * x[1]) + std::abs(t)) &&
            could_flip_one(w, x, terms, c.nodes[n].threshold, norm, left))
          out.borderline[id] = static_cast<uint8_t>(st);
        stage_sum += left ? c.nodes[n].left : c.nodes[n].right;
      }
      if (stage_sum < c.stages[st].threshold) break;
      ++out.depth[id];
      ++out.survivors[st];
    }
  }
  return out;
}

void expect_same_cascade(const ref::HaarCascade& c, const std::vector<uint8_t>& gray, int w, int h, double scale_factor) {
  const ref::ScanPlan plan = ref::plan_scan(c, w, h, scale_factor, 1.0);
  const auto ii = ref::integral_images(gray, w, h);
  const auto got = ref::run_cascade(c, plan, ii);
  const auto want = cascade_one_by_one(c, plan, ii);
  EXPECT_EQ(got.depth, want.depth);
  EXPECT_EQ(got.borderline, want.borderline);
  EXPECT_EQ(got.survivors, want.survivors);
}

// Random stumps over an 8 x 8 window (weights 1/3 and 0.7 are inexact in float) with thresholds
// near 0, on a mostly flat image: feature values sit at ties, so many windows are borderline.
TEST(Cascade, RowByRowMatchesWindowByWindowNearTies) {
  std::mt19937 rng(12);
  auto pick = [&](int n) { return static_cast<int>(rng() % n); };
  ref::HaarCascade c;
  c.width = c.height = 8;
  const float weights[] = {-1.0f, 2.0f, 3.0f, 1.0f / 3.0f, 0.7f, -0.5f};
  for (int st = 0; st < 4; ++st) {
    ref::HaarStage stage{static_cast<int>(c.nodes.size()), 3 + st, -0.2f + 0.1f * st};
    for (int n = 0; n < stage.count; ++n) {
      ref::HaarNode node;
      node.rect_count = 2 + pick(2);
      for (int r = 0; r < node.rect_count; ++r) {
        ref::HaarRect& hr = node.rects[r];
        hr.x = pick(7);
        hr.y = pick(7);
        hr.w = 1 + pick(8 - hr.x);
        hr.h = 1 + pick(8 - hr.y);
        hr.weight = weights[pick(6)];
      }
      node.threshold = (pick(3) - 1) * 0.002f;
      node.left = (pick(5) - 2) * 0.5f;
      node.right = (pick(5) - 2) * 0.375f;
      c.nodes.push_back(node);
    }
    c.stages.push_back(stage);
  }
  const int w = 61, h = 47;
  std::vector<uint8_t> gray(w * h, 120);
  for (auto& v : gray)
    if (pick(6) == 0) v = static_cast<uint8_t>(rng());
  expect_same_cascade(c, gray, w, h, 1.3);
  const auto r = ref::run_cascade(c, ref::plan_scan(c, w, h, 1.3, 1.0), ref::integral_images(gray, w, h));
  EXPECT_GT(std::count_if(r.borderline.begin(), r.borderline.end(), [](uint8_t b) { return b != ref::kNotBorderline; }), 0)
      << "no borderline window: the test exercises less than it should";
}

TEST(Cascade, RowByRowMatchesWindowByWindowOnTheRealCascade) {
  if (!readable(kRealCascade)) GTEST_SKIP() << "no cascade (opencv-data)";
  const ref::HaarCascade c = ref::load_haar_cascade(kRealCascade);
  const ref::Photo p = ref::generated_photo(160, 120, 5);
  expect_same_cascade(c, ref::grayscale(p.rgba, p.width, p.height), p.width, p.height, 1.25);
  // The photo has windows whose decisions rest on float rounding.
  if (const auto photo = ref::load_photo(kAstronaut))
    expect_same_cascade(c, ref::grayscale(photo->rgba, photo->width, photo->height), photo->width, photo->height, 1.25);
}

TEST(Cascade, CompareStagesExcusesOnlyBorderlineWindows) {
  ref::CascadeResult want;
  want.depth = {3, 1, 2, 0, 2};
  want.borderline = {ref::kNotBorderline, 1, ref::kNotBorderline, ref::kNotBorderline, 2};
  // window 1: borderline at stage 1, device went on: excused. window 2: not borderline: mismatch.
  // window 4: borderline at stage 2 but the device stopped at 1, before it: mismatch.
  const auto c = ref::compare_stages(want, {3, 3, 1, 0, 1}, 3);
  EXPECT_EQ(c.total_excused, 1u);
  EXPECT_EQ(c.total_mismatches, 2u);
  EXPECT_EQ(c.excused, (std::vector<uint32_t>{0, 1, 1}));
  EXPECT_EQ(c.mismatches, (std::vector<uint32_t>{0, 2, 0}));
  EXPECT_EQ(ref::compare_stages(want, want.depth, 3).total_mismatches, 0u);
}

TEST(Grouping, AveragesClustersAndDropsWeakOnes) {
  std::vector<ref::Detection> raw;
  for (int i = 0; i < 5; ++i) raw.push_back({100 + i, 50 - i, 40 + (i % 2), 40 + (i % 2)});  // a face
  raw.push_back({300, 300, 24, 24});  // lone false positives
  raw.push_back({302, 301, 24, 24});
  for (int i = 0; i < 4; ++i) raw.push_back({110 + i, 60, 12, 12});  // small, inside the face
  const auto g = ref::group_detections(raw, 3, 0.2);
  ASSERT_EQ(g.size(), 1u);
  EXPECT_EQ(g[0].x, 102);
  EXPECT_EQ(g[0].y, 48);
  EXPECT_EQ(g[0].w, 40);
  EXPECT_NEAR(ref::overlap(g[0], raw[0]), 0.9, 0.1);
  EXPECT_EQ(ref::overlap({0, 0, 10, 10}, {20, 20, 5, 5}), 0.0);
  EXPECT_TRUE(ref::group_detections({}, 3, 0.2).empty());
}

// One stage of `stumps` weak classifiers over a `size` x `size` window that every window passes.
std::string pass_all_cascade(int size, int stumps) {
  std::string weak;
  for (int i = 0; i < stumps; ++i) weak += "<_><internalNodes>0 -1 0 0.25</internalNodes><leafValues>-2. 1.</leafValues></_>";
  const std::string n = std::to_string(size);
  return R"(<opencv_storage><cascade type_id="opencv-cascade-classifier"><stageType>BOOST</stageType>
  <featureType>HAAR</featureType><height>)" + n + "</height><width>" + n + R"(</width><stageNum>1</stageNum>
  <stages><_><maxWeakCount>1</maxWeakCount><stageThreshold>-1.0e9</stageThreshold><weakClassifiers>)" + weak +
         R"(</weakClassifiers></_></stages>
  <features><_><rects><_>0 0 )" + n + " " + n + R"( -1.</_><_>0 0 )" + n + R"( 1 2.</_></rects></_></features>
</cascade></opencv_storage>)";
}

ref::IntegralImages flat_integrals(int w, int h) {
  std::vector<uint8_t> gray(static_cast<size_t>(w) * h);
  for (size_t i = 0; i < gray.size(); ++i) gray[i] = static_cast<uint8_t>(i * 7 % 251);
  return ref::integral_images(gray, w, h);
}

TEST(ScanPlan, NoWindowThatFitsIsAnErrorThatSaysSo) {
  const ref::HaarCascade c = ref::parse_haar_cascade(small_cascade());  // 6 x 6
  const ref::ScanPlan none = ref::plan_scan(c, 5, 8, 1.25, 1.0);
  EXPECT_EQ(none.windows, 0u);
  EXPECT_TRUE(none.scales.empty());
  try {
    ref::require_windows(c, none);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "no window of the cascade (6x6) fits in the image (5x8)");
  }
  const ref::ScanPlan one = ref::plan_scan(c, 6, 6, 1.25, 1.0);
  EXPECT_EQ(one.windows, 1u);
  EXPECT_NO_THROW(ref::require_windows(c, one));
  // A window that the image would hold but kMaxWindow does not.
  const ref::HaarCascade big = ref::parse_haar_cascade(pass_all_cascade(5000, 1));
  try {
    ref::require_windows(big, ref::plan_scan(big, 6000, 5000, 1.25, 1.0));
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "no window of the cascade (5000x5000) fits in the image (6000x5000): windows are limited "
                           "to 4096 pixels");
  }
}

TEST(Cascade, CostlyCascadeStopsAtTheLimit) {
  const int w = 40, h = 30, stumps = 7;
  const ref::HaarCascade c = ref::parse_haar_cascade(pass_all_cascade(3, stumps));
  const ref::ScanPlan plan = ref::plan_scan(c, w, h, 1.25, 1.0);
  const ref::IntegralImages ii = flat_integrals(w, h);
  // Every window passes every classifier: exactly `stumps` evaluations per window.
  const auto r = ref::run_cascade(c, plan, ii, stumps);
  EXPECT_EQ(r.survivors, std::vector<uint32_t>{plan.windows});
  try {
    ref::run_cascade(c, plan, ii, stumps - 1);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cascade too costly: more than 6 weak-classifier evaluations per window on average (" +
                                         std::to_string(plan.windows) +
                                         " windows x 1 stage, 7 weak classifiers; OpenCV's frontal face takes about 40)");
  }
  // The default limit: 300 stumps that every window runs are too many; a real cascade's few are not.
  const ref::HaarCascade costly = ref::parse_haar_cascade(pass_all_cascade(3, 300));
  EXPECT_THROW(ref::run_cascade(costly, ref::plan_scan(costly, w, h, 1.25, 1.0), ii), std::runtime_error);
  const ref::HaarCascade small = ref::parse_haar_cascade(small_cascade());
  EXPECT_NO_THROW(ref::run_cascade(small, ref::plan_scan(small, w, h, 1.25, 1.0), ii));
}

// OpenCV's groupRectangles as the reference had it before the grid: every pair compared.
std::vector<ref::Detection> group_all_pairs(const std::vector<ref::Detection>& raw, int min_neighbors, double eps) {
  auto similar = [&](const ref::Detection& a, const ref::Detection& b) {
    const double delta = eps * (std::min(a.w, b.w) + std::min(a.h, b.h)) * 0.5;
    return std::abs(a.x - b.x) <= delta && std::abs(a.y - b.y) <= delta && std::abs(a.x + a.w - b.x - b.w) <= delta &&
           std::abs(a.y + a.h - b.y - b.h) <= delta;
  };
  auto cv_round = [](double v) { return static_cast<int>(std::nearbyint(v)); };
  const size_t n = raw.size();
  std::vector<size_t> parent(n);
  for (size_t i = 0; i < n; ++i) parent[i] = i;
  auto root = [&](size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  for (size_t i = 0; i < n; ++i)
    for (size_t j = i + 1; j < n; ++j)
      if (similar(raw[i], raw[j])) parent[root(i)] = root(j);
  std::vector<int> label(n), class_of_root(n, -1);
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
    sx[c] += raw[i].x, sy[c] += raw[i].y, sw[c] += raw[i].w, sh[c] += raw[i].h;
    ++weight[c];
  }
  std::vector<ref::Detection> mean(classes);
  for (int c = 0; c < classes; ++c) {
    const float s = 1.0f / weight[c];
    mean[c] = {cv_round(sx[c] * s), cv_round(sy[c] * s), cv_round(sw[c] * s), cv_round(sh[c] * s)};
  }
  std::vector<ref::Detection> out;
  for (int i = 0; i < classes; ++i) {
    const ref::Detection& r1 = mean[i];
    const int n1 = weight[i];
    if (n1 <= min_neighbors) continue;
    bool inside = false;
    for (int j = 0; j < classes && !inside; ++j) {
      const int n2 = weight[j];
      if (j == i || n2 <= min_neighbors) continue;
      const ref::Detection& r2 = mean[j];
      const int dx = cv_round(r2.w * eps), dy = cv_round(r2.h * eps);
      inside = r1.x >= r2.x - dx && r1.y >= r2.y - dy && r1.x + r1.w <= r2.x + r2.w + dx &&
               r1.y + r1.h <= r2.y + r2.h + dy && (n2 > std::max(3, n1) || n1 < 3);
    }
    if (!inside) out.push_back(r1);
  }
  std::sort(out.begin(), out.end(), [](const ref::Detection& a, const ref::Detection& b) {
    return a.y != b.y ? a.y < b.y : a.x != b.x ? a.x < b.x : a.w < b.w;
  });
  return out;
}

std::string text(const std::vector<ref::Detection>& v) {
  std::string s;
  for (const auto& d : v)
    s += "(" + std::to_string(d.x) + "," + std::to_string(d.y) + "," + std::to_string(d.w) + "," + std::to_string(d.h) + ")";
  return s;
}

// Random detections in clusters (faces and their near misses at several sizes), lone ones, small
// ones inside big ones, some at negative coordinates.
std::vector<ref::Detection> random_detections(std::mt19937& rng, int n) {
  std::uniform_int_distribution<int> pos(-50, 400), size(3, 120), jitter(-6, 6), count(1, 12);
  std::vector<ref::Detection> v;
  while (static_cast<int>(v.size()) < n) {
    const int x = pos(rng), y = pos(rng), s = size(rng), k = count(rng);
    for (int i = 0; i < k; ++i) {
      const int ws = std::max(1, s + jitter(rng) * s / 24), hs = rng() % 4 == 0 ? std::max(1, ws + jitter(rng)) : ws;
      v.push_back({x + jitter(rng) * s / 24, y + jitter(rng) * s / 24, ws, hs});
      if (rng() % 8 == 0) v.push_back(v.back());  // duplicates
    }
  }
  return v;
}

TEST(Grouping, GridFindsWhatAllPairsFind) {
  std::mt19937 rng(12345);
  for (int trial = 0; trial < 60; ++trial) {
    const auto raw = random_detections(rng, 20 + trial * 15);
    for (int min_neighbors : {0, 1, 3})
      for (double eps : {0.05, 0.2, 0.5}) {
        const auto want = group_all_pairs(raw, min_neighbors, eps), got = ref::group_detections(raw, min_neighbors, eps);
        ASSERT_EQ(text(got), text(want)) << "trial " << trial << ", min_neighbors " << min_neighbors << ", eps " << eps;
      }
  }
}

TEST(Grouping, UnmatchedFindsWhatAllPairsFind) {
  std::mt19937 rng(777);
  for (int trial = 0; trial < 60; ++trial) {
    const auto a = random_detections(rng, 10 + trial * 5), b = random_detections(rng, 10 + trial * 3);
    for (double t : {0.1, 0.5, 0.8}) {
      size_t want = 0;
      for (const auto& x : a) {
        bool found = false;
        for (const auto& y : b) found = found || ref::overlap(x, y) > t;
        want += !found;
      }
      ASSERT_EQ(ref::unmatched(a, b, t), want) << "trial " << trial << ", overlap " << t;
    }
  }
  EXPECT_EQ(ref::unmatched({{0, 0, 10, 10}}, {}, 0.5), 1u);
  EXPECT_THROW(ref::unmatched({}, {}, 0.0), std::invalid_argument);
}

// Every window detected (a cascade that passes all): the grouping compares near neighbours only,
// where all pairs of these 100,000 windows would take minutes.
TEST(Grouping, EveryWindowDetectedGroupsInBoundedTime) {
  const ref::HaarCascade c = ref::parse_haar_cascade(pass_all_cascade(24, 1));
  const ref::ScanPlan plan = ref::plan_scan(c, 256, 256, 1.25, 1.0);
  ASSERT_GT(plan.windows, 100000u);
  const auto raw = ref::raw_detections(plan, std::vector<uint8_t>(plan.windows, 1), 1);
  ASSERT_EQ(raw.size(), plan.windows);
  const auto grouped = ref::group_detections(raw, 3, 0.2);
  EXPECT_FALSE(grouped.empty());
  EXPECT_LT(grouped.size(), raw.size() / 4);
  EXPECT_EQ(ref::unmatched(grouped, grouped, 0.5), 0u);
}

TEST(Photo, TilesAndStandIn) {
  const ref::Photo p = ref::generated_photo(8, 4, 3);
  EXPECT_FALSE(p.real);
  ASSERT_EQ(p.rgba.size(), 8u * 4 * 4);
  EXPECT_EQ(p.rgba, ref::generated_photo(8, 4, 3).rgba);  // deterministic
  const ref::Photo t = ref::tile_photo(p, 3, 2);
  EXPECT_EQ(t.width, 24);
  EXPECT_EQ(t.height, 8);
  for (int y = 0; y < t.height; ++y)
    for (int x = 0; x < t.width; ++x)
      ASSERT_EQ(t.rgba[(y * 24 + x) * 4 + 1], p.rgba[((y % 4) * 8 + x % 8) * 4 + 1]);
  EXPECT_FALSE(ref::decode_photo("/nonexistent.png").has_value());
}

// The host detector finds Eileen Collins' face in skimage's astronaut (512 x 512) where it is.
TEST(Detector, FindsTheAstronautsFace) {
  if (!readable(kRealCascade)) GTEST_SKIP() << "no cascade (opencv-data)";
  const auto photo = ref::load_photo(kAstronaut);
  if (!photo) {
    if (ci()) FAIL() << kAstronaut << " missing under CI=true (Debian package python3-skimage)";
    GTEST_SKIP() << kAstronaut << " missing (Debian package python3-skimage; or GPU_BENCH_IMAGE_DIR)";
  }
  const ref::HaarCascade c = ref::load_haar_cascade(kRealCascade);
  const ref::ScanPlan plan = ref::plan_scan(c, photo->width, photo->height, 1.25, 1.0);
  const auto r = ref::run_cascade(c, plan, ref::integral_images(ref::grayscale(photo->rgba, 512, 512), 512, 512));
  for (size_t st = 1; st < r.survivors.size(); ++st) EXPECT_LE(r.survivors[st], r.survivors[st - 1]);
  const auto faces = ref::group_detections(ref::raw_detections(plan, r.depth, 25), 3, 0.2);
  bool found = false;
  for (const auto& f : faces) {
    const int cx = f.x + f.w / 2, cy = f.y + f.h / 2;
    found = found || (cx >= 170 && cx <= 250 && cy >= 70 && cy <= 170 && f.w >= 48 && f.w <= 160);
  }
  EXPECT_TRUE(found) << faces.size() << " detections, none on the face";
}

}  // namespace
