"""The largest margin each benchmark may report at --size=1 (issue #14): every margin no looser
than twice the bound its check stands for. run_case.py holds every benchmark it runs to the first
entry that matches its name: one maximum per check, in the case's order (the `margin` counter, or
`margin_1`, `margin_2`... where a case combines checks). A margin loosened in a case, or a bound
grown past its derivation, fails the case test; a new benchmark needs an entry.

Element-wise checks (gb::check_bounded) report their largest per-element bound relative to the
largest value, so the entries below are those bounds at size 1, rounded up to one digit."""
import re

MARGINS = [
    # L0/Compute: each sampled chain within 1e-5 (float), 1e-12 (double), 2e-2 (half) of the
    # closer mad model; integers bit-exact.
    (r"^L0/Compute/\w+/type:float/", [1e-5]),
    (r"^L0/Compute/\w+/type:double/", [1e-12]),
    (r"^L0/Compute/\w+/type:half/", [2e-2]),
    (r"^L0/Compute/\w+/type:int\w*/", [0]),
    # L0/Roofline: fma chains 1e-5 of max(|x|, 1); add chains 1e-6; 128-bit read sums gamma_32 * 32.
    (r"^L0/Roofline/fma/", [2e-5]),
    (r"^L0/Roofline/add_per_read/", [1e-6, 5e-6]),
    # L0/GlobalBandwidth: read sums exact (inputs multiples of 1/128), copies and writes exact;
    # triad 3 u (|b| + |s c|) per element.
    (r"^L0/GlobalBandwidth/(read|write|copy)/", [0]),
    (r"^L0/GlobalBandwidth/triad/", [2e-7]),
    # L0 sums per work item: 1e-6 of the loads' magnitudes (LocalMemory, ConstantMemory: the
    # kernel's order replayed), gamma_n n (ImageRead, MemoryHierarchy).
    (r"^L0/LocalMemory/read/type:float/stride:1/", [3e-6]),
    (r"^L0/LocalMemory/read/type:float/stride:(2|4|8)/", [4e-6]),
    (r"^L0/LocalMemory/read/type:float/stride:(16|32)/", [6e-6]),
    (r"^L0/LocalMemory/read/type:float2/", [5e-6]),
    (r"^L0/LocalMemory/read/type:float4/", [7e-6]),
    (r"^L0/ConstantMemory/read/access:uniform/", [4e-5]),
    (r"^L0/ConstantMemory/read/access:divergent/", [2e-5]),
    (r"^L0/ImageRead/", [5e-6]),
    (r"^L0/MemoryHierarchy/pointer_chase/", [0]),
    (r"^L0/MemoryHierarchy/read/type:float4/ws:4KiB/", [3e-5]),
    (r"^L0/MemoryHierarchy/read/type:float4/ws:16KiB/", [4e-5]),
    (r"^L0/MemoryHierarchy/read/type:float4/ws:64KiB/", [7e-5]),
    (r"^L0/MemoryHierarchy/read/type:float4/", [2e-4]),
    # L0/Math: call-chain sums (1e-5 for the strict full form, else 5e-2) and the accuracy check
    # (error over the allowed ulp, margin 1).
    (r"^L0/Math/\w+/form:full/mode:strict/", [1e-5, 1.0]),
    (r"^L0/Math/", [5e-2, 1.0]),
    # L0/WorkGroup: stencil and a * x + y on multiples of 2^-8 (exact in float), integer kernels.
    (r"^L0/WorkGroup/", [0]),
    # L0/Divergence: integer recurrences, exact.
    (r"^L0/Divergence/", [0]),
    # L0/Stencil3D: multiples of 1/16 weighted 1/2 and 1/16: every sum exact.
    (r"^L0/Stencil3D/", [0]),
    # L0 host-side cases and atomics: counts and copies exact; float atomic sums of integers 1e-6.
    (r"^L0/Atomics/\w+/type:int/", [0]),
    (r"^L0/Atomics/\w+/type:float/", [1e-6]),
    (r"^L0/Enqueue/sync_cadence/", [0, 1e-6]),
    (r"^L0/(Enqueue|Transfer|CompileTime)/", [0]),
    # L0/Interference: the reference kernel's unsigned folds exact; a competitor's counters or copied
    # chunks exact.
    (r"^L0/Interference/alone/", [0]),
    (r"^L0/Interference/", [0, 0]),
    # L1 exact outputs: sums of exactly summable floats (Reduction, Scan at size 1), ints, copies,
    # counts, 8-bit filters, integral images.
    (r"^L1/(Reduction|Scan|Transpose|Histogram)/", [0]),
    # L1/BoxFilter: the working sets' copies that ran against the first, bit for bit (second check).
    (r"^L1/BoxFilter/\w+/type:rgba8/", [0, 0]),
    (r"^L1/IntegralImage/\w+/out:sum/", [0]),
    (r"^L1/IntegralImage/\w+/out:sum_sq/", [0, 0]),
    # L1/BoxFilter float: exact window sums, the division within 3 ulp (6 u of the value).
    (r"^L1/BoxFilter/\w+/type:float/", [4e-7, 0]),
    # L1/GEMM: Freivalds and sampled entries 16 eps sqrt(k); every entry of C within that of its
    # sum |a||b| (reported relative to the largest entry).
    (r"^L1/GEMM/\w+/type:float/m:256/n:256/k:256/", [4e-5, 4e-5, 9e-5]),
    (r"^L1/GEMM/\w+/type:float/m:197/n:131/k:75/", [2e-5, 2e-5, 4e-5]),
    (r"^L1/GEMM/\w+/type:float/m:96/n:200/k:136/", [3e-5, 3e-5, 7e-5]),
    (r"^L1/GEMM/\w+/type:double/m:256/n:256/k:256/", [6e-14, 6e-14, 2e-13]),
    (r"^L1/GEMM/\w+/type:double/m:197/n:131/k:75/", [4e-14, 4e-14, 7e-14]),
    (r"^L1/GEMM/\w+/type:double/m:96/n:200/k:136/", [5e-14, 5e-14, 2e-13]),
    # L1/FFT, FFT2D: every point within 16 x (1.5e-7 or, native twiddles, 6e-7 per log2 N) x the
    # RMS of its transform; the round trip twice that (and the libraries' input left unchanged);
    # our 2-D kernels' working-set copies bit for bit equal (one copy at size 1: nothing to compare).
    (r"^L1/FFT/stockham/n:256/", [4e-6, 3e-5]),
    (r"^L1/FFT/stockham/n:1024/batch:64/", [6e-6, 3e-5]),  # fft_rows_multi's short plan: its own input
    (r"^L1/FFT/stockham/n:1024/", [5e-6, 3e-5]),
    (r"^L1/FFT/stockham/n:4096/", [6e-6, 4e-5]),
    (r"^L1/FFT/stockham/n:2048/", [6e-6, 4e-5]),
    (r"^L1/FFT/stockham/n:16384/", [3e-5, 2e-4]),
    (r"^L1/FFT/stockham/n:65536/", [4e-5, 2e-4]),
    (r"^L1/FFT/stockham/n:1048576/", [4e-5, 3e-4]),
    (r"^L1/FFT/stockham_twiddle/n:\d+/.*twiddle:native/", [3e-5, 2e-4]),
    (r"^L1/FFT/stockham_twiddle/n:1024/", [5e-6, 3e-5]),
    (r"^L1/FFT/stockham_twiddle/n:16384/", [7e-6, 4e-5]),
    (r"^L1/FFT2D/pipeline4/.*/sync_every:", [9e-6, 5e-5]),  # frames: one set of buffers
    (r"^L1/FFT2D/(pipeline4|rows_transposed|rows_cols\w*)/n:(1024x512|512x1024|256x2048)/", [1e-5, 6e-5, 0]),  # 2^19 points
    (r"^L1/FFT2D/(pipeline4|rows_transposed|rows_cols\w*)/", [9e-6, 5e-5, 0]),
    (r"^L1/FFT/clfft/", [7e-6, 4e-5, 0]),
    (r"^L1/FFT2D/clfft/", [9e-6, 5e-5, 0]),
    (r"^L1/FFT/vkfft/n:256/", [2e-5, 1e-4, 0]),
    (r"^L1/FFT/vkfft/n:1024/", [2e-5, 2e-4, 0]),
    (r"^L1/FFT/vkfft/", [3e-5, 2e-4, 0]),
    (r"^L1/FFT2D/vkfft/", [4e-5, 2e-4, 0]),
    # L2: face detection stage by stage exact; lattice Boltzmann: mass 1e-6, populations each
    # within 1e-5 of the largest, Poiseuille profile 0.02, channel mass 1e-6; stable fluids: finite,
    # u, v and dye each cell within 1e-4 of the field's largest, divergence at most halved.
    (r"^L2/FaceDetection/fused/", [0] * 7),
    (r"^L2/FaceDetection/staged/", [0] * 9),
    (r"^L2/LatticeBoltzmann/", [1e-6, 1e-5, 0.02, 1e-6]),
    (r"^L2/StableFluids/", [0, 1e-4, 1e-4, 1e-4, 0.5]),
]


def reported_margins(benchmark):
    """The margins a benchmark's JSON entry reports, one per check."""
    if "margin_1" not in benchmark:
        return [benchmark["margin"]]
    margins, k = [], 1
    while f"margin_{k}" in benchmark:
        margins.append(benchmark[f"margin_{k}"])
        k += 1
    return margins


def margin_problems(benchmark):
    """Why a benchmark's margins break the table (empty: they hold)."""
    name = benchmark["name"].replace("/manual_time", "")
    for pattern, allowed in MARGINS:
        if re.search(pattern, name):
            got = reported_margins(benchmark)
            if len(got) != len(allowed):
                return [f"{name}: {len(got)} checks, margins.py lists {len(allowed)} ({pattern})"]
            return [f"{name}: margin {k + 1} is {g:g}, above the {a:g} margins.py allows ({pattern})"
                    for k, (g, a) in enumerate(zip(got, allowed)) if not g <= a * (1 + 1e-9)]
    return [f"{name}: no entry in tests/cases/margins.py"]
