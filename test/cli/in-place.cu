// -i rewrites in place, through a temporary file and a rename: no temporary is left behind.
// RUN: rm -rf %t.dir && mkdir -p %t.dir && cp %inputs/spmv.cu %t.dir/spmv.cu
// RUN: %irregfix --quiet -i %t.dir/spmv.cu -- %stub
// RUN: FileCheck %s --input-file=%t.dir/spmv.cu
// RUN: ls %t.dir | FileCheck %s --check-prefix=FILES --implicit-check-not=tmp
// CHECK: #include <irregfix/irregfix.cuh>
// CHECK: __global__ void spmv_irregfix(
// CHECK: spmv_irregfix_launch(n / 128 + 1, 128, 0, 0, n, rp, v, y);
// FILES: spmv.cu
