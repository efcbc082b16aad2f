#pragma once
// Precompiled for every file of sl_core (CMake target_precompile_headers): the standard headers and the core
// declarations most cells include, parsed once per build instead of once per file. Each file still includes
// what it uses, so it also compiles without this header.
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/budget.h"
#include "core/error.h"
#include "core/outputs.h"
#include "core/stats.h"
#include "core/units.h"
