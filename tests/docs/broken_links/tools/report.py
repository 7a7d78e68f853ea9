# Reads bench/NOTES.md#benchmarks and bench/NOTES.md#gone (no such heading).
print("docs/not_a_comment.md")
