#pragma once
// Precompiled for every test file (CMake target_precompile_headers): Catch2's single header and the standard
// headers most tests include are parsed once per build instead of once per file (~1.2 s of a test file's
// ~3 s of CPU). Each test file still includes what it uses, so it also compiles without this header.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "cell_runner.h"
