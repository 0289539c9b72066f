/* The cost model's figures of an operator, for the library's own board
 * report (cost_figures.h): the handle checked, then cost_model.c's own
 * code, so that the report fits its lines on what AUTO will price. */
#include "cost_figures.h"
#include "internal.h"

/* The live operator behind handle, its device entered (NULL: none, or busy). */
static const edml_operator *edmli_cost_enter(const edml_operator *handle)
{
    edmli_object *o;
    return edmli_object_enter(handle, EDMLI_OBJ_OPERATOR, "op", &o) ? NULL : (const edml_operator *)o;
}

bool edmli_cost_figures(const edml_operator *handle, bool gpu_buffers, double f[EDMLI_COST_FIGURES])
{
    const edml_operator *op = edmli_cost_enter(handle);
    if (!op) return false;
    edmli_cost_shape(op, edmli_backends[op->backend]->on_cpu == gpu_buffers, f);
    edmli_device_leave(op->obj.device, EDML_STATUS_OK, false);
    return true;
}

bool edmli_cost_path_of(const edml_operator *handle, bool cpu, edmli_cost_path *out)
{
    const edml_operator *op = edmli_cost_enter(handle);
    if (!op) return false;
    const edml_backend b = cpu ? edmli_cpu_backend(op->obj.device, op->kind) : op->backend;
    edmli_cost_path_on(op, b, out);
    edmli_device_leave(op->obj.device, EDML_STATUS_OK, false);
    return true;
}

bool edmli_cost_predicted(const edml_operator *handle, bool gpu_buffers, double *ms)
{
    const edml_operator *op = edmli_cost_enter(handle);
    if (!op) return false;
    uint64_t ns = 0;
    const bool ok = edmli_cost_predict_on(op->obj.device, op, gpu_buffers ? EDMLI_BIND_GPU : EDMLI_BIND_HOST, &ns);
    edmli_device_leave(op->obj.device, EDML_STATUS_OK, false);
    *ms = (double)ns / 1e6;
    return ok;
}
