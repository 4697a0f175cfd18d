#include "Analysis/Parents.h"
#include "Analysis/PerContext.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/PointerUnion.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdlib>
#include <deque>

#ifdef __linux__
#include <sys/mman.h>
#endif


using namespace clang;

namespace irregfix {

namespace {

// Where a node goes in the map: nodes of one 4 KiB page of the AST's memory
// go to neighbouring buckets (the map is filled and read in the order the
// nodes were made, so one page's nodes are met together: few cache misses),
// pages to buckets mixed from all their address bits (Clang's hash, a few
// bits of the address alone, sends the runs of a large AST's nodes to runs of
// taken buckets, and its look-ups probe long).
struct AddressKey {
  static const void *getEmptyKey() { return llvm::DenseMapInfo<const void *>::getEmptyKey(); }
  static const void *getTombstoneKey() { return llvm::DenseMapInfo<const void *>::getTombstoneKey(); }
  static unsigned getHashValue(const void *P) {
    const uint64_t A = reinterpret_cast<uintptr_t>(P);
    uint64_t Page = A >> 12;
    Page ^= Page >> 33;
    Page *= 0xff51afd7ed558ccdULL;
    Page ^= Page >> 33;
    return static_cast<unsigned>(Page << 8) | static_cast<unsigned>((A >> 4) & 0xff);
  }
  static bool isEqual(const void *A, const void *B) { return A == B; }
};

using ParentList = llvm::SmallVector<DynTypedNode, 2>;
// One parent stored as itself (a declaration or a statement, the common
// case), or a node of another kind, or several parents.
using Stored = llvm::PointerUnion<const Decl *, const Stmt *, DynTypedNode *, ParentList *>;

// Memory that comes zeroed from the system, in huge pages where it is large
// and the system gives them on request: a table for a million nodes is 32 MiB,
// each 4 KiB page of it a fault.
class ZeroedBlock {
public:
  ZeroedBlock() = default;
  ZeroedBlock(const ZeroedBlock &) = delete;
  ZeroedBlock &operator=(const ZeroedBlock &) = delete;
  ~ZeroedBlock() { release(); }

  void *allocate(size_t Bytes) {
    release();
#ifdef __linux__
    constexpr size_t Huge = size_t(2) << 20;
    if (Bytes >= Huge) {
      const size_t Len = Bytes + Huge; // room to start at a huge page's boundary
      void *P = mmap(nullptr, Len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (P != MAP_FAILED) {
        MapBase = P;
        MapLen = Len;
        auto *Start = reinterpret_cast<char *>((reinterpret_cast<uintptr_t>(P) + Huge - 1) & ~(Huge - 1));
        madvise(Start, Bytes, MADV_HUGEPAGE); // a request: without it, small pages
        return Start;
      }
    }
#endif
    Heap = std::calloc(Bytes ? Bytes : 1, 1);
    if (!Heap)
      llvm::report_bad_alloc_error("parent map");
    return Heap;
  }

private:
  void release() {
#ifdef __linux__
    if (MapBase)
      munmap(MapBase, MapLen);
    MapBase = nullptr;
#endif
    std::free(Heap);
    Heap = nullptr;
  }

  void *MapBase = nullptr;
  size_t MapLen = 0;
  void *Heap = nullptr;
};

// Node addresses to their parents, sized once for all its keys: open
// addressing (probed as DenseMap probes, as many buckets as DenseMap makes
// for them) in a zeroed block, where an empty bucket is all zeros (no node is
// at address 0), so nothing is initialised.
class AddressTable {
public:
  // Room for N keys; the table is empty.
  void reserve(size_t N) {
    Mask = llvm::NextPowerOf2(N * 4 / 3 + 1) - 1;
    Buckets = static_cast<Bucket *>(Block.allocate((Mask + 1) * sizeof(Bucket)));
  }
  // Key's slot, null when it was not there (at most the N keys reserved).
  Stored &operator[](const void *Key) {
    Bucket &B = probe(Key);
    B.Key = Key;
    return B.Value;
  }
  const Stored *find(const void *Key) const {
    if (!Buckets)
      return nullptr;
    const Bucket &B = probe(Key);
    return B.Key ? &B.Value : nullptr;
  }

private:
  struct Bucket {
    const void *Key;
    Stored Value;
  };
  Bucket &probe(const void *Key) const {
    size_t I = AddressKey::getHashValue(Key) & Mask;
    for (size_t Step = 1;; ++Step) {
      Bucket &B = Buckets[I];
      if (B.Key == Key || !B.Key)
        return B;
      I = (I + Step) & Mask;
    }
  }

  ZeroedBlock Block;
  Bucket *Buckets = nullptr;
  size_t Mask = 0;
};

DynTypedNode single(Stored U) {
  if (const auto *D = dyn_cast<const Decl *>(U))
    return DynTypedNode::create(*D);
  if (const auto *S = dyn_cast<const Stmt *>(U))
    return DynTypedNode::create(*S);
  return *cast<DynTypedNode *>(U);
}

// Every node's parents as a RecursiveASTVisitor visits them (template
// instantiations and implicit code included): what Clang's parent map records.
class ParentIndex {
public:
  ParentIndex() = default;
  ParentIndex(const ParentIndex &) = delete;
  ParentIndex &operator=(const ParentIndex &) = delete;

  void build(ASTContext &Ctx);
  bool built() const { return Built; }

  DynTypedNodeList of(const DynTypedNode &N) const {
    if (N.getNodeKind().hasPointerIdentity())
      return listOf(Pointers.find(N.getMemoizationData()));
    auto It = Others.find(N);
    return listOf(It == Others.end() ? nullptr : &It->second);
  }

private:
  friend class Recorder;

  static DynTypedNodeList listOf(const Stored *Found) {
    if (!Found)
      return llvm::ArrayRef<DynTypedNode>();
    if (const auto *V = dyn_cast<ParentList *>(*Found))
      return llvm::ArrayRef<DynTypedNode>(*V);
    return single(*Found);
  }

  // Parent as a node's parent (Itself when it is a declaration or a statement).
  void add(Stored &Slot, Stored Itself, const DynTypedNode &Parent);

  AddressTable Pointers;
  llvm::DenseMap<DynTypedNode, Stored> Others;
  // What the maps point to, freed with them in one sweep (not entry by entry
  // over the map's buckets).
  llvm::SpecificBumpPtrAllocator<DynTypedNode> Nodes;
  llvm::SpecificBumpPtrAllocator<ParentList> Lists;
  bool Built = false;
};

template <typename T> DynTypedNode nodeOf(const T &N) { return DynTypedNode::create(*N); }
template <> DynTypedNode nodeOf(const TypeLoc &N) { return DynTypedNode::create(N); }
template <> DynTypedNode nodeOf(const NestedNameSpecifierLoc &N) { return DynTypedNode::create(N); }
template <> DynTypedNode nodeOf(const ObjCProtocolLoc &N) { return DynTypedNode::create(N); }

// Records each node's parent as the visitor enters the node: the node on top
// of the stack of nodes being visited.
class Recorder : public RecursiveASTVisitor<Recorder> {
public:
  explicit Recorder(ParentIndex &Index) : Index(Index) {}

  bool shouldVisitTemplateInstantiations() const { return true; }
  bool shouldVisitImplicitCode() const { return true; }

  bool TraverseDecl(Decl *D) {
    return enter(D, static_cast<const void *>(D), [&] { return Base::TraverseDecl(D); }, D);
  }
  bool TraverseTypeLoc(TypeLoc TL) {
    return enter(TL, DynTypedNode::create(TL), [&] { return Base::TraverseTypeLoc(TL); });
  }
  bool TraverseNestedNameSpecifierLoc(NestedNameSpecifierLoc NNS) {
    return enter(NNS, DynTypedNode::create(NNS), [&] { return Base::TraverseNestedNameSpecifierLoc(NNS); });
  }
  bool TraverseAttr(Attr *A) {
    return enter(A, static_cast<const void *>(A), [&] { return Base::TraverseAttr(A); });
  }
  bool TraverseObjCProtocolLoc(ObjCProtocolLoc L) {
    return enter(L, DynTypedNode::create(L), [&] { return Base::TraverseObjCProtocolLoc(L); });
  }
  // Statements through the visitor's own stack (no recursion per statement).
  bool dataTraverseStmtPre(Stmt *S) {
    record(static_cast<const void *>(S));
    Stack.emplace_back(static_cast<const Stmt *>(S));
    return true;
  }
  bool dataTraverseStmtPost(Stmt *) {
    Stack.pop_back();
    return true;
  }

private:
  using Base = RecursiveASTVisitor<Recorder>;

  template <typename T> static bool isNull(const T &N) { return !N; }
  static bool isNull(const ObjCProtocolLoc &) { return false; }

  template <typename T, typename KeyT, typename Fn>
  bool enter(const T &N, const KeyT &Key, Fn Traverse, Stored Itself = nullptr) {
    if (isNull(N))
      return true;
    record(Key);
    if (Itself)
      Stack.emplace_back(Itself);
    else
      Stack.emplace_back(nodeOf(N));
    const bool Result = Traverse();
    Stack.pop_back();
    return Result;
  }

  // A node with identity: kept in order, entered once they are all known
  // (into a map made large enough for them at once).
  void record(const void *Key) {
    if (Stack.empty())
      return;
    const Entered &Top = Stack.back();
    Pending.push_back({Key, Top.Itself ? Top.Itself : new (Index.Nodes.Allocate()) DynTypedNode(Top.Node)});
  }
  // A node without identity (a type location...): kept the same way.
  void record(const DynTypedNode &Key) {
    if (Stack.empty())
      return;
    const Entered &Top = Stack.back();
    PendingOthers.push_back({Key, Top.Itself ? Top.Itself : new (Index.Nodes.Allocate()) DynTypedNode(Top.Node)});
  }

  template <typename MapT, typename PendingT> void enterAll(MapT &Map, PendingT &Entries) {
    Map.reserve(Entries.size());
    for (const auto &[Key, Parent] : Entries) {
      Stored &Slot = Map[Key];
      if (Slot.isNull())
        Slot = Parent; // the first parent (most nodes have one): what add stores
      else
        Index.add(Slot, Parent, single(Parent));
    }
    Entries.clear();
  }

public:
  void enterPending() {
    enterAll(Index.Pointers, Pending);
    enterAll(Index.Others, PendingOthers);
  }

private:
  // In blocks, not one array: a million nodes' worth grown by doubling would
  // touch twice the memory, each page a fault.
  std::deque<std::pair<const void *, Stored>> Pending;
  std::deque<std::pair<DynTypedNode, Stored>> PendingOthers;

  ParentIndex &Index;
  // The nodes being visited: a declaration or statement as itself, as it is
  // stored when it is a node's one parent (made a DynTypedNode only when
  // needed), a node of another kind as a DynTypedNode.
  struct Entered {
    explicit Entered(Stored Itself) : Itself(Itself) {}
    explicit Entered(const DynTypedNode &Node) : Node(Node) {}
    DynTypedNode Node;
    Stored Itself = nullptr;
  };
  llvm::SmallVector<Entered, 16> Stack;
};

void ParentIndex::add(Stored &Slot, Stored Itself, const DynTypedNode &Parent) {
  if (Slot.isNull()) {
    Slot = Itself ? Itself : new (Nodes.Allocate()) DynTypedNode(Parent);
    return;
  }
  if (!isa<ParentList *>(Slot))
    Slot = new (Lists.Allocate()) ParentList(1, single(Slot));
  ParentList *List = cast<ParentList *>(Slot);
  // A parent met again (a node visited twice from one parent) is kept once;
  // nodes without identity cannot be compared, and are kept each time.
  if (!Parent.getMemoizationData() || !llvm::is_contained(*List, Parent))
    List->push_back(Parent);
}

void ParentIndex::build(ASTContext &Ctx) {
  Recorder R(*this);
  R.TraverseAST(Ctx);
  R.enterPending();
  Built = true;
}

ParentIndex &indexOf(ASTContext &Ctx) {
  ParentIndex &Index = PerContext<ParentIndex>::of(Ctx);
  // A context is read by one thread at a time: its map is built outside any lock.
  if (!Index.built())
    Index.build(Ctx);
  return Index;
}

} // namespace

DynTypedNodeList parentsOf(const DynTypedNode &N, ASTContext &Ctx) { return indexOf(Ctx).of(N); }

void forgetParents(ASTContext &Ctx) { PerContext<ParentIndex>::reset(Ctx); }

} // namespace irregfix
