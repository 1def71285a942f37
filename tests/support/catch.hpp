// Catch2 v2 (Debian 12) and v3 (newer Ubuntu) spell their headers differently; tests include
// this instead of either. v3 moved the *_THROWS_WITH macros into its matchers header.
#pragma once
#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers.hpp>
using Catch::Approx;
#else
#include <catch2/catch.hpp>
#endif
