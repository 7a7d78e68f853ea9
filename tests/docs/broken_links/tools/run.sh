#!/usr/bin/env bash
# Runs tools/gone.sh (missing) after tools/run.sh (itself).
echo "tools/not_a_comment.sh"
