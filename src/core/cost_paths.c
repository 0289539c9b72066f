/* The kernel paths AUTO's cost model prices (cost_figures.h's list):
 * each one's words, family and backend. */
#include "cost_figures.h"

#define EDMLI_PATH_NAME(name, family, backend, words) words,
#define EDMLI_PATH_FAMILY(name, family, backend, words) EDML_COST_##family,
#define EDMLI_PATH_BACKEND(name, family, backend, words) EDML_BACKEND_##backend,
static const char *const edmli_path_names[EDMLI_COST_PATH_COUNT] = {"", EDMLI_COST_PATHS(EDMLI_PATH_NAME)};
static const uint8_t edmli_path_family[EDMLI_COST_PATH_COUNT] = {0, EDMLI_COST_PATHS(EDMLI_PATH_FAMILY)};
static const uint8_t edmli_path_backend[EDMLI_COST_PATH_COUNT] = {0, EDMLI_COST_PATHS(EDMLI_PATH_BACKEND)};

const char *edmli_cost_path_name(uint32_t path) { return path < EDMLI_COST_PATH_COUNT ? edmli_path_names[path] : ""; }

bool edmli_cost_path_info(uint32_t path, uint32_t *family, edml_backend *backend)
{
    if (!path || path >= EDMLI_COST_PATH_COUNT) return false;
    *family = edmli_path_family[path];
    *backend = (edml_backend)edmli_path_backend[path];
    return true;
}
