# The worst-case stack depth of each public function (edml_*) over the call
# graphs GCC writes with -fstack-usage -fcallgraph-info=su (.ci files): a
# function's own frame plus its deepest callee. The first file given says
# what the graphs cannot (tools/stack-depth.sh writes it):
#   user FILE:LINE   a call of the caller's log callback: its frame is the
#                    caller's to add, not counted
#   parts FILE:LINE  the call of the caller's parallel-for: counted as a call
#                    of edmli_guarded_part (the parallel-for's own frame is
#                    the caller's to add)
#   task NAME        a part task, reached from edmli_guarded_part
#   hook FILE:LINE HOOK   a call of a backend's hook (edmli_backend's member
#                    HOOK, "kernels" for its kernels) at that line
#   target HOOK NAME  a function a backend gives as HOOK
# Other indirect calls (the kernels' own tables of row and key functions)
# reach the deepest function of the calling file or of src/cpu that no
# function calls directly and that is no hook or task, its own indirect
# calls counted EXT; those of src/core reach its operators' planners. A
# function outside the graphs (memcpy, memset) counts EXT bytes. Prints
# "name bytes" a line, and "(a-part-on-a-worker) bytes" (a part of a
# parallel-for as a worker thread runs it); exits 1 on recursion or a frame
# of dynamic size.
BEGIN { EXT = 64 }
FNR == NR {
    kind[$1, $2] = 1
    if ($1 == "task") task[$2] = 1
    if ($1 == "hook") hook[$2] = $3
    if ($1 == "target") { targets[$2] = targets[$2] " " $3; targeted[$3] = 1 }
    next
}
/^node:/ {
    t = $0; sub(/.*title: "/, "", t); sub(/".*/, "", t)
    if (match($0, /\\n[0-9]+ bytes \([a-z,]+\)/)) {
        l = substr($0, RSTART + 2, RLENGTH - 2); split(l, w, " ")
        if (w[1] + 0 > frame[t]) frame[t] = w[1] + 0
        if (l !~ /\(static\)/) { print "dynamic stack in " t ": " l > "/dev/stderr"; bad = 1 }
        known[t] = 1
        f = $0; sub(/^[^\\]*\\n/, "", f); sub(/:.*/, "", f); file[t] = f
        titled[name_of(t)] = t
    }
}
/^edge:/ {
    s = $0; sub(/.*sourcename: "/, "", s); sub(/".*/, "", s)
    d = $0; sub(/.*targetname: "/, "", d); sub(/".*/, "", d)
    at = $0; sub(/.*label: "/, "", at); sub(/:[0-9]+"[^"]*$/, "", at)
    if (d == "__indirect_call" && (("user", at) in kind)) next
    if (d == "__indirect_call" && (("parts", at) in kind)) d = "edmli_guarded_part"
    if (d == "__indirect_call" && (at in hook)) {
        n = split(targets[hook[at]], tg, " ")
        for (i = 1; i <= n; i++) add(s, tg[i])
        next
    }
    if (d == "__indirect_call") {
        site = at; sub(/:[0-9]+$/, "", site)
        d = s ~ /edmli_guarded_part/ ? "@tasks" : site ~ /^src\/core\// ? "@core" : "@helpers:" site
    }
    add(s, d)
}
function add(s, d) {
    if (!((s, d) in edge)) { edge[s, d] = 1; callees[s] = callees[s] " " d }
}
# callees named without their file (a static function called from a graph
# that did not define it: edmli_guarded_part) take the defining title
function resolve(    f, n, i, c, x, out) {
    for (f in callees) {
        n = split(callees[f], c, " ")
        out = ""
        for (i = 1; i <= n; i++) {
            x = c[i]
            if (!(x in known) && x !~ /^@/ && (x in titled)) x = titled[x]
            out = out " " x
            called[x] = 1
        }
        callees[f] = out
    }
}
function name_of(f) { sub(/.*:/, "", f); return f }
# Whether f belongs to group g: @tasks, @core, or @helpers:FILE (the
# helpers of FILE and of src/cpu, whose key functions every kernel takes).
function member(f, g,    n) {
    n = name_of(f)
    if (n in task) return g == "@tasks"
    if (n in targeted || n == "edmli_guarded_part" || n ~ /^edml_/) return 0
    if (file[f] ~ /^src\/core\//) return g == "@core"
    return g ~ /^@helpers:/ && (file[f] ~ /^src\/cpu\// || "@helpers:" file[f] == g)
}
function depth(f,    n, i, c, best, x, g) {
    if (f ~ /^@helpers/ && in_helpers) return EXT # a helper's own indirect call
    if (f in memo) return memo[f]
    if (f in visiting) { print "recursion through " f > "/dev/stderr"; bad = 1; return 0 }
    if (f !~ /^@/ && !(f in known)) return EXT
    visiting[f] = 1
    best = 0
    if (f ~ /^@/) { # the deepest of a group's functions that no function calls directly
        in_helpers += f ~ /^@helpers/
        for (g in known) if (!(g in called) && member(g, f)) { x = depth(g); if (x > best) { best = x; deepest[f] = g } }
        in_helpers -= f ~ /^@helpers/
    } else {
        n = split(callees[f], c, " ")
        for (i = 1; i <= n; i++) { x = depth(c[i]); if (x > best) { best = x; deepest[f] = c[i] } }
        best += frame[f]
    }
    delete visiting[f]
    return memo[f] = best
}
END {
    resolve()
    for (f in known) if (f ~ /^edml_/) printf "%s %d\n", f, depth(f)
    if ("edmli_guarded_part" in titled) printf "(a-part-on-a-worker) %d\n", depth(titled["edmli_guarded_part"])
    for (f = explain; f != ""; f = deepest[f]) printf "  %s: %d bytes, frame %d\n", f, memo[f], frame[f] > "/dev/stderr"
    exit bad
}
