# The PyTorch CUDA yardstick of every docs/bench.md workload, data resident
# on the GPU, a torch.cuda.synchronize() after each call (as edml's fence):
#   python3 tools/torch-bench.py [--iters N] [--evict | --kernels] [--json FILE]
# Prints "name ms" lines (medians): "floor" (one element added: a launch and
# a synchronize, beside edml-bench --gpu-floor's gl_floor), each workload,
# and "pipeline" for edml-bench --pipeline (make demo's four steps). Calls
# run back to back, as edml-bench's gpu-repeated rows; with --evict each
# call follows an untimed write of 256 MiB, which evicts the GPU's cache,
# as the 128 MiB written between the calls of edml-bench's gpu-resident
# rows do.
import sys, time, torch

iters = int(sys.argv[sys.argv.index("--iters") + 1]) if "--iters" in sys.argv else 30
evict = "--evict" in sys.argv
dev = "cuda"
scratch = torch.empty(64 << 20, device=dev) if evict else None
g = torch.Generator(device=dev).manual_seed(1)

def rnd(shape, dtype=torch.float32):
    return (torch.rand(shape, device=dev, generator=g) * 2 - 1).to(dtype)

def ix(n, hi, dtype=torch.int32, shape=None):
    return torch.randint(0, hi, shape or (n,), device=dev, generator=g, dtype=torch.int64).to(dtype)

def median_ms(fn):
    for _ in range(5): fn()
    torch.cuda.synchronize()
    ts = []
    for i in range(iters):
        if evict:
            scratch.fill_(i); torch.cuda.synchronize()
        a = time.perf_counter(); fn(); torch.cuda.synchronize(); ts.append(time.perf_counter() - a)
    ts.sort(); return ts[len(ts) // 2] * 1e3

x_cls, x_det, x_voc = rnd((1, 1000)), rnd((1, 25200)), rnd((8, 32000))
x_voc16, x_ax0, x_wide = x_voc.half(), rnd((4096, 1024)), rnd((256, 65536))
emb, rows = rnd((32000, 512)), ix(8192, 32000, torch.int64)
bat, brow = rnd((16, 4096, 256)), ix(0, 4096, torch.int64, (16, 1024))
pts, pix = rnd((1024, 1024)), ix(0, 1024, torch.int64, (1048576, 2))
sq = rnd((4096, 4096))
seg = rnd((1, 21, 512, 512))
c32, a32, b32 = torch.rand(16777216, device=dev) < 0.5, rnd(16777216), rnd(16777216)
c8 = torch.rand(67108864, device=dev) < 0.5
a8 = torch.randint(0, 256, (67108864,), device=dev, dtype=torch.uint8)
b8 = torch.randint(0, 256, (67108864,), device=dev, dtype=torch.uint8)
cb = (torch.rand((1, 1, 1024, 1024), device=dev) < 0.5)
ab, bb = rnd((1, 3, 1024, 1024), torch.float16), rnd((1, 3, 1024, 1024), torch.float16)
one = rnd((1,))
work = [
    # torch's floor beside edml-bench --gpu-floor's gl_floor: one element
    # added, the launch and the synchronize
    ("floor", lambda: one.add(1)),
    ("topk_cls", lambda: torch.topk(x_cls, 5, dim=1)),
    ("topk_det", lambda: torch.topk(x_det, 300, dim=1)),
    ("topk_vocab", lambda: torch.topk(x_voc, 40, dim=1)),
    ("topk_vocab_f16", lambda: torch.topk(x_voc16, 40, dim=1)),
    ("topk_axis0", lambda: torch.topk(x_ax0, 8, dim=0, largest=False)),
    ("topk_wide", lambda: torch.topk(x_wide, 16, dim=1)),
    ("gather_rows", lambda: emb[rows]),
    ("gather_batch", lambda: torch.gather(bat, 1, brow.unsqueeze(2).expand(16, 1024, 256))),
    ("gather_points", lambda: pts[pix[:, 0], pix[:, 1]]),
    ("argmin_inner", lambda: torch.argmin(sq, dim=1)),
    ("argmin_outer", lambda: torch.argmin(sq, dim=0)),
    ("argmin_all", lambda: torch.argmin(sq)),
    ("argmax_seg", lambda: torch.argmax(seg, dim=1)),
    ("if_f32", lambda: torch.where(c32, a32, b32)),
    ("if_u8", lambda: torch.where(c8, a8, b8)),
    ("if_bcast", lambda: torch.where(cb, ab, bb)),
]

# make demo's post-processing (edml-bench --pipeline): the four steps run
# eagerly, one synchronize at the end
pred = torch.rand((1, 25200, 85), device=dev) * 2 - 1
obj_ok = pred[..., 4] > 0.5

def pipeline():
    cls = torch.argmax(pred[..., 5:], dim=2)
    masked = torch.where(obj_ok, pred[..., 4], float("-inf"))
    score, idx = torch.topk(masked, 100, dim=1)
    return cls, score, pred[0, idx[0], 0:4]

work.append(("pipeline", pipeline))
# --kernels: the GPU time of each call's kernels instead (CUPTI through
# torch.profiler, the mean of `iters` calls), for edml-bench --chain's time
# an entry of a command list
def kernel_us(fn):
    from torch.profiler import profile, ProfilerActivity
    for _ in range(5): fn()
    torch.cuda.synchronize()
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        for _ in range(iters):
            fn(); torch.cuda.synchronize()
    ev = [e for e in prof.events() if e.device_type == torch.autograd.DeviceType.CUDA]
    return sum(getattr(e, "device_time", None) or e.cuda_time for e in ev) / iters, len({e.name for e in ev})

if "--kernels" in sys.argv:
    print("torch %s on %s; GPU time of the kernels a call, mean of %d calls" % (torch.__version__,
          torch.cuda.get_device_name(), iters))
    for name, fn in work:
        us, n = kernel_us(fn)
        print("%-15s %8.1f us in %d kernel%s" % (name, us, n, "" if n == 1 else "s"))
    sys.exit(0)
print("torch %s on %s; median of %d calls, each synchronized%s" % (torch.__version__, torch.cuda.get_device_name(), iters,
      ", the cache evicted before each" if evict else ""))
measured = []
for name, fn in work:
    ms = median_ms(fn)
    measured.append({"kind": "torch", "workload": name, "evict": evict, "median_ms": ms})
    print("%-15s %8.3f ms" % (name, ms))
if "--json" in sys.argv:
    import json
    with open(sys.argv[sys.argv.index("--json") + 1], "w") as f:
        json.dump({"torch": torch.__version__, "gpu": torch.cuda.get_device_name(), "iterations": iters,
                   "results": measured}, f, indent=1)
