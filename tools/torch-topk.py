# The PyTorch yardstick of the TopK workloads (bench.md shapes), on a CUDA GPU:
# python3 tools/torch-topk.py
import torch, time
def t(shape, k, dtype=torch.float32, dim=1, largest=True):
    x = (torch.rand(shape, device="cuda", dtype=torch.float32) * 2 - 1).to(dtype)
    for _ in range(5): torch.topk(x, k, dim=dim, largest=largest)
    torch.cuda.synchronize()
    ts = []
    for _ in range(30):
        a = time.perf_counter(); torch.topk(x, k, dim=dim, largest=largest); torch.cuda.synchronize(); ts.append(time.perf_counter() - a)
    ts.sort(); return ts[len(ts)//2] * 1e3
print("torch.topk median ms (30 calls, synchronized):")
print("topk_cls   %.3f" % t((1,1000), 5))
print("topk_det   %.3f" % t((1,25200), 300))
print("topk_vocab %.3f" % t((8,32000), 40))
print("topk_vocab_f16 %.3f" % t((8,32000), 40, torch.float16))
print("topk_axis0 %.3f" % t((4096,1024), 8, dim=0, largest=False))
print("topk_wide  %.3f" % t((256,65536), 16))
