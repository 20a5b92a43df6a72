// Viola-Jones face detection on the host, the reference for L2/FaceDetection: OpenCV's Haar cascade
// XML (the "opencv-cascade-classifier" format of haarcascade_frontalface_default.xml, stumps,
// upright features) parsed with tinyxml2; the scan plan (features scaled, not the image, as classic
// VJ); grayscale, integral and squared-integral images; the cascade at every window with
// per-stage survivors and the windows whose result rests on a float rounding; and OpenCV's
// grouping of overlapping detections.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace ref {

// ---- the cascade, as trained (24 x 24 window) -------------------------------------------------
struct HaarRect {
  int x = 0, y = 0, w = 0, h = 0;
  float weight = 0;
};
// A stump: value = sum of weight * pixel sum over the rects; value < threshold * norm -> left.
struct HaarNode {
  HaarRect rects[3];
  int rect_count = 0;  // 2 or 3
  float threshold = 0, left = 0, right = 0;
};
// Passes when the sum of its nodes' leaves is >= threshold.
struct HaarStage {
  int first = 0, count = 0;  // nodes [first, first + count)
  float threshold = 0;
};
struct HaarCascade {
  int width = 0, height = 0;
  std::vector<HaarStage> stages;
  std::vector<HaarNode> nodes;
};

// Throws std::runtime_error naming the file (or "XML") and what is wrong: unreadable, another
// format (old "opencv-haar-classifier", LBP, trees, tilted features), a missing element.
HaarCascade load_haar_cascade(const std::string& path);
HaarCascade parse_haar_cascade(const std::string& xml_text);

// ---- the scan plan: every scale's window grid and scaled features ------------------------------
// Offsets are into an integral image of row stride `stride` ((image width + 1) entries), relative
// to the window's top-left corner: a rect's pixel sum is I[tl] - I[tl + w] - I[tl + hs] + I[tl + hs + w].
struct ScaledRect {
  int tl = 0, w = 0, hs = 0;  // top-left offset, width, height * stride
  float weight = 0;           // rect 0's weight corrected so that the scaled feature sums to zero
};
struct ScanScale {
  double factor = 1;
  int size = 0;        // window edge in pixels, round(24 * factor)
  int step = 1;        // pixels between windows, max(1, round(step * factor))
  int nx = 0, ny = 0;  // windows across and down
  uint32_t first_window = 0;
  ScaledRect norm;     // the variance window: the trained window less a one-pixel border
  int norm_area = 0;
  std::vector<ScaledRect> rects;  // 3 per node (rects beyond a node's count have weight 0)
};
struct ScanPlan {
  int width = 0, height = 0, stride = 0;  // image size; integral image row stride (width + 1)
  double scale_factor = 1.2, step = 1;
  std::vector<ScanScale> scales;
  uint32_t windows = 0;  // over all scales
};
// Scales factor^k from 1 while the window (every scaled rect included) fits the image and kMaxWindow.
// The plan has no scale at all when the cascade's own window does not fit (see require_windows).
constexpr int kMaxWindow = 4096;
ScanPlan plan_scan(const HaarCascade& c, int width, int height, double scale_factor, double step);
// Throws std::runtime_error "no window of the cascade (WxH) fits in the image (WxH)" when the plan
// has no window (with ": windows are limited to 4096 pixels" where the image is not the reason).
void require_windows(const HaarCascade& c, const ScanPlan& plan);

// Window id -> scale index and top-left pixel.
struct Window {
  int scale = 0, x = 0, y = 0, size = 0;
};
Window window_at(const ScanPlan& plan, uint32_t id);

// ---- images ----------------------------------------------------------------------------------
// RGBA (8 bits each) to gray: (77 R + 150 G + 29 B + 128) >> 8, exactly as the device.
std::vector<uint8_t> grayscale(const std::vector<uint8_t>& rgba, int width, int height);
struct IntegralImages {
  int width = 0, height = 0, stride = 0;  // (width + 1) x (height + 1), first row and column zero
  std::vector<uint32_t> sum;              // modulo 2^32: differences over a window stay exact
  std::vector<uint64_t> sqsum;
};
IntegralImages integral_images(const std::vector<uint8_t>& gray, int width, int height);

// ---- the cascade over every window -------------------------------------------------------------
// Float rounding: the host decides each node as the device computes it (fp32, same order), and
// marks a window "borderline" from the first node whose decision a conforming OpenCL device could
// take the other way: an fma contraction of the feature's products, or a sqrt up to kSqrtUlps from
// correctly rounded (OpenCL's limit for fp32 sqrt without -cl-fp32-correctly-rounded-divide-sqrt).
// Stage sums are plain adds in a fixed order, the same on every device.
constexpr int kSqrtUlps = 3;
constexpr uint8_t kNotBorderline = 255;

struct CascadeResult {
  std::vector<uint8_t> depth;       // per window: stages passed (stages.size() = detected)
  std::vector<uint8_t> borderline;  // per window: first borderline stage, or kNotBorderline
  std::vector<uint32_t> survivors;  // per stage: windows that passed it
};
// The work is bounded: a cascade whose weak classifiers would be evaluated more than
// `max_evaluations_per_window` times per window on average (over the whole plan) stops early with
// std::runtime_error "cascade too costly: more than L weak-classifier evaluations per window on
// average (N windows x M stages, K weak classifiers; ...)". OpenCV's frontal-face cascade takes
// 36-39 on the astronaut and Messi, at every size; a cascade that lets most windows through many
// classifiers (say, one stage of 1000 stumps) is what the limit stops, after at most about 7 times
// the frontal face's time on the same image.
constexpr uint64_t kMaxEvaluationsPerWindow = 256;
CascadeResult run_cascade(const HaarCascade& c, const ScanPlan& plan, const IntegralImages& ii,
                          uint64_t max_evaluations_per_window = kMaxEvaluationsPerWindow);

// Device result against the reference, per stage: a window counts as a mismatch at stage k when
// one side has it surviving k and the other not; it is excused when the reference marks it
// borderline at a stage both sides reached.
struct StageComparison {
  std::vector<uint32_t> mismatches;  // per stage, not excused
  std::vector<uint32_t> excused;     // per stage
  uint32_t total_mismatches = 0, total_excused = 0;
};
StageComparison compare_stages(const CascadeResult& want, const std::vector<uint8_t>& got_depth, int stages);

// ---- detections ------------------------------------------------------------------------------
struct Detection {
  int x = 0, y = 0, w = 0, h = 0;
};
// Raw detections (windows that pass every stage) above this are refused by L2/FaceDetection
// ("cascade too costly: N raw detections above the limit 262144"): OpenCV's frontal face finds
// about 11,000 at size 4 (16 x 16 astronauts); a cascade that passes every window, about 3 per
// pixel (785,000 at size 1, hundreds of millions at size 4). Grouping 262,144 takes up to about
// 2.5 s on one core (densely packed 24-pixel windows; sparse ones far less).
constexpr size_t kMaxRawDetections = size_t(1) << 18;
std::vector<Detection> raw_detections(const ScanPlan& plan, const std::vector<uint8_t>& depth, int stages);
// OpenCV's groupRectangles: cluster rectangles within eps of each other, keep clusters of more than
// min_neighbors, average them, and drop small ones inside a stronger neighbour. Widths and heights
// are positive. The same result as OpenCV's pairwise loops, but only near neighbours are compared
// (a grid of cells): time grows with the detections times their neighbours, not their square.
std::vector<Detection> group_detections(const std::vector<Detection>& raw, int min_neighbors = 3,
                                        double eps = 0.2);
double overlap(const Detection& a, const Detection& b);  // intersection over union
// How many of `a` have no detection in `b` that overlaps them by more than `min_overlap` (> 0)
// intersection over union; near neighbours only, as group_detections.
size_t unmatched(const std::vector<Detection>& a, const std::vector<Detection>& b, double min_overlap);

}  // namespace ref
