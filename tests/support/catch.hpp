// Catch2 v2 (Debian 12) and v3 (newer Ubuntu) spell their headers differently; tests include
// this instead of either.
#pragma once
#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
using Catch::Approx;
#else
#include <catch2/catch.hpp>
#endif
