#!/bin/sh
# Session 19, call 6: the SASS of the histogram kernels (NVIDIA's PTX through triton's ptxas/nvdisasm).
set -u
R=$OUT/r; mkdir -p $R
D=.probe/s19/ptx
T=$(python3 -c "import triton, os; print(os.path.dirname(triton.__file__))" 2>/dev/null)
echo "triton at $T" > $R/log.txt
PTXAS=$(find $T / -name ptxas -type f 2>/dev/null | head -1); NVDIS=$(find $T / -name nvdisasm -type f 2>/dev/null | head -1)
echo "ptxas $PTXAS nvdisasm $NVDIS" >> $R/log.txt
$PTXAS --version >> $R/log.txt 2>&1
for v in lanes16 lanes; do
  L=16; [ $v = lanes ] && L=32
  $D/dump kernels/l1/histogram.cl "-DWG=256 -DREPLICAS=1 -DLANES=$L" > $R/$v.ptx 2>> $R/log.txt
  for ver in keep 8.7 8.5 8.4 8.3; do
    [ $ver = keep ] || sed -i "s/^\.version .*/.version $ver/" $R/$v.ptx
    if $PTXAS -arch=sm_90 -O3 -v $R/$v.ptx -o $R/$v.cubin >> $R/log.txt 2>&1; then echo "$v ptxas ok with $ver" >> $R/log.txt; break; fi
  done
  $NVDIS -c -fun histogram_local_lanes $R/$v.cubin > $R/$v.sass 2>> $R/log.txt || $NVDIS -c $R/$v.cubin > $R/$v.sass 2>> $R/log.txt
done
cat $R/log.txt | tail -20
wc -l $R/*.sass
