#!/usr/bin/env python3
"""Mutation fuzzer for irregfix: the tool must never crash, hang, or turn a
program that compiles into one that does not.

Seeds are the lit inputs (test/**/*.cu, RUN/CHECK lines stripped) and the
samples (samples/*/*.cu). Each mutant is a seed changed by one to four
mutations (lines deleted, duplicated, swapped or cut, identifiers and
operators swapped, thread indices changed, arrays made written, random bytes,
deep nesting, literals replaced, kernels made templates or read through
macros, ...). The tool runs on it with the flags the lit tests use, and the
result is classified:

  crash         a signal, "Stack dump" / "PLEASE submit a bug report", or an
                exit status other than 0 and 1
  hang          still running after --timeout seconds (and again after a
                longer second try)
  uncompilable  the tool exited 0 and rewrote the mutant, the mutant compiles
                (clang++ -fsyntax-only, CUDA host and device) and the output
                does not
  rejected      the tool exited 1 on a mutant that compiles without the tool
                itself reporting a reason that is in its contract (its own
                "error:" on valid code)
  half-written  the tool failed and left its -o file (or a temporary) behind

Every mutant is a function of (--seed, its index) alone, so a run is
reproducible whatever --jobs is, and --replay I rebuilds mutant I. Failing
mutants go to --out with the command that reproduces them. Exit status: 0 when
nothing failed, 1 otherwise. Standard library only.
"""

import argparse
import concurrent.futures
import glob
import hashlib
import os
import random
import re
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
STUB_CUDA = os.path.join(ROOT, "test", "Inputs", "CUDA")
RUNTIME_INCLUDE = os.path.join(ROOT, "runtime", "include")
STUB_HEADERS = os.path.join(ROOT, "lib", "Headers")  # headers CUDA 13 removed

# ---------------------------------------------------------------------------
# Seeds

LIT_DIRECTIVE = re.compile(r"^\s*//\s*(RUN|CHECK[\w-]*|REQUIRES|UNSUPPORTED|XFAIL)\b")
TRAILING_CHECK = re.compile(r"\s*//\s*CHECK[\w-]*:.*$")


class Seed:
    def __init__(self, path, text, real, extra):
        self.path = path          # relative to ROOT
        self.text = text          # RUN/CHECK lines stripped
        self.real = real          # needs the real CUDA headers (the samples, %irregfix_real tests)
        self.extra = extra        # -std= and -D flags its RUN lines pass
        self.dir = os.path.dirname(os.path.join(ROOT, path))


def strip_lit(text):
    out = []
    for line in text.splitlines(keepends=True):
        if LIT_DIRECTIVE.match(line):
            continue
        out.append(TRAILING_CHECK.sub("", line.rstrip("\n")) + ("\n" if line.endswith("\n") else ""))
    return "".join(out)


def load_seeds():
    paths = sorted(glob.glob(os.path.join(ROOT, "test", "**", "*.cu"), recursive=True))
    paths += sorted(glob.glob(os.path.join(ROOT, "samples", "*", "*.cu")))
    seeds = []
    for p in paths:
        rel = os.path.relpath(p, ROOT)
        # GoogleTest sources (gpu/, unit/) are not lit inputs; fuzz/ holds our own findings.
        if rel.startswith(("test/gpu/", "test/unit/", "test/fuzz/")):
            continue
        with open(p, "rb") as f:
            raw = f.read().decode("latin-1")  # one char a byte: mutants are written back byte for byte
        runs = [l for l in raw.splitlines() if re.match(r"^\s*//\s*RUN:", l)]
        real = rel.startswith("samples/") or rel.startswith("test/cmake/") or any("%irregfix_real" in l for l in runs)
        extra = sorted({m for l in runs for m in re.findall(r"(?<!\S)(-std=\S+|-D\w+(?:=\S+)?)", l)})
        if rel.endswith("needs-define.cu"):
            extra.append("-DIRREGFIX_TEST_DEFINE=1")
        seeds.append(Seed(rel, strip_lit(raw), real, extra))
    return seeds


# ---------------------------------------------------------------------------
# Mutations: each takes (rng, text, seeds) and returns the new text and a
# short description, or None when it does not apply to this text.

KEYWORDS = set("""
alignas alignof asm auto bool break case catch char class const constexpr const_cast continue decltype
default delete do double dynamic_cast else enum explicit extern false float for friend goto if inline int
long mutable namespace new noexcept nullptr operator private protected public register reinterpret_cast
return short signed sizeof static static_assert static_cast struct switch template this throw true try
typedef typeid typename union unsigned using virtual void volatile while include define ifdef ifndef endif
pragma once
""".split())

IDENT = re.compile(r"\b[A-Za-z_]\w*\b")
INT_LITERAL = re.compile(r"(?<![\w.])\d+(?:[uUlL]*)\b(?!\.)")
FLOAT_LITERAL = re.compile(r"(?<![\w.])\d+\.\d*(?:[eE][-+]?\d+)?[fF]?")
COMPARISON = re.compile(r"(?<![<>=!\-])(<=|>=|==|!=|<|>)(?![<>=])")
PLUS_MINUS = re.compile(r"(?<![+\-])([+\-])(?![+\-=>])")
INC_DEC = re.compile(r"\+\+|--")
MUL_DIV = re.compile(r"(?<![/*])([*/])(?![/*=])")
LOGICAL = re.compile(r"&&|\|\|")
COMPOUND = re.compile(r"(\+=|-=|\*=)")
SUBSCRIPTED = re.compile(r"\b([A-Za-z_]\w*)\s*\[")
STATEMENT_END = re.compile(r";[ \t]*$", re.M)


def lines_of(text):
    return text.splitlines(keepends=True)


def pick_match(rng, pattern, text):
    ms = list(pattern.finditer(text))
    return rng.choice(ms) if ms else None


def splice(text, m, new, group=0):
    return text[:m.start(group)] + new + text[m.end(group):]


def identifiers(text):
    return sorted({w for w in IDENT.findall(text) if w not in KEYWORDS and not w.startswith("__")})


def statement_lines(text):
    """Indices of lines that end a statement inside a body (indented, ending in ';')."""
    ls = lines_of(text)
    return [i for i, l in enumerate(ls) if l.rstrip().endswith(";") and l[:1] in (" ", "\t")]


def m_delete_line(rng, text, _):
    ls = lines_of(text)
    if not ls:
        return None
    i = rng.randrange(len(ls))
    n = rng.choice([1, 1, 1, 2, 3])
    return "".join(ls[:i] + ls[i + n:]), f"delete lines {i + 1}+{n}"


def m_duplicate_line(rng, text, _):
    ls = lines_of(text)
    if not ls:
        return None
    i = rng.randrange(len(ls))
    n = rng.choice([1, 1, 2, 4])
    return "".join(ls[:i + n] + ls[i:i + n] + ls[i + n:]), f"duplicate lines {i + 1}+{n}"


def m_swap_lines(rng, text, _):
    ls = lines_of(text)
    if len(ls) < 2:
        return None
    i, j = rng.randrange(len(ls)), rng.randrange(len(ls))
    if rng.random() < 0.5:  # neighbours more often: a statement moved past the next
        j = min(len(ls) - 1, i + 1)
    ls[i], ls[j] = ls[j], ls[i]
    return "".join(ls), f"swap lines {i + 1} and {j + 1}"


def m_truncate_line(rng, text, _):
    ls = lines_of(text)
    cands = [i for i, l in enumerate(ls) if len(l.strip()) > 1]
    if not cands:
        return None
    i = rng.choice(cands)
    cut = rng.randrange(1, len(ls[i].rstrip("\n")))
    ls[i] = ls[i][:cut] + "\n"
    return "".join(ls), f"cut line {i + 1} at column {cut + 1}"


def m_truncate_file(rng, text, _):
    if len(text) < 2:
        return None
    cut = rng.randrange(len(text))
    return text[:cut], f"truncate the file at byte {cut}"


def m_swap_identifiers(rng, text, _):
    # Not the runtime's namespace: the tool refuses a file that declares it
    # (refuse/global-name-irregfix.cu), so such a mutant tells nothing new.
    ids = [i for i in identifiers(text) if i != "irregfix"]
    if len(ids) < 2:
        return None
    a, b = rng.sample(ids, 2)
    if rng.random() < 0.5:
        occ = [m for m in IDENT.finditer(text) if m.group() == a]
        m = rng.choice(occ)
        return splice(text, m, b), f"one '{a}' -> '{b}'"
    out = IDENT.sub(lambda m: b if m.group() == a else a if m.group() == b else m.group(), text)
    return out, f"swap '{a}' and '{b}' everywhere"


def m_swap_operator(rng, text, _):
    kind = rng.choice(["cmp", "cmp", "pm", "incdec", "bracket", "muldiv", "logic", "compound"])
    table = {
        "cmp": (COMPARISON, ["<", "<=", "!=", ">", ">=", "=="]),
        "pm": (PLUS_MINUS, ["+", "-"]),
        "incdec": (INC_DEC, ["++", "--"]),
        "muldiv": (MUL_DIV, ["*", "/", "%"]),
        "logic": (LOGICAL, ["&&", "||", "&", "|"]),
        "compound": (COMPOUND, ["+=", "-=", "*=", "="]),
    }
    if kind == "bracket":
        opens = [i for i, c in enumerate(text) if c == "["]
        if not opens:
            return None
        i = rng.choice(opens)
        out = text[:i] + "(" + text[i + 1:]
        if rng.random() < 0.6:  # the matching ']' too: A[k] -> A(k)
            depth = 0
            for j in range(i + 1, len(out)):
                if out[j] == "[":
                    depth += 1
                elif out[j] == "]":
                    if depth == 0:
                        out = out[:j] + ")" + out[j + 1:]
                        break
                    depth -= 1
        return out, "'[' -> '('"
    pattern, choices = table[kind]
    m = pick_match(rng, pattern, text)
    if not m:
        return None
    new = rng.choice([c for c in choices if c != m.group()])
    return splice(text, m, new), f"'{m.group()}' -> '{new}' at byte {m.start()}"


THREAD_EDITS = [
    (re.compile(r"threadIdx\.x"), ["threadIdx.y", "threadIdx.z", "(threadIdx.x + 1)", "threadIdx.x * 2"]),
    (re.compile(r"blockIdx\.x"), ["blockIdx.y", "blockIdx.z", "gridDim.x", "0"]),
    (re.compile(r"blockDim\.x"), ["blockDim.y", "gridDim.x", "32", "(blockDim.x * 2)"]),
    (re.compile(r"blockIdx\.x\s*\*\s*blockDim\.x\s*\+\s*"), [""]),
    (re.compile(r"blockDim\.x\s*\*\s*blockIdx\.x\s*\+\s*"), [""]),
    (re.compile(r"blockDim\.x\s*\*\s*gridDim\.x"), ["gridDim.x", "blockDim.x", "1"]),
]


def m_thread_index(rng, text, _):
    edits = [(p, c) for p, c in THREAD_EDITS if p.search(text)]
    if not edits:
        return None
    pattern, choices = rng.choice(edits)
    m = pick_match(rng, pattern, text)
    new = rng.choice(choices)
    return splice(text, m, new), f"'{m.group()}' -> '{new}'"


def m_make_written(rng, text, _):
    arrays = sorted(set(SUBSCRIPTED.findall(text)) - KEYWORDS)
    choice = rng.random()
    if choice < 0.3:
        m = pick_match(rng, re.compile(r"\bconst\s+"), text)
        if m:
            return splice(text, m, ""), f"drop 'const' at byte {m.start()}"
    if choice < 0.4:
        m = pick_match(rng, re.compile(r"\s*\b__restrict__\b"), text)
        if m:
            return splice(text, m, ""), "drop '__restrict__'"
    stmts = statement_lines(text)
    if not arrays or not stmts:
        return None
    a = rng.choice(arrays)
    idx = rng.choice(["0", "t", "k", "i", "j", "row", "e", "q"] + identifiers(text)[:20])
    store = rng.choice([f"{a}[{idx}] = 0;", f"{a}[{idx}] += 1;", f"++{a}[{idx}];",
                        f"atomicAdd(&{a}[{idx}], 1);", f"*({a} + 1) = 0;", f"{a} = {a} + 1;",
                        f"{a}++;", f"{{ auto *w = {a}; w[{idx}] = 0; }}"])
    ls = lines_of(text)
    i = rng.choice(stmts)
    ls.insert(i + 1, "    " + store + "\n")
    return "".join(ls), f"insert '{store}' after line {i + 1}"


SNIPPETS = [
    "__syncthreads();", "return;", "break;", "continue;", "goto irregfix_fuzz_label; irregfix_fuzz_label:;",
    "extern __shared__ float irregfix_fuzz_sh[];", "asm volatile(\"\");", "int irregfix_fuzz_v = 0;",
    "if (threadIdx.x == 0) return;", "for (;;) break;", "while (0) {}", "switch (0) { default: break; }",
    "auto irregfix_fuzz_l = [&](int i) { return i; };", "static_assert(true, \"\");",
    "#pragma unroll", "__shfl_down_sync(0xffffffff, 0.f, 1);",
]


def m_insert_snippet(rng, text, _):
    stmts = statement_lines(text)
    if not stmts:
        return None
    snip = rng.choice(SNIPPETS)
    ls = lines_of(text)
    i = rng.choice(stmts)
    ls.insert(i + 1, "    " + snip + "\n")
    return "".join(ls), f"insert '{snip}' after line {i + 1}"


SPECIAL_BYTES = [b"\0", b"\\\n", b"\"", b"'", b"/*", b"*/", b"#", b"#if 0\n", b"#endif\n", b"??/", b"\xff\xfe",
                 b"\xc3\xa9", b"\xe2\x80\x8b", b"\t", b"\r", b"\r\n", b"{", b"}", b"(", b")", b";", b"<<<", b">>>",
                 b"#define t 0\n", b"#define for while\n", b"#include \"nonexistent.cuh\"\n", b"@", b"`", b"$"]


def m_insert_bytes(rng, text, _):
    at = rng.randrange(len(text) + 1)
    if rng.random() < 0.5:
        ins = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    else:
        ins = rng.choice(SPECIAL_BYTES)
    # Latin-1 keeps each byte a byte when the mutant is written out.
    return text[:at] + ins.decode("latin-1") + text[at:], f"insert {ins!r} at byte {at}"


WRAPPERS = [
    ("{", "}"),
    ("if (1) {", "}"),
    ("if (threadIdx.x < 1024) {", "}"),
    ("for (int irregfix_fuzz_{d} = 0; irregfix_fuzz_{d} < 1; ++irregfix_fuzz_{d}) {", "}"),
    ("do {", "} while (0);"),
    ("while (1) {", "break; }"),
    ("switch (0) { default: {", "} }"),
]


def m_deep_nesting(rng, text, _):
    stmts = statement_lines(text)
    if not stmts:
        return None
    depth = rng.choice([4, 16, 64, 127, 200, 300, 1000])
    i = rng.choice(stmts)
    ls = lines_of(text)
    mix = rng.random() < 0.5
    fixed = rng.choice(WRAPPERS)
    opens, closes = [], []
    for d in range(depth):
        o, c = rng.choice(WRAPPERS) if mix else fixed
        opens.append(o.replace("{d}", str(d)))
        closes.append(c)
    ls[i] = " ".join(opens) + "\n" + ls[i].rstrip("\n") + "\n" + " ".join(reversed(closes)) + "\n"
    return "".join(ls), f"wrap line {i + 1} in {depth} levels"


def m_long_expression(rng, text, _):
    """Deep expression trees without brackets (clang's bracket limit does not stop them)."""
    m = pick_match(rng, re.compile(r"\b(t|k|i|j|row|e|n|q)\b(?=\s*[\];)<])"), text)
    if not m:
        return None
    n = rng.choice([10, 100, 1000, 5000, 20000])
    form = rng.choice(["+ 0", "* 1", "- 0", ", 0"])
    if form == ", 0":  # (x, 0, 0, ..., x): a comma chain that keeps the value
        new = "(" + m.group() + ", 0" * n + ", " + m.group() + ")"
    else:
        new = m.group() + (" " + form) * n
    return splice(text, m, new), f"'{m.group()}' -> a chain of {n} '{form}'"


LITERALS = ["0", "1", "-1", "2", "3", "32", "256", "1024", "2147483647", "-2147483648", "4294967296",
            "0x7fffffff", "99999999999999999999", "1u", "1ll", "0.5", "1e300", "'a'", "true", "nullptr"]


def m_replace_literal(rng, text, _):
    m = pick_match(rng, INT_LITERAL, text) if rng.random() < 0.8 else pick_match(rng, FLOAT_LITERAL, text)
    if not m:
        return None
    new = rng.choice(LITERALS)
    return splice(text, m, new), f"literal '{m.group()}' -> '{new}'"


KERNEL = re.compile(r"(template\s*<[^>]*>\s*)?__global__\s+void\s+(?:__launch_bounds__\([^)]*\)\s*)?\w+\s*\(([^)]*)\)")
POINTER_PARAM = re.compile(r"((?:const\s+)?(?:unsigned\s+|long\s+)*\w+\s*\*\s*(?:__restrict__\s*)?)(\w+)\s*(?=[,)])")


def m_templatize(rng, text, _):
    """One pointer parameter of a kernel gets a template parameter as its type (its launches deduce it)."""
    ks = [m for m in KERNEL.finditer(text) if not m.group(1)]
    if not ks:
        return None
    k = rng.choice(ks)
    params = list(POINTER_PARAM.finditer(k.group(2)))
    if not params:
        return None
    p = rng.choice(params)
    base = k.start(2)
    if rng.random() < 0.2:  # a pack, a defaulted or a non-type parameter
        header = rng.choice(["template <class... Ts>", "template <class P = float>", "template <int N = 2>",
                             "template <class P, int... Ns>"])
        out = text
        if "Ts" in header:
            end = base + len(k.group(2))
            out = text[:end] + (", " if k.group(2).strip() else "") + "Ts... irregfix_fuzz_extra" + text[end:]
        return out[:k.start()] + header + "\n" + out[k.start():], f"'{header}' on a kernel"
    form = rng.choice(["P ", "P ", "const P ", "P *", "const P *", "typename P::type "])
    out = text[:base + p.start(1)] + form + text[base + p.end(1):]
    return out[:k.start()] + "template <class P>\n" + out[k.start():], f"template <class P>, parameter '{p.group(2)}' as '{form.strip()}'"


def m_macroize(rng, text, _):
    """Part of a kernel written through a macro: reads, loop heads, the thread index."""
    choice = rng.random()
    define = "#define IRREGFIX_FUZZ_M(x) x\n"
    if choice < 0.4:
        m = pick_match(rng, re.compile(r"\b[A-Za-z_]\w*\[[^\[\]\n]*\]"), text)
        if not m:
            return None
        new = rng.choice([f"IRREGFIX_FUZZ_M({m.group()})",
                          m.group().replace("[", "[IRREGFIX_FUZZ_M(", 1)[:-1] + ")]"])
    elif choice < 0.7:
        m = pick_match(rng, re.compile(r"blockIdx\.x\s*\*\s*blockDim\.x\s*\+\s*threadIdx\.x"), text) or \
            pick_match(rng, re.compile(r"\bfor\b"), text)
        if not m:
            return None
        new = f"IRREGFIX_FUZZ_M({m.group()})" if m.group() != "for" else "IRREGFIX_FUZZ_FOR"
        define += "#define IRREGFIX_FUZZ_FOR for\n"
    else:
        m = pick_match(rng, re.compile(r"<<<[^;]*?>>>"), text)
        if not m:
            return None
        new = "IRREGFIX_FUZZ_M(" + m.group()[3:-3].replace(",", ") , IRREGFIX_FUZZ_M(") + ")"
        new = "<<<" + new + ">>>"
    out = splice(text, m, new)
    return define + out, f"'{m.group()[:40]}' through a macro"


def kernel_definitions(text):
    """(start, end, name, params start, params end) of each kernel defined in text."""
    out = []
    for k in KERNEL.finditer(text):
        brace = text.find("{", k.end())
        if brace < 0 or ";" in text[k.end():brace]:  # a declaration
            continue
        depth = 0
        for j in range(brace, len(text)):
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            if depth == 0:
                name = re.search(r"(\w+)\s*\($", text[k.start():k.start(2)]).group(1)
                out.append((k.start(), j + 1, name, k.start(2), k.end(2)))
                break
    return out


def pick_kernel(rng, text):
    """One of kernel_definitions(text), or None."""
    ks = kernel_definitions(text)
    return rng.choice(ks) if ks else None


TYPE_SWAPS = [("float", "double"), ("double", "float"), ("const int *", "const long long *"),
              ("const int *", "const unsigned *"), ("int n", "long long n"), ("float *", "float4 *"),
              ("const int *", "const short *"), ("int *", "size_t *")]


def m_overload_kernel(rng, text, _):
    """A second kernel of the same name with other parameter types (an overload)."""
    k = pick_kernel(rng, text)
    if not k:
        return None
    start, end, name, ps, pe = k
    params = text[ps:pe]
    swaps = [(a, b) for a, b in TYPE_SWAPS if a in params]
    if not swaps:
        return None
    a, b = rng.choice(swaps)
    copy = text[start:ps] + params.replace(a, b) + text[pe:end]
    return text[:end] + "\n" + copy + text[end:], f"overload '{name}' with '{a}' -> '{b}'"


def m_param_type(rng, text, _):
    """One parameter type changed in a kernel (index width, element type, array syntax)."""
    k = pick_kernel(rng, text)
    if not k:
        return None
    _, _, name, ps, pe = k
    params = text[ps:pe]
    forms = [(re.compile(r"\bconst\s+int\s*\*"), ["const long long *", "const unsigned *", "const short *",
                                                    "const char *", "const float *", "const int *const "]),
             (re.compile(r"\bfloat\s*\*"), ["double *", "float4 *", "int *", "float2 *"]),
             (re.compile(r"\bint\s+n\b"), ["long long n", "unsigned n", "const int n", "size_t n", "float n"]),
             (re.compile(r"\*\s*(?:__restrict__\s*)?(\w+)(?=\s*[,)])"), None)]
    pattern, choices = rng.choice(forms)
    ms = list(pattern.finditer(params))
    if not ms:
        return None
    m = rng.choice(ms)
    new = rng.choice(choices) if choices else " " + m.group(1) + "[]"  # `const int B[]`
    params = params[:m.start()] + new + params[m.end():]
    return text[:ps] + params + text[pe:], f"parameter of '{name}': '{m.group()}' -> '{new}'"


def m_namespace(rng, text, _):
    """A kernel moved into a namespace; its launches qualify it or bring it in."""
    k = pick_kernel(rng, text)
    if not k:
        return None
    start, end, name, _, _ = k
    ns = rng.choice(["fz", "fz::inner", ""])  # "" is an anonymous namespace
    opens = "".join(f"namespace {p} {{ " for p in ns.split("::")) if ns else "namespace { "
    closes = " }" * (ns.count("::") + 1)
    text = text[:start] + opens + "\n" + text[start:end] + "\n" + closes + text[end:]
    how = rng.choice(["qualify", "using", "using namespace", "none"])
    if ns and how == "qualify":
        text = re.sub(rf"(?<![\w:]){name}(\s*(?:<[^<>;]*>)?\s*<<<)", rf"::{ns}::{name}\1", text)
    elif ns and how == "using":
        text = re.sub(r"\n(void|int|static)\b", rf"\nusing {ns}::{name};\n\1", text, count=1)
    elif ns and how == "using namespace":
        text = re.sub(r"\n(void|int|static)\b", rf"\nusing namespace {ns};\n\1", text, count=1)
    return text, f"'{name}' into namespace '{ns or '(anonymous)'}', launches: {how}"


def m_decorate_kernel(rng, text, _):
    """Specifiers, attributes and default arguments on a kernel."""
    k = pick_kernel(rng, text)
    if not k:
        return None
    start, _, name, ps, pe = k
    what = rng.choice(["static ", "inline ", 'extern "C" ', "[[maybe_unused]] ", "__launch_bounds__(256) ",
                       "__noinline__ ", "default", "unnamed"])
    if what == "default":
        if not text[ps:pe].strip():
            return None
        return text[:pe] + rng.choice([" = 0", " = nullptr", " = {}"]) + text[pe:], f"default argument on '{name}'"
    if what == "unnamed":
        m = pick_match(rng, re.compile(r"\s(\w+)\s*(?=[,)])"), text[ps:pe])
        if not m:
            return None
        return text[:ps + m.start(1)] + text[ps + m.end(1):], f"unnamed parameter '{m.group(1)}' of '{name}'"
    if what == "__launch_bounds__(256) ":
        at = text.index("void", start) + 5
        return text[:at] + what + text[at:], f"'{what.strip()}' on '{name}'"
    return text[:start] + what + text[start:], f"'{what.strip()}' on '{name}'"


def m_specialize(rng, text, _):
    """An explicit specialization of a kernel template (`template <>`, T as float)."""
    ks = [k for k in kernel_definitions(text) if text[k[0]:k[0] + 8] == "template"]
    if not ks:
        return None
    start, end, name, ps, _ = rng.choice(ks)
    header = re.match(r"template\s*<([^>]*)>", text[start:])
    params = re.findall(r"(?:class|typename)\s+(\w+)", header.group(1))
    if not params or re.search(r"\bint\s+\w+", header.group(1)):
        return None
    ty = rng.choice(["float", "double", "int"])
    body = text[start + header.end():end]
    for p in params:
        body = re.sub(rf"\b{p}\b", ty, body)
    args = ", ".join(ty for _ in params)
    body = re.sub(rf"\b{name}\s*\(", f"{name}<{args}>(", body, count=1)
    return text[:end] + "\ntemplate <>" + body + text[end:], f"explicit specialization '{name}<{args}>'"


def in_kernel_statement(rng, text):
    """A statement line inside some kernel, or None."""
    k = pick_kernel(rng, text)
    if not k:
        return None
    start, end, _, _, _ = k
    first = text.count("\n", 0, start)
    last = text.count("\n", 0, end)
    cands = [i for i in statement_lines(text) if first < i < last]
    return rng.choice(cands) if cands else None


def m_lambda(rng, text, _):
    """A lambda in a kernel reading one of its arrays (captured, or passed as the lambda's own parameter)."""
    i = in_kernel_statement(rng, text)
    arrays = sorted(set(SUBSCRIPTED.findall(text)) - KEYWORDS)
    if i is None or not arrays:
        return None
    a, b = rng.choice(arrays), rng.choice(arrays)
    idx = rng.choice(["t", "0", "i", "k", "j"])
    snip = rng.choice([
        f"auto irregfix_fuzz_f = [&](int i) {{ return {a}[i]; }}; (void)irregfix_fuzz_f({idx});",
        f"auto irregfix_fuzz_f = [=](int i) {{ return {a}[{b}[i]]; }}; (void)irregfix_fuzz_f({idx});",
        f"auto irregfix_fuzz_f = [](const decltype({a}) {b}, int i) {{ return {b}[i]; }}; (void)irregfix_fuzz_f({a}, {idx});",
        f"struct irregfix_fuzz_s {{ __device__ static int f(int i) {{ return i; }} }}; (void)irregfix_fuzz_s::f({idx});",
    ])
    ls = lines_of(text)
    ls.insert(i + 1, "    " + snip + "\n")
    return "".join(ls), f"insert '{snip[:60]}' after line {i + 1}"


LAUNCH = re.compile(r"\b(\w+)\s*(<[^<>;()]*>)?\s*<<<([^;]*?)>>>\s*\(([^;]*)\)\s*;")


def m_launch(rng, text, _):
    """A launch changed: stream and shared memory, parentheses, a lambda or a host template around it,
    a host write of an argument before it."""
    m = pick_match(rng, LAUNCH, text)
    if not m:
        return None
    name, targs, config, args = m.group(1), m.group(2) or "", m.group(3), m.group(4)
    arg_list = [a.strip() for a in args.split(",") if a.strip()]
    how = rng.choice(["stream", "paren", "lambda", "write", "free", "memset", "twice", "config"])
    if how == "stream":
        new = f"{name}{targs}<<<{config}, 0, 0>>>({args});" if config.count(",") == 1 else None
    elif how == "paren":
        new = f"({name}){targs}<<<{config}>>>({args});"
    elif how == "lambda":
        new = f"[&] {{ {m.group()} }}();"
    elif how in ("write", "free", "memset") and arg_list:
        a = rng.choice(arg_list)
        call = {"write": f"cudaMemcpy((void *){a}, (const void *){a}, 4, cudaMemcpyDeviceToDevice);",
                "free": f"cudaFree((void *){a});", "memset": f"cudaMemset((void *){a}, 0, 4);"}[how]
        new = (call + " " + m.group()) if rng.random() < 0.5 else (m.group() + " " + call)
    elif how == "twice":
        new = m.group() + " " + m.group()
    else:
        new = f"{name}{targs}<<<{rng.choice(['dim3(1, 1, 1)', '1', '0'])}, {rng.choice(['dim3(32, 2)', '1024', '32'])}>>>({args});"
    if new is None:
        return None
    return splice(text, m, new), f"launch of '{name}': {how}"


def m_crossover(rng, text, seeds):
    """A few lines of another seed (often a whole kernel) pasted in."""
    other = lines_of(rng.choice(seeds).text)
    if not other:
        return None
    a = rng.randrange(len(other))
    b = min(len(other), a + rng.choice([1, 5, 10, 30]))
    ls = lines_of(text)
    at = rng.randrange(len(ls) + 1)
    return "".join(ls[:at] + other[a:b] + ls[at:]), f"paste {b - a} lines of another seed at line {at + 1}"


MUTATIONS = [
    (m_delete_line, 3), (m_duplicate_line, 2), (m_swap_lines, 2), (m_truncate_line, 2), (m_truncate_file, 1),
    (m_swap_identifiers, 3), (m_swap_operator, 4), (m_thread_index, 3), (m_make_written, 3),
    (m_insert_snippet, 2), (m_insert_bytes, 1), (m_deep_nesting, 1), (m_long_expression, 1),
    (m_replace_literal, 2), (m_templatize, 2), (m_macroize, 2), (m_crossover, 1), (m_overload_kernel, 1),
    (m_param_type, 2), (m_namespace, 1), (m_decorate_kernel, 2), (m_specialize, 1), (m_lambda, 1),
    (m_launch, 2),
]


def make_mutant(seed_value, index, seeds):
    """Mutant `index` of a campaign: a function of (seed_value, index) only."""
    rng = random.Random(f"irregfix-fuzz:{seed_value}:{index}")
    seed = rng.choice(seeds)
    text = seed.text
    steps = []
    count = 1 + (rng.random() < 0.5) + (rng.random() < 0.25) + (rng.random() < 0.1)
    funcs, weights = zip(*MUTATIONS)
    tries = 0
    while len(steps) < count and tries < 20:
        tries += 1
        f = rng.choices(funcs, weights)[0]
        r = f(rng, text, seeds)
        if r is None:
            continue
        text, what = r
        steps.append(f"{f.__name__[2:]}: {what}")
    options = []
    roll = rng.random()
    if roll < 0.25:
        options.append("--hoist")
    elif roll < 0.35:
        options += ["--report", "--print-stats"]
    # Sometimes a header, which the tool parses as the main file of a CUDA unit.
    name = "mutant.cuh" if rng.random() < 0.1 else "mutant.cu"
    return seed, text, steps, options, name


# ---------------------------------------------------------------------------
# Running the tool and the compiler


class Config:
    def __init__(self, args):
        self.tool = os.path.abspath(args.tool)
        self.run_tool = self.tool  # a snapshot in the scratch directory, once there is one
        self.clang = args.clang
        self.cuda = args.cuda_path
        self.timeout = args.timeout


def tool_command(cfg, seed, mutant, out, options):
    if seed.real:
        cmd = [cfg.run_tool, f"--cuda-path={cfg.cuda}"]
        flags = []
    else:
        cmd = [cfg.run_tool, f"--cuda-path={STUB_CUDA}"]
        flags = ["-nocudainc", "-nocudalib", "-I", os.path.join(STUB_CUDA, "include")]
    return cmd + options + [mutant, "-o", out, "--"] + flags + ["-I", seed.dir] + seed.extra


def compile_command(cfg, seed, source):
    """clang++ -fsyntax-only in CUDA mode (host and device), with what the tool parses with."""
    cmd = [cfg.clang, "-x", "cuda", "-fsyntax-only", "--cuda-gpu-arch=sm_90", "-Wno-unknown-cuda-version",
           "-isystem", STUB_HEADERS, "-I", RUNTIME_INCLUDE]
    if seed.real:
        cmd += [f"--cuda-path={cfg.cuda}", "-isystem", os.path.join(cfg.cuda, "include", "cccl")]
    else:
        cmd += [f"--cuda-path={STUB_CUDA}", "-nocudainc", "-nocudalib", "-I", os.path.join(STUB_CUDA, "include")]
    return cmd + ["-I", seed.dir] + seed.extra + [source]


MEMORY_LIMIT = 6 << 30  # --memory-gb


def limit_memory():
    # A runaway mutant must not take the machine from the people sharing it.
    if MEMORY_LIMIT:
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run(cmd, timeout, cwd):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                           preexec_fn=limit_memory)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired as e:
        return None, (e.stdout or b"").decode("utf-8", "replace"), (e.stderr or b"").decode("utf-8", "replace")


def compiles(cfg, seed, path, cwd, timeout=None):
    """Whether Clang accepts the file; also the seconds it took (None: out of time)."""
    start = time.time()
    rc, _, err = run(compile_command(cfg, seed, path), timeout or cfg.timeout * 2, cwd)
    return rc == 0, err, (None if rc is None else time.time() - start)


# The last ones are a sanitizer build's (ASan exits 1 by default); each is
# matched at the start of a line, not in the source lines diagnostics quote.
CRASH_MARKS = ("Stack dump", "PLEASE submit a bug report", "LLVM ERROR", "Assertion", "terminate called",
               "==[0-9]+==ERROR: AddressSanitizer", r"\S+\.(?:cpp|h):\d+:\d+: runtime error:")
CRASH_RE = re.compile("^(?:" + "|".join(CRASH_MARKS) + ")", re.M)


def first_line(text, pattern):
    for line in text.splitlines():
        if re.search(pattern, line):
            return line
    return ""


FRAME = re.compile(r"^\s*#\d+\s+0x[0-9a-f]+\s+(\S.*?)\s+\(")


def crash_signature(rc, err):
    """The signal and the innermost frame of the tool's own (else of Clang's) code."""
    frames = [m.group(1) for m in map(FRAME.match, err.splitlines()) if m]
    frames = [f for f in frames if not f.startswith(("llvm::sys::", "__", "_start", "main"))]
    ours = [f for f in frames if "irregfix::" in f]
    frame = re.sub(r"\((?!anonymous namespace\)).*", "", (ours or frames or [""])[0])[:120]
    what = f"signal {-rc}" if rc is not None and rc < 0 else f"exit {rc}"
    mark = first_line(err, "^(?:" + "|".join(CRASH_MARKS[2:]) + ")")[:120]
    return " ".join(x for x in (what, mark, frame) if x)


# Refusals of valid input the tool documents (test/refuse/): a mutant that
# keeps what the seed is refused for is refused the same way.
DOCUMENTED_REFUSAL = re.compile(r"error: cannot rewrite this file: it declares '[^']*' at global scope, "
                                r"the name of the irregfix runtime's namespace")


def error_signature(err):
    """The first error, without file positions and names the mutation made up."""
    line = first_line(err, r"error:")
    if not line:
        rest = err.strip().splitlines()
        line = rest[-1] if rest else "no message"
    line = re.sub(r"^.*?error:\s*", "", line)
    return re.sub(r"'[^']*'", "'_'", line)[:160]


def classify(cfg, seed, text, options, workdir, name="mutant.cu"):
    """Runs the tool on one mutant. Returns (category or None, signature, details)."""
    mutant = os.path.join(workdir, name)
    out = os.path.join(workdir, "output.cu")
    with open(mutant, "wb") as f:
        f.write(text.encode("latin-1"))
    cmd = tool_command(cfg, seed, name, "output.cu", options)
    details = {"command": cmd, "stats": {}, "name": name}
    rc, stdout, err = run(cmd, cfg.timeout, workdir)
    if rc is None:  # confirm on a quiet moment: a loaded machine is slow, not hung
        rc, stdout, err = run(cmd, cfg.timeout * 4, workdir)
    details["stderr"] = err
    details["rc"] = rc
    if rc is None:
        return "hang", "hang", details
    if rc not in (0, 1) or CRASH_RE.search(err):
        return "crash", crash_signature(rc, err), details
    leftovers = [f for f in os.listdir(workdir) if f.startswith("output.cu.irregfix-")]
    if rc != 0 and (os.path.exists(out) or leftovers):
        return "half-written", "output written on error", details
    if leftovers:
        return "half-written", "temporary file left behind", details
    if rc == 0 and not os.path.exists(out):
        return "half-written", "exit 0 without the -o file", details
    details["stats"]["exit"] = rc
    if rc == 0:
        with open(out, "rb") as f:
            output = f.read()
        with open(mutant, "rb") as f:
            rewritten = output != f.read()
        details["stats"]["rewritten"] = rewritten
        if not rewritten:
            return None, "", details
        ok, _, seconds = compiles(cfg, seed, name, workdir)
        details["stats"]["input compiles"] = ok
        if not ok:
            return None, "", details
        # The output holds the input and the code generated from it (index
        # kernels repeat the index expressions): its check gets four times the
        # input's time, and running out of it is said as such.
        budget = max(cfg.timeout * 2, 4 * seconds + 30)
        ok, cerr, out_seconds = compiles(cfg, seed, "output.cu", workdir, budget)
        details["compile"] = cerr
        if out_seconds is None:
            return "uncompilable", "the syntax check of the output ran out of time (%.0f s; the input's: %.0f s)" % (
                budget, seconds), details
        if not ok:
            return "uncompilable", error_signature(cerr), details
        return None, "", details
    # Exit 1: fine for a mutant that does not compile; for one that does, only
    # the tool's own documented refusals are (bad option, missing file, ...).
    if DOCUMENTED_REFUSAL.search(err):
        return None, "", details
    ok, _, _ = compiles(cfg, seed, name, workdir)
    details["stats"]["input compiles"] = ok
    if ok:
        return "rejected", error_signature(err), details
    return None, "", details


# ---------------------------------------------------------------------------
# Campaign


class Results:
    CATEGORIES = ["crash", "hang", "uncompilable", "rejected", "half-written"]

    def __init__(self, out_dir, keep):
        self.lock = threading.Lock()
        self.out_dir = out_dir
        self.keep = keep
        self.mutants = 0
        self.exit0 = self.exit1 = self.rewritten = self.checked = 0
        self.by_category = {c: 0 for c in self.CATEGORIES}
        self.signatures = {}  # (category, signature) -> [count, first saved dir]

    def add(self, index, seed, steps, options, text, category, signature, details, workdir):
        with self.lock:
            self.mutants += 1
            s = details["stats"]
            self.exit0 += s.get("exit") == 0
            self.exit1 += s.get("exit") == 1
            self.rewritten += bool(s.get("rewritten"))
            self.checked += bool(s.get("rewritten")) and s.get("input compiles", False)
            if not category:
                return
            self.by_category[category] += 1
            key = (category, signature)
            entry = self.signatures.setdefault(key, [0, None])
            entry[0] += 1
            if entry[0] > self.keep:
                return
            tag = hashlib.sha1(f"{category}:{signature}".encode()).hexdigest()[:8]
            dest = os.path.join(self.out_dir, category, f"{tag}-{index}")
            entry[1] = entry[1] or dest
        save(dest, index, seed, steps, options, text, signature, details, workdir)


def save(dest, index, seed, steps, options, text, signature, details, workdir):
    os.makedirs(dest, exist_ok=True)
    name = details["name"]
    shutil.copy(os.path.join(workdir, name), os.path.join(dest, name))
    if os.path.exists(os.path.join(workdir, "output.cu")):
        shutil.copy(os.path.join(workdir, "output.cu"), os.path.join(dest, "output.cu"))
    with open(os.path.join(dest, "stderr.txt"), "w") as f:
        f.write(details.get("stderr", ""))
        if details.get("compile"):
            f.write("\n--- clang++ on output.cu ---\n" + details["compile"])
    with open(os.path.join(dest, "info.txt"), "w") as f:
        f.write(f"mutant {index} of seed file {seed.path}\nsignature: {signature}\nexit: {details.get('rc')}\n")
        f.write("mutations:\n" + "".join(f"  {s}\n" for s in steps))
    cmd = [CFG.tool if c == CFG.run_tool else c for c in details["command"]]
    with open(os.path.join(dest, "repro.sh"), "w") as f:
        f.write("#!/bin/sh\n# Reproduces the failure; run from this directory.\n")
        f.write(" ".join(shlex.quote(c) for c in cmd) + "\n")
        if details.get("compile") is not None:
            f.write("# the output's syntax check:\n# " +
                    " ".join(shlex.quote(c) for c in compile_command(CFG, seed, "output.cu")) + "\n")
    os.chmod(os.path.join(dest, "repro.sh"), 0o755)


CFG = None


def one(cfg, seeds, seed_value, index, results, scratch):
    seed, text, steps, options, name = make_mutant(seed_value, index, seeds)
    workdir = tempfile.mkdtemp(prefix=f"m{index}-", dir=scratch)
    try:
        category, signature, details = classify(cfg, seed, text, options, workdir, name)
        results.add(index, seed, steps, options, text, category, signature, details, workdir)
        return category
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def summary(results, seconds, args):
    r = results
    lines = [
        f"irregfix fuzz: seed {args.seed}, {r.mutants} mutants in {seconds:.0f} s "
        f"({r.mutants / seconds if seconds > 0 else 0:.1f}/s, {args.jobs} jobs)",
        f"  tool exit 0: {r.exit0} ({r.rewritten} rewritten, {r.checked} of them from inputs that compile, "
        f"outputs checked), exit 1: {r.exit1}",
        "  crashes: {crash}, hangs: {hang}, uncompilable outputs: {uncompilable}, errors on valid input: "
        "{rejected}, files half-written: {half-written}".format(**r.by_category),
    ]
    for (category, signature), (count, where) in sorted(r.signatures.items(), key=lambda kv: -kv[1][0]):
        lines.append(f"  {category} x{count}: {signature}" + (f"  [{os.path.relpath(where)}]" if where else ""))
    return "\n".join(lines)


def main():
    global CFG, MEMORY_LIMIT
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1, help="campaign seed (default 1)")
    ap.add_argument("--mutants", type=int, help="number of mutants (default 1000 unless --seconds)")
    ap.add_argument("--seconds", type=float, help="stop starting mutants after this long")
    ap.add_argument("--first", type=int, default=0, help="index of the first mutant (to continue a campaign)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--tool", default=os.path.join(ROOT, "build", "tool", "irregfix"))
    ap.add_argument("--clang", default=shutil.which("clang++-19") or "clang++")
    ap.add_argument("--cuda-path", default=os.environ.get("CUDA_PATH", "/usr/local/cuda"),
                    help="the real CUDA, for seeds that need it (samples); they are skipped without it")
    ap.add_argument("--out", default="fuzz-out", help="where failing mutants go")
    ap.add_argument("--timeout", type=float, default=30, help="seconds before a run counts as a hang")
    ap.add_argument("--keep", type=int, default=5, help="failing mutants kept per signature")
    ap.add_argument("--memory-gb", type=float, default=6,
                    help="address space of each run (default 6; 0: no limit, for a sanitizer build)")
    ap.add_argument("--replay", type=int, help="rebuild mutant I, print it and its verdict")
    ap.add_argument("--log", help="append the summary to this file")
    args = ap.parse_args()
    if args.mutants is None and args.seconds is None:
        args.mutants = 1000
    if not os.access(args.tool, os.X_OK):
        sys.exit(f"fuzz.py: no tool at {args.tool} (build it, or pass --tool)")
    CFG = cfg = Config(args)
    MEMORY_LIMIT = int(args.memory_gb * (1 << 30))
    seeds = load_seeds()
    if not os.path.exists(os.path.join(cfg.cuda, "include", "cuda_runtime.h")):
        seeds = [s for s in seeds if not s.real]
    if not seeds:
        sys.exit("fuzz.py: no seeds")
    # Findings of an earlier run in the same place would read as this run's.
    for category in Results.CATEGORIES:
        shutil.rmtree(os.path.join(args.out, category), ignore_errors=True)
    os.makedirs(args.out, exist_ok=True)
    scratch = tempfile.mkdtemp(prefix="irregfix-fuzz-")
    # A rebuild during a long campaign must not change (or half-write) the tool
    # under test: run a copy. It finds its headers through the paths built in.
    cfg.run_tool = os.path.join(scratch, "irregfix")
    shutil.copy2(cfg.tool, cfg.run_tool)
    results = Results(os.path.abspath(args.out), args.keep)

    if args.replay is not None:
        seed, text, steps, options, _ = make_mutant(args.seed, args.replay, seeds)
        print(f"mutant {args.replay}: seed file {seed.path}, options {options}")
        for s in steps:
            print("  " + s)
        category = one(cfg, seeds, args.seed, args.replay, results, scratch)
        print(f"verdict: {category or 'ok'}")
        print(summary(results, 0, args))
        shutil.rmtree(scratch, ignore_errors=True)
        return 1 if category else 0

    start = time.monotonic()
    deadline = start + args.seconds if args.seconds else None
    limit = args.first + args.mutants if args.mutants is not None else None
    index = args.first
    pending = set()
    broken = None
    last_note = start
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        while True:
            while len(pending) < 2 * args.jobs and (limit is None or index < limit) and \
                    (deadline is None or time.monotonic() < deadline):
                pending.add(pool.submit(one, cfg, seeds, args.seed, index, results, scratch))
                index += 1
            if not pending:
                break
            done, pending = concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
            if time.monotonic() - last_note >= 60:  # a long campaign says how it goes
                last_note = time.monotonic()
                print(f"[{last_note - start:.0f} s] {results.mutants} mutants, "
                      f"{sum(results.by_category.values())} failing", file=sys.stderr, flush=True)
            for d in done:
                if d.exception():  # a bug in the fuzzer itself stops the campaign, after the summary
                    broken = broken or d.exception()
                    limit, deadline = index, time.monotonic()
    seconds = time.monotonic() - start
    shutil.rmtree(scratch, ignore_errors=True)
    text = summary(results, seconds, args)
    print(text)
    if args.log:
        with open(args.log, "a") as f:
            f.write(f"$ {' '.join(shlex.quote(a) for a in sys.argv)}\n{text}\n\n")
    if broken:
        print(f"fuzz.py: stopped by an error of its own: {broken!r}", file=sys.stderr)
        return 2
    failures = sum(results.by_category.values())
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
