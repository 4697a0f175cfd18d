// A called function whose index array lies in the struct its parameter
// points to, the function called at two places with pointers into one array
// of structs that the kernel writes: the calls do not bind the parameter
// alike, but each points it into memory the kernel writes, so the index may
// be read after the kernel stored it. The reason names that write, not the
// binding. A function given an array the kernel only reads keeps the reason
// of its binding. Nothing is rewritten.
// RUN: %irregfix %s -- %stub > %t.out 2> /dev/null
// RUN: diff %s %t.out
// RUN: %irregfix --report=text %s -- %stub 2> /dev/null | FileCheck %s

#include <cuda_runtime.h>

struct Group {
  int size;
  int members[4];
  int score;
};

// The weight of a group: the sum of its members' weights.
__device__ int group_weight(const Group *g, const int *weight) {
  int s = 0;
  for (int k = 0; k < g->size; ++k)
    s += weight[g->members[k]];
  return s;
}

// Each thread fills a first group of one member, then a second group that
// adds a neighbour, scoring both.
__global__ void score_groups(Group *groups, const int *weight, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    Group *mine = groups + 2 * t;
    mine->size = 1;
    mine->members[0] = t;
    mine->score = group_weight(mine, weight);
    mine[1].size = 2;
    mine[1].members[0] = t;
    mine[1].members[1] = (t + 1) % n;
    mine[1].score = group_weight(mine + 1, weight);
  }
}
// CHECK-DAG: read kernel=score_groups function=group_weight array=weight index="g->members[k]" pattern=gather in a loop verdict=not-rewritten reason="its index reads 'g->members', which the kernel writes ('g' of 'group_weight' is given 'mine', which points into 'groups')"

// The groups are only read: two calls at different offsets are a question
// of binding.
__global__ void sum_groups(const Group *groups, const int *weight, int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n)
    out[t] = group_weight(groups + 2 * t, weight) + group_weight(groups + 2 * t + 1, weight);
}
// CHECK-DAG: read kernel=sum_groups function=group_weight array=weight index="g->members[k]" pattern=gather in a loop verdict=not-rewritten reason="its index reads 'g->members' of 'group_weight', which is not an array the kernel passes unchanged
