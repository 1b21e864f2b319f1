#!/usr/bin/env python3
"""Random C programs for the gcda wrong-claim hunt (scripts/gcda-hunt.sh).

  progen.py SEED [NAME]   prints the program of SEED (NAME: the name its
                          header comment gives, default rgSEED)

Each seed gives one deterministic, terminating C11 program, warning-free
under -Wall -Wextra -Werror, which reads its input from a fixed seeded PRNG
and prints everything it computes (so gcc can delete nothing that ran).
The programs are made of what gcc's optimizers transform: nested
for/while/do loops with break and continue, data-dependent trip counts,
if/else chains, `?:`, `&&`/`||` chains, dense switches (jump tables),
sparse switches (comparison trees), fallthrough, early returns, goto,
small static helpers called from several places (inlined), one-line
functions, function pointers, bounded recursion, arrays, structs and
globals. Arithmetic is unsigned (no undefined behaviour: both twins must
compute the same), shifts are masked, divisors are odd, indices masked.

The generator estimates each statement's cost (statements executed) and
keeps a call's cost inside its caller's, so a program runs well under a
second under qemu with the tracing plugin. Same seed, same program: the
output depends only on SEED and this file (Python's random.Random with an
integer seed is stable across versions).
"""
import random
import re
import sys

NVARS = 4            # locals x0..x3 per function
MAX_FN_COST = 4000   # statements one call of a function may run
MAIN_BUDGET = 150000  # statements main's loop may run in all
MAX_FN_LINES = 90    # lines of a function's body (small reproducers)


class Gen:
    def __init__(self, seed):
        self.r = random.Random(seed)
        self.seed = seed
        self.fns = []      # (name, cost, kind) callable so far
        self.helpers = []  # (name, cost) one-argument helpers
        self.ntmp = 0
        self.out = []

    # --- expressions -----------------------------------------------------
    def atom(self, env):
        r = self.r
        k = r.randrange(10)
        if k < 5:
            return r.choice(env["vars"])
        if k < 7:
            return str(r.choice([0, 1, 2, 3, 5, 7, 10, 13, 100, 255]) ) + "u"
        if k < 8:
            return "g_arr[%s & 15u]" % r.choice(env["vars"])
        if k < 9:
            return "g_s[%s & 3u].%s" % (r.choice(env["vars"]),
                                        r.choice(["a", "b"]))
        return "g_cnt"

    def expr(self, env, d=2, calls=True):
        r = self.r
        if d <= 0 or r.random() < 0.3:
            return self.atom(env)
        k = r.randrange(12)
        a = self.expr(env, d - 1, calls)
        b = self.expr(env, d - 1, calls)
        if k < 5:
            return "(%s %s %s)" % (a, r.choice(["+", "-", "*", "^", "&", "|"]),
                                   b)
        if k < 6:
            return "(%s >> (%s & 7u))" % (a, b)
        if k < 7:
            return "(%s %% (%s | 1u))" % (a, b)
        if k < 9:
            return "(%s ? %s : %s)" % (self.cond(env, d - 1, calls), a, b)
        if k < 11 and calls and self.helpers and env["cost"] is not None:
            h, c = r.choice(self.helpers)
            env["cost"][0] += c
            return "%s(%s)" % (h, a)
        return "(%s + %s)" % (a, b)

    def cmp(self, env, d, calls, v=None):
        r = self.r
        v = v or r.choice(env["vars"])
        k = r.randrange(7)
        if k == 0:
            return "(%s & %uu) == %uu" % (v, r.choice([1, 3, 7]),
                                          r.randrange(2))
        if k == 1:
            op = r.choice(["<", "==", "!=", ">"])
            return "%s %% %uu %s %uu" % (v, r.choice([3, 5, 7, 10]), op,
                                         r.randrange(op == "<", 3))
        if k == 2:
            e = self.expr(env, d, calls)
            if e == v or not re.search(r"\b[a-z_]", e):
                # -Wtautological-compare, -Wtype-limits (`x < 0u`)
                e = "%uu" % r.randrange(1, 20)
            return "%s %s %s" % (v, r.choice(["<", ">", "<=", "==", "!="]),
                                 e)
        if k == 3:
            return "(%s & %uu) < %uu" % (v, r.choice([15, 31, 63]),
                                         r.randrange(4, 30))
        if k == 4:
            return "g_arr[%s & 15u] > %s" % (v, r.choice(env["vars"]))
        if k == 5:
            return "%s > %uu" % (self.expr(env, d, calls), r.randrange(1, 9))
        return "((%s >> %u) & 1u)" % (v, r.randrange(8))

    def cond(self, env, d=1, calls=True):
        r = self.r
        n = r.choice([1, 1, 1, 2, 2, 3])
        # One variable per test: gcc warns about `(x & 7u) == 0u &&
        # (x & 1u) == 1u` (-Werror).
        vs = r.sample(env["vars"], min(n, len(env["vars"])))
        parts = [self.cmp(env, d, calls, v) for v in vs]
        s, last = parts[0], None
        for p in parts[1:]:
            op = r.choice(["&&", "||"])
            if last and op != last:  # -Wparentheses
                s = "(%s)" % s
            s, last = "%s %s %s" % (s, op, p), op
        if r.random() < 0.15:
            s = "!(%s)" % s
        return s

    # --- statements --------------------------------------------------------
    def lhs(self, env):
        r = self.r
        k = r.randrange(10)
        if k < 7:
            return r.choice(self.writable(env))
        if k < 9:
            return "g_arr[%s & 15u]" % r.choice(env["vars"])
        return "g_s[%s & 3u].%s" % (r.choice(env["vars"]),
                                    r.choice(["a", "b"]))

    @staticmethod
    def writable(env):
        """Loop counters and a recursion's depth are never assigned: every
        loop and recursion must end."""
        return [v for v in env["vars"] if v[0] not in "in"]

    def simple(self, env, ind):
        r = self.r
        op = r.choice(["=", "+=", "^=", "-=", "|="])
        return ["%s%s %s %s;" % (ind, self.lhs(env), op, self.expr(env))]

    def block(self, env, depth, ind, n=None, loop=None):
        lines = []
        n = n if n is not None else self.r.randint(1, 3)
        for _ in range(n):
            lines += self.stmt(env, depth, ind, loop)
        return lines

    def sub_cost(self, env, fn, *args):
        """Runs fn with a fresh cost cell; returns (lines, cost)."""
        saved = env["cost"]
        env["cost"] = [0]
        lines = fn(*args)
        c = env["cost"][0]
        env["cost"] = saved
        return lines, c

    def stmt(self, env, depth, ind, loop):
        r = self.r
        env["cost"][0] += 1
        kinds = ["simple"] * 4
        if depth > 0:
            kinds += ["if", "if", "ifelse", "chain", "for", "while", "do",
                      "dswitch", "sswitch"]
        if self.fns or self.helpers:
            kinds += ["call", "call"]
        if loop:
            kinds += ["brk", "cont"]
        if env["depth0"] - depth >= 1:
            kinds += ["ret", "goto"] if "goto" in env else ["ret"]
        k = r.choice(kinds)
        i2 = ind + "\t"
        if k == "simple":
            return self.simple(env, ind)
        if k == "if":
            return (["%sif (%s) {" % (ind, self.cond(env))] +
                    self.block(env, depth - 1, i2, None, loop) + [ind + "}"])
        if k == "ifelse":
            return (["%sif (%s) {" % (ind, self.cond(env))] +
                    self.block(env, depth - 1, i2, None, loop) +
                    [ind + "} else {"] +
                    self.block(env, depth - 1, i2, None, loop) + [ind + "}"])
        if k == "chain":
            out = ["%sif (%s) {" % (ind, self.cond(env))]
            out += self.block(env, depth - 1, i2, r.randint(1, 2), loop)
            for _ in range(r.randint(1, 4)):
                out += ["%s} else if (%s) {" % (ind, self.cond(env))]
                out += self.block(env, depth - 1, i2, r.randint(1, 2), loop)
            if r.random() < 0.6:
                out += [ind + "} else {"]
                out += self.block(env, depth - 1, i2, r.randint(1, 2), loop)
            return out + [ind + "}"]
        if k in ("for", "while", "do"):
            return self.loop(env, depth, ind, k)
        if k == "dswitch":
            return self.switch(env, depth, ind, loop, dense=True)
        if k == "sswitch":
            return self.switch(env, depth, ind, loop, dense=False)
        if k == "call":
            return self.call(env, ind)
        if k == "brk":
            return ["%sif (%s)" % (ind, self.cond(env)), i2 + "break;"]
        if k == "cont":
            return ["%sif (%s)" % (ind, self.cond(env)), i2 + "continue;"]
        if k == "ret":
            return ["%sif (%s)" % (ind, self.cond(env)),
                    "%sreturn %s;" % (i2, self.expr(env, 1))]
        # goto the function's end
        env["goto"] = True
        return ["%sif (%s)" % (ind, self.cond(env)), i2 + "goto out;"]

    def loop(self, env, depth, ind, k):
        r = self.r
        self.ntmp += 1
        iv = "i%d" % self.ntmp
        # The trip count: a constant, or data-dependent (masked, bounded).
        if r.random() < 0.4:
            trip = r.randint(1, 9)
            bound = "%uu" % trip
        else:
            m = r.choice([3, 7, 15])
            trip = m + (1 if k == "do" else 0)
            bound = "(%s & %uu)" % (r.choice(env["vars"]), m)
        env["vars"].append(iv)
        body, c = self.sub_cost(env, self.block, env, depth - 1, ind + "\t",
                                None, True)
        env["vars"].pop()
        env["cost"][0] += trip * (c + 1)
        i2 = ind + "\t"
        if k == "for":
            return (["%sfor (unsigned %s = 0; %s < %s; %s++) {" %
                     (ind, iv, iv, bound, iv)] + body + [ind + "}"])
        # A bounded while/do with a second, data-dependent exit test; the
        # counter steps first so that a continue cannot skip it.
        extra = ""
        if r.random() < 0.5:
            extra = " && %s" % self.cmp(env, 0, False)
        if k == "while":
            return (["%s{" % ind, "%sunsigned %s = 0;" % (i2, iv),
                     "%swhile (%s < %s%s) {" % (i2, iv, bound, extra),
                     "%s\t%s++;" % (i2, iv)] +
                    ["\t" + l for l in body] + [i2 + "}", ind + "}"])
        return (["%s{" % ind, "%sunsigned %s = 0;" % (i2, iv),
                 "%sdo {" % i2, "%s\t%s++;" % (i2, iv)] +
                ["\t" + l for l in body] +
                ["%s} while (%s < %s%s);" % (i2, iv, bound, extra),
                 ind + "}"])

    def switch(self, env, depth, ind, loop, dense):
        r = self.r
        if dense:
            n = r.choice([4, 6, 8, 8, 12])
            vals = list(range(n))
            r.shuffle(vals)
            vals = sorted(vals[:r.randint(max(3, n - 3), n)])
            sel = "%s %% %uu" % (self.expr(env, 1), n)
        else:
            vals = sorted(set(r.choice([1, 5, 17, 40, 99, 100, 250, 1000,
                                        4096, 65535])
                              for _ in range(r.randint(3, 6))))
            sel = self.expr(env, 1)
        i2 = ind + "\t"
        out = ["%sswitch (%s) {" % (ind, sel)]
        # break inside the switch leaves the switch, not the loop.
        costs = []
        for j, v in enumerate(vals):
            out.append("%scase %uu:" % (ind, v))
            body, c = self.sub_cost(env, self.block, env, depth - 1, i2,
                                    r.randint(1, 2), loop)
            costs.append(c)
            out += body
            if j + 1 < len(vals) and r.random() < 0.25:
                out.append(i2 + "__attribute__((fallthrough));")
            else:
                out.append(i2 + "break;")
        if r.random() < 0.7:
            out.append(ind + "default:")
            body, c = self.sub_cost(env, self.block, env, depth - 1, i2,
                                    r.randint(1, 2), loop)
            costs.append(c)
            out += body + [i2 + "break;"]
        env["cost"][0] += sum(costs)  # fallthrough may run several
        return out + [ind + "}"]

    def call(self, env, ind):
        r = self.r
        cands = [f for f in self.fns if f[1] <= MAX_FN_COST // 4]
        if cands and r.random() < 0.6:
            name, c, kind = r.choice(cands)
            env["cost"][0] += c
            if kind == "rec":
                return ["%s%s ^= %s(%s & 3u, %s);" %
                        (ind, r.choice(self.writable(env)), name,
                         r.choice(env["vars"]), self.expr(env, 1, False))]
            if kind == "ptr":
                return ["%s%s += %s[%s & 3u](%s, %s);" %
                        (ind, r.choice(self.writable(env)), name,
                         r.choice(env["vars"]), self.expr(env, 1, False),
                         self.expr(env, 1, False))]
            return ["%s%s += %s(%s, %s);" %
                    (ind, r.choice(self.writable(env)), name,
                     self.expr(env, 1, False), self.expr(env, 1, False))]
        if not self.helpers:
            return self.simple(env, ind)
        h, c = r.choice(self.helpers)
        env["cost"][0] += c
        return ["%s%s = %s(%s);" % (ind, self.lhs(env), h,
                                    self.expr(env, 1, False))]

    # --- functions ---------------------------------------------------------
    def helper(self, idx):
        """A small one-argument static helper: one line, or a few."""
        r = self.r
        name = "h%d" % idx
        env = {"vars": ["x"], "cost": None, "depth0": 0}
        attr = "__attribute__((noinline)) " if r.random() < 0.15 else ""
        if r.random() < 0.5:
            body = ["static %sunsigned %s(unsigned x) { return %s ? %s : %s; }"
                    % (attr, name, self.cmp(env, 0, False),
                       self.expr(env, 1, False), self.expr(env, 1, False))]
        else:
            body = ["static %sunsigned %s(unsigned x)" % (attr, name), "{",
                    "\tif (%s)" % self.cond(env, 0, False),
                    "\t\treturn %s;" % self.expr(env, 1, False)]
            if r.random() < 0.5:
                body += ["\tif (%s)" % self.cmp(env, 0, False),
                         "\t\tx = %s;" % self.expr(env, 1, False)]
            body += ["\treturn %s;" % self.expr(env, 2, False), "}"]
        self.helpers.append((name, 3))
        return body

    def function(self, idx):
        r = self.r
        name = "f%d" % idx
        for _ in range(20):
            self.ntmp = 0
            env = {"vars": ["a", "b"] + ["x%d" % i for i in range(NVARS)],
                   "cost": [0], "depth0": r.choice([2, 2, 3, 3]),
                   "goto": False}
            body = self.block(env, env["depth0"], "\t", r.randint(2, 4))
            if env["cost"][0] <= MAX_FN_COST and len(body) <= MAX_FN_LINES:
                break
        attr = ""
        if r.random() < 0.3:
            attr = "__attribute__((noinline)) "
        out = ["static %sunsigned %s(unsigned a, unsigned b)" % (attr, name),
               "{"]
        for i in range(NVARS):
            out.append("\tunsigned x%d = %s;" %
                       (i, ["a", "b"][i] if i < 2 else
                        r.choice(["a ^ b", "a + %du" % i, "b >> %d" % i,
                                  "%du" % i])))
        out += body
        if env["goto"]:
            out.append("out:")
        out.append("\treturn %s;" % " ^ ".join(
            "x%d" % i for i in range(NVARS)) + "")
        out.append("}")
        self.fns.append((name, env["cost"][0] + 1, "plain"))
        return out

    def recursive(self, idx):
        """Bounded recursion: depth is the first argument (at most 3),
        one or two self-calls."""
        r = self.r
        name = "r%d" % idx
        env = {"vars": ["n", "x", "y"], "cost": [0], "depth0": 1}
        two = r.random() < 0.5
        out = ["static unsigned %s(unsigned n, unsigned x)" % name, "{",
               "\tunsigned y = x;", "",
               "\tif (n == 0u)", "\t\treturn %s;" % self.expr(env, 1, False)]
        out += self.block(env, 1, "\t", r.randint(1, 2))
        out.append("\ty += %s(n - 1u, %s);" % (name, self.expr(env, 1, False)))
        if two:
            out.append("\tif (%s)" % self.cond(env, 0, False))
            out.append("\t\ty ^= %s(n - 1u, y);" % name)
        out += ["\treturn y;", "}"]
        fan = 2 if two else 1
        c = sum(fan ** k for k in range(4)) * (env["cost"][0] + 2)
        self.fns.append((name, c, "rec"))
        return out

    def table(self, idx):
        """A table of function pointers over the plain functions so far."""
        r = self.r
        plain = [f for f in self.fns if f[2] == "plain"]
        picks = [r.choice(plain) for _ in range(4)]
        name = "tab%d" % idx
        out = ["static unsigned (*const %s[4])(unsigned, unsigned) = { %s };"
               % (name, ", ".join(p[0] for p in picks))]
        self.fns.append((name, max(p[1] for p in picks), "ptr"))
        return out

    def program(self, name):
        r = self.r
        out = ["/* %s: generated by tests/gcda/hunt/progen.py %d. */" %
               (name, self.seed),
               "#include <stdio.h>", "",
               "struct pair { unsigned a, b; };", "",
               "static unsigned g_arr[16];",
               "static struct pair g_s[4];",
               "static unsigned g_cnt;",
               "static unsigned long long g_rs = %uull;" %
               r.randrange(1, 1 << 62), "",
               "static unsigned rnd(void)", "{",
               "\tg_rs ^= g_rs << 13;", "\tg_rs ^= g_rs >> 7;",
               "\tg_rs ^= g_rs << 17;",
               "\treturn (unsigned)(g_rs >> 11) %% %uu;" %
               r.choice([16, 64, 1000, 65536]),
               "}", ""]
        for i in range(r.randint(1, 4)):
            out += self.helper(i) + [""]
        nf = r.randint(2, 5)
        for i in range(nf):
            k = r.random()
            if i > 0 and k < 0.15:
                out += self.recursive(i) + [""]
            elif i > 1 and k < 0.3:
                out += self.table(i) + [""]
            out += self.function(i) + [""]
        # main calls every function (some on a share of the iterations)
        # and prints what each returned.
        calls = [f for f in self.fns]
        per_iter = sum(f[1] for f in calls) + 10
        iters = max(20, min(400, MAIN_BUDGET // per_iter))
        out += ["int main(void)", "{",
                "\tunsigned sum[%d] = { 0 };" % len(calls), "",
                "\tfor (unsigned i = 0; i < 16u; i++)",
                "\t\tg_arr[i] = rnd();",
                "\tfor (unsigned it = 0; it < %uu; it++) {" % iters,
                "\t\tunsigned a = rnd(), b = rnd();", ""]
        for j, (fname, c, kind) in enumerate(calls):
            guard = ""
            if r.random() < 0.3:
                guard = "if (%s) " % r.choice(["(it & 1u) == 0u",
                                               "it % 3u == 1u", "a > b",
                                               "(b & 7u) < 3u"])
            if kind == "rec":
                call = "%s(a & 3u, b)" % fname
            elif kind == "ptr":
                call = "%s[a & 3u](b, a)" % fname
            else:
                call = "%s(a, b)" % fname
            out.append("\t\t%ssum[%d] = sum[%d] * 31u + %s;" %
                       (guard, j, j, call))
            if r.random() < 0.3:
                out.append("\t\tg_cnt += a & 1u;")
        for h, _ in self.helpers:  # each helper is called at least here
            out.append("\t\tg_cnt += %s(a ^ it);" % h)
        out += ["\t}"]
        out += ["\tfor (unsigned j = 0; j < %du; j++)" % len(calls),
                "\t\tprintf(\"%u %u\\n\", j, sum[j]);",
                "\tfor (unsigned i = 0; i < 16u; i++)",
                "\t\tprintf(\"%u\\n\", g_arr[i]);",
                "\tfor (unsigned i = 0; i < 4u; i++)",
                "\t\tprintf(\"%u %u\\n\", g_s[i].a, g_s[i].b);",
                "\tprintf(\"%u\\n\", g_cnt);",
                "\treturn 0;", "}"]
        return "\n".join(out) + "\n"


def main():
    seed = int(sys.argv[1])
    name = sys.argv[2] if len(sys.argv) > 2 else "rg%d" % seed
    sys.stdout.write(Gen(seed).program(name))


if __name__ == "__main__":
    main()
