// Arrays that live inside a struct a pointer parameter points to (`tab->perm`,
// a row of `tab->rows`): their address needs no load, but no copy names them
// yet, and the remark says so apart from a pointer field loaded from memory
// (`node->kids`), which the launch cannot name at all. The output is the input.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: diff %s %t.out

#include <cuda_runtime.h>

struct Table {
  int perm[256];
  int rows[16][8];
};

__global__ void lookup(const Table *tab, const int *keys, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = tab->perm[keys[t] & 255] + tab->rows[keys[t] & 15][t & 7];
}
// CHECK-DAG: remark: indirect read of 'tab->perm' in 'lookup' not rewritten: the array it reads ('tab->perm') is an array inside the struct 'tab' points to (copies are made of arrays a pointer parameter or a pointer field of a by-value struct parameter names)
// CHECK-DAG: remark: indirect read of 'tab->rows' in 'lookup' not rewritten: the array it reads ('tab->rows') is an array inside the struct 'tab' points to (copies are made of arrays a pointer parameter or a pointer field of a by-value struct parameter names)

struct Node {
  const int *kids;
};

__global__ void first_kid(const Node *node, const int *which, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = node->kids[which[t]];
}
// CHECK-DAG: remark: indirect read of 'node->kids' in 'first_kid' not rewritten: the array it reads ('node->kids') is not a parameter or a pointer field of a struct parameter
// CHECK-NOT: transformed

void run(const Table *tab, const Node *node, const int *keys, int *out, int n) {
  lookup<<<(n + 127) / 128, 128>>>(tab, keys, out, n);
  first_kid<<<(n + 127) / 128, 128>>>(node, keys, out, n);
}
