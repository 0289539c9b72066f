/* TopK on the CPU: a bounded heap of K (key, index) pairs per sequence,
 * O(n log K); most elements cost one compare with the heap's worst. */
#include "cpu.h"

#include <string.h>

/* a is worse than b: smaller key, or equal key and later index */
static inline bool edmli_topk_worse(const edmli_topk_entry *a, const edmli_topk_entry *b)
{
    return a->key < b->key || (a->key == b->key && a->idx > b->idx);
}

static void edmli_topk_sift_down(edmli_topk_entry *h, uint32_t n, uint32_t i)
{
    edmli_topk_entry x = h[i];
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && edmli_topk_worse(&h[c + 1], &h[c])) c++;
        if (!edmli_topk_worse(&h[c], &x)) break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

static void edmli_topk_sift_up(edmli_topk_entry *h, uint32_t i)
{
    edmli_topk_entry x = h[i];
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (!edmli_topk_worse(&x, &h[p])) break;
        h[i] = h[p];
        i = p;
    }
    h[i] = x;
}

uint32_t edmli_topk_select(edmli_topk_entry *heap, uint32_t k, uint32_t count, const uint64_t *keys, uint32_t n,
                           uint32_t first_index, uint64_t flip)
{
    for (uint32_t i = 0; i < n; i++) {
        edmli_topk_entry x = {keys[i] ^ flip, first_index + i, 0};
        if (count < k) {
            heap[count] = x;
            edmli_topk_sift_up(heap, count++);
        } else if (x.key > heap[0].key) {
            heap[0] = x;
            edmli_topk_sift_down(heap, k, 0);
        }
    }
    return count;
}

void edmli_topk_merge(edmli_topk_entry *heap, uint32_t k, const edmli_topk_entry *other, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        if (!edmli_topk_worse(&heap[0], &other[i])) continue;
        heap[0] = other[i];
        edmli_topk_sift_down(heap, k, 0);
    }
}

void edmli_topk_drain(edmli_topk_entry *heap, uint32_t k)
{
    /* pop the worst into the last free slot: heap[0..k) ends best first */
    for (uint32_t n = k; n > 1; n--) {
        edmli_topk_entry worst = heap[0];
        heap[0] = heap[n - 1];
        edmli_topk_sift_down(heap, n - 1, 0);
        heap[n - 1] = worst;
    }
}

void edmli_topk_write(const edml_operator *op, const edmli_topk_entry *best, const uint8_t *in, uint8_t *val,
                      uint8_t *idx)
{
    const edmli_topk_plan *p = &op->plan.topk;
    const edmli_tensor *ti = &op->inputs[0], *tv = &op->outputs[0], *tx = &op->outputs[1];
    const uint32_t es = ti->elem_size, xs = tx->elem_size;
    const int64_t in_step = (int64_t)ti->strides[p->axis] * es;
    const int64_t val_step = (int64_t)tv->strides[p->axis] * es;
    const int64_t idx_step = (int64_t)tx->strides[p->axis] * xs;
    for (uint32_t j = 0; j < p->k; j++) {
        memcpy(val + j * val_step, in + best[j].idx * in_step, es);
        edmli_store_index(idx + j * idx_step, tx->dtype, best[j].idx);
    }
}

uint64_t edmli_topk_heap_bytes(const edml_operator *op) { return (uint64_t)op->plan.topk.k * sizeof(edmli_topk_entry); }
