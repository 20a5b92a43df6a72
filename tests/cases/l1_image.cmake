# L1 image and primitive cases (issue 5): each runs every matching benchmark at --size=1 and verifies.
add_case_test(L1.Transpose "^L1/Transpose/")
add_case_test(L1.Reduction "^L1/Reduction/")
add_case_test(L1.Scan "^L1/Scan/")
add_case_test(L1.Histogram "^L1/Histogram/")
add_case_test(L1.IntegralImage "^L1/IntegralImage/")
# CI leaves out RGBA8 at radii 3, 7 and 15: the same kernels run at radii 1 and 31.
add_case_test(L1.BoxFilter "^L1/BoxFilter/" CI_EXCLUDE "/type:rgba8/radius:(3|7|15)/")
