#!/usr/bin/env bash
# What `npm test` needs beyond node_modules, installed once and cached outside the clone (~/.cache/codewiki):
# Chromium and code-server for the webview and VS Code suites, llama.cpp's llama-server and the pinned fast
# test model and the default model for the real-model tier. A second run only verifies and takes seconds. Progress goes to stderr.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
bash "$ROOT/scripts/vscode/ensure-code-server.sh" --with-chromium
bash "$ROOT/scripts/local-model/ensure-llama-server.sh" >/dev/null
TEST_MODEL="$(node -p "require('$ROOT/scripts/local-model/models.json').fastTestModel")"
bash "$ROOT/scripts/local-model/ensure-model.sh" "$TEST_MODEL" >/dev/null
# The default model too (about 1.1 GB, once): the real-model tier checks its tool calls (the model writes them as text,
# not as native tool_calls: test/realModel/agentToolCall.test.ts records the wire), its text-protocol requests and answers.
bash "$ROOT/scripts/local-model/ensure-model.sh" >/dev/null
