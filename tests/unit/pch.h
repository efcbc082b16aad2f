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

// The tests build as a unity build, eight files a translation unit (CMakeLists.txt): each file's code sits in
// `namespace SL_UNITY_ID { }`, which CMake names apart for every file of a batch, so two files' helpers never
// meet. Compiled alone (the sanitizer build), it is an anonymous namespace.
#ifndef SL_UNITY_ID
#define SL_UNITY_ID
#endif
