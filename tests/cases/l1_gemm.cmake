# L1/GEMM at --size=1 on PoCL: every kernel variant and work group, by precision, and CLBlast's
# Gemm where the build found it.
add_case_test(L1.GEMM.float "^L1/GEMM/(naive|tiled|regblock|warptile|warptile_async)/type:float/")
add_case_test(L1.GEMM.double "^L1/GEMM/(naive|tiled|regblock|warptile)/type:double/")
# mma on PoCL takes its FMA path: the same tiles, fragments and edges as the tensor-core path.
add_case_test(L1.GEMM.mma "^L1/GEMM/mma/")
if("GPU_BENCH_HAVE_CLBLAST" IN_LIST GPU_BENCH_OPTIONAL_DEFINES)
  # CI checks CLBlast's double precision at 256^3 only: its padding paths run in the float shapes.
  add_case_test(L1.GEMM.clblast "^L1/GEMM/clblast/" CI_EXCLUDE "/type:double/m:(197|96)/")
endif()

