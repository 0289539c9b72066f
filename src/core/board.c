/* The board the library was built for (boards/<BOARD>/caps.h), and every
 * board of boards/ by name (build/<board>/gen/boards.c): data only. */
#include "board_entry.h"
#include "caps.h"
#include "internal.h"

/* A board's cost model (edml_board.cost_model): caps.h's lines where it
 * has them (EDML_BOARD_COST_MODEL, EDML_BOARD_COST_MODEL_MEASURED: the board
 * report's block), else none. */
#ifdef EDML_BOARD_COST_MODEL
static const edml_cost_term edmli_builtin_model[] = EDML_BOARD_COST_MODEL;
#define EDMLI_BOARD_MODEL edmli_builtin_model
#define EDMLI_BOARD_MODEL_TERMS (uint32_t)(sizeof edmli_builtin_model / sizeof edmli_builtin_model[0])
#define EDMLI_BOARD_MODEL_MEASURED EDML_BOARD_COST_MODEL_MEASURED
#else
#define EDMLI_BOARD_MODEL NULL
#define EDMLI_BOARD_MODEL_TERMS 0u
#define EDMLI_BOARD_MODEL_MEASURED 0
#endif

static const edml_board edmli_builtin_board =
    EDMLI_BOARD_FIELDS(EDMLI_BOARD_MODEL, EDMLI_BOARD_MODEL_TERMS, EDMLI_BOARD_MODEL_MEASURED);

const edml_board *edml_board_builtin(void) { return &edmli_builtin_board; }

/* Whether two names are the same (no C library: PORT=none is freestanding). */
static bool edmli_same_name(const char *a, const char *b)
{
    while (*a && *a == *b) a++, b++;
    return *a == *b;
}

const edml_board *edml_board_named(const char *name)
{
    for (unsigned i = 0; name && i < edmli_board_count; i++)
        if (edmli_same_name(edmli_boards[i]->name, name)) return edmli_boards[i];
    return NULL;
}
