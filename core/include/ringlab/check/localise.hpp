// Localising a failed check to the holes that cause it (docs/instructors.md, "Which hole").
// When an exercise with several holes fails its check, `./ringlab check` builds one variant per
// hole: that hole the learner's, every other one the solution's (holes::fill_one), and runs the
// smallest failing check run on each. A hole whose variant fails is wrong on its own; one whose
// variant passes is not what broke the check, so no later message may blame it.
//   verdict       the line that says it, first: "which hole: your reduce-scatter hole fails with
//                 the reference allgather; your allgather hole passes with the reference
//                 reduce-scatter."
//   speak_of_failing   the later diagnoses with every sentence that blames a passing hole left out
// scripts/ringlab-exercise runs the variants; `ringlab-manifest localise|explain|diagnose`
// (--variants FILE) call these. No MPI, no files: tested in tests/core/test_localise.cpp.
#pragma once
#include <string>
#include <vector>

#include "ringlab/check/holes.hpp"

namespace ringlab::localise {

// One variant's run: the learner's hole `hole` with the solution's others.
struct Variant {
  std::string hole;
  holes::Written written = holes::Written::own;  // same: not built, it is the reference
  enum Outcome { passes, fails, hangs, crashes, no_build } outcome = passes;
};

// "NAME<TAB>WRITTEN<TAB>OUTCOME" lines (written: same, todo, own; outcome: passes, fails, hangs,
// crashes, no-build), as the script writes them. A bad line: `error` says which, result empty.
std::vector<Variant> parse(const std::string& text, std::string& error);

// The holes whose variant fails, in order. When each passes on its own (the holes fail only
// together) every hole: then no hole is cleared, and nothing is left out.
std::vector<std::string> failing(const std::vector<Variant>& variants);
// The holes whose variant passes, while some other hole's fails: the holes no message may blame.
std::vector<std::string> passing(const std::vector<Variant>& variants);

// The line printed before any other diagnosis; empty with fewer than two holes.
std::string verdict(const std::vector<Variant>& variants);

// Whether `text` speaks of the hole `name` (any case, as whole words): "the allgather", "your
// allgather", "allgather hole", "allgather phase", "allgather step 1". A bare name is not enough:
// "ready" or "step" are ordinary words in other exercises' messages.
bool names_hole(const std::string& text, const std::string& name);

// `lines` (a failed run's explanation, or the cross-run diagnoses) with what blames a passing hole
// left out: a clause (the text between ": ") that begins with a passing hole blames it, and so does
// a sentence that names a passing hole and no failing one. A sentence loses the
// blaming clause and all after it, and keeps the clauses before it: "diagnosis: EVIDENCE: CAUSE"
// keeps its evidence. A sentence with nothing left goes; a line whose first sentence goes, goes
// whole (what follows has lost its subject). When anything went, one last line says so, and why.
// Before that, a sentence that offers causes each tagged with its hole ("one possibility is that
// A (your send hole); another, that B (your receive hole)") loses those in passing holes, and
// when one is left it says that the passing holes leave that one.
std::vector<std::string> speak_of_failing(const std::vector<std::string>& lines,
                                          const std::vector<Variant>& variants);

}  // namespace ringlab::localise
