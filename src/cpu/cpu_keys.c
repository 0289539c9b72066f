/* Order keys: every data type as a uint64 whose unsigned order is the order
 * of the semantics page, and index stores. */
#include "cpu.h"

#include <string.h>

#define EDMLI_KEYS_UINT(name, T)                                                   \
    static void name(const uint8_t *p, int64_t stride, uint32_t n, uint64_t *keys) \
    {                                                                              \
        for (uint32_t i = 0; i < n; i++, p += stride) {                            \
            T v;                                                                   \
            memcpy(&v, p, sizeof v);                                               \
            keys[i] = (uint64_t)v;                                                 \
        }                                                                          \
    }
/* Signed: flip the sign bit in the type's own width, zero-extended, so that
 * keys of types up to 32 bits equal the NEON backend's 32-bit lane keys. */
#define EDMLI_KEYS_SINT(name, T, UT)                                               \
    static void name(const uint8_t *p, int64_t stride, uint32_t n, uint64_t *keys) \
    {                                                                              \
        const UT sign = (UT)((UT)1 << (sizeof(UT) * 8 - 1));                       \
        for (uint32_t i = 0; i < n; i++, p += stride) {                            \
            UT v;                                                                  \
            memcpy(&v, p, sizeof v);                                               \
            keys[i] = (uint64_t)(UT)(v ^ sign);                                    \
        }                                                                          \
    }
/* Floats: NaN -> UINT64_MAX, -0 -> +0, then sign-magnitude to offset order. */
#define EDMLI_KEYS_FLOAT(name, U, SIGN, EXPMASK)                                   \
    static void name(const uint8_t *p, int64_t stride, uint32_t n, uint64_t *keys) \
    {                                                                              \
        for (uint32_t i = 0; i < n; i++, p += stride) {                            \
            U u;                                                                   \
            memcpy(&u, p, sizeof u);                                               \
            if ((U)(u & (U) ~(U)SIGN) > (U)EXPMASK) {                              \
                keys[i] = EDMLI_NAN_KEY;                                           \
                continue;                                                          \
            }                                                                      \
            if (u == (U)SIGN) u = 0;                                               \
            keys[i] = (uint64_t)(U)((u & (U)SIGN) ? (U)~u : (U)(u | (U)SIGN));     \
        }                                                                          \
    }

EDMLI_KEYS_UINT(edmli_keys_u8, uint8_t)
EDMLI_KEYS_UINT(edmli_keys_u16, uint16_t)
EDMLI_KEYS_UINT(edmli_keys_u32, uint32_t)
EDMLI_KEYS_UINT(edmli_keys_u64, uint64_t)
EDMLI_KEYS_SINT(edmli_keys_i8, int8_t, uint8_t)
EDMLI_KEYS_SINT(edmli_keys_i16, int16_t, uint16_t)
EDMLI_KEYS_SINT(edmli_keys_i32, int32_t, uint32_t)
EDMLI_KEYS_SINT(edmli_keys_i64, int64_t, uint64_t)
EDMLI_KEYS_FLOAT(edmli_keys_f16, uint16_t, 0x8000u, 0x7c00u)
EDMLI_KEYS_FLOAT(edmli_keys_f32, uint32_t, 0x80000000u, 0x7f800000u)
EDMLI_KEYS_FLOAT(edmli_keys_f64, uint64_t, 0x8000000000000000ull, 0x7ff0000000000000ull)

edmli_keys_fn edmli_keys_for(EDML_TENSOR_DATA_TYPE t)
{
    switch (t) {
    case EDML_TENSOR_DATA_TYPE_UINT8: return edmli_keys_u8;
    case EDML_TENSOR_DATA_TYPE_UINT16: return edmli_keys_u16;
    case EDML_TENSOR_DATA_TYPE_UINT32: return edmli_keys_u32;
    case EDML_TENSOR_DATA_TYPE_UINT64: return edmli_keys_u64;
    case EDML_TENSOR_DATA_TYPE_INT8: return edmli_keys_i8;
    case EDML_TENSOR_DATA_TYPE_INT16: return edmli_keys_i16;
    case EDML_TENSOR_DATA_TYPE_INT32: return edmli_keys_i32;
    case EDML_TENSOR_DATA_TYPE_INT64: return edmli_keys_i64;
    case EDML_TENSOR_DATA_TYPE_FLOAT16: return edmli_keys_f16;
    case EDML_TENSOR_DATA_TYPE_FLOAT32: return edmli_keys_f32;
    case EDML_TENSOR_DATA_TYPE_FLOAT64: return edmli_keys_f64;
    default: return NULL;
    }
}
