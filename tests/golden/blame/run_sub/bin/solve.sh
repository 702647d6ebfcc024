#!/bin/sh
echo "args: $*" >&2
exit 3
