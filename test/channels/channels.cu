// Every channel through which a program can change the arrays a remapped copy
// is built from, one at a time. A CSR SpMV (whose values and columns irregfix
// remaps) runs five times; between runs one channel changes a source. The
// outputs of all runs go to a file: the rewritten program must write exactly
// what the original writes, under every layout, with IRREGFIX_VERIFY=1 too.
//
//   channels CHANNEL OUT.bin     (channels --list prints the channels)
//
// external.cu holds the code irregfix does not rewrite (another file).
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "external.h"

#define CHECK(call)                                                                                       \
  do {                                                                                                    \
    cudaError_t e_ = (call);                                                                              \
    if (e_ != cudaSuccess) {                                                                              \
      std::fprintf(stderr, "channels: %s failed: %s (line %d)\n", #call, cudaGetErrorString(e_), __LINE__); \
      std::exit(1);                                                                                       \
    }                                                                                                     \
  } while (0)

constexpr int kRows = 3000;
constexpr int kMaxNnz = 3000 * 33;
constexpr int kRuns = 5;

// A source that lives in a __device__ array, reached by its address.
__device__ float d_table[kMaxNnz];
// A pointer the kernels below store through.
__device__ float *g_val;

struct Mat {
  int nnz;
  float *val;
};
struct Bufs {
  float *data;
  int n;
};

__global__ void spmv(int n, const int *row, const int *col, const float *val, const float *x, float *y) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float s = 0;
    for (int k = row[t]; k < row[t + 1]; ++k)
      s += val[k] * x[col[k]];
    y[t] = s;
  }
}

__global__ void scale(float *v, int n, float by) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    v[i] *= by;
}
__global__ void halve_struct(Mat *m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < m->nnz)
    m->val[i] *= 0.5f;
}
__global__ void halve_pointer_array(float **vals, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    vals[0][i] *= 0.5f;
}
__global__ void halve_global_pointer(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    g_val[i] *= 0.5f;
}
__global__ void halve_fields(Bufs b) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < b.n)
    b.data[i] *= 0.5f;
}
__device__ void halve_at(float *v, int i) { v[i] *= 0.5f; }
__global__ void halve_through_callee(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    halve_at(v, i);
}
// Its store only the device compilation sees: the host pass irregfix reads
// finds an empty kernel.
__global__ void halve_device_only(float *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef __CUDA_ARCH__
  if (i < n)
    v[i] *= 0.5f;
#endif
}
__global__ void halve_table(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    d_table[i] *= 0.5f;
}

namespace {

struct Problem {
  int nnz = 0;
  std::vector<int> row, col;
  std::vector<float> val, x;
};

Problem make_problem() {
  Problem p;
  unsigned s = 12345;
  auto next = [&] { return s = s * 1103515245u + 12345u, (s >> 8) & 0xffffff; };
  p.row.push_back(0);
  for (int r = 0; r < kRows; ++r) {
    int len = 1 + next() % 32;
    for (int j = 0; j < len; ++j) {
      p.col.push_back(next() % kRows);
      p.val.push_back(0.25f + (next() % 1000) / 1000.0f);
    }
    p.row.push_back(static_cast<int>(p.col.size()));
  }
  p.nnz = static_cast<int>(p.col.size());
  for (int r = 0; r < kRows; ++r)
    p.x.push_back(0.5f + (next() % 1000) / 1000.0f);
  return p;
}

// What the runs share: the matrix on the device (val where the channel says),
// the vectors, and the outputs so far.
struct Run {
  Problem p;
  int *row = nullptr, *col = nullptr;
  float *val = nullptr; // the source the channels change
  float *x = nullptr, *y = nullptr;
  std::vector<float> out;
};

Run *current = nullptr;

void multiply(Run &r) {
  spmv<<<(kRows + 127) / 128, 128>>>(kRows, r.row, r.col, r.val, r.x, r.y);
  CHECK(cudaGetLastError());
  std::vector<float> y(kRows);
  CHECK(cudaMemcpy(y.data(), r.y, kRows * sizeof(float), cudaMemcpyDeviceToHost));
  r.out.insert(r.out.end(), y.begin(), y.end());
}

// Called back by external code between its own writes.
void multiply_callback(void *ctx) { multiply(*static_cast<Run *>(ctx)); }

std::vector<float> halved(const Run &r, int times) {
  std::vector<float> h(r.p.val);
  for (float &v : h)
    for (int i = 0; i < times; ++i)
      v *= 0.5f;
  return h;
}

const int kBlocks = (kMaxNnz + 255) / 256;

} // namespace

// Called by external_drive in external.cu: an entry into this file from
// code irregfix cannot see.
void channels_step(int) { multiply(*current); }

int main(int argc, char **argv) {
  static const char *const kChannels[] = {
      "none", "struct_pointer", "pointer_array", "global_pointer", "struct_fields", "device_callee",
      "unseen_kernel", "launch_api", "cooperative", "graph", "kernel_pointer", "external_host", "callback",
      "entry", "std_function", "cublas", "memcpy2d", "memcpy3d", "memset2d_columns", "memset3d", "peer",
      "to_symbol", "kernel_symbol", "managed", "mapped", "captured_spmv", "device_only"};
  if (argc == 2 && std::strcmp(argv[1], "--list") == 0) {
    for (const char *c : kChannels)
      std::printf("%s\n", c);
    return 0;
  }
  if (argc != 3) {
    std::fprintf(stderr, "usage: channels CHANNEL OUT.bin | channels --list\n");
    return 1;
  }
  const std::string ch = argv[1];
  bool known = false;
  for (const char *c : kChannels)
    known |= ch == c;
  if (!known) {
    std::fprintf(stderr, "channels: unknown channel '%s'\n", ch.c_str());
    return 1;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0)
    return 77;

  Run r;
  r.p = make_problem();
  current = &r;
  const int nnz = r.p.nnz;
  const size_t vbytes = nnz * sizeof(float);
  CHECK(cudaMalloc(&r.row, (kRows + 1) * sizeof(int)));
  CHECK(cudaMalloc(&r.col, nnz * sizeof(int)));
  CHECK(cudaMalloc(&r.x, kRows * sizeof(float)));
  CHECK(cudaMalloc(&r.y, kRows * sizeof(float)));
  CHECK(cudaMemcpy(r.row, r.p.row.data(), (kRows + 1) * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(r.col, r.p.col.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(r.x, r.p.x.data(), kRows * sizeof(float), cudaMemcpyHostToDevice));

  float *host_mapped = nullptr;
  if (ch == "to_symbol" || ch == "kernel_symbol") {
    void *table = nullptr;
    CHECK(cudaGetSymbolAddress(&table, d_table));
    r.val = static_cast<float *>(table);
  } else if (ch == "managed") {
    CHECK(cudaMallocManaged(&r.val, vbytes));
  } else if (ch == "mapped") {
    CHECK(cudaHostAlloc(&host_mapped, vbytes, cudaHostAllocMapped));
    CHECK(cudaHostGetDevicePointer(&r.val, host_mapped, 0));
  } else {
    CHECK(cudaMalloc(&r.val, vbytes));
  }
  CHECK(cudaMemcpy(r.val, r.p.val.data(), vbytes, cudaMemcpyHostToDevice));

  Mat *dm = nullptr;
  float **dvals = nullptr;
  float *other = nullptr;
  CHECK(cudaMalloc(&dm, sizeof(Mat)));
  Mat hm{nnz, r.val};
  CHECK(cudaMemcpy(dm, &hm, sizeof(Mat), cudaMemcpyHostToDevice));
  CHECK(cudaMalloc(&dvals, sizeof(float *)));
  CHECK(cudaMemcpy(dvals, &r.val, sizeof(float *), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyToSymbol(g_val, &r.val, sizeof(float *)));
  CHECK(cudaMalloc(&other, vbytes));
  cublasHandle_t blas = nullptr;
  if (ch == "cublas" && cublasCreate(&blas) != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "channels: cublasCreate failed\n");
    return 1;
  }
  cudaStream_t stream = nullptr;
  CHECK(cudaStreamCreate(&stream));

  // The SpMV captured into a graph before anything ran: the capture must not
  // leave a copy that counts as built while its remap waits in the graph.
  cudaGraphExec_t spmv_graph = nullptr;
  if (ch == "captured_spmv") {
    cudaGraph_t g = nullptr;
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    spmv<<<(kRows + 127) / 128, 128, 0, stream>>>(kRows, r.row, r.col, r.val, r.x, r.y);
    CHECK(cudaStreamEndCapture(stream, &g));
    CHECK(cudaGraphInstantiate(&spmv_graph, g, 0));
    CHECK(cudaGraphDestroy(g));
  }

  if (ch == "entry") {
    // The whole loop runs in external code that calls back channels_step.
    external_drive(r.val, nnz, kRuns);
  } else {
    for (int it = 0; it < kRuns; ++it) {
      if (ch == "callback") {
        // External code runs this file's SpMV, then halves the values.
        external_with_callback(r.val, nnz, multiply_callback, &r);
        continue;
      }
      multiply(r);
      if (it == kRuns - 1)
        break;
      const float half = 0.5f;
      std::vector<float> next = halved(r, it + 1);
      if (ch == "struct_pointer") {
        halve_struct<<<kBlocks, 256>>>(dm);
      } else if (ch == "pointer_array") {
        halve_pointer_array<<<kBlocks, 256>>>(dvals, nnz);
      } else if (ch == "global_pointer") {
        halve_global_pointer<<<kBlocks, 256>>>(nnz);
      } else if (ch == "struct_fields") {
        halve_fields<<<kBlocks, 256>>>(Bufs{r.val, nnz});
      } else if (ch == "device_only") {
        halve_device_only<<<kBlocks, 256>>>(r.val, nnz);
      } else if (ch == "device_callee") {
        halve_through_callee<<<kBlocks, 256>>>(r.val, nnz);
      } else if (ch == "unseen_kernel") {
        external_halve<<<kBlocks, 256>>>(r.val, nnz);
      } else if (ch == "launch_api") {
        float *v = r.val;
        int n = nnz;
        float by = half;
        void *args[] = {&v, &n, &by};
        CHECK(cudaLaunchKernel((const void *)scale, dim3(kBlocks), dim3(256), args, 0, nullptr));
      } else if (ch == "cooperative") {
        float *v = r.val;
        int n = nnz;
        float by = half;
        void *args[] = {&v, &n, &by};
        CHECK(cudaLaunchCooperativeKernel((const void *)scale, dim3(8), dim3(256), args, 0, nullptr));
      } else if (ch == "graph") {
        cudaGraph_t g = nullptr;
        cudaGraphExec_t exec = nullptr;
        CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
        scale<<<kBlocks, 256, 0, stream>>>(r.val, nnz, half);
        CHECK(cudaStreamEndCapture(stream, &g));
        CHECK(cudaGraphInstantiate(&exec, g, 0));
        CHECK(cudaGraphLaunch(exec, stream));
        CHECK(cudaStreamSynchronize(stream));
        CHECK(cudaGraphExecDestroy(exec));
        CHECK(cudaGraphDestroy(g));
      } else if (ch == "kernel_pointer") {
        void (*k)(float *, int, float) = scale;
        k<<<kBlocks, 256>>>(r.val, nnz, half);
      } else if (ch == "external_host") {
        external_update(r.val, nnz);
      } else if (ch == "std_function") {
        std::function<void()> f = [&] { external_update(r.val, nnz); };
        f();
      } else if (ch == "cublas") {
        if (cublasSscal(blas, nnz, &half, r.val, 1) != CUBLAS_STATUS_SUCCESS) {
          std::fprintf(stderr, "channels: cublasSscal failed\n");
          return 1;
        }
      } else if (ch == "memcpy2d") {
        CHECK(cudaMemcpy2D(r.val, vbytes, next.data(), vbytes, vbytes, 1, cudaMemcpyHostToDevice));
      } else if (ch == "memcpy3d") {
        cudaMemcpy3DParms p = {};
        p.srcPtr = make_cudaPitchedPtr(next.data(), vbytes, nnz, 1);
        p.dstPtr = make_cudaPitchedPtr(r.val, vbytes, nnz, 1);
        p.extent = make_cudaExtent(vbytes, 1, 1);
        p.kind = cudaMemcpyHostToDevice;
        CHECK(cudaMemcpy3D(&p));
      } else if (ch == "memset2d_columns") {
        // Every column of more and more rows points at x[0]: an index array changes.
        const size_t bytes = static_cast<size_t>(r.p.row[200 * (it + 1)]) * sizeof(int);
        CHECK(cudaMemset2D(r.col, bytes, 0, bytes, 1));
      } else if (ch == "memset3d") {
        CHECK(cudaMemset3D(make_cudaPitchedPtr(r.val, vbytes, vbytes, 1), 0x3c + it, make_cudaExtent(vbytes / 2, 1, 1)));
      } else if (ch == "peer") {
        CHECK(cudaMemcpy(other, next.data(), vbytes, cudaMemcpyHostToDevice));
        CHECK(cudaMemcpyPeer(r.val, 0, other, 0, vbytes));
      } else if (ch == "to_symbol") {
        CHECK(cudaMemcpyToSymbol(d_table, next.data(), vbytes));
      } else if (ch == "kernel_symbol") {
        halve_table<<<kBlocks, 256>>>(nnz);
      } else if (ch == "managed") {
        CHECK(cudaDeviceSynchronize());
        for (int i = 0; i < nnz; ++i)
          r.val[i] *= 0.5f;
      } else if (ch == "captured_spmv") {
        CHECK(cudaGraphLaunch(spmv_graph, stream));
        CHECK(cudaStreamSynchronize(stream));
        scale<<<kBlocks, 256>>>(r.val, nnz, half);
      } else if (ch == "mapped") {
        CHECK(cudaDeviceSynchronize());
        for (int i = 0; i < nnz; ++i)
          host_mapped[i] *= 0.5f;
      }
      CHECK(cudaGetLastError());
      CHECK(cudaDeviceSynchronize());
    }
  }
  CHECK(cudaDeviceSynchronize());

  FILE *f = std::fopen(argv[2], "wb");
  if (!f || std::fwrite(r.out.data(), sizeof(float), r.out.size(), f) != r.out.size() || std::fclose(f) != 0) {
    std::fprintf(stderr, "channels: cannot write %s\n", argv[2]);
    return 1;
  }
  std::printf("channels: %s: %zu values from %zu runs\n", ch.c_str(), r.out.size(), r.out.size() / kRows);
  if (blas)
    cublasDestroy(blas);
  return 0;
}
