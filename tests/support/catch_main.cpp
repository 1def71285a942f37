// Catch2 v2 needs one file that defines main(); v3 brings its own (Catch2::Catch2WithMain).
#if !__has_include(<catch2/catch_test_macros.hpp>)
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
#endif
