// Copies split into field pieces (prepare_gather_fields, prepare_neighbors_fields)
// against a CPU reference: vector and word-by-word pieces, 4- and 8-byte
// fields, sentinels skipped, a refresh after a write to the source, the byte
// cap and a failed allocation falling back, and IRREGFIX_VERIFY finding a
// write nobody announced.
#include "device_test.cuh"

#include <cstring>
#include <random>

#define CK(x) ASSERT_EQ((x), cudaSuccess) << #x

namespace {

using irregfix::testing::site_counters;

struct Body { float x, y, z, mass, vx, vy, vz; int kind; };
struct Sample { double value; float lo, hi; double weight; int tag; int pad; long long id; };

// x, y, z, mass in one 16-byte piece (a vector load), kind alone (4 bytes).
const irregfix::FieldPiece kBodyPieces[2] = {
    {16, 4, {{0, 0, 4}, {4, 4, 4}, {8, 8, 4}, {12, 12, 4}}},
    {4, 1, {{28, 0, 4}}}};
// x and vx: not next to each other, word by word.
const irregfix::FieldPiece kApartPieces[1] = {{8, 2, {{0, 0, 4}, {16, 4, 4}}}};
// Two doubles around two floats, and a long long alone in an 8-byte piece.
const irregfix::FieldPiece kSamplePieces[2] = {{16, 2, {{0, 0, 8}, {16, 8, 8}}}, {8, 1, {{32, 0, 8}}}};

constexpr unsigned char kPoison = 0xAB;

irregfix::SiteInfo make_site(const char *id, const char *pattern) {
  irregfix::SiteInfo s{};
  s.id = id;
  s.kernel = "fields";
  s.pattern = pattern;
  return s;
}

template <class T> std::vector<T> random_elements(size_t count, unsigned seed) {
  std::mt19937 r(seed);
  std::vector<T> v(count);
  unsigned char *b = reinterpret_cast<unsigned char *>(v.data());
  for (size_t i = 0; i < count * sizeof(T); ++i)
    b[i] = static_cast<unsigned char>(r());
  return v;
}

// The bytes piece q of element e should hold: its fields where they go, zero elsewhere.
std::vector<unsigned char> expected_piece(const irregfix::FieldPiece &p, const unsigned char *e) {
  std::vector<unsigned char> out(p.size, 0);
  for (int f = 0; f < p.count; ++f)
    std::memcpy(&out[p.fields[f].to], e + p.fields[f].from, p.fields[f].size);
  return out;
}

// Compares each piece's copy with the reference over (t, j) for which index(t, j)
// is an element of A (>= 0); other slots must still hold the poison when asked.
template <class T, class Index>
long long compare_pieces(const irregfix::View &v, const void *const *out, int pieces, const irregfix::FieldPiece *p,
                         const std::vector<T> &A, long long n, long long columns, Index index, bool poisoned) {
  long long bad = 0;
  for (int q = 0; q < pieces; ++q) {
    // One column (a gather's copy) is n elements, as ell_slot(t, 0, 1) is t.
    const long long cells = columns == 1 ? n : irregfix::ell_cells(n, columns);
    std::vector<unsigned char> h(static_cast<size_t>(cells) * p[q].size);
    EXPECT_EQ(cudaMemcpy(h.data(), out[q], h.size(), cudaMemcpyDeviceToHost), cudaSuccess);
    for (long long t = 0; t < n; ++t)
      for (long long j = 0; j < columns; ++j) {
        const unsigned char *got = &h[static_cast<size_t>(irregfix::neighbor_slot(v, t, j)) * p[q].size];
        const long long e = index(t, j);
        if (e >= 0) {
          const auto want = expected_piece(p[q], reinterpret_cast<const unsigned char *>(&A[e]));
          if (std::memcmp(got, want.data(), p[q].size) != 0 && bad++ < 5)
            ADD_FAILURE() << "piece " << q << " t=" << t << " j=" << j << " element " << e;
        } else if (poisoned) {
          for (unsigned b = 0; b < p[q].size; ++b)
            if (got[b] != kPoison) {
              if (bad++ < 5)
                ADD_FAILURE() << "piece " << q << " t=" << t << " j=" << j << ": a skipped slot was written";
              break;
            }
        }
      }
  }
  return bad;
}

void poison(const void *const *out, int pieces, const irregfix::FieldPiece *p, long long cells) {
  for (int q = 0; q < pieces; ++q)
    ASSERT_EQ(cudaMemset(const_cast<void *>(out[q]), kPoison, static_cast<size_t>(cells) * p[q].size), cudaSuccess);
}

class FieldsTest : public ForcedLayoutTest<irregfix::kLayoutEllColMajor> {};

template <class T>
void gather_case(FieldsTest *fx, const char *id, const irregfix::FieldPiece *pieces, int count) {
  const long long n = 10007, na = 3001;
  std::mt19937 r(7);
  std::vector<int> B(n);
  for (int &b : B)
    b = r() % 13 == 0 ? -1 : static_cast<int>(r() % na); // -1: a sentinel the kernel guards
  std::vector<T> A = random_elements<T>(na, 11);
  int *dB = fx->upload(B);
  T *dA = fx->upload(A);
  const irregfix::SiteInfo site = make_site(id, "gather");
  irregfix::View v{};
  const void *out[irregfix::kMaxFieldPieces] = {};
  auto prep = [&] {
    return irregfix::prepare_gather_fields(site, dB, irregfix::kIndexI32, n, dA, sizeof(T), count, pieces, &v, out,
                                           nullptr);
  };
  auto index = [&](long long t, long long) { return static_cast<long long>(B[t]); };
  ASSERT_TRUE(prep()) << site_counters(id).last_fallback;
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(v.layout, irregfix::kLayoutEllColMajor);
  EXPECT_EQ(compare_pieces(v, out, count, pieces, A, n, 1, index, false), 0);
  ASSERT_TRUE(prep());
  EXPECT_EQ(site_counters(id).hits, 1);
  // A write to A, announced: the pieces are gathered again (skipped slots untouched).
  poison(out, count, pieces, n);
  A = random_elements<T>(na, 12);
  CK(cudaMemcpy(dA, A.data(), A.size() * sizeof(T), cudaMemcpyHostToDevice));
  irregfix_invalidate(dA);
  ASSERT_TRUE(prep());
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(compare_pieces(v, out, count, pieces, A, n, 1, index, true), 0);
  const auto c = site_counters(id);
  EXPECT_EQ(c.misses, 1);
  EXPECT_EQ(c.refreshes, 1);
  unsigned long long piece_bytes = 0;
  for (int q = 0; q < count; ++q)
    piece_bytes += pieces[q].size;
  EXPECT_EQ(c.bytes_remapped, 2 * piece_bytes * static_cast<unsigned long long>(n)) << "only the pieces move";
}

TEST_F(FieldsTest, GatherOfBodyFields) { gather_case<Body>(this, "fields:gather:body", kBodyPieces, 2); }
TEST_F(FieldsTest, GatherOfFieldsApart) { gather_case<Body>(this, "fields:gather:apart", kApartPieces, 1); }
TEST_F(FieldsTest, GatherOfEightByteFields) { gather_case<Sample>(this, "fields:gather:sample", kSamplePieces, 2); }

// Neighbour lists, column- and row-major, with and without counts.
void neighbors_case(FieldsTest *fx, const char *id, bool j_major, bool with_counts) {
  const long long n = 4099, m = 24, na = 2048;
  std::mt19937 r(3);
  const long long sj = j_major ? n : 1, st = j_major ? 1 : m;
  std::vector<int> NB(static_cast<size_t>(n * m)), counts(n);
  for (int &x : NB)
    x = r() % 17 == 0 ? -1 : static_cast<int>(r() % na);
  for (int &c : counts)
    c = static_cast<int>(r() % (m + 1));
  counts[5] = static_cast<int>(m);
  std::vector<Body> A = random_elements<Body>(na, 5);
  int *dNB = fx->upload(NB);
  int *dK = fx->upload(counts);
  Body *dA = fx->upload(A);
  const irregfix::SiteInfo site = make_site(id, "neighbors");
  irregfix::View v{};
  const void *out[irregfix::kMaxFieldPieces] = {};
  auto prep = [&] {
    return irregfix::prepare_neighbors_fields(site, dNB, irregfix::kIndexI32, sj, st, m, with_counts ? dK : nullptr,
                                              irregfix::kIndexI32, n, dA, sizeof(Body), 2, kBodyPieces, &v, out,
                                              nullptr);
  };
  auto index = [&](long long t, long long j) -> long long {
    if (with_counts && j >= counts[t])
      return -1;
    return NB[static_cast<size_t>(j * sj + t * st)];
  };
  ASSERT_TRUE(prep()) << site_counters(id).last_fallback;
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(v.width, m);
  EXPECT_EQ(compare_pieces(v, out, 2, kBodyPieces, A, n, m, index, false), 0);
  poison(out, 2, kBodyPieces, irregfix::ell_cells(n, m));
  A = random_elements<Body>(na, 6);
  CK(cudaMemcpy(dA, A.data(), A.size() * sizeof(Body), cudaMemcpyHostToDevice));
  irregfix_invalidate(dA);
  ASSERT_TRUE(prep());
  CK(cudaDeviceSynchronize());
  EXPECT_EQ(compare_pieces(v, out, 2, kBodyPieces, A, n, m, index, true), 0);
  EXPECT_EQ(site_counters(id).refreshes, 1);
}

TEST_F(FieldsTest, NeighborsColumnMajorWithCounts) { neighbors_case(this, "fields:nb:col", true, true); }
TEST_F(FieldsTest, NeighborsRowMajor) { neighbors_case(this, "fields:nb:row", false, false); }

// A neighbour list under the forced locality and sharing layouts still gets
// ELL pieces: the kernel reads them at ELL slots.
TEST_F(DeviceTest, NeighborsFieldsAreEllUnderOtherLayouts) {
  for (int layout : {irregfix::kLayoutSharing, irregfix::kLayoutLocality}) {
    irregfix::testing::reset();
    irregfix::testing::set_layout(layout);
    std::vector<int> NB{0, 1, 2, 3, 1, 0, 3, 2};
    std::vector<Body> A = random_elements<Body>(4, 9);
    int *dNB = upload(NB);
    Body *dA = upload(A);
    irregfix::SiteInfo site = make_site("fields:nb:layouts", "neighbors");
    site.flags = irregfix::kSitePermutable | irregfix::kSiteShareable;
    irregfix::View v{};
    const void *out[2] = {};
    ASSERT_TRUE(irregfix::prepare_neighbors_fields(site, dNB, irregfix::kIndexI32, 4, 1, 2, nullptr,
                                                   irregfix::kIndexI32, 4, dA, sizeof(Body), 2, kBodyPieces, &v, out,
                                                   nullptr));
    CK(cudaDeviceSynchronize());
    EXPECT_EQ(v.layout, irregfix::kLayoutEllColMajor);
    EXPECT_EQ(v.perm, nullptr);
    EXPECT_EQ(compare_pieces(v, out, 2, kBodyPieces, A, 4, 2,
                             [&](long long t, long long j) { return static_cast<long long>(NB[j * 4 + t]); }, false),
              0);
  }
}

// What cannot be copied runs the original kernel: bad pieces, the byte cap, a
// failed allocation.
TEST_F(FieldsTest, FallsBack) {
  std::vector<int> B{0, 1, 2};
  std::vector<Body> A(3);
  int *dB = upload(B);
  Body *dA = upload(A);
  irregfix::View v{};
  const void *out[2] = {};
  const irregfix::FieldPiece overlapping[1] = {{8, 2, {{0, 0, 4}, {4, 0, 4}}}};
  const irregfix::SiteInfo bad = make_site("fields:bad", "gather");
  EXPECT_FALSE(irregfix::prepare_gather_fields(bad, dB, irregfix::kIndexI32, 3, dA, sizeof(Body), 1, overlapping, &v,
                                               out, nullptr));
  EXPECT_EQ(site_counters("fields:bad").last_fallback, "bad field pieces: two fields overlap in a piece");
  irregfix::testing::set_max_bytes(16);
  const irregfix::SiteInfo capped = make_site("fields:cap", "gather");
  EXPECT_FALSE(irregfix::prepare_gather_fields(capped, dB, irregfix::kIndexI32, 3, dA, sizeof(Body), 2, kBodyPieces,
                                               &v, out, nullptr));
  EXPECT_EQ(site_counters("fields:cap").last_fallback, "over IRREGFIX_MAX_BYTES");
  irregfix::testing::set_max_bytes(0);
  irregfix::testing::set_fail_alloc(true);
  const irregfix::SiteInfo failing = make_site("fields:alloc", "gather");
  EXPECT_FALSE(irregfix::prepare_gather_fields(failing, dB, irregfix::kIndexI32, 3, dA, sizeof(Body), 2, kBodyPieces,
                                               &v, out, nullptr));
  EXPECT_EQ(site_counters("fields:alloc").last_fallback, "allocation failed");
  irregfix::testing::set_fail_alloc(false);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "a failed allocation must not surface";
}

// The writer the runtime is never told about.
__global__ void move_bodies(int n, Body *A) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    A[i].x += 1.0f;
}

void move_bodies_unannounced(int n, Body *A) { move_bodies<<<1, 32>>>(n, A); }

// IRREGFIX_VERIFY: a hit checks A's bytes (the source of every piece) again.
TEST_F(VerifyingTest, FieldPiecesHitsAreVerified) {
  std::vector<int> B{2, 0, 1, 2};
  int *dB = upload(B);
  Body *dA = upload(random_elements<Body>(3, 1));
  const irregfix::SiteInfo site = make_site("fields:verify", "gather");
  irregfix::View v{};
  const void *out[2] = {};
  auto prep = [&] {
    return irregfix::prepare_gather_fields(site, dB, irregfix::kIndexI32, 4, dA, sizeof(Body), 2, kBodyPieces, &v,
                                           out, nullptr);
  };
  ASSERT_TRUE(prep());
  ASSERT_TRUE(prep());
  EXPECT_EQ(site_counters("fields:verify").verified, 1);
}

TEST_F(VerifyingDeathTest, FieldPiecesUnannouncedWriteAborts) {
  std::vector<int> B{2, 0, 1, 2};
  int *dB = upload(B);
  Body *dA = upload(random_elements<Body>(3, 1));
  const irregfix::SiteInfo site = make_site("fields:stale", "gather");
  irregfix::View v{};
  const void *out[2] = {};
  auto prep = [&] {
    return irregfix::prepare_gather_fields(site, dB, irregfix::kIndexI32, 4, dA, sizeof(Body), 2, kBodyPieces, &v,
                                           out, nullptr);
  };
  EXPECT_DEATH(
      {
        if (!prep())
          std::abort();
        move_bodies_unannounced(3, dA);
        prep();
      },
      "IRREGFIX_VERIFY: stale copy at fields:stale");
}

} // namespace
