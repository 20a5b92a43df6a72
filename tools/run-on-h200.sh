#!/bin/sh
# The runs behind docs/PERFORMANCE.md, on a lent NVIDIA machine: gpu_bench on the first GPU and
# the peers in the same call. Usage: tools/run-on-h200.sh PART OUTDIR   (PART: l0, l0_cv, bandwidth, fft_gemm, fft, gemm_goal, l1, l1_goal, goals, l2)
# The L1 library variants (clblast, clfft, vkfft) are the peers of FFT and GEMM; photographs and
# the cascade come from $GPU_BENCH_IMAGE_DIR when the Debian packages are not installed.
# Expects ./gpu_bench (or $GPU_BENCH); writes JSON and text under OUTDIR, prints a table last.
set -u
part=$1; out=$2
bench=${GPU_BENCH:-./gpu_bench}
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader >> "$out/gpu.txt" 2>&1
run() {  # run NAME SECONDS gpu_bench-args...
  name=$1; limit=$2; shift 2
  timeout "$limit" "$bench" --device=gpu --benchmark_out="$out/$name.json" --benchmark_out_format=json \
    "$@" > "$out/$name.txt" 2>&1
  echo "$name: exit $?" >> "$out/gpu.txt"
}
headline='^L0/(GlobalBandwidth/(read|copy|triad)/type:(float4|float16)/access:coalesced|Compute/(float|double|int32)/width:(1|4)/)'
case $part in
  l0)
    run l0 330 --benchmark_filter='^L0/' --benchmark_min_time=0.05
    run l0_reps 120 --benchmark_filter="$headline" --benchmark_min_time=0.05 --benchmark_repetitions=10 \
      --benchmark_report_aggregates_only=true
    sh "$(dirname "$0")/peers-h200.sh" "$out"
    ;;
  l0_cv)  # every L0 case (or L0_FILTER's) with its CV over 10 repetitions, beside clpeak and torch
    run l0_cv "${LIMIT:-480}" --benchmark_filter="${L0_FILTER:-^L0/}" --benchmark_min_time=0.05 \
      --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
    [ "${PEERS:-1}" = 1 ] && sh "$(dirname "$0")/peers-h200.sh" "$out"
    ;;
  bandwidth)
    run bandwidth 200 --benchmark_filter='^L0/GlobalBandwidth/(read/type:float16|copy/type:float4|triad/type:float4)/access:(coalesced|blocked|persistent)/' \
      --benchmark_min_time=0.05 --benchmark_repetitions=${REPS:-10} --benchmark_report_aggregates_only=true
    sh "$(dirname "$0")/peers-h200.sh" "$out" --global-bandwidth
    ;;
  fft_gemm)
    run fft 200 --benchmark_filter='^L1/FFT' --benchmark_min_time=0.05
    run gemm 330 --benchmark_filter='^L1/GEMM/' --benchmark_min_time=0.05 ;;
  fft)
    run fft 200 --benchmark_filter="${FFT_FILTER:-^L1/FFT}" --benchmark_min_time=0.05 ;;
  gemm_goal)
    run gemm_goal 120 --benchmark_filter='^L1/GEMM/(regblock|clblast)/type:float/m:(4096|8192)/n:(4096|8192)/k:(4096|8192)/(wg:16x(8|16)/)?size' \
      --benchmark_min_time=0.1 --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
    PEER_GEMM=1 sh "$(dirname "$0")/peers-h200.sh" "$out" --kernel-latency
    ;;
  l1)
    run l1 330 --benchmark_filter="${L1_FILTER:-^L1/(Histogram|BoxFilter|IntegralImage|Reduction|Scan|Transpose)/}" \
      --benchmark_min_time=0.03 ;;
  l1_goal)  # the memory-bound goals of issue #5: every variant and shape of the five goal cases
    run l1_goal 300 --benchmark_filter='^L1/(Histogram|Reduction|Scan|Transpose)/|^L1/BoxFilter/.*/radius:1/' \
      --benchmark_min_time=0.03 ;;
  goals)  # the goals still missed, in one call: float16 read beside clpeak, 2-D FFT 2048^2, scan,
          # histogram, box filter radius 1 (their best variants and the new ones)
    run read 150 --benchmark_filter='^L0/GlobalBandwidth/read/type:float16/access:(coalesced|blocked|persistent)' \
      --benchmark_min_time=0.05 --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
    sh "$(dirname "$0")/peers-h200.sh" "$out" --global-bandwidth
    run fft2d 150 --benchmark_filter='^L1/FFT2D/(rows_cols_split|rows_cols_wide_sweep|vkfft).*n:2048x2048' \
      --benchmark_min_time=0.05
    run l1_goals 200 --benchmark_filter='^L1/(Histogram/local|Scan/|BoxFilter/(fused|strip).*/radius:1/)' \
      --benchmark_min_time=0.05 ;;
  l2)
    run l2 150 --benchmark_filter='^L2/' --benchmark_min_time=0.05 ;;
esac
cat "$out/gpu.txt"
for f in "$out"/*.json; do python3 "$(dirname "$0")/summarize" "$f" | cut -c1-160; done
