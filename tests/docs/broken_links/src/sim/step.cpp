// A step of the run (docs/page.md, "A heading"; src/sim/step.hpp, which does not exist).
// docs/page.md, "Not a heading" is cited here.
const char* path = "src/sim/not_a_comment.cpp";  // a string is not a citation
// https://example.org/src/sim/remote.cpp and /tmp/src/sim/scratch.cpp are not the repository's.
