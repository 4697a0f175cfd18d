// Lennard-Jones molecular dynamics with a neighbour list: the paper's MD
// evaluation program (shaped like SHOC's MD: cutoff^2 16, up to 128 neighbours,
// neighbour j of atom t at nb_list[j * n + t]), as plain CUDA.
//
// Atoms of unit mass in a periodic cubic box at number density 0.25, LJ with
// eps = 1 and sigma = 1.474 (reduced density 0.8; the cutoff 4 is 2.71 sigma;
// energy shifted to 0 there), started on a lattice at T = 1 (it melts and heats),
// velocity Verlet with dt = 0.005. The neighbour list (cutoff 4 + skin 0.4) is
// built on the GPU from a cell list every --rebuild steps; the positions change
// every step, so every lj_forces launch reads new positions through the list.
//
// Deterministic: the cell lists are sorted by atom index before the lists are
// built, each thread sums its forces in list order, energies are reduced in
// double in a fixed tree, and there are no float atomics. Two runs give
// bitwise-identical positions, and so do the original and the
// irregfix-transformed programs.
//
//   md [--atoms N] [--steps N] [--rebuild N] [--sorted] [--seed S] [--dt DT]
//      [--dump FILE] [--time-kernels]
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "system.h"

#define SAMPLE_NAME "md"
#include "../common/sample_support.cuh"

static_assert(sizeof(mdsys::Atom4) == sizeof(float4), "Atom4 must match float4");

static const int kBlock = 256;
static const int kEnergyBlocks = 256; // fixed, so the reduction order never changes
static const int kMaxNeighbors = 128;
static const double kDensity = 0.25;
static const float kCutoffSq = 16.0f;
static const float kSkin = 0.4f;
static const float kEps = 1.0f;
static const float kSigma = 1.474f;
static const double kTemperature = 1.0;

__device__ int cell_coord(float x, float cell_scale, int cells) {
  return min(static_cast<int>(x * cell_scale), cells - 1);
}

// cell_of[i] = the cell of atom i; cell_count[c] += 1 (integer atomics: the
// counts do not depend on the order).
__global__ void bin_atoms(int n, const float4 *pos, float cell_scale, int cells, int *cell_of, int *cell_count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 p = pos[i];
    int c = (cell_coord(p.z, cell_scale, cells) * cells + cell_coord(p.y, cell_scale, cells)) * cells +
            cell_coord(p.x, cell_scale, cells);
    cell_of[i] = c;
    atomicAdd(&cell_count[c], 1);
  }
}

// Exclusive scan of cell_count into cell_start (ncell + 1 entries) and cursor;
// one block: each thread scans a contiguous chunk, thread 0 scans the chunk sums.
__global__ void scan_cells(int ncell, const int *cell_count, int *cell_start, int *cursor) {
  __shared__ int sums[kBlock];
  int chunk = (ncell + blockDim.x - 1) / blockDim.x;
  int lo = min(ncell, static_cast<int>(threadIdx.x) * chunk), hi = min(ncell, lo + chunk);
  int s = 0;
  for (int c = lo; c < hi; ++c) s += cell_count[c];
  sums[threadIdx.x] = s;
  __syncthreads();
  if (threadIdx.x == 0) {
    int run = 0;
    for (int k = 0; k < static_cast<int>(blockDim.x); ++k) {
      int v = sums[k];
      sums[k] = run;
      run += v;
    }
    cell_start[ncell] = run;
  }
  __syncthreads();
  int run = sums[threadIdx.x];
  for (int c = lo; c < hi; ++c) {
    cell_start[c] = run;
    cursor[c] = run;
    run += cell_count[c];
  }
}

__global__ void fill_cells(int n, const int *cell_of, int *cursor, int *cell_atoms) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) cell_atoms[atomicAdd(&cursor[cell_of[i]], 1)] = i;
}

// The fill order inside a cell depends on scheduling: sort each cell's atoms
// by index so the neighbour lists, and the force sums, are deterministic.
__global__ void sort_cells(int ncell, const int *cell_start, int *cell_atoms) {
  int c = blockIdx.x * blockDim.x + threadIdx.x;
  if (c < ncell) {
    int lo = cell_start[c], hi = cell_start[c + 1];
    for (int k = lo + 1; k < hi; ++k) {
      int v = cell_atoms[k];
      int m = k - 1;
      while (m >= lo && cell_atoms[m] > v) {
        cell_atoms[m + 1] = cell_atoms[m];
        --m;
      }
      cell_atoms[m + 1] = v;
    }
  }
}

// Neighbours of atom t within sqrt(listsq) (minimum image), scanning the 27
// cells around t's cell in a fixed order and each cell in index order. At most
// max_nb are kept; atoms with more are counted in *overflow.
__global__ void build_neighbors(int n, const float4 *pos, float box, float inv_box, float cell_scale, int cells,
                                const int *cell_start, const int *cell_atoms, float listsq, int max_nb,
                                int *nb_count, int *nb_list, int *overflow) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float4 p = pos[t];
    int cx = cell_coord(p.x, cell_scale, cells), cy = cell_coord(p.y, cell_scale, cells),
        cz = cell_coord(p.z, cell_scale, cells);
    int cnt = 0;
    for (int dz = -1; dz <= 1; ++dz)
      for (int dy = -1; dy <= 1; ++dy)
        for (int dx = -1; dx <= 1; ++dx) {
          int c = (((cz + dz + cells) % cells) * cells + (cy + dy + cells) % cells) * cells + (cx + dx + cells) % cells;
          for (int k = cell_start[c]; k < cell_start[c + 1]; ++k) {
            int q = cell_atoms[k];
            if (q == t) continue;
            float4 r = pos[q];
            float ex = p.x - r.x, ey = p.y - r.y, ez = p.z - r.z;
            ex -= box * rintf(ex * inv_box);
            ey -= box * rintf(ey * inv_box);
            ez -= box * rintf(ez * inv_box);
            if (ex * ex + ey * ey + ez * ez < listsq) {
              if (cnt < max_nb) nb_list[cnt * n + t] = q;
              ++cnt;
            }
          }
        }
    nb_count[t] = min(cnt, max_nb);
    if (cnt > max_nb) atomicAdd(overflow, 1);
  }
}

// Lennard-Jones forces on atom t from its neighbour list; force[t].w = half of
// t's pair energies, shifted to 0 at the cutoff (the potential energy is the
// sum of the w's; without the shift, pairs crossing the cutoff would move the
// total energy by 0.01 each).
__global__ void lj_forces(int n, const int *nb_count, const int *nb_list, const float4 *pos, float4 *force,
                          float cutsq, float eps, float sigma6, float box, float inv_box) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t < n) {
    float4 pi = pos[t];
    float4 f = make_float4(0.f, 0.f, 0.f, 0.f);
    float sc6 = sigma6 / (cutsq * cutsq * cutsq);
    float eshift = sc6 * (sc6 - 1.0f); // the pair energy is shifted to 0 at the cutoff
    int cnt = nb_count[t];
    for (int j = 0; j < cnt; j++) {
      int q = nb_list[j * n + t];
      float4 pj = pos[q];
      float dx = pi.x - pj.x;
      float dy = pi.y - pj.y;
      float dz = pi.z - pj.z;
      dx -= box * rintf(dx * inv_box);
      dy -= box * rintf(dy * inv_box);
      dz -= box * rintf(dz * inv_box);
      float r2 = dx * dx + dy * dy + dz * dz;
      if (r2 < cutsq) {
        float r2inv = 1.0f / r2;
        float sr6 = sigma6 * r2inv * r2inv * r2inv;
        float fr = 24.0f * eps * sr6 * (2.0f * sr6 - 1.0f) * r2inv;
        f.x += fr * dx;
        f.y += fr * dy;
        f.z += fr * dz;
        f.w += 2.0f * eps * (sr6 * (sr6 - 1.0f) - eshift);
      }
    }
    force[t] = f;
  }
}

__device__ float wrap(float x, float box, float inv_box) {
  x -= box * floorf(x * inv_box);
  if (x >= box) x -= box;
  return x < 0.0f ? 0.0f : x;
}

// Velocity Verlet, first half: v += dt/2 f; x += dt v (wrapped into the box).
__global__ void integrate(int n, float4 *pos, float4 *vel, const float4 *force, float dt, float box,
                          float inv_box) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 f = force[i];
    float4 v = vel[i];
    float4 p = pos[i];
    v.x += 0.5f * dt * f.x;
    v.y += 0.5f * dt * f.y;
    v.z += 0.5f * dt * f.z;
    p.x = wrap(p.x + dt * v.x, box, inv_box);
    p.y = wrap(p.y + dt * v.y, box, inv_box);
    p.z = wrap(p.z + dt * v.z, box, inv_box);
    vel[i] = v;
    pos[i] = p;
  }
}

// Velocity Verlet, second half: v += dt/2 f.
__global__ void kick(int n, float4 *vel, const float4 *force, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float4 f = force[i];
    float4 v = vel[i];
    v.x += 0.5f * dt * f.x;
    v.y += 0.5f * dt * f.y;
    v.z += 0.5f * dt * f.z;
    vel[i] = v;
  }
}

// Block b: kinetic and potential energy of its grid-stride share, in double, fixed tree.
__global__ void energy_partial(int n, const float4 *vel, const float4 *force, double *kin, double *pot) {
  __shared__ double sk[kBlock];
  __shared__ double sp[kBlock];
  double k = 0.0, p = 0.0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    float4 v = vel[i];
    k += 0.5 * (static_cast<double>(v.x) * v.x + static_cast<double>(v.y) * v.y + static_cast<double>(v.z) * v.z);
    p += force[i].w;
  }
  sk[threadIdx.x] = k;
  sp[threadIdx.x] = p;
  sample::block_reduce(sk, sample::Sum());
  sample::block_reduce(sp, sample::Sum());
  if (threadIdx.x == 0) {
    kin[blockIdx.x] = sk[0];
    pot[blockIdx.x] = sp[0];
  }
}

// out[0] = sum of kin[0..m), out[1] = sum of pot[0..m); one block, fixed order.
__global__ void energy_final(int m, const double *kin, const double *pot, double *out) {
  __shared__ double sk[kBlock];
  __shared__ double sp[kBlock];
  double k = 0.0, p = 0.0;
  for (int i = threadIdx.x; i < m; i += blockDim.x) {
    k += kin[i];
    p += pot[i];
  }
  sk[threadIdx.x] = k;
  sp[threadIdx.x] = p;
  sample::block_reduce(sk, sample::Sum());
  sample::block_reduce(sp, sample::Sum());
  if (threadIdx.x == 0) {
    out[0] = sk[0];
    out[1] = sp[0];
  }
}

namespace {

struct Options {
  std::string dump;
  int atoms = 12288;
  int steps = 100;
  int rebuild = 5;
  bool sorted = false;
  unsigned long long seed = 1;
  float dt = 0.005f;
  bool time_kernels = false;
};

void usage(FILE *f) {
  std::fprintf(f,
               "usage: md [--atoms N] [--steps N] [--rebuild N] [--sorted] [--seed S] [--dt DT]\n"
               "          [--dump FILE] [--time-kernels]\n"
               "  --atoms N      atoms (default 12288; the benchmark: 12288 24576 36864 73728 262144)\n"
               "  --steps N      time steps (default 100)\n"
               "  --rebuild N    rebuild the neighbour list every N steps (default 5; skin 0.4)\n"
               "  --sorted       number atoms cell by cell (local neighbour lists); default random order\n"
               "  --seed S       seed of the displacements, numbering and velocities (default 1)\n"
               "  --dt DT        time step (default 0.005)\n"
               "  --dump FILE    write the final positions (n float4, raw bytes)\n"
               "  --time-kernels time every lj_forces launch (CUDA events) and print the median\n"
               "exit status: 0 ok, 1 bad arguments / CUDA error, 77 no CUDA device\n");
}

Options parse(int argc, char **argv) {
  using sample::parse_int;
  Options o;
  sample::parse_args(argc, argv, usage, [&](const std::string &a, auto value) {
    if (a == "--dump") o.dump = value();
    else if (a == "--atoms") o.atoms = static_cast<int>(parse_int(a, value(), 1, 1 << 24));
    else if (a == "--steps") o.steps = static_cast<int>(parse_int(a, value(), 0, 1 << 24));
    else if (a == "--rebuild") o.rebuild = static_cast<int>(parse_int(a, value(), 1, 1 << 24));
    else if (a == "--seed") o.seed = static_cast<unsigned long long>(parse_int(a, value(), 0, 1LL << 62));
    else if (a == "--sorted") o.sorted = true;
    else if (a == "--time-kernels") o.time_kernels = true;
    else if (a == "--dt")
      o.dt = static_cast<float>(sample::parse_real(a, value(), [](double v) { return v > 0.0 && v <= 0.1; }, "a number in (0, 0.1]"));
    else return false;
    return true;
  });
  return o;
}

} // namespace

int main(int argc, char **argv) {
  Options opt = parse(argc, argv);
  const float list_cut = std::sqrt(kCutoffSq) + kSkin;

  mdsys::System sys;
  try {
    sys = mdsys::make_system(opt.atoms, kDensity, list_cut, kTemperature, opt.sorted, opt.seed);
  } catch (const std::exception &e) {
    return sample::input_error(e.what());
  }
  if (sample::no_cuda_device()) return 77;

  const int n = sys.n;
  const int cells = sys.cells;
  const int ncell = cells * cells * cells;
  const float box = sys.box, inv_box = 1.0f / sys.box;
  const float cell_scale = static_cast<float>(cells) / sys.box;
  const float listsq = list_cut * list_cut;
  const float sigma6 = kSigma * kSigma * kSigma * kSigma * kSigma * kSigma;
  std::printf("atoms: %d  box: %.4f  cells: %d^3  order: %s\n", n, static_cast<double>(box), cells,
              opt.sorted ? "sorted by cell" : "random");
  std::printf("lj: eps %.3f sigma %.3f cutoff^2 %.1f  list cutoff %.2f  max neighbours %d  dt %.4f  rebuild every %d\n",
              static_cast<double>(kEps), static_cast<double>(kSigma), static_cast<double>(kCutoffSq),
              static_cast<double>(list_cut), kMaxNeighbors, static_cast<double>(opt.dt), opt.rebuild);

  const size_t n4 = static_cast<size_t>(n) * sizeof(float4);
  float4 *d_pos = nullptr, *d_vel = nullptr, *d_force = nullptr;
  int *d_cell_of = nullptr, *d_cell_count = nullptr, *d_cell_start = nullptr, *d_cursor = nullptr;
  int *d_cell_atoms = nullptr, *d_nb_count = nullptr, *d_nb_list = nullptr, *d_overflow = nullptr;
  double *d_kin = nullptr, *d_pot = nullptr, *d_energy = nullptr;
  CUDA_CHECK(cudaMalloc(&d_pos, n4));
  CUDA_CHECK(cudaMalloc(&d_vel, n4));
  CUDA_CHECK(cudaMalloc(&d_force, n4));
  CUDA_CHECK(cudaMalloc(&d_cell_of, static_cast<size_t>(n) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_cell_count, static_cast<size_t>(ncell) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_cell_start, (static_cast<size_t>(ncell) + 1) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_cursor, static_cast<size_t>(ncell) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_cell_atoms, static_cast<size_t>(n) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_nb_count, static_cast<size_t>(n) * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_nb_list, static_cast<size_t>(n) * kMaxNeighbors * sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_overflow, sizeof(int)));
  CUDA_CHECK(cudaMalloc(&d_kin, kEnergyBlocks * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_pot, kEnergyBlocks * sizeof(double)));
  CUDA_CHECK(cudaMalloc(&d_energy, 2 * sizeof(double)));
  CUDA_CHECK(cudaMemcpy(d_pos, sys.pos.data(), n4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d_vel, sys.vel.data(), n4, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_overflow, 0, sizeof(int)));
  CUDA_CHECK(cudaMemset(d_nb_list, 0, static_cast<size_t>(n) * kMaxNeighbors * sizeof(int)));

  const int grid = (n + kBlock - 1) / kBlock;
  const int cell_grid = (ncell + kBlock - 1) / kBlock;
  auto build_list = [&]() {
    CUDA_CHECK(cudaMemset(d_cell_count, 0, static_cast<size_t>(ncell) * sizeof(int)));
    bin_atoms<<<grid, kBlock>>>(n, d_pos, cell_scale, cells, d_cell_of, d_cell_count);
    CUDA_CHECK(cudaGetLastError());
    scan_cells<<<1, kBlock>>>(ncell, d_cell_count, d_cell_start, d_cursor);
    CUDA_CHECK(cudaGetLastError());
    fill_cells<<<grid, kBlock>>>(n, d_cell_of, d_cursor, d_cell_atoms);
    CUDA_CHECK(cudaGetLastError());
    sort_cells<<<cell_grid, kBlock>>>(ncell, d_cell_start, d_cell_atoms);
    CUDA_CHECK(cudaGetLastError());
    build_neighbors<<<grid, kBlock>>>(n, d_pos, box, inv_box, cell_scale, cells, d_cell_start, d_cell_atoms, listsq,
                                      kMaxNeighbors, d_nb_count, d_nb_list, d_overflow);
    CUDA_CHECK(cudaGetLastError());
  };
  auto energy = [&](double *kin, double *pot) {
    energy_partial<<<kEnergyBlocks, kBlock>>>(n, d_vel, d_force, d_kin, d_pot);
    CUDA_CHECK(cudaGetLastError());
    energy_final<<<1, kBlock>>>(kEnergyBlocks, d_kin, d_pot, d_energy);
    CUDA_CHECK(cudaGetLastError());
    double h[2] = {0.0, 0.0};
    CUDA_CHECK(cudaMemcpy(h, d_energy, sizeof(h), cudaMemcpyDeviceToHost));
    *kin = h[0];
    *pot = h[1];
  };

  // Set-up (not timed): first list and forces, initial energy.
  build_list();
  lj_forces<<<grid, kBlock>>>(n, d_nb_count, d_nb_list, d_pos, d_force, kCutoffSq, kEps, sigma6, box, inv_box);
  CUDA_CHECK(cudaGetLastError());
  double k0 = 0.0, u0 = 0.0;
  energy(&k0, &u0);

  sample::LaunchTimes kernel_times(opt.time_kernels ? opt.steps : 0);
  sample::RunTimer timer;
  timer.begin();

  for (int s = 0; s < opt.steps; ++s) {
    integrate<<<grid, kBlock>>>(n, d_pos, d_vel, d_force, opt.dt, box, inv_box);
    CUDA_CHECK(cudaGetLastError());
    if ((s + 1) % opt.rebuild == 0) build_list();
    kernel_times.before(s);
    lj_forces<<<grid, kBlock>>>(n, d_nb_count, d_nb_list, d_pos, d_force, kCutoffSq, kEps, sigma6, box, inv_box);
    CUDA_CHECK(cudaGetLastError());
    kernel_times.after(s);
    kick<<<grid, kBlock>>>(n, d_vel, d_force, opt.dt);
    CUDA_CHECK(cudaGetLastError());
  }

  const float ms = timer.end();

  double k1 = 0.0, u1 = 0.0;
  energy(&k1, &u1);
  std::vector<mdsys::Atom4> pos(static_cast<size_t>(n));
  std::vector<int> nb_count(static_cast<size_t>(n));
  int overflow = 0;
  CUDA_CHECK(cudaMemcpy(pos.data(), d_pos, n4, cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(nb_count.data(), d_nb_count, static_cast<size_t>(n) * sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(&overflow, d_overflow, sizeof(int), cudaMemcpyDeviceToHost));
  long long nb_sum = 0;
  int nb_max = 0;
  for (int c : nb_count) {
    nb_sum += c;
    nb_max = std::max(nb_max, c);
  }

  const double e0 = (k0 + u0) / n, e1 = (k1 + u1) / n;
  std::printf("steps: %d\n", opt.steps);
  std::printf("neighbours (last list): avg %.2f, max %d; lists over %d: %d\n", static_cast<double>(nb_sum) / n,
              nb_max, kMaxNeighbors, overflow);
  std::printf("temperature: initial %.4f, final %.4f\n", 2.0 * k0 / (3.0 * n), 2.0 * k1 / (3.0 * n));
  std::printf("energy per atom: initial %.6f (kinetic %.6f, potential %.6f), final %.6f (kinetic %.6f, potential %.6f)\n",
              e0, k0 / n, u0 / n, e1, k1 / n, u1 / n);
  std::printf("energy drift: %.3e per atom (%.3e relative)\n", e1 - e0, e0 != 0.0 ? (e1 - e0) / std::fabs(e0) : 0.0);
  std::printf("whole time: %.3f ms (%.4f ms per step)\n", ms, opt.steps ? ms / opt.steps : 0.0);
  kernel_times.print("lj_forces");
  sample::print_checksum(sample::fnv1a(pos.data(), pos.size() * sizeof(mdsys::Atom4)));
  if (!opt.dump.empty() && !sample::write_dump(opt.dump, {{pos.data(), pos.size() * sizeof(mdsys::Atom4)}}))
    return 1;

  kernel_times.destroy();
  timer.destroy();
  CUDA_CHECK(cudaFree(d_pos));
  CUDA_CHECK(cudaFree(d_vel));
  CUDA_CHECK(cudaFree(d_force));
  CUDA_CHECK(cudaFree(d_cell_of));
  CUDA_CHECK(cudaFree(d_cell_count));
  CUDA_CHECK(cudaFree(d_cell_start));
  CUDA_CHECK(cudaFree(d_cursor));
  CUDA_CHECK(cudaFree(d_cell_atoms));
  CUDA_CHECK(cudaFree(d_nb_count));
  CUDA_CHECK(cudaFree(d_nb_list));
  CUDA_CHECK(cudaFree(d_overflow));
  CUDA_CHECK(cudaFree(d_kin));
  CUDA_CHECK(cudaFree(d_pot));
  CUDA_CHECK(cudaFree(d_energy));
  return 0;
}
