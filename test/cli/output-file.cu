// -o writes the rewrite to a file and nothing to stdout; remarks go to stderr.
// RUN: %irregfix %inputs/spmv.cu -o %t.out -- %stub > %t.stdout 2> %t.stderr
// RUN: count 0 < %t.stdout
// RUN: FileCheck %s --input-file=%t.out
// RUN: FileCheck %s --check-prefix=MSG --input-file=%t.stderr
// CHECK: __global__ void spmv_irregfix(
// MSG: spmv.cu:7:5: remark: range site in 'spmv' transformed: 'v' read through a coalesced copy indexed by 'rp'
