#!/bin/sh
echo '{"throughput": 123.5, "tokens": 32768}'
