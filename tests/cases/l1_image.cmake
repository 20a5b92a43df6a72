# L1 image and primitive cases (issue 5): each runs every matching benchmark at --size=1 and verifies.
add_case_test(L1.Transpose "^L1/Transpose/")
add_case_test(L1.Reduction "^L1/Reduction/")
add_case_test(L1.Scan "^L1/Scan/")
add_case_test(L1.Histogram "^L1/Histogram/")
add_case_test(L1.IntegralImage "^L1/IntegralImage/")
# CI leaves out RGBA8 at radii 3, 7 and 15: the same kernels run at radii 1 and 31. And the naive
# kernel at radius 31 (3 s of PoCL's time, the most of any box filter): its paths do not depend on
# the radius, and it runs at the smaller ones (float 1 to 15, RGBA8 1).
add_case_test(L1.BoxFilter "^L1/BoxFilter/" CI_EXCLUDE "/type:rgba8/radius:(3|7|15)/|/naive/type:(float|rgba8)/radius:31/")
