// Arrays inside the struct a pointer parameter points to that no copy is made
// of, each with its reason: a row of a two-dimensional member read through
// as a pointer (its elements are read where both subscripts are written), a member of a nested
// struct, a volatile struct or member, a struct whose type a kernel template's
// parameter gives, a struct the kernel writes (directly, through a local pointer into
// it, or in a function it calls), a pointer the kernel moves; an array inside a
// struct passed by value stays the kernel's arguments, and a pointer field
// loaded from memory (`node->kids`) is none the launch can name. The output is
// the input.
// RUN: %irregfix %s -- %stub > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err --implicit-check-not=transformed
// RUN: diff %s %t.out

#include <cuda_runtime.h>

struct Bucket {
  int ids[32];
};

struct Table {
  int perm[256];
  int rows[16][8];
  Bucket bucket;
  float weight[1024];
};

__global__ void row_as_pointer(const Table *tab, const int *keys, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = *(tab->rows[keys[t] & 15] + (t & 7));
}
// CHECK-DAG: remark: indirect read of 'tab->rows[keys[t] & 15]' in 'row_as_pointer' not rewritten: it reads through 'tab->rows[keys[t] & 15]', a row of the two-dimensional array 'tab->rows' inside the struct 'tab' points to (a copy of it is read where each of its dimensions is subscripted)

__global__ void nested(const Table *tab, const int *keys, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = tab->bucket.ids[keys[t] & 31];
}
// CHECK-DAG: remark: indirect read of 'tab->bucket.ids' in 'nested' not rewritten: the array it reads ('tab->bucket.ids') is an array of a struct nested inside the struct 'tab' points to (copies are made of arrays of scalars directly in it)

// Another member written: the struct is written, and with it every array in it.
__global__ void writes_a_member(Table *tab, const int *keys, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    out[t] = tab->weight[keys[t]];
    tab->perm[t & 255] = t;
  }
}
// CHECK-DAG: remark: gather site in 'writes_a_member' not transformed: 'tab->weight' lies in the struct 'tab' points to, which the kernel writes

__global__ void writes_through_local(Table *tab, const int *keys, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  float *w = tab->weight;
  if (t < n) {
    out[t] = tab->weight[keys[t]];
    w[t] = 0.f;
  }
}
// CHECK-DAG: remark: gather site in 'writes_through_local' not transformed: 'tab->weight' lies in the struct 'tab' points to, which the kernel writes

__device__ void reset(Table *x, int t) { x->perm[t & 255] = 0; }

__global__ void writes_in_callee(Table *tab, const int *keys, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    out[t] = tab->weight[keys[t]];
    reset(tab, t);
  }
}
// CHECK-DAG: remark: gather site in 'writes_in_callee' not transformed: 'tab->weight' lies in the struct 'tab' points to, which the kernel writes

__global__ void moves_the_pointer(const Table *tab, const int *keys, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  tab += keys[0];
  out[t] = tab->weight[keys[t]];
}
// CHECK-DAG: remark: indirect read of 'tab->weight' in 'moves_the_pointer' not rewritten: the array it reads ('tab->weight') is an array inside the struct 'tab' points to, and 'moves_the_pointer' assigns 'tab' (reads through it are not followed)

__global__ void by_value(Table tab, const int *keys, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = tab.perm[keys[t] & 255];
}
// CHECK-DAG: remark: indirect read of 'tab.perm' in 'by_value' not rewritten: it reads kernel arguments ('tab.perm', an array inside a struct the kernel takes by value), which the launch passes with the call: there is no device memory to copy

struct Flags {
  volatile int seen[64];
};

__global__ void volatile_struct(volatile Table *tab, const int *keys, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = tab->weight[keys[t]];
}
// CHECK-DAG: remark: indirect read of 'tab->weight' in 'volatile_struct' not rewritten: the array it reads ('tab->weight') is an array inside the struct 'tab' points to, which is volatile (copies are made of arrays of scalars directly in it)

__global__ void volatile_elements(const Flags *flags, const int *keys, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = flags->seen[keys[t]];
}
// CHECK-DAG: remark: indirect read of 'flags->seen' in 'volatile_elements' not rewritten: the array it reads ('flags->seen') is an array inside the struct 'flags' points to, of volatile elements (copies are made of arrays of scalars directly in it)

// The launcher would name the struct's type, another in each instantiation.
template <class S> __global__ void any_table(const S *tab, const int *keys, float *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = tab->weight[keys[t]];
}
// CHECK-DAG: remark: gather site in 'any_table' not transformed: arrays inside a struct whose type depends on the kernel template's parameters are not supported yet

struct Node {
  const int *kids;
};

__global__ void first_kid(const Node *node, const int *which, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = node->kids[which[t]];
}
// CHECK-DAG: remark: indirect read of 'node->kids' in 'first_kid' not rewritten: the array it reads ('node->kids') is not a parameter or a pointer field of a struct parameter

// A member of two dimensions keeps every rule of one of one dimension: a
// store anywhere into the struct writes it, a call of a recursive function
// may write anything, an element whose address is taken is no plain read,
// and a function given the member as a pointer reads its rows, not the flat
// array a copy is made of.
struct Grid {
  int cells[32][16];
  int marks[64];
};

__global__ void writes_beside_rows(Grid *grid, const int *keys, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    out[t] = grid->cells[keys[t] & 31][t & 15];
    grid->marks[t & 63] = 1;
  }
}
// CHECK-DAG: remark: indirect read of 'grid->cells' in 'writes_beside_rows' not rewritten: 'grid->cells' lies in the struct 'grid' points to, which the kernel writes

__device__ int walk(const Grid *g, int r, int k) { return k <= 0 ? 0 : 1 + walk(g, r, g->cells[r][k - 1] & 15); }

__global__ void calls_recursive(const Grid *grid, const int *keys, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = grid->cells[keys[t] & 31][0] + walk(grid, keys[t] & 31, 3);
}
// CHECK-DAG: remark: indirect read of 'grid->cells' in 'calls_recursive' not rewritten: the kernel may write memory the analysis cannot name: it calls 'walk', which calls 'walk' recursively

__global__ void address_of_element(const Grid *grid, const int *keys, const int **out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = &grid->cells[keys[t] & 31][1];
}
// CHECK-DAG: remark: indirect read of 'grid->cells' in 'address_of_element' not rewritten: the element is written or its address is taken

__device__ int first_in(const int (*rows)[16], int r) { return rows[r][0]; }

__global__ void rows_passed(const Grid *grid, const int *keys, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = first_in(grid->cells, keys[t] & 31);
}
// CHECK-DAG: remark: indirect read of 'rows' in 'rows_passed' (in 'first_in') not rewritten: 'rows' of 'first_in' is not an array the kernel passes unchanged (the call passes 'grid->cells'): it points to the rows of 'grid->cells', an array of several dimensions (a copy of it is read where each of its dimensions is subscripted)

void run(Table *tab, const Table &host, const Flags *flags, const Node *node, const int *keys, int *out, float *weights,
         int n) {
  row_as_pointer<<<(n + 127) / 128, 128>>>(tab, keys, out, n);
  nested<<<(n + 127) / 128, 128>>>(tab, keys, out, n);
  writes_a_member<<<(n + 127) / 128, 128>>>(tab, keys, weights, n);
  writes_through_local<<<(n + 127) / 128, 128>>>(tab, keys, weights, n);
  writes_in_callee<<<(n + 127) / 128, 128>>>(tab, keys, weights, n);
  moves_the_pointer<<<(n + 127) / 128, 128>>>(tab, keys, weights, n);
  by_value<<<(n + 127) / 128, 128>>>(host, keys, out, n);
  first_kid<<<(n + 127) / 128, 128>>>(node, keys, out, n);
  volatile_struct<<<(n + 127) / 128, 128>>>(tab, keys, weights, n);
  volatile_elements<<<(n + 127) / 128, 128>>>(flags, keys, out, n);
  any_table<<<(n + 127) / 128, 128>>>(tab, keys, weights, n);
}

void run_grid(Grid *grid, const int *keys, int *out, const int **where, int n) {
  writes_beside_rows<<<(n + 127) / 128, 128>>>(grid, keys, out, n);
  calls_recursive<<<(n + 127) / 128, 128>>>(grid, keys, out, n);
  address_of_element<<<(n + 127) / 128, 128>>>(grid, keys, where, n);
  rows_passed<<<(n + 127) / 128, 128>>>(grid, keys, out, n);
}
