#!/bin/sh
# Stand-in for Prisma's native schema engine, which cannot be downloaded offline (see docs/prisma.md).
exit 1
