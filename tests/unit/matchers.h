#pragma once
// Catch2 and the two floating-point matchers most test files compare with, brought in once here rather than
// named again at the top of every file.
#include <catch2/catch.hpp>

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
