/* An operator's descriptor validated and planned: its tensors named from
 * its schema, its kind's plan (op_<name>.c). No backend, no device: below
 * operator.c, and what a backend may plan an operator of its own with. */
#include "internal.h"

#include <string.h>

/* The validation of each kind. */
typedef edml_status (*edmli_plan_fn)(edmli_errbuf *e, const EDML_OPERATOR_DESC *desc, edml_operator *op);
static const edmli_plan_fn edmli_plans[EDMLI_OP_KIND_COUNT] = {
#define EDMLI_PLAN_ENTRY(KIND, name) [EDMLI_OP_##KIND] = edmli_plan_##name,
    EDMLI_OPS(EDMLI_PLAN_ENTRY)
#undef EDMLI_PLAN_ENTRY
};

#define EDMLI_TYPE_NAME(TYPE, KIND, MEMBERS) " " #TYPE

/* The descriptor's tensors, in schema order: each validated and named. */
static edml_status edmli_plan_tensors(edmli_errbuf *e, const edml_operator_schema *sc, const void *desc,
                                      edml_operator *op)
{
    for (UINT f = 0; f < sc->field_count; f++) {
        const edml_schema_field *fd = &sc->fields[f];
        if (fd->type != EDML_SCHEMA_FIELD_INPUT_TENSOR && fd->type != EDML_SCHEMA_FIELD_OUTPUT_TENSOR) continue;
        const EDML_TENSOR_DESC *td;
        memcpy(&td, (const uint8_t *)desc + fd->offset, sizeof td);
        const bool in = fd->type == EDML_SCHEMA_FIELD_INPUT_TENSOR;
        uint32_t *n = in ? &op->input_count : &op->output_count;
        edml_status s = edmli_tensor_from_desc(e, fd->name, td, in ? &op->inputs[*n] : &op->outputs[*n]);
        if (s) return s;
        (in ? op->input_names : op->output_names)[(*n)++] = fd->name;
    }
    return EDML_STATUS_OK;
}

edml_status edmli_operator_plan(edmli_errbuf *e, const EDML_OPERATOR_DESC *desc, edml_operator *op)
{
    memset(op, 0, sizeof *op);
    op->type = desc->Type;
    const edml_operator_schema *sc = edmli_schema_of(desc->Type, &op->kind);
    if (!sc) return edmli_fail(e, EDMLI_MSG_OPERATOR_TYPE, (unsigned)desc->Type, EDMLI_OP_TYPES(EDMLI_TYPE_NAME));
    if (!desc->Desc) return edmli_fail(e, EDMLI_MSG_OPERATOR_DESC_NULL);
    edml_status s = edmli_plan_tensors(e, sc, desc->Desc, op);
    return s ? s : edmli_plans[op->kind](e, desc, op);
}
