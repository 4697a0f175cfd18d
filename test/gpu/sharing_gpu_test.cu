// GPU tests of the sharing layout (kLayoutSharing) of neighbour lists: the
// per-block sets, positions and copy against a CPU reference; a kernel that
// stages its block's elements in shared memory (stage_shared / read_shared)
// through the launch protocol, bit for bit against the original, across
// refreshes and rebuilds; the fallback when a block's elements do not fit in
// shared memory; the selector timing ELL and sharing under auto.
// Each test skips itself without a device.
#include <irregfix/irregfix.cuh>
#include <irregfix/testing.h>

#include <gtest/gtest.h>

#include "device_test.cuh"

#include <algorithm>
#include <cstring>
#include <deque>
#include <random>
#include <string>
#include <vector>

#define CK(x) ASSERT_EQ((x), cudaSuccess) << #x

namespace {

using irregfix::testing::site_counters;

std::mt19937_64 &rng() {
  static std::mt19937_64 r(12345);
  return r;
}

// SiteInfo ids outlive the sites (the stats name them).
const char *site_id(const std::string &id) {
  static std::deque<std::string> ids;
  ids.push_back(id);
  return ids.back().c_str();
}

class Sharing : public ForcedLayoutTest<irregfix::kLayoutSharing> {
public:
  template <class T> void write(T *d, const std::vector<T> &h) {
    irregfix_invalidate(d);
    ASSERT_EQ(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice), cudaSuccess);
  }
};

// ---- the CPU reference ---------------------------------------------------------

// A neighbour list: thread t reads A[NB[j*sj + t*st]] for j < count(t).
struct ListShape {
  long long n = 0, m = 0; // threads, columns (the counts' bound)
  bool j_major = true;    // NB[j*M + t]; else NB[t*M + j]
  long long M = 0;        // padded length of NB's rows
  long long sj() const { return j_major ? M : 1; }
  long long st() const { return j_major ? 1 : M; }
  size_t nb_size() const { return static_cast<size_t>(j_major ? m * M : n * M); }
};

// Per block, the sorted distinct indices in [0, na) its threads read.
struct Sets {
  long long jmax = 0;
  std::vector<std::vector<long long>> of_block;
};

template <class Idx, class Cnt>
Sets reference_sets(const std::vector<Idx> &NB, const std::vector<Cnt> *counts, const ListShape &s,
                    long long na, unsigned block) {
  Sets r;
  r.jmax = s.m;
  if (counts) {
    r.jmax = 0;
    for (Cnt c : *counts)
      r.jmax = std::max<long long>(r.jmax, static_cast<long long>(c));
  }
  r.of_block.resize((s.n + block - 1) / block);
  for (long long t = 0; t < s.n; ++t) {
    const long long cnt = counts ? std::max<long long>(0, static_cast<long long>((*counts)[t])) : s.m;
    for (long long j = 0; j < std::min(cnt, r.jmax); ++j) {
      const long long b = static_cast<long long>(NB[static_cast<size_t>(j * s.sj() + t * s.st())]);
      if (b >= 0 && b < na)
        r.of_block[t / block].push_back(b);
    }
  }
  for (auto &set : r.of_block) {
    std::sort(set.begin(), set.end());
    set.erase(std::unique(set.begin(), set.end()), set.end());
  }
  return r;
}

// Indices in [0, na), one in twenty -1 and one in twenty past A (sentinels the
// kernel guards), drawn from a window so that blocks share some.
template <class Idx> std::vector<Idx> random_list(size_t size, long long na) {
  std::vector<Idx> NB(size);
  for (auto &x : NB) {
    const unsigned r = static_cast<unsigned>(rng()() % 20);
    x = r == 0 ? static_cast<Idx>(-1) : r == 1 ? static_cast<Idx>(na + 7) : static_cast<Idx>(rng()() % na);
  }
  return NB;
}

std::vector<unsigned char> random_bytes(size_t n) {
  std::vector<unsigned char> v(n);
  for (auto &c : v)
    c = static_cast<unsigned char>(rng()());
  return v;
}

// The View of a sharing copy read back and checked against the reference: the
// sets' bounds, every set element's copy, and every valid (t, j)'s position.
template <class Idx, class Cnt>
void check_view(const irregfix::View &v, const void *copy, const std::vector<Idx> &NB,
                const std::vector<Cnt> *counts, const ListShape &s, const std::vector<unsigned char> &A,
                size_t esz, unsigned block) {
  const long long na = static_cast<long long>(A.size() / esz);
  const Sets ref = reference_sets(NB, counts, s, na, block);
  ASSERT_EQ(v.layout, irregfix::kLayoutSharing);
  ASSERT_EQ(v.n, s.n);
  ASSERT_EQ(v.width, ref.jmax);
  const size_t blocks = ref.of_block.size();
  const std::vector<int> first = download(v.block_first, blocks + 1);
  size_t most = 0;
  for (size_t b = 0; b < blocks; ++b) {
    ASSERT_EQ(first[b + 1] - first[b], static_cast<int>(ref.of_block[b].size())) << "block " << b;
    most = std::max(most, ref.of_block[b].size());
  }
  ASSERT_EQ(first[0], 0);
  EXPECT_EQ(v.shared_bytes, (most * esz + 15) / 16 * 16);
  const std::vector<unsigned char> got = download(static_cast<const unsigned char *>(copy), first[blocks] * esz);
  long long bad = 0;
  for (size_t b = 0; b < blocks; ++b)
    for (size_t i = 0; i < ref.of_block[b].size(); ++i)
      if (std::memcmp(&got[(first[b] + i) * esz], &A[ref.of_block[b][i] * esz], esz) != 0 && bad++ < 5)
        ADD_FAILURE() << "block " << b << " element " << i << " (A[" << ref.of_block[b][i] << "])";
  const std::vector<int> local = download(v.local, static_cast<size_t>(ref.jmax * s.n));
  for (long long t = 0; t < s.n; ++t) {
    const long long cnt = counts ? std::max<long long>(0, static_cast<long long>((*counts)[t])) : s.m;
    const auto &set = ref.of_block[t / block];
    for (long long j = 0; j < std::min(cnt, ref.jmax); ++j) {
      const long long x = static_cast<long long>(NB[static_cast<size_t>(j * s.sj() + t * s.st())]);
      if (x < 0 || x >= na)
        continue; // a sentinel: never read
      const int at = local[j * s.n + t];
      if ((at < 0 || at >= static_cast<int>(set.size()) || set[at] != x) && bad++ < 5)
        ADD_FAILURE() << "t=" << t << " j=" << j << " index " << x << " at " << at;
    }
  }
  EXPECT_EQ(bad, 0);
}

// ---- (a) the remap against the reference -----------------------------------------

enum class Counts { kNone, kRandom, kZero };

// Prepares a sharing copy (begin_launch gives the block size), checks it, then:
// a hit; a refresh after a write to A (poisoned copy: every element written
// again); a rebuild after a new neighbour list.
template <class Idx, class Cnt>
void remap_case(Sharing *fx, const std::string &id, const ListShape &s, Counts kind, size_t esz,
                long long na, unsigned block) {
  SCOPED_TRACE(id);
  const irregfix::SiteInfo site{site_id(id), "k", "neighbors", irregfix::kSiteShareable};
  std::vector<Idx> NB = random_list<Idx>(s.nb_size(), na);
  std::vector<Cnt> counts(s.n);
  for (auto &c : counts)
    c = static_cast<Cnt>(kind == Counts::kZero || rng()() % 8 == 0 ? 0 : rng()() % (s.m + 1));
  const bool with_counts = kind != Counts::kNone;
  const std::vector<Cnt> *cnt = with_counts ? &counts : nullptr;
  std::vector<unsigned char> A = random_bytes(static_cast<size_t>(na) * esz);
  Idx *dNB = fx->upload(NB);
  Cnt *dK = with_counts ? fx->upload(counts) : nullptr;
  unsigned char *dA = fx->upload(A);
  irregfix::View v{};
  const void *copy = nullptr;
  const dim3 grid(static_cast<unsigned>((s.n + block - 1) / block));
  auto prep = [&] {
    EXPECT_TRUE(irregfix::begin_launch(site, 0, grid, dim3(block)));
    const bool ok = irregfix::prepare_neighbors(
        site, dNB, irregfix::index_kind(dNB), s.sj(), s.st(), s.m, dK,
        with_counts ? irregfix::index_kind(dK) : irregfix::kIndexI32, s.n, dA, esz, &v, &copy, 0);
    irregfix::end_transformed_launch(site, 0);
    return ok;
  };
  ASSERT_TRUE(prep()) << site_counters(site.id).last_fallback;
  check_view(v, copy, NB, cnt, s, A, esz, block);
  ASSERT_TRUE(prep()); // hit
  std::vector<int> first = download(v.block_first, grid.x + 1);
  CK(cudaMemset(const_cast<void *>(copy), 0xA5, first.back() * esz));
  A = random_bytes(A.size());
  fx->write(dA, A);
  ASSERT_TRUE(prep()); // refresh: the copy gathered again from the kept sets
  check_view(v, copy, NB, cnt, s, A, esz, block);
  NB = random_list<Idx>(s.nb_size(), na);
  fx->write(dNB, NB);
  ASSERT_TRUE(prep()); // rebuild
  check_view(v, copy, NB, cnt, s, A, esz, block);
  const auto c = site_counters(site.id);
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.hits, 1);
  EXPECT_EQ(c.refreshes, 2);
  EXPECT_EQ(c.remaps, 3);
  EXPECT_EQ(c.fallbacks, 0) << c.last_fallback;
  EXPECT_EQ(c.layout, irregfix::kLayoutSharing);
}

TEST_F(Sharing, RemapMatchesReferenceColumnMajor) {
  // NB[j*M + t]; n not a multiple of the block; with and without counts.
  for (long long n : {1LL, 1000LL, 4097LL})
    for (unsigned block : {256u, 96u}) {
      const ListShape s{n, 24, true, n + 3};
      const std::string at = std::to_string(n) + "/" + std::to_string(block);
      remap_case<int, int>(this, "cm:" + at, s, Counts::kNone, 4, 3000, block);
      remap_case<int, int>(this, "cmc:" + at, s, Counts::kRandom, 16, 3000, block);
    }
}

TEST_F(Sharing, RemapMatchesReferenceRowMajorAndSizes) {
  // NB[t*M + j]; elements of 4, 16, 12 and 8 bytes; other index types.
  const ListShape s{5000, 20, false, 23};
  for (size_t esz : {4, 16, 12, 8})
    remap_case<int, int>(this, "rm:" + std::to_string(esz), s, esz != 12 ? Counts::kRandom : Counts::kNone,
                         esz, 2000, 128);
  remap_case<long long, unsigned>(this, "rm:ll", s, Counts::kRandom, 16, 2000, 256);
  remap_case<unsigned, long long>(this, "rm:u", ListShape{777, 9, true, 800}, Counts::kRandom, 12, 500, 64);
}

TEST_F(Sharing, EmptyListsGiveEmptySets) {
  // Every count zero: no columns, nothing to stage, the kernel still runs.
  const ListShape s{300, 5, true, 300};
  remap_case<int, int>(this, "empty", s, Counts::kZero, 4, 100, 128);
}

// ---- (b) a kernel staging its block's elements ---------------------------------

struct alignas(16) Body {
  float x, y, z, q;
};

__device__ __forceinline__ float interact(const Body &a, const Body &b) {
  const float dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
  return (dx * dx + dy * dy + dz * dz) * b.q;
}
__device__ __forceinline__ float interact(const float3 &a, const float3 &b) {
  const float dx = b.x - a.x, dy = b.y - a.y, dz = b.z - a.z;
  return dx * dx + dy * dy + dz * dz;
}

// Molecular dynamics' shape: thread t sums over its neighbours k = nb[j*sj + t*st],
// j < cnt[t], skipping -1.
template <class T>
__global__ void force_original(long long n, const int *nb, long long sj, long long st,
                               const int *cnt, const T *pos, float *f) {
  const long long t = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (t >= n)
    return;
  const T me = pos[t];
  float s = 0;
  for (int j = 0; j < cnt[t]; ++j) {
    const int k = nb[j * sj + t * st];
    if (k < 0)
      continue;
    s += interact(me, pos[k]);
  }
  f[t] = s;
}

// As the tool emits it: stage first, then read the site through read_shared.
// Permuted: a kernel that is also permutable, whose physical thread p stages
// its block's elements and works for logical_thread(v0, p).
template <class T, bool Permuted = false>
__global__ void force_transformed(long long n, const int *nb, long long sj, long long st,
                                  const int *cnt, const T *pos, float *f, irregfix::View v0,
                                  const T *v0_pos, unsigned block_offset) {
  extern __shared__ __align__(16) unsigned char stage[];
  irregfix::stage_shared(v0, v0_pos, stage, blockIdx.x + block_offset);
  const long long p = (blockIdx.x + block_offset) * (long long)blockDim.x + threadIdx.x;
  const long long t = Permuted ? irregfix::logical_thread(v0, p) : p;
  if (t >= n)
    return;
  const T me = pos[t];
  float s = 0;
  for (int j = 0; j < cnt[t]; ++j) {
    const int k = nb[j * sj + t * st];
    if (k < 0)
      continue;
    s += interact(me, irregfix::read_shared(v0, v0_pos, stage, p, j));
  }
  f[t] = s;
}

template <class T> T random_body(std::mt19937_64 &r);
template <> Body random_body<Body>(std::mt19937_64 &r) {
  std::uniform_real_distribution<float> d(-4, 4);
  return Body{d(r), d(r), d(r), d(r)};
}
template <> float3 random_body<float3>(std::mt19937_64 &r) {
  std::uniform_real_distribution<float> d(-4, 4);
  return make_float3(d(r), d(r), d(r));
}

// One MD problem on the device, launched through the generated launcher's protocol.
template <class T> struct Md {
  Sharing *fx = nullptr;
  ListShape s;
  long long na = 0;  // bodies
  long long spread = 0; // neighbours of t are drawn from [t - spread, t + spread]
  int *nb = nullptr, *cnt = nullptr;
  T *pos = nullptr;
  float *f = nullptr, *f_ref = nullptr;
  std::vector<int> hnb, hcnt;
  std::vector<T> hpos;
  irregfix::View last{}; // the View of the latest transformed launch
  bool permuted = false; // launch force_transformed<T, true> (a site that is kSitePermutable too)
  std::vector<int> label; // shuffled(): the number of the body at each place of the hidden line

  void make(Sharing *fixture, long long n, long long m, bool j_major, long long near) {
    fx = fixture;
    s = ListShape{n, m, j_major, j_major ? n : m};
    na = n;
    spread = near;
    new_list();
    nb = fx->upload(hnb);
    cnt = fx->upload(hcnt);
    new_positions();
    pos = fx->upload(hpos);
    f = fx->upload(std::vector<float>(n));
    f_ref = fx->upload(std::vector<float>(n));
  }
  // Counts up to m, neighbours near t (blocks share some), one in sixteen -1.
  void new_list() {
    hnb.assign(s.nb_size(), -1);
    hcnt.resize(s.n);
    std::mt19937_64 &r = rng();
    for (long long t = 0; t < s.n; ++t) {
      hcnt[t] = static_cast<int>(r() % (s.m + 1));
      for (long long j = 0; j < s.m; ++j) {
        const long long k = (t + static_cast<long long>(r() % (2 * spread + 1)) - spread + na) % na;
        hnb[static_cast<size_t>(j * s.sj() + t * s.st())] = r() % 16 == 0 ? -1 : static_cast<int>(k);
      }
    }
  }
  // Neighbours near on a hidden line whose bodies are numbered at random: as
  // numbered, a block's threads read far apart; in the locality order, near.
  void shuffled() {
    label.resize(na);
    for (long long i = 0; i < na; ++i)
      label[i] = static_cast<int>(i);
    std::shuffle(label.begin(), label.end(), rng());
    std::vector<int> nb(hnb.size(), -1);
    for (long long h = 0; h < na; ++h)
      for (long long j = 0; j < s.m; ++j) {
        const int was = hnb[static_cast<size_t>(j * s.sj() + label[h] * s.st())];
        nb[static_cast<size_t>(j * s.sj() + label[h] * s.st())] =
            was < 0 ? -1 : label[(h + static_cast<long long>(rng()() % (2 * spread + 1)) - spread + na) % na];
      }
    hnb.swap(nb);
    fx->write(this->nb, hnb);
  }
  void new_positions() {
    hpos.resize(na);
    for (T &p : hpos)
      p = random_body<T>(rng());
  }
  // The generated launcher: true when the transformed kernel ran.
  bool launch(const irregfix::SiteInfo &site, unsigned block, cudaStream_t stream = 0) {
    const dim3 grid(static_cast<unsigned>((s.n + block - 1) / block));
    const size_t shmem = 0;
    irregfix::View v0;
    const void *out[1];
    int chunks = 0;
    if (irregfix::begin_launch(site, stream, grid, dim3(block), shmem) && irregfix::disjoint(site, f, pos) &&
        irregfix::prepare_neighbors(site, nb, irregfix::kIndexI32, s.sj(), s.st(), s.m, cnt,
                                    irregfix::kIndexI32, s.n, pos, sizeof(T), &v0, out, stream) &&
        irregfix::start_chunks(site, stream, &chunks)) {
      for (int c = 0; c < chunks; ++c) {
        const irregfix::Chunk k = irregfix::launch_chunk(site, c, grid, stream);
        auto kernel = permuted ? force_transformed<T, true> : force_transformed<T>;
        kernel<<<k.grid, block, shmem + irregfix::shared_bytes(v0), stream>>>(
            s.n, nb, s.sj(), s.st(), cnt, pos, f, v0, static_cast<const T *>(out[0]), k.block_offset);
      }
      irregfix::end_transformed_launch(site, stream);
      last = v0;
      return true;
    }
    force_original<T><<<grid, block, shmem, stream>>>(s.n, nb, s.sj(), s.st(), cnt, pos, f);
    irregfix::end_original_launch(site, stream);
    return false;
  }
  // f against the original kernel run directly, bit for bit.
  void check(const char *when) {
    force_original<T><<<static_cast<unsigned>((s.n + 127) / 128), 128>>>(s.n, nb, s.sj(), s.st(), cnt,
                                                                          pos, f_ref);
    CK(cudaDeviceSynchronize());
    const std::vector<float> got = download(f, s.n), want = download(f_ref, s.n);
    long long bad = 0;
    for (long long t = 0; t < s.n; ++t)
      if (std::memcmp(&got[t], &want[t], sizeof(float)) != 0 && bad++ < 5)
        ADD_FAILURE() << when << ": t=" << t << " got " << got[t] << " want " << want[t];
    EXPECT_EQ(bad, 0) << when;
  }
  void poison() { CK(cudaMemset(f, 0xff, s.n * sizeof(float))); }
};

template <class T> irregfix::SiteInfo md_site(const std::string &id) {
  return irregfix::SiteInfo{site_id(id), "force", "neighbors",
                            irregfix::kSiteShareable | irregfix::kSiteChunkable,
                            reinterpret_cast<const void *>(&force_transformed<T>)};
}

// Forced sharing: first launch (a miss, in `chunks` chunks), a hit, a refresh
// after the positions change (the copy only), a rebuild after the list changes.
template <class T> void md_case(Sharing *fx, const std::string &id, bool j_major, int chunks, unsigned block) {
  SCOPED_TRACE(id);
  irregfix::testing::set_chunks(chunks);
  Md<T> md;
  md.make(fx, 20000, 32, j_major, 600);
  const irregfix::SiteInfo site = md_site<T>(id);
  md.poison();
  ASSERT_TRUE(md.launch(site, block)) << site_counters(site.id).last_fallback;
  md.check("miss");
  EXPECT_EQ(md.last.layout, irregfix::kLayoutSharing);
  EXPECT_GT(md.last.shared_bytes, 0u);
  const auto built = site_counters(site.id);
  if (chunks > 1)
    EXPECT_EQ(built.pipelined, 1);
  md.poison();
  ASSERT_TRUE(md.launch(site, block));
  md.check("hit");
  EXPECT_EQ(site_counters(site.id).hits, 1);
  md.new_positions();
  fx->write(md.pos, md.hpos);
  md.poison();
  ASSERT_TRUE(md.launch(site, block));
  md.check("refresh");
  const auto refreshed = site_counters(site.id);
  EXPECT_EQ(refreshed.refreshes, 1);
  // A refresh moves the copy alone, as many bytes as the build's copy.
  EXPECT_EQ(refreshed.bytes_remapped, 2 * built.bytes_remapped);
  md.new_list();
  fx->write(md.nb, md.hnb);
  fx->write(md.cnt, md.hcnt);
  md.poison();
  ASSERT_TRUE(md.launch(site, block));
  md.check("new list");
  const auto c = site_counters(site.id);
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.refreshes, 2);
  EXPECT_EQ(c.remaps, 3);
  EXPECT_EQ(c.launches, 4);
  EXPECT_EQ(c.fallbacks, 0) << c.last_fallback;
}

// A permutable kernel's sharing blocks group its threads in the locality order
// (Wu's clustering): on bodies numbered at random, a block's set is then a
// fraction of what it is as numbered; results bit for bit, over a hit, a
// refresh and a new list.
TEST_F(Sharing, PermutableKernelsShareOverTheLocalityOrder) {
  Md<Body> md;
  md.make(this, 20000, 32, true, 48);
  md.shuffled();
  md.permuted = true;
  auto site_for = [](const char *id) {
    return irregfix::SiteInfo{site_id(id), "force", "neighbors",
                              irregfix::kSiteShareable | irregfix::kSiteChunkable | irregfix::kSitePermutable,
                              reinterpret_cast<const void *>(&force_transformed<Body, true>)};
  };
  irregfix::testing::set_sharing_order(false);
  const irregfix::SiteInfo numbered = site_for("md:numbered");
  md.poison();
  ASSERT_TRUE(md.launch(numbered, 128)) << site_counters(numbered.id).last_fallback;
  md.check("as numbered");
  EXPECT_EQ(md.last.perm, nullptr);
  const unsigned numbered_bytes = md.last.shared_bytes;

  irregfix::testing::set_sharing_order(true);
  const irregfix::SiteInfo ordered = site_for("md:ordered");
  md.poison();
  ASSERT_TRUE(md.launch(ordered, 128)) << site_counters(ordered.id).last_fallback;
  md.check("in order");
  EXPECT_EQ(md.last.layout, irregfix::kLayoutSharing);
  EXPECT_NE(md.last.perm, nullptr);
  EXPECT_LT(2 * md.last.shared_bytes, numbered_bytes) << "as numbered " << numbered_bytes;
  md.poison();
  ASSERT_TRUE(md.launch(ordered, 128));
  md.check("hit");
  md.new_positions();
  write(md.pos, md.hpos);
  md.poison();
  ASSERT_TRUE(md.launch(ordered, 128));
  md.check("refresh");
  md.new_list();
  md.shuffled();
  write(md.cnt, md.hcnt);
  md.poison();
  ASSERT_TRUE(md.launch(ordered, 128));
  md.check("new list");
  const auto c = site_counters(ordered.id);
  EXPECT_EQ(c.launches, 4);
  EXPECT_EQ(c.hits, 1);
  EXPECT_EQ(c.fallbacks, 0) << c.last_fallback;
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("threads in the locality order"), std::string::npos) << report;
  EXPECT_NE(report.find("threads as numbered"), std::string::npos) << report;
}

TEST_F(Sharing, KernelStagingBodiesMatchesTheOriginal) {
  md_case<Body>(this, "md:body:1", true, 1, 256);
  md_case<Body>(this, "md:body:3", true, 3, 256);
  md_case<Body>(this, "md:body:rows", false, 4, 128);
}

TEST_F(Sharing, KernelStagingTwelveByteElementsMatchesTheOriginal) {
  md_case<float3>(this, "md:f3:1", true, 1, 256);
  md_case<float3>(this, "md:f3:5", false, 5, 192);
}

// IRREGFIX_VERIFY checks the hits of a sharing copy (its sources: the
// positions, the neighbour list and the counts): silent while the copy is current.
TEST_F(Sharing, VerifyChecksTheHitsOfASharingCopy) {
  irregfix::testing::set_verify(true);
  Md<Body> md;
  md.make(this, 5000, 16, true, 300);
  const irregfix::SiteInfo site = md_site<Body>("md:verify");
  ::testing::internal::CaptureStderr();
  for (const char *when : {"miss", "hit", "refresh", "hit after the refresh"}) {
    if (std::string(when) == "refresh") {
      md.new_positions();
      write(md.pos, md.hpos);
    }
    md.poison();
    EXPECT_TRUE(md.launch(site, 128)) << site_counters(site.id).last_fallback;
    md.check(when);
    EXPECT_EQ(md.last.layout, irregfix::kLayoutSharing) << when;
  }
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  const auto c = site_counters(site.id);
  EXPECT_EQ(c.hits, 2);
  EXPECT_EQ(c.refreshes, 1);
  EXPECT_EQ(c.verified, 2);
}

// The copy is built for the launch's block size: another block size is another copy.
TEST_F(Sharing, BlockSizeIsPartOfTheKey) {
  Md<Body> md;
  md.make(this, 5000, 16, true, 300);
  const irregfix::SiteInfo site = md_site<Body>("md:blocks");
  for (unsigned block : {128u, 256u, 128u}) {
    md.poison();
    ASSERT_TRUE(md.launch(site, block)) << site_counters(site.id).last_fallback;
    md.check(("block " + std::to_string(block)).c_str());
  }
  const auto c = site_counters(site.id);
  EXPECT_EQ(c.misses, 2);
  EXPECT_EQ(c.hits, 1);
  EXPECT_EQ(irregfix::testing::cached_entries(), 2u);
}

// A launch that may not stage (dynamic shared memory of its own, two-dimensional
// blocks, a site that is not shareable, or hoisted) gets ELL under forced sharing.
TEST_F(Sharing, LaunchesThatMayNotShareGetEll) {
  std::vector<int> NB(64 * 100);
  for (size_t i = 0; i < NB.size(); ++i)
    NB[i] = static_cast<int>(i % 97);
  int *dNB = upload(NB);
  float *dA = upload(std::vector<float>(100, 1.f));
  struct Case {
    const char *id;
    int flags;
    dim3 grid, block;
    size_t shmem;
  } cases[] = {
      {"ell:shmem", irregfix::kSiteShareable, dim3(1), dim3(64), 16},
      {"ell:2d", irregfix::kSiteShareable, dim3(1), dim3(32, 2), 0},
      {"ell:grid2d", irregfix::kSiteShareable, dim3(1, 2), dim3(64), 0},
      {"ell:flag", 0, dim3(1), dim3(64), 0},
      {"ell:hoisted", irregfix::kSiteShareable | irregfix::kSiteHoisted, dim3(1), dim3(64), 0},
      {"share:ok", irregfix::kSiteShareable, dim3(1), dim3(64), 0},
  };
  for (const Case &k : cases) {
    const irregfix::SiteInfo site{k.id, "k", "neighbors", k.flags};
    irregfix::View v{};
    const void *o = nullptr;
    ASSERT_TRUE(irregfix::begin_launch(site, 0, k.grid, k.block, k.shmem));
    ASSERT_TRUE(irregfix::prepare_neighbors(site, dNB, irregfix::kIndexI32, 64, 1, 100, nullptr,
                                            irregfix::kIndexI32, 64, dA, 4, &v, &o, 0))
        << k.id << ": " << site_counters(k.id).last_fallback;
    irregfix::end_transformed_launch(site, 0);
    const bool shared = std::string(k.id) == "share:ok";
    EXPECT_EQ(v.layout, shared ? irregfix::kLayoutSharing : irregfix::kLayoutEllColMajor) << k.id;
    EXPECT_EQ(v.local != nullptr, shared) << k.id;
    EXPECT_EQ(irregfix::shared_bytes(v), shared ? 400u : 0u) << k.id; // 97 floats, rounded up
  }
  // Without a launch open (no block size) the copy is ELL too.
  const irregfix::SiteInfo bare{"ell:bare", "k", "neighbors", irregfix::kSiteShareable};
  irregfix::View v{};
  const void *o = nullptr;
  ASSERT_TRUE(irregfix::prepare_neighbors(bare, dNB, irregfix::kIndexI32, 64, 1, 100, nullptr,
                                          irregfix::kIndexI32, 64, dA, 4, &v, &o, 0));
  EXPECT_EQ(v.layout, irregfix::kLayoutEllColMajor);
}

// Forced sharing leaves range sites to auto's choice.
TEST_F(Sharing, RangeSitesUnderForcedSharingAreAuto) {
  std::vector<int> B(1001);
  for (size_t i = 0; i < B.size(); ++i)
    B[i] = static_cast<int>(4 * i);
  int *dB = upload(B);
  float *dA = upload(std::vector<float>(4000, 2.f));
  const irregfix::SiteInfo site{"range:share", "k", "range", irregfix::kSiteShareable};
  const void *const src[1] = {dA};
  const size_t size[1] = {sizeof(float)};
  irregfix::View v{};
  const void *o[1];
  ASSERT_TRUE(irregfix::begin_launch(site, 0, dim3(4), dim3(256)));
  ASSERT_TRUE(irregfix::prepare_range(site, dB, irregfix::kIndexI32, 1000, 1, src, size, &v, o, 0))
      << site_counters(site.id).last_fallback;
  irregfix::end_transformed_launch(site, 0);
  EXPECT_EQ(v.layout, irregfix::kLayoutEllColMajor); // uniform rows: auto's ELL
  EXPECT_EQ(v.local, nullptr);
  EXPECT_EQ(v.shared_bytes, 0u);
}

// ---- (c) sets too large for shared memory ----------------------------------------

int optin_shared_memory() {
  int dev = 0, optin = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev);
  return optin;
}

// 1024 threads a block, 64 neighbours each drawn from a million bodies: a
// block's set (~64K bodies, 1 MiB) fits no shared memory. The launch runs the
// original kernel, says why, and its results are right.
TEST_F(Sharing, SetsOverTheSharedMemoryFallBack) {
  Md<Body> md;
  md.make(this, 1 << 20, 64, true, 1 << 19);
  const irregfix::SiteInfo site = md_site<Body>("md:huge");
  for (int i = 0; i < 2; ++i) {
    md.poison();
    EXPECT_FALSE(md.launch(site, 1024));
    md.check("fallback");
  }
  const auto c = site_counters(site.id);
  EXPECT_EQ(c.launches, 0);
  EXPECT_EQ(c.fallbacks, 2);
  EXPECT_NE(c.last_fallback.find("bytes of shared memory; the kernel may have "), std::string::npos)
      << c.last_fallback;
  EXPECT_EQ(irregfix::testing::cached_entries(), 0u);
}

// Sets over the default 48 KiB but within the opt-in maximum: the runtime
// raises the kernel's limit, and the launch stages them.
TEST_F(Sharing, SetsOverFortyEightKibRaiseTheKernelsLimit) {
  if (optin_shared_memory() < 160 * 1024)
    GTEST_SKIP() << "the device's opt-in shared memory is under 160 KiB";
  Md<Body> md;
  md.make(this, 1 << 16, 64, true, 1 << 15); // ~7K bodies a block of 256: ~115 KiB
  const irregfix::SiteInfo site = md_site<Body>("md:raise");
  md.poison();
  ASSERT_TRUE(md.launch(site, 256)) << site_counters(site.id).last_fallback;
  md.check("raised");
  EXPECT_GT(md.last.shared_bytes, 48u * 1024);
  // Without the kernel's handle the runtime cannot raise it: the same sets are refused.
  const irregfix::SiteInfo bare{"md:bare", "force", "neighbors", irregfix::kSiteShareable};
  irregfix::View v{};
  const void *o = nullptr;
  ASSERT_TRUE(irregfix::begin_launch(bare, 0, dim3(256), dim3(256)));
  EXPECT_FALSE(irregfix::prepare_neighbors(bare, md.nb, irregfix::kIndexI32, md.s.sj(), md.s.st(), md.s.m,
                                           md.cnt, irregfix::kIndexI32, md.s.n, md.pos, sizeof(Body), &v,
                                           &o, 0));
  irregfix::end_original_launch(bare, 0);
  EXPECT_NE(site_counters("md:bare").last_fallback.find("the kernel may have 49152"), std::string::npos)
      << site_counters("md:bare").last_fallback;
}

// ---- (d) the selector under auto -------------------------------------------------

// Profiling: the original and both candidates three times each, then one
// launch that settles.
constexpr int kProfilingLaunches = 3 * 3 + 1;

TEST_F(Sharing, AutoTimesEllAndSharingAndFreesTheLoser) {
  // Both candidates are timed to the end: neither may be dropped as far slower
  // than the original (the sharing kernel loses to it on an H100).
  irregfix::testing::set_original_time_scale(4);
  irregfix::testing::set_layout(0);
  irregfix::testing::set_auto_sharing(true);
  Md<Body> md;
  md.make(this, 1 << 18, 32, true, 500);
  const irregfix::SiteInfo site = md_site<Body>("md:auto");
  const int launches = kProfilingLaunches + 20;
  int transformed = 0;
  for (int i = 0; i < launches; ++i) {
    md.poison();
    transformed += md.launch(site, 256);
    CK(cudaDeviceSynchronize()); // timings come back before the next launch
    md.check(("launch " + std::to_string(i)).c_str());
    if (i == kProfilingLaunches - 2) { // the last profiling launch
      const auto c = site_counters(site.id);
      EXPECT_EQ(c.candidates, 2) << irregfix::testing::stats_report();
      EXPECT_EQ(c.misses, 2); // one copy per candidate
      EXPECT_EQ(irregfix::testing::cached_entries(), 2u);
    }
  }
  const auto c = site_counters(site.id);
  EXPECT_EQ(c.candidates, 2);
  EXPECT_TRUE(c.chosen_layout == irregfix::kLayoutEllColMajor ||
              c.chosen_layout == irregfix::kLayoutSharing)
      << irregfix::testing::stats_report();
  EXPECT_EQ(c.launches, transformed);
  EXPECT_EQ(c.launches + c.chosen_original, launches);
  EXPECT_EQ(c.misses, 2) << "the chosen copy is not rebuilt";
  EXPECT_EQ(c.fallbacks, 0) << c.last_fallback;
  EXPECT_EQ(irregfix::testing::cached_entries(), 1u) << "the loser's copy is freed";
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("sharing "), std::string::npos) << report;
  EXPECT_NE(report.find("ell-colmajor "), std::string::npos) << report;
  EXPECT_NE(report.find("distinct elements a block"), std::string::npos) << report;
}

// Without IRREGFIX_AUTO_SHARING, auto times ELL alone (and the original): no
// set is built.
TEST_F(Sharing, AutoLeavesSharingOutUnlessAsked) {
  irregfix::testing::set_layout(0);
  Md<Body> md;
  md.make(this, 1 << 16, 32, true, 500);
  const irregfix::SiteInfo site = md_site<Body>("md:autooff");
  for (int i = 0; i < 3 * 2 + 4; ++i) {
    md.poison();
    md.launch(site, 256);
    CK(cudaDeviceSynchronize());
    md.check(("launch " + std::to_string(i)).c_str());
  }
  const auto c = site_counters(site.id);
  EXPECT_LE(c.candidates, 1) << irregfix::testing::stats_report();
  EXPECT_NE(c.layout, irregfix::kLayoutSharing);
  EXPECT_EQ(irregfix::testing::stats_report().find("distinct elements a block"), std::string::npos);
}

// Under auto, a sharing candidate whose sets do not fit shared memory is
// dropped after its one failed build; ELL and the original are timed alone.
TEST_F(Sharing, AutoDropsASharingCandidateThatDoesNotFit) {
  irregfix::testing::set_layout(0);
  irregfix::testing::set_auto_sharing(true);
  Md<Body> md;
  md.make(this, 1 << 18, 64, true, 1 << 17);
  const irregfix::SiteInfo site = md_site<Body>("md:autohuge");
  const int launches = 3 * 2 + 1 + 1 + 6; // profiling, the one failed sharing probe, more
  for (int i = 0; i < launches; ++i) {
    md.poison();
    md.launch(site, 1024);
    CK(cudaDeviceSynchronize());
    md.check(("launch " + std::to_string(i)).c_str());
  }
  const auto c = site_counters(site.id);
  EXPECT_EQ(c.candidates, 2);
  EXPECT_EQ(c.fallbacks, 1) << c.last_fallback;
  EXPECT_EQ(c.chosen_layout, irregfix::kLayoutEllColMajor) << irregfix::testing::stats_report();
  const std::string report = irregfix::testing::stats_report();
  EXPECT_NE(report.find("(dropped: its copy could not be built)"), std::string::npos) << report;
}

} // namespace
