/* fifth unit: never-called helpers and a weak hook */
#include "inv.h"
#include "util.h"

int inventory_unused(int x) { return x > 3 ? CLAMP(x, 4, 9) : -x; }
