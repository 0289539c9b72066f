/* The operator schemas (edml_operator_schema_of()), from the member lists of
 * src/core/ops.h: names, kinds and offsets of every descriptor's members. */
#include "internal.h"

#include <stddef.h>

#define EDMLI_FIELD_IN(TYPE, name) {#name, EDML_SCHEMA_FIELD_INPUT_TENSOR, offsetof(EDML_##TYPE##_OPERATOR_DESC, name)},
#define EDMLI_FIELD_OUT(TYPE, name) \
    {#name, EDML_SCHEMA_FIELD_OUTPUT_TENSOR, offsetof(EDML_##TYPE##_OPERATOR_DESC, name)},
#define EDMLI_FIELD_ATTR(TYPE, name, FT) {#name, EDML_SCHEMA_FIELD_##FT, offsetof(EDML_##TYPE##_OPERATOR_DESC, name)},
#define EDMLI_COUNT_ONE(TYPE, name) +1
#define EDMLI_COUNT_NONE(TYPE, name)
#define EDMLI_COUNT_NONE3(TYPE, name, FT)

/* a table of fields per type, and its tensor counts */
#define EDMLI_FIELDS(TYPE, KIND, MEMBERS)                                                                        \
    static const edml_schema_field edmli_fields_##TYPE[] = {                                                     \
        MEMBERS(TYPE, EDMLI_FIELD_IN, EDMLI_FIELD_OUT, EDMLI_FIELD_ATTR)};                                       \
    _Static_assert((0 MEMBERS(TYPE, EDMLI_COUNT_ONE, EDMLI_COUNT_NONE, EDMLI_COUNT_NONE3)) <= EDMLI_MAX_INPUTS,  \
                   #TYPE ": raise EDMLI_MAX_INPUTS");                                                            \
    _Static_assert((0 MEMBERS(TYPE, EDMLI_COUNT_NONE, EDMLI_COUNT_ONE, EDMLI_COUNT_NONE3)) <= EDMLI_MAX_OUTPUTS, \
                   #TYPE ": raise EDMLI_MAX_OUTPUTS");
EDMLI_OP_TYPES(EDMLI_FIELDS)

#define EDMLI_SCHEMA(TYPE, KIND, MEMBERS)                                   \
    {#TYPE,                                                                 \
     EDML_OPERATOR_##TYPE,                                                  \
     sizeof(EDML_##TYPE##_OPERATOR_DESC),                                   \
     0 MEMBERS(TYPE, EDMLI_COUNT_ONE, EDMLI_COUNT_NONE, EDMLI_COUNT_NONE3), \
     0 MEMBERS(TYPE, EDMLI_COUNT_NONE, EDMLI_COUNT_ONE, EDMLI_COUNT_NONE3), \
     (UINT)(sizeof edmli_fields_##TYPE / sizeof edmli_fields_##TYPE[0]),    \
     edmli_fields_##TYPE},
static const edml_operator_schema edmli_schemas[] = {EDMLI_OP_TYPES(EDMLI_SCHEMA)};

#define EDMLI_KIND(TYPE, KIND, MEMBERS) EDMLI_OP_##KIND,
static const edmli_op_kind edmli_kinds[] = {EDMLI_OP_TYPES(EDMLI_KIND)};

#define EDMLI_SCHEMA_COUNT (sizeof edmli_schemas / sizeof edmli_schemas[0])

const edml_operator_schema *edml_operator_schemas(UINT *count)
{
    if (count) *count = (UINT)EDMLI_SCHEMA_COUNT;
    return edmli_schemas;
}

const edml_operator_schema *edml_operator_schema_of(EDML_OPERATOR_TYPE type)
{
    for (size_t i = 0; i < EDMLI_SCHEMA_COUNT; i++)
        if (edmli_schemas[i].type == type) return &edmli_schemas[i];
    return NULL;
}

const edml_operator_schema *edmli_schema_of(EDML_OPERATOR_TYPE type, edmli_op_kind *kind)
{
    for (size_t i = 0; i < EDMLI_SCHEMA_COUNT; i++)
        if (edmli_schemas[i].type == type) {
            if (kind) *kind = edmli_kinds[i];
            return &edmli_schemas[i];
        }
    return NULL;
}

const char *edmli_op_name(EDML_OPERATOR_TYPE t)
{
    const edml_operator_schema *s = edml_operator_schema_of(t);
    return s ? s->name : "INVALID";
}
