#!/usr/bin/env bash
# Scaffolds a workspace package: new-package.sh <dir> <name>. Used once per package; kept for newcomers.
set -euo pipefail
dir=$1; name=$2
mkdir -p "$dir/src" "$dir/test"
[ -f "$dir/package.json" ] || cat > "$dir/package.json" <<JSON
{
  "name": "$name",
  "version": "0.1.0",
  "private": true,
  "license": "Apache-2.0",
  "type": "module",
  "exports": { ".": { "types": "./dist/index.d.ts", "default": "./dist/index.js" } },
  "scripts": {
    "build": "tsc -p tsconfig.build.json",
    "typecheck": "tsc -p tsconfig.json --noEmit",
    "test:unit": "vitest run --project unit",
    "test": "vitest run"
  }
}
JSON
rel=$(realpath --relative-to="$dir" "$(dirname "$0")/..")
[ -f "$dir/tsconfig.json" ] || cat > "$dir/tsconfig.json" <<JSON
{ "extends": "$rel/tsconfig.base.json", "include": ["src", "test"] }
JSON
[ -f "$dir/tsconfig.build.json" ] || cat > "$dir/tsconfig.build.json" <<JSON
{
  "extends": "$rel/tsconfig.base.json",
  "compilerOptions": { "rootDir": "src", "outDir": "dist" },
  "include": ["src"],
  "exclude": ["src/**/*.test.ts"]
}
JSON
[ -f "$dir/vitest.config.ts" ] || cat > "$dir/vitest.config.ts" <<TS
import { testProjects } from '$rel/vitest.shared.js';

export default testProjects();
TS
