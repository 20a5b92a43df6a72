// reference/haar_cascade and reference/photo: the cascade parser (a small cascade written here, the
// real one from Debian's opencv-data), the scan plan, integral images, the host cascade with its
// borderline bookkeeping, the per-stage comparison, grouping, and the astronaut's face found.
#include "reference/haar_cascade.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <fstream>

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
